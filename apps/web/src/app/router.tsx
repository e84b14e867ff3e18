import Container from '@mui/material/Container';
import type { ReactNode } from 'react';
import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { createBrowserRouter, Navigate, Outlet } from 'react-router';
import { PageSkeleton } from '../components/page-skeleton';
import type { TRouteKey } from '../lib/paths';
import { appPaths } from '../lib/paths';
import { OnlyFor, RedirectIfSignedIn, RequireAuth } from './layout/require-auth';
import { RootLayout } from './layout/root-layout';
import { NotFoundPage } from './not-found-page';
import { SignInRoute } from './sign-in-route';

// One chunk per page (design §8: split by route). The signed-in frame (app bar, drawer, bottom
// navigation) is a chunk of its own too, so the sign-in screens do not load it (issue 17).
const AppShell = lazy(() => import('./layout/app-shell').then((module) => ({ default: module.AppShell })));
const AdminRoute = lazy(() => import('./admin-route').then((module) => ({ default: module.AdminRoute })));
const NetworkRoute = lazy(() =>
  import('./network-route').then((module) => ({ default: module.NetworkRoute })),
);
const DashboardRoute = lazy(() =>
  import('./dashboard-route').then((module) => ({ default: module.DashboardRoute })),
);
const CustomerListRoute = lazy(() =>
  import('./customer-list-route').then((module) => ({ default: module.CustomerListRoute })),
);
const AddCustomerPage = lazy(() =>
  import('../features/customers/pages/add-customer-page').then((module) => ({
    default: module.AddCustomerPage,
  })),
);
const CustomerNavigateRoute = lazy(() =>
  import('./customer-navigate-route').then((module) => ({ default: module.CustomerNavigateRoute })),
);
const AppleDetailsRoute = lazy(() =>
  import('./apple-routes').then((module) => ({ default: module.AppleDetailsRoute })),
);
const AppleSyncRoute = lazy(() =>
  import('./apple-routes').then((module) => ({ default: module.AppleSyncRoute })),
);
const CustomerDetailsRoute = lazy(() =>
  import('./customer-details-route').then((module) => ({ default: module.CustomerDetailsRoute })),
);
const CustomerDocumentsPage = lazy(() =>
  import('../features/customers/pages/customer-documents-page').then((module) => ({
    default: module.CustomerDocumentsPage,
  })),
);
const SignaturePage = lazy(() =>
  import('../features/customers/pages/signature-page').then((module) => ({
    default: module.SignaturePage,
  })),
);
const SendAdvertisementPage = lazy(() =>
  import('../features/advertisements/pages/send-advertisement-page').then((module) => ({
    default: module.SendAdvertisementPage,
  })),
);
const MultipleLockUnlockPage = lazy(() =>
  import('../features/devices/pages/multiple-lock-unlock-page').then((module) => ({
    default: module.MultipleLockUnlockPage,
  })),
);
const SimChangesPage = lazy(() =>
  import('../features/devices/pages/sim-changes-page').then((module) => ({
    default: module.SimChangesPage,
  })),
);
const PendingCommandsPage = lazy(() =>
  import('../features/devices/pages/pending-commands-page').then((module) => ({
    default: module.PendingCommandsPage,
  })),
);
const DeviceSettingsPage = lazy(() =>
  import('../features/device-settings/pages/device-settings-page').then((module) => ({
    default: module.DeviceSettingsPage,
  })),
);
const LanguagePage = lazy(() =>
  import('../features/language/pages/language-page').then((module) => ({ default: module.LanguagePage })),
);
const NotificationsPage = lazy(() =>
  import('../features/notifications/pages/notifications-page').then((module) => ({
    default: module.NotificationsPage,
  })),
);
const HelpPage = lazy(() =>
  import('../features/org-pages/pages/org-page-screen').then((module) => ({ default: module.HelpPage })),
);
const SupportPage = lazy(() =>
  import('../features/org-pages/pages/org-page-screen').then((module) => ({ default: module.SupportPage })),
);
const PrivacyPolicyPage = lazy(() =>
  import('../features/org-pages/pages/org-page-screen').then((module) => ({
    default: module.PrivacyPolicyPage,
  })),
);
const SessionsPage = lazy(() =>
  import('../features/sessions/pages/sessions-page').then((module) => ({ default: module.SessionsPage })),
);
const RetailerPaymentQrPage = lazy(() =>
  import('../features/payment-qr/pages/retailer-payment-qr-page').then((module) => ({
    default: module.RetailerPaymentQrPage,
  })),
);
const AntihackingPage = lazy(() =>
  import('../features/plans/pages/antihacking-page').then((module) => ({ default: module.AntihackingPage })),
);
const FamilycarePage = lazy(() =>
  import('../features/plans/pages/familycare-page').then((module) => ({ default: module.FamilycarePage })),
);
const ExtendedWarrantyPage = lazy(() =>
  import('../features/warranty/pages/extended-warranty-page').then((module) => ({
    default: module.ExtendedWarrantyPage,
  })),
);
const AntiTheftPage = lazy(() =>
  import('../features/anti-theft/pages/anti-theft-page').then((module) => ({
    default: module.AntiTheftPage,
  })),
);
const TopUpHistoryPage = lazy(() =>
  import('../features/ledger/pages/top-up-history-page').then((module) => ({
    default: module.TopUpHistoryPage,
  })),
);
const KeyRequestsPage = lazy(() =>
  import('../features/key-requests/pages/key-requests-page').then((module) => ({
    default: module.KeyRequestsPage,
  })),
);
const PaymentGatewayPage = lazy(() =>
  import('../features/payments/pages/payment-gateway-page').then((module) => ({
    default: module.PaymentGatewayPage,
  })),
);
const RetailerListPage = lazy(() =>
  import('../features/retailers/pages/retailer-list-page').then((module) => ({
    default: module.RetailerListPage,
  })),
);
const AddRetailerPage = lazy(() =>
  import('../features/retailers/pages/add-retailer-page').then((module) => ({
    default: module.AddRetailerPage,
  })),
);
const RetailerProfileRoute = lazy(() =>
  import('./retailer-profile-route').then((module) => ({ default: module.RetailerProfileRoute })),
);
const EmiDetailsPage = lazy(() =>
  import('../features/emi/pages/emi-details-page').then((module) => ({ default: module.EmiDetailsPage })),
);
const CollectionsRoute = lazy(() =>
  import('./collections-route').then((module) => ({ default: module.CollectionsRoute })),
);
const CollectionsLoansRoute = lazy(() =>
  import('./collections-route').then((module) => ({ default: module.CollectionsLoansRoute })),
);
const UpcomingEmiRoute = lazy(() =>
  import('./upcoming-emi-route').then((module) => ({ default: module.UpcomingEmiRoute })),
);

/** Every protected screen with its page; the ones a customer user may open are CUSTOMER_ROUTES. */
const PROTECTED_PAGES: ReadonlyArray<{ route: TRouteKey; element: ReactNode }> = [
  { route: 'dashboard', element: <DashboardRoute /> },
  { route: 'customerList', element: <CustomerListRoute /> },
  { route: 'addCustomer', element: <AddCustomerPage /> },
  { route: 'customerNavigate', element: <CustomerNavigateRoute /> },
  { route: 'emmQr', element: <CustomerNavigateRoute screen="emmQr" /> },
  { route: 'appleDetails', element: <AppleDetailsRoute /> },
  { route: 'appleSync', element: <AppleSyncRoute /> },
  { route: 'customerDetails', element: <CustomerDetailsRoute /> },
  { route: 'customerDocuments', element: <CustomerDocumentsPage /> },
  { route: 'signature', element: <SignaturePage kind="customer_signature" /> },
  { route: 'witnessSignature', element: <SignaturePage kind="witness_signature" /> },
  { route: 'emiDetails', element: <EmiDetailsPage /> },
  { route: 'viewEmiDetails', element: <EmiDetailsPage isReadOnly /> },
  { route: 'upComingEmi', element: <UpcomingEmiRoute /> },
  { route: 'collections', element: <CollectionsRoute /> },
  { route: 'collectionsLoans', element: <CollectionsLoansRoute /> },
  { route: 'multipleLockUnlock', element: <MultipleLockUnlockPage /> },
  { route: 'sendAdvertisement', element: <SendAdvertisementPage /> },
  { route: 'simChanges', element: <SimChangesPage /> },
  { route: 'pendingCommands', element: <PendingCommandsPage /> },
  { route: 'deviceSettings', element: <DeviceSettingsPage /> },
  { route: 'language', element: <LanguagePage /> },
  { route: 'sessions', element: <SessionsPage /> },
  { route: 'notifications', element: <NotificationsPage /> },
  { route: 'retailerPaymentQr', element: <RetailerPaymentQrPage /> },
  { route: 'retailerList', element: <RetailerListPage /> },
  { route: 'addRetailer', element: <AddRetailerPage /> },
  { route: 'retailerProfile', element: <RetailerProfileRoute /> },
  { route: 'paymentGateway', element: <PaymentGatewayPage /> },
  { route: 'topUpHistory', element: <TopUpHistoryPage /> },
  { route: 'keyRequests', element: <KeyRequestsPage /> },
  { route: 'admin', element: <AdminRoute /> },
  { route: 'network', element: <NetworkRoute /> },
  { route: 'help', element: <HelpPage /> },
  { route: 'support', element: <SupportPage /> },
  { route: 'privacyPolicy', element: <PrivacyPolicyPage /> },
  { route: 'antihacking', element: <AntihackingPage /> },
  { route: 'familycare', element: <FamilycarePage /> },
  { route: 'extendedWarranty', element: <ExtendedWarrantyPage /> },
  { route: 'antiTheft', element: <AntiTheftPage /> },
];

/** A screen's frame while its chunk (or the AppShell's) loads: the spec §2 skeleton. */
const PageSuspense = ({ children }: { children: ReactNode }) => (
  <Suspense
    fallback={
      <Container maxWidth="sm" sx={{ py: 4 }}>
        <PageSkeleton />
      </Container>
    }
  >
    {children}
  </Suspense>
);

/**
 * The app's routes (spec §2): login, otp and m_pin outside authentication, everything else
 * protected (every spec §2 screen is built); anything else 'Not found'.
 * Each protected screen is for the user types lib/paths mayOpen names (a customer user, spec §4,
 * only CUSTOMER_ROUTES; the organisation admin ADMIN_ROUTES; a distributor DISTRIBUTOR_ROUTES; the
 * shops the rest); anyone else is sent to their own home (OnlyFor).
 * m_pin is not behind RedirectIfSignedIn: its 'set' mode is for someone just signed in (the page
 * itself sends each mode where it belongs).
 */
export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: appPaths.root.path, element: <Navigate to={appPaths.dashboard.href()} replace /> },
      {
        element: (
          <RedirectIfSignedIn>
            <PageSuspense>
              <Outlet />
            </PageSuspense>
          </RedirectIfSignedIn>
        ),
        children: [
          { path: appPaths.login.path, element: <SignInRoute /> },
          { path: appPaths.otp.path, element: <SignInRoute /> },
        ],
      },
      {
        path: appPaths.mPin.path,
        element: <SignInRoute />,
      },
      {
        element: (
          <RequireAuth>
            <PageSuspense>
              <AppShell />
            </PageSuspense>
          </RequireAuth>
        ),
        // Each screen for the user types that may open it (lib/paths mayOpen); anyone else goes home.
        children: PROTECTED_PAGES.map(({ route, element }) => ({
          path: appPaths[route].path,
          element: <OnlyFor route={route}>{element}</OnlyFor>,
        })),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/** The browser router of the app. */
export const createAppRouter = () => createBrowserRouter(appRoutes);
export type TAppRouter = ReturnType<typeof createAppRouter>;
