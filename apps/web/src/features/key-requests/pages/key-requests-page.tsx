import AddIcon from '@mui/icons-material/Add';
import AssignmentReturnIcon from '@mui/icons-material/AssignmentReturn';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { getUserType } from '../../../lib/auth-storage';
import type { TKeyRequestsTab } from '../../../lib/paths';
import { appPaths, KEY_REQUESTS_TAB_PARAM, KEY_REQUESTS_TABS } from '../../../lib/paths';
import { ReceivedKeyRequestsPanel } from '../components/received-key-requests';
import { RequestKeysDialog } from '../components/request-keys-dialog';
import { ReturnKeysDialog } from '../components/return-keys-dialog';
import { SentKeyRequests } from '../components/sent-key-requests';
import { ShopKeyPricesPanel } from '../components/shop-key-prices-panel';
import { signedInParent, type TParent } from '../parent';

/** The page's intro naming whom the actor asks (its parent; issue 30). */
const INTRO_BY_PARENT = {
  retailer: 'keyRequests.introToRetailer',
  distributor: 'keyRequests.introToDistributor',
  organisation: 'keyRequests.introToOrganisation',
} as const satisfies Record<TParent, string>;

/** Each tab's label (translation key). */
const TAB_LABELS = {
  sent: 'keyRequests.tabs.sent',
  received: 'keyRequests.tabs.received',
  prices: 'keyRequests.tabs.prices',
} as const satisfies Record<TKeyRequestsTab, string>;

/**
 * Key requests (issue 30), for distributors, retailers and mini-retailers: "Request keys" asks the
 * node's parent (a mini-retailer its retailer, a retailer or distributor its distributor or its
 * organisation), "Return keys" sends unused ones back, and "My requests" lists what was asked, with
 * Withdraw on a pending one. A retailer or distributor also has "From my shops" (its children's
 * requests, to approve or reject) and "Prices for my shops" (its price per key to them). The tab is
 * kept in the URL (`?tab=received`, `?tab=prices`).
 */
export const KeyRequestsPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const parent = signedInParent();
  // A retailer or distributor has nodes below it, whose requests it decides at its own prices.
  const hasChildren = getUserType() === 'retailer' || getUserType() === 'distributor';
  const asked = KEY_REQUESTS_TABS.find((known) => known === searchParams.get(KEY_REQUESTS_TAB_PARAM));
  // Only a node with children has more than its own requests.
  const tab: TKeyRequestsTab = hasChildren ? (asked ?? 'sent') : 'sent';
  const [isRequesting, setIsRequesting] = useState(false);
  const [isReturning, setIsReturning] = useState(false);
  const openTab = (next: TKeyRequestsTab) => navigate(appPaths.keyRequests.href(next), { replace: true });

  return (
    <>
      <PageHeader title={t('pages.key_requests')} />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t(INTRO_BY_PARENT[parent])} {hasChildren && t('keyRequests.introChildren')}
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ mb: 2, flexWrap: 'wrap' }}>
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => setIsRequesting(true)}
          sx={{ flex: '1 1 140px' }}
          data-testid="key-request-new"
        >
          {t('keyRequests.new')}
        </Button>
        <Button
          variant="outlined"
          startIcon={<AssignmentReturnIcon />}
          onClick={() => setIsReturning(true)}
          sx={{ flex: '1 1 140px' }}
          data-testid="key-return-open"
        >
          {t('keyRequests.return.open')}
        </Button>
      </Stack>
      {hasChildren && (
        <Tabs
          value={tab}
          onChange={(_event, next: TKeyRequestsTab) => openTab(next)}
          variant="scrollable"
          allowScrollButtonsMobile
          sx={{ mb: 2 }}
        >
          {KEY_REQUESTS_TABS.map((value) => (
            <Tab
              key={value}
              value={value}
              label={t(TAB_LABELS[value])}
              data-testid={`key-requests-tab-${value}`}
            />
          ))}
        </Tabs>
      )}
      {tab === 'sent' && <SentKeyRequests />}
      {tab === 'received' && <ReceivedKeyRequestsPanel />}
      {tab === 'prices' && <ShopKeyPricesPanel />}
      <RequestKeysDialog
        isOpen={isRequesting}
        parent={parent}
        onClose={() => setIsRequesting(false)}
        onSent={() => {
          setIsRequesting(false);
          if (tab !== 'sent') openTab('sent');
        }}
      />
      <ReturnKeysDialog isOpen={isReturning} parent={parent} onClose={() => setIsReturning(false)} />
    </>
  );
};
