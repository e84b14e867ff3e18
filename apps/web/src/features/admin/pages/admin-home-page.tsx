import Container from '@mui/material/Container';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { JoinRequestsPanel } from '../components/join-requests-panel';
import { KeyPricesPanel } from '../components/key-prices-panel';
import { PlansPanel } from '../components/plans-panel';
import { RetailersPanel } from '../components/retailers-panel';

const TABS = [
  'requests',
  'key_requests',
  'network',
  'retailers',
  'prices',
  'plans',
  'pages',
  'webhooks',
  'partner_api',
] as const;
type TAdminTab = (typeof TABS)[number];
/** Each tab's label (translation key). */
const TAB_LABELS = {
  requests: 'admin.tabs.requests',
  key_requests: 'keyRequests.adminTab',
  network: 'network.adminTab',
  retailers: 'admin.tabs.retailers',
  prices: 'admin.tabs.prices',
  plans: 'adminPlans.tab',
  pages: 'orgPages.adminTab',
  webhooks: 'webhooks.tab',
  partner_api: 'partnerKeys.tab',
} as const satisfies Record<TAdminTab, string>;
/** Query parameter carrying the admin home's tab (absent for the first, requests). */
const TAB_PARAM = 'tab';

/**
 * The organisation admin's home (issues 13, 14, 16, 30): join requests, the retailers' key requests
 * (`keyRequestsPanel`, the key-requests feature's received list; `?tab=key_requests`), the
 * distribution network (`networkPanel`, the network feature's levels and nodes; `?tab=network`), retailers
 * (credit keys), key prices, plans, the help, support and privacy pages (`pagesPanel`, the
 * org-pages feature's editor), the outbound webhooks (`webhooksPanel`, the webhooks feature's
 * panel) and the partner API keys (`partnerKeysPanel`, the partner-keys feature's panel;
 * `?tab=partner_api`), which app/admin-route.tsx hands in: features do not import one another.
 */
export const AdminHomePage = ({
  keyRequestsPanel,
  networkPanel,
  pagesPanel,
  webhooksPanel,
  partnerKeysPanel,
}: {
  keyRequestsPanel?: ReactNode;
  networkPanel?: ReactNode;
  pagesPanel?: ReactNode;
  webhooksPanel?: ReactNode;
  partnerKeysPanel?: ReactNode;
}) => {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: TAdminTab = TABS.find((known) => known === searchParams.get(TAB_PARAM)) ?? 'requests';
  return (
    <Container maxWidth="sm" disableGutters>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('admin.title')}
      </Typography>
      <Tabs
        value={tab}
        onChange={(_event, next: TAdminTab) =>
          setSearchParams(next === 'requests' ? {} : { [TAB_PARAM]: next }, { replace: true })
        }
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ mb: 2 }}
      >
        {TABS.map((value) => (
          <Tab key={value} value={value} label={t(TAB_LABELS[value])} data-testid={`admin-tab-${value}`} />
        ))}
      </Tabs>
      {tab === 'requests' && <JoinRequestsPanel />}
      {tab === 'key_requests' && keyRequestsPanel}
      {tab === 'network' && networkPanel}
      {tab === 'retailers' && <RetailersPanel />}
      {tab === 'prices' && <KeyPricesPanel />}
      {tab === 'plans' && <PlansPanel />}
      {tab === 'pages' && pagesPanel}
      {tab === 'webhooks' && webhooksPanel}
      {tab === 'partner_api' && partnerKeysPanel}
    </Container>
  );
};
