import { LockAllOverdueButton, OverdueLockButton } from '../features/devices/components/overdue-lock';
import { UpcomingEmiPage } from '../features/emi/pages/upcoming-emi-page';

/**
 * Spec §2 up_coming_emi: the EMI feature's page with the devices feature's "Lock" on each overdue
 * row and "Lock all overdue" composed in (issue 28; features do not import each other).
 */
export const UpcomingEmiRoute = () => (
  <UpcomingEmiPage
    overdueActions={{
      renderLock: (item) => (
        <OverdueLockButton customerId={item.customerId} customerName={item.customerName} />
      ),
      renderLockAll: () => <LockAllOverdueButton />,
    }}
  />
);
