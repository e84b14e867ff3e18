import { CollectionsLoansPage } from '../features/collections/pages/collections-loans-page';
import { CollectionsPage } from '../features/collections/pages/collections-page';
import { OverdueLockButton } from '../features/devices/components/overdue-lock';
import { SendReminderButton } from '../features/emi/components/send-reminder-button';
import { ReminderSettingsCard } from '../features/reminders/components/reminder-settings-card';
import { getUserType, isOfficeUser } from '../lib/auth-storage';
import { useShopOptions } from './use-shop-options';

/**
 * The collections view (issue 29) with the retailers feature's shops for its "Shop" picker and the
 * reminders feature's schedule card (the retailer edits it).
 */
export const CollectionsRoute = () => (
  <CollectionsPage
    shopOptions={useShopOptions()}
    remindersCard={<ReminderSettingsCard canEdit={getUserType() === 'retailer'} />}
  />
);

/**
 * A bucket's loans (issue 29) with the EMI feature's "Send reminder" and the devices feature's
 * "Lock" under each late loan. An organisation admin or a distributor reads the list but commands
 * no phone (the shop does), so gets neither.
 */
export const CollectionsLoansRoute = () => (
  <CollectionsLoansPage
    renderActions={
      isOfficeUser()
        ? undefined
        : (loan) => (
            <>
              <SendReminderButton
                customerId={loan.customerId}
                testId={`collections-remind-${loan.customerId}`}
              />
              <OverdueLockButton customerId={loan.customerId} customerName={loan.customerName} />
            </>
          )
    }
  />
);
