import type { TBirthdayCustomer } from '@kisht/domain/messages/messages.schema';
import { useTranslation } from 'react-i18next';
import { CurrentAdCard } from '../features/advertisements/components/current-ad-card';
import { MyConsentsSection } from '../features/customers/components/my-consents-section';
import { BirthdayBanner } from '../features/dashboard/components/birthday-banner';
import { DashboardPage } from '../features/dashboard/pages/dashboard-page';
import { SendMessageButton } from '../features/devices/components/send-message-dialog';
import { UpcomingCountsCard } from '../features/emi/components/upcoming-counts-card';
import { MyLoanPage } from '../features/emi/pages/my-loan-page';
import { KeyBalancesCard } from '../features/ledger/components/key-balances-card';
import { PayOnlineButton } from '../features/payments/components/pay-online-button';
import { MyWarrantiesSection } from '../features/warranty/components/my-warranties-section';
import { isCustomerUser } from '../lib/auth-storage';
import { useShopOptions } from './use-shop-options';

/**
 * Spec §2 dashboard, by user type (spec §4): a customer sees "My loan" and, below it, their
 * consent to remote locking (the customers feature's section), with the payments feature's "Pay
 * online" in each loan when the organisation has the payment gateway on, and their extended
 * warranties with certificates (the warranty feature's section); retailers and
 * mini-retailers see the dashboard, with the emi feature's EMIs-due figures and the ledger
 * feature's keys per app_type composed in here (features do not import each other), and a
 * retailer with mini-retailers their shops to pick from (the retailers feature's list). Both see
 * the birthday banner on their birthday; the retailers' customers born today get "Send wishes"
 * through the devices feature's message dialog (issue 16). Above it all, the advertisements
 * feature's current ad (the retailer's own, or a customer's retailer's), dismissible (`showAd`).
 */
export const DashboardRoute = () =>
  isCustomerUser() ? (
    <>
      <BirthdayBanner />
      <CurrentAdCard />
      <MyLoanPage
        renderPayOnline={(loan) => (
          <PayOnlineButton customerId={loan.customerId} isOwing={loan.totals.outstandingPaise > 0} />
        )}
      />
      <MyConsentsSection />
      <MyWarrantiesSection />
    </>
  ) : (
    <RetailerDashboard />
  );

/** The retailer's and mini-retailer's dashboard (a component of its own: it uses hooks). */
const RetailerDashboard = () => (
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
