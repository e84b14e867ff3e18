import { MAX_DISTRIBUTOR_LEVELS } from '@kisht/domain/network/network.rules';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SectionCard } from '../../../components/section-card';
import { apiErrorMessage } from '../../../lib/http/base-query';
import { useSaveNetworkSettingsMutation } from '../network-api';

const LEVEL_CHOICES = Array.from({ length: MAX_DISTRIBUTOR_LEVELS + 1 }, (_, level) => level);

/**
 * The organisation admin's distributor levels (issue 30): how many levels of distributors may sit
 * between the organisation and its retailers (0 to MAX_DISTRIBUTOR_LEVELS), `current` as the
 * network's answer said.
 */
export const NetworkSettingsForm = ({ current }: { current: number }) => {
  const { t } = useTranslation();
  const [levels, setLevels] = useState(current);
  const [save, { isLoading }] = useSaveNetworkSettingsMutation();
  const submit = async () => {
    const result = await save({ distributorLevels: levels });
    if (result.data) enqueueSnackbar(t('network.settings.saved'), { variant: 'success' });
    else enqueueSnackbar(apiErrorMessage(result.error, t('network.failed')), { variant: 'error' });
  };
  return (
    <SectionCard title={t('network.settings.title')} testId="network-settings">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('network.settings.intro')}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <TextField
          select
          size="small"
          label={t('network.settings.label')}
          value={levels}
          onChange={(event) => setLevels(Number(event.target.value))}
          sx={{ minWidth: 120 }}
          slotProps={{ htmlInput: { 'data-testid': 'network-levels' } }}
        >
          {LEVEL_CHOICES.map((choice) => (
            <MenuItem key={choice} value={choice}>
              {choice}
            </MenuItem>
          ))}
        </TextField>
        <Button
          variant="contained"
          onClick={() => void submit()}
          loading={isLoading}
          disabled={levels === current}
          data-testid="network-levels-save"
        >
          {t('network.settings.save')}
        </Button>
      </Stack>
    </SectionCard>
  );
};
