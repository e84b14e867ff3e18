import { CustomerNavigatePage } from '../features/customers/pages/customer-navigate-page';
import { EnrolmentQrSection } from '../features/devices/components/enrolment-qr-section';
import { RefundKeyButton } from '../features/ledger/components/refund-key-button';

/**
 * Spec §2 customer_navigate: the customers feature's page (the customer, waiting for the phone to
 * enrol) with the devices feature's enrolment QR and the ledger feature's "Return key" composed in
 * (features do not import each other).
 */
export const CustomerNavigateRoute = () => (
  <CustomerNavigatePage
    renderEnrolmentQr={(customer) => (
      <EnrolmentQrSection
        customerId={customer.id}
        customerName={`${customer.firstName} ${customer.lastName}`}
      />
    )}
    renderReturnKey={(customer, onReturned) => (
      <RefundKeyButton customerId={customer.id} onReturned={onReturned} />
    )}
  />
);
