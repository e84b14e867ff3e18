import AccountTreeIcon from '@mui/icons-material/AccountTree';
import InsightsIcon from '@mui/icons-material/Insights';
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { getRememberedPhone } from '../../../lib/auth-storage';
import { formatMobile } from '../../../lib/format';
import { appPaths } from '../../../lib/paths';
import { NetworkNodes } from '../components/network-nodes';

const TABS = ['below', 'joins'] as const;
type TNetworkTab = (typeof TABS)[number];
/** Query parameter carrying the tab (absent for the first, below). */
const TAB_PARAM = 'tab';

/**
 * A distributor's home (issue 30): its own key stock (`keyBalances`, the ledger feature's card, with
 * "Request keys"), the way to its key requests and its subtree's collections, the nodes below it
 * (opened one level at a time, each with its key stock in traffic-light colours) and the join
 * requests made to it (`joinRequests`, the admin feature's list; app/network-route.tsx hands both
 * in: features do not import one another). New shops join under it by giving its mobile number.
 */
export const NetworkPage = ({
  keyBalances,
  joinRequests,
}: {
  keyBalances: ReactNode;
  joinRequests: ReactNode;
}) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: TNetworkTab = TABS.find((known) => known === searchParams.get(TAB_PARAM)) ?? 'below';
  const mobile = getRememberedPhone();
  return (
    <>
      <PageHeader title={t('network.title')} subtitle={t('network.intro')} />
      <Stack spacing={2}>
        {keyBalances}
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Button
            variant="outlined"
            startIcon={<VpnKeyIcon />}
            onClick={() => navigate(appPaths.keyRequests.href('received'))}
            sx={{ flex: '1 1 140px' }}
            data-testid="network-key-requests"
          >
            {t('network.keyRequests')}
          </Button>
          <Button
            variant="outlined"
            startIcon={<InsightsIcon />}
            onClick={() => navigate(appPaths.collections.href())}
            sx={{ flex: '1 1 140px' }}
          >
            {t('network.collections')}
          </Button>
        </Stack>
        <Tabs
          value={tab}
          onChange={(_event, next: TNetworkTab) =>
            setSearchParams(next === 'below' ? {} : { [TAB_PARAM]: next })
          }
          variant="fullWidth"
        >
          {TABS.map((value) => (
            <Tab
              key={value}
              value={value}
              icon={value === 'below' ? <AccountTreeIcon fontSize="small" /> : undefined}
              iconPosition="start"
              label={t(`network.tabs.${value}`)}
              data-testid={`network-tab-${value}`}
            />
          ))}
        </Tabs>
        {tab === 'below' && <NetworkNodes />}
        {tab === 'joins' && (
          <Stack spacing={2}>
            {mobile && (
              <Alert severity="info" data-testid="network-invite">
                {t('network.invite', { mobile: formatMobile(mobile) })}
              </Alert>
            )}
            {joinRequests}
          </Stack>
        )}
      </Stack>
    </>
  );
};
