import { CustomerNavigatePage } from '../features/customers/pages/customer-navigate-page';
import { EnrolmentQrSection } from '../features/devices/components/enrolment-qr-section';

/**
 * Spec §2 customer_navigate: the customers feature's page (the customer, waiting for the phone to
 * enrol) with the devices feature's enrolment QR composed in (features do not import each other).
 */
export const CustomerNavigateRoute = () => (
  <CustomerNavigatePage
    renderEnrolmentQr={(customer) => (
      <EnrolmentQrSection
        customerId={customer.id}
        customerName={`${customer.firstName} ${customer.lastName}`}
      />
    )}
  />
);
