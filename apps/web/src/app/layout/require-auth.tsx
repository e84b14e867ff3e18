import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { isSignedIn } from '../../lib/auth-storage';
import { appPaths } from '../paths';

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
