import { lazy, Suspense } from 'react';
import { PageSkeleton } from '../components/page-skeleton';
import { isCustomerUser } from '../lib/auth-storage';

// Each user type's dashboard is a chunk of its own: a shop does not load a customer's loan,
// consent and warranty screens, nor a customer the shop's figures (issue 17).
const CustomerDashboard = lazy(() =>
  import('./customer-dashboard').then((module) => ({ default: module.CustomerDashboard })),
);
const RetailerDashboard = lazy(() =>
  import('./retailer-dashboard').then((module) => ({ default: module.RetailerDashboard })),
);

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
export const DashboardRoute = () => (
  <Suspense fallback={<PageSkeleton />}>
    {isCustomerUser() ? <CustomerDashboard /> : <RetailerDashboard />}
  </Suspense>
);
