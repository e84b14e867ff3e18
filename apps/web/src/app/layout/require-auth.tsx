import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { isCustomerUser, isSignedIn } from '../../lib/auth-storage';
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
