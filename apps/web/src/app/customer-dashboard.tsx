import { CurrentAdCard } from '../features/advertisements/components/current-ad-card';
import { AutopayCard } from '../features/autopay/components/autopay-card';
import { InstalmentQrButton } from '../features/autopay/components/instalment-qr-button';
import { MyConsentsSection } from '../features/customers/components/my-consents-section';
import { BirthdayBanner } from '../features/dashboard/components/birthday-banner';
import { MyLoanPage } from '../features/emi/pages/my-loan-page';
import { PayOnlineButton } from '../features/payments/components/pay-online-button';
import { MyWarrantiesSection } from '../features/warranty/components/my-warranties-section';

/**
 * A customer's dashboard (dashboard-route.tsx): the birthday banner, the current ad, "My loan"
 * with "Pay online", "Pay by UPI QR" and, once their shop set it up, their UPI AutoPay (see, cancel)
 * in each loan, their consent to remote locking and their extended warranties.
 */
export const CustomerDashboard = () => (
  <>
    <BirthdayBanner />
    <CurrentAdCard />
    <MyLoanPage
      renderPayOnline={(loan) => (
        <>
          <PayOnlineButton customerId={loan.customerId} isOwing={loan.totals.outstandingPaise > 0} />
          <InstalmentQrButton customerId={loan.customerId} isOwing={loan.totals.outstandingPaise > 0} />
          <AutopayCard customerId={loan.customerId} canSetUp={false} />
        </>
      )}
    />
    <MyConsentsSection />
    <MyWarrantiesSection />
  </>
);
