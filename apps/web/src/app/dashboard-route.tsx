import { MyConsentsSection } from '../features/customers/components/my-consents-section';
import { DashboardPage } from '../features/dashboard/pages/dashboard-page';
import { UpcomingCountsCard } from '../features/emi/components/upcoming-counts-card';
import { MyLoanPage } from '../features/emi/pages/my-loan-page';
import { isCustomerUser } from '../lib/auth-storage';

/**
 * Spec §2 dashboard, by user type (spec §4): a customer sees "My loan" and, below it, their
 * consent to remote locking (the customers feature's section); retailers and
 * mini-retailers see the dashboard, with the emi feature's EMIs-due figures composed in here
 * (features do not import each other).
 */
export const DashboardRoute = () =>
  isCustomerUser() ? (
    <>
      <MyLoanPage />
      <MyConsentsSection />
    </>
  ) : (
    <DashboardPage upcomingSection={<UpcomingCountsCard />} />
  );
