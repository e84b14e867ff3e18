import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { getUserType, isSignedIn } from '../../lib/auth-storage';
import { appPaths, homeOf, mayOpen, type TRouteKey } from '../../lib/paths';

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
 * A protected screen for the user types that may open it (lib/paths mayOpen: customers, shops, the
 * organisation admin, distributors each their own); anyone else is sent to their home (homeOf).
 */
export const OnlyFor = ({ route, children }: { route: TRouteKey; children: ReactNode }) => {
  const userType = getUserType();
  if (!mayOpen(route, userType)) return <Navigate to={appPaths[homeOf(userType)].href()} replace />;
  return children;
};
