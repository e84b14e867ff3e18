import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useGetNetworkQuery } from '../network-api';
import { NetworkNodes } from './network-nodes';
import { NetworkSettingsForm } from './network-settings-form';

/**
 * The organisation admin's network tab (issue 30): the distributor levels, then the organisation's
 * top nodes (distributors and the retailers right below it) with their key stock, each opened to
 * the nodes below it.
 */
export const NetworkPanel = () => {
  const { t } = useTranslation();
  // The organisation's own level: the levels setting comes with it (shared with NetworkNodes' cache).
  const top = useGetNetworkQuery(undefined);
  return (
    <Stack spacing={2}>
      {top.data && (
        <NetworkSettingsForm key={top.data.distributorLevels} current={top.data.distributorLevels} />
      )}
      <Typography variant="body2" color="text.secondary">
        {t('network.adminIntro')}
      </Typography>
      <NetworkNodes />
    </Stack>
  );
};
