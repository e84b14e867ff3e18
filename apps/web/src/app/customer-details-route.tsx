import Box from '@mui/material/Box';
import { useParams } from 'react-router';
import { AutopayCard } from '../features/autopay/components/autopay-card';
import { InstalmentQrButton } from '../features/autopay/components/instalment-qr-button';
import { AddCustomerPlanStep } from '../features/customers/components/add-customer-plan-step';
import { customersApi } from '../features/customers/customers-api';
import { CustomerDetailsPage } from '../features/customers/pages/customer-details-page';
import { DeviceCommandsTab } from '../features/devices/components/device-commands-tab';
import { DeviceControlCard } from '../features/devices/components/device-control-card';
import { commandFactsOf } from '../features/devices/device-controls';
import { useHasPendingDeviceCommand } from '../features/devices/use-pending-device-command';
import { CustomerPlansCard } from '../features/plans/components/customer-plans-card';
import { CustomerRemindersCard } from '../features/reminders/components/customer-reminders-card';
import { useSavedReadTime } from '../lib/http/offline-reads-slice';
import { CUSTOMER_ID_PARAM, parseCustomerId } from '../lib/paths';

/**
 * Spec §2 customer_details/:customer_id: the customers feature's page with the devices feature's
 * lock card and device and actions tabs composed in (features do not import each other). Whether
 * a command is on its way is read here, from the cached details and command history, so the page
 * polls every second until the phone reports back. Under it, once the customer has loaded, the
 * plans feature's card of the plans sold to them, with their codes, the reminders feature's card of
 * their payment reminders (issue 29), the autopay feature's UPI AutoPay card and, online, its
 * "Pay by UPI QR" for the oldest unpaid instalment (issue 29), and the customers feature's "Add a
 * protection plan" to sell one more (issue 14: a plan sold to an existing customer). Offline,
 * while the details are those saved (issue 28), the plans card says the plans sold are not kept.
 */
export const CustomerDetailsRoute = () => {
  const customerId = parseCustomerId(useParams()[CUSTOMER_ID_PARAM]) ?? 0;
  const cached = customersApi.endpoints.getCustomerDetails.useQueryState(customerId, { skip: !customerId });
  const hasPendingCommand = useHasPendingDeviceCommand(customerId, cached.data?.device);
  const isReadOffline = useSavedReadTime(cached) !== null;
  return (
    <>
      <CustomerDetailsPage
        hasPendingCommand={hasPendingCommand}
        renderLockCard={({ customer, onShowEnrolmentQr }) => (
          <DeviceControlCard
            customerId={customer.id}
            device={customer.device}
            facts={commandFactsOf(customer)}
            onShowEnrolmentQr={onShowEnrolmentQr}
          />
        )}
        renderCommandsTab={(props) => <DeviceCommandsTab {...props} />}
      />
      {cached.data ? (
        <Box sx={{ mt: 2 }}>
          <CustomerPlansCard customerId={cached.data.id} isOffline={isReadOffline} />
          <Box sx={{ mt: 2 }}>
            <CustomerRemindersCard customerId={cached.data.id} isOffline={isReadOffline} />
          </Box>
          <Box sx={{ mt: 2 }}>
            <AutopayCard customerId={cached.data.id} isOffline={isReadOffline} />
          </Box>
          {isReadOffline ? null : (
            <Box sx={{ mt: 2 }}>
              <InstalmentQrButton
                customerId={cached.data.id}
                isOwing={cached.data.emis.some((emi) => emi.paidPaise < emi.amountPaise)}
              />
            </Box>
          )}
          <Box sx={{ mt: 2 }}>
            <AddCustomerPlanStep customerId={cached.data.id} canSkip={false} />
          </Box>
        </Box>
      ) : null}
    </>
  );
};
