import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { getUserType, isCustomerUser, isSignedIn } from '../../lib/auth-storage';
import { appPaths } from '../../lib/paths';

/** Spec §2: every route except login, otp and m_pin needs a session; without one, go to login. */
export const RequireAuth = ({ children }: { children: ReactNode }) => {
  const location = useLocation();
  if (!isSignedIn())
    return <Navigate to={appPaths.login.href()} replace state={{ from: location.pathname }} />;
  return children;
};

/** The sign-in screens: someone already signed in goes to the dashboard instead. */
export const RedirectIfSignedIn = ({ children }: { children: ReactNode }) => {
  if (isSignedIn()) return <Navigate to={appPaths.dashboard.href()} replace />;
  return children;
};

/**
 * The retailer screens (everything protected outside CUSTOMER_ROUTES): a customer user (spec §4)
 * who opens one is sent to the dashboard, which shows them their own loan.
 */
export const RequireRetailer = () => {
  if (isCustomerUser()) return <Navigate to={appPaths.dashboard.href()} replace />;
  return <Outlet />;
};

/**
 * The screens an organisation admin does not use (everything outside ADMIN_ROUTES): an admin who
 * opens one (the dashboard after login, say) is sent to the admin home.
 */
export const RefuseAdmin = () => {
  if (getUserType() === 'admin') return <Navigate to={appPaths.admin.href()} replace />;
  return <Outlet />;
};

/** The organisation admin's screens: anyone else is sent to the dashboard. */
export const RequireAdmin = () => {
  if (getUserType() !== 'admin') return <Navigate to={appPaths.dashboard.href()} replace />;
  return <Outlet />;
};
