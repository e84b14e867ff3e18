import { AutopayCard } from '../features/autopay/components/autopay-card';
import type { TEnrolmentScreen } from '../features/customers/pages/customer-navigate-page';
import { CustomerNavigatePage } from '../features/customers/pages/customer-navigate-page';
import { EnrolmentQrSection } from '../features/devices/components/enrolment-qr-section';
import { RefundKeyButton } from '../features/ledger/components/refund-key-button';

/**
 * Spec §2 customer_navigate and emm_qr (`screen`): the customers feature's page (the customer,
 * waiting for the phone to enrol) with the devices feature's enrolment QR and instructions of the
 * customer's device family, the ledger feature's "Return key" and the autopay feature's UPI
 * AutoPay card (issue 29: set up as the customer is added) composed in (features do not import
 * each other).
 */
export const CustomerNavigateRoute = ({ screen = 'customerNavigate' }: { screen?: TEnrolmentScreen }) => (
  <CustomerNavigatePage
    screen={screen}
    renderEnrolmentQr={(customer, waiting) => (
      <EnrolmentQrSection
        customerId={customer.id}
        customerName={`${customer.firstName} ${customer.lastName}`}
        waiting={waiting}
      />
    )}
    renderReturnKey={(customer, onReturned) => (
      <RefundKeyButton customerId={customer.id} onReturned={onReturned} />
    )}
    renderAutopay={(customer) => <AutopayCard customerId={customer.id} />}
  />
);
