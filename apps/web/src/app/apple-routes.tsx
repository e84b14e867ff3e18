import { CustomerSummaryHeader } from '../features/customers/components/customer-summary-header';
import { useGetCustomerDetailsQuery } from '../features/customers/customers-api';
import { AppleDetailsPage } from '../features/devices/pages/apple-details-page';
import { AppleSyncPage } from '../features/devices/pages/apple-sync-page';

/** The customer whose iPhone the Apple screens show: the customers feature's header, once loaded. */
const AppleCustomerHeader = ({ customerId }: { customerId: number }) => {
  const details = useGetCustomerDetailsQuery(customerId);
  return details.data ? <CustomerSummaryHeader customer={details.data} /> : null;
};

/**
 * Spec §2 apple_details: the devices feature's page with the customers feature's header composed
 * in (features do not import each other).
 */
export const AppleDetailsRoute = () => (
  <AppleDetailsPage renderCustomer={(customerId) => <AppleCustomerHeader customerId={customerId} />} />
);

/** Spec §2 apple_sync: the devices feature's page with the customers feature's header composed in. */
export const AppleSyncRoute = () => (
  <AppleSyncPage renderCustomer={(customerId) => <AppleCustomerHeader customerId={customerId} />} />
);
