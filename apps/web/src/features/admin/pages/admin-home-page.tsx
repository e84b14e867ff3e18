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

const TABS = ['requests', 'retailers', 'prices', 'plans', 'pages', 'webhooks'] as const;
type TAdminTab = (typeof TABS)[number];
/** Query parameter carrying the admin home's tab (absent for the first, requests). */
const TAB_PARAM = 'tab';

/**
 * The organisation admin's home (issues 13, 14, 16, 30): join requests, retailers (credit keys), key
 * prices, plans, the help, support and privacy pages (`pagesPanel`, the org-pages feature's
 * editor) and the outbound webhooks (`webhooksPanel`, the webhooks feature's panel), which
 * app/admin-route.tsx hands in: features do not import one another.
 */
export const AdminHomePage = ({
  pagesPanel,
  webhooksPanel,
}: {
  pagesPanel?: ReactNode;
  webhooksPanel?: ReactNode;
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
          <Tab
            key={value}
            value={value}
            label={
              value === 'plans'
                ? t('adminPlans.tab')
                : value === 'pages'
                  ? t('orgPages.adminTab')
                  : value === 'webhooks'
                    ? t('webhooks.tab')
                    : t(`admin.tabs.${value}`)
            }
            data-testid={`admin-tab-${value}`}
          />
        ))}
      </Tabs>
      {tab === 'requests' && <JoinRequestsPanel />}
      {tab === 'retailers' && <RetailersPanel />}
      {tab === 'prices' && <KeyPricesPanel />}
      {tab === 'plans' && <PlansPanel />}
      {tab === 'pages' && pagesPanel}
      {tab === 'webhooks' && webhooksPanel}
    </Container>
  );
};
