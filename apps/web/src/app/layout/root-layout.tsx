import { Outlet } from 'react-router';
import { GlobalSpinner, TopLoadingBar } from './global-loading';

/** Wraps every route: the global loading indicators (they depend on the route), then the screen. */
export const RootLayout = () => (
  <>
    <TopLoadingBar />
    <GlobalSpinner />
    <Outlet />
  </>
);
