import type { TBirthdayCustomer } from '@kisht/domain/messages/messages.schema';
import { useTranslation } from 'react-i18next';
import { CurrentAdCard } from '../features/advertisements/components/current-ad-card';
import { DashboardPage } from '../features/dashboard/pages/dashboard-page';
import { SendMessageButton } from '../features/devices/components/send-message-button';
import { UpcomingCountsCard } from '../features/emi/components/upcoming-counts-card';
import { KeyBalancesCard } from '../features/ledger/components/key-balances-card';
import { useShopOptions } from './use-shop-options';

/**
 * The retailer's and mini-retailer's dashboard (dashboard-route.tsx): the current ad, the
 * dashboard with the emi feature's EMIs-due figures, the ledger feature's keys, the shops to pick
 * from and "Send wishes" for the customers born today.
 */
export const RetailerDashboard = () => (
  <>
    <CurrentAdCard />
    <DashboardPage
      upcomingSection={<UpcomingCountsCard />}
      keysSection={<KeyBalancesCard />}
      shopOptions={useShopOptions()}
      renderSendWishes={(customer) => <SendWishesButton customer={customer} />}
    />
  </>
);

/** "Send wishes": the devices feature's message dialog, prefilled with a birthday wish. */
const SendWishesButton = ({ customer }: { customer: TBirthdayCustomer }) => {
  const { t } = useTranslation();
  return (
    <SendMessageButton
      customerId={customer.id}
      customerName={customer.name}
      label={t('birthday.sendWishes')}
      testId={`send-wishes-${customer.id}`}
      size="small"
      initial={{
        title: t('birthday.wishTitle'),
        message: t('birthday.wishMessage', { name: customer.name }),
      }}
    />
  );
};
