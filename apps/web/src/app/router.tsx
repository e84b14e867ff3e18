import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { createBrowserRouter, Navigate, Outlet } from 'react-router';
import { SplashScreen } from '../components/splash-screen';
import { AppShell } from './layout/app-shell';
import { RedirectIfSignedIn, RequireAuth } from './layout/require-auth';
import { NotFoundPage } from './not-found-page';
import { appPaths } from './paths';

// One chunk per page (design §8: split by route).
const LoginPage = lazy(() =>
  import('../features/auth/pages/login-page').then((module) => ({ default: module.LoginPage })),
);
const OtpPage = lazy(() =>
  import('../features/auth/pages/otp-page').then((module) => ({ default: module.OtpPage })),
);
const DashboardPage = lazy(() =>
  import('../features/dashboard/pages/dashboard-page').then((module) => ({ default: module.DashboardPage })),
);
const CustomerListPage = lazy(() =>
  import('../features/customers/pages/customer-list-page').then((module) => ({
    default: module.CustomerListPage,
  })),
);
const AddCustomerPage = lazy(() =>
  import('../features/customers/pages/add-customer-page').then((module) => ({
    default: module.AddCustomerPage,
  })),
);
const CustomerNavigatePage = lazy(() =>
  import('../features/customers/pages/customer-navigate-page').then((module) => ({
    default: module.CustomerNavigatePage,
  })),
);
const CustomerDetailsPage = lazy(() =>
  import('../features/customers/pages/customer-details-page').then((module) => ({
    default: module.CustomerDetailsPage,
  })),
);

/** The app's routes (spec §2): login and otp outside auth, everything else protected. */
export const appRoutes: RouteObject[] = [
  { path: appPaths.root.path, element: <Navigate to={appPaths.dashboard.href()} replace /> },
  {
    element: (
      <RedirectIfSignedIn>
        <Suspense fallback={<SplashScreen />}>
          <Outlet />
        </Suspense>
      </RedirectIfSignedIn>
    ),
    children: [
      { path: appPaths.login.path, element: <LoginPage /> },
      { path: appPaths.otp.path, element: <OtpPage /> },
    ],
  },
  {
    element: (
      <RequireAuth>
        <AppShell />
      </RequireAuth>
    ),
    children: [
      { path: appPaths.dashboard.path, element: <DashboardPage /> },
      { path: appPaths.customerList.path, element: <CustomerListPage /> },
      { path: appPaths.addCustomer.path, element: <AddCustomerPage /> },
      { path: appPaths.customerNavigate.path, element: <CustomerNavigatePage /> },
      { path: appPaths.customerDetails.path, element: <CustomerDetailsPage /> },
    ],
  },
  { path: '*', element: <NotFoundPage /> },
];

export const createAppRouter = () => createBrowserRouter(appRoutes);
