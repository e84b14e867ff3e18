import { SnackbarProvider } from 'notistack';
import { Suspense } from 'react';
import { Provider as ReduxProvider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { SplashScreen } from '../components/splash-screen';
import { setSessionGoneHandler } from '../lib/http/api';
import { GlobalLoadingBar } from './layout/global-loading-bar';
import { appPaths } from './paths';
import { createAppRouter } from './router';
import { store } from './store';
import { OrgThemeProvider } from './theme/org-theme-provider';

const router = createAppRouter();

// Spec §8: on 511 the base query has cleared local storage; go to login. Cached data is dropped
// at the next sign-in (purgeSessionCache).
setSessionGoneHandler(() => {
  void router.navigate(appPaths.login.href(), { replace: true });
});

/** Spec §9: one toast at a time. */
const MAX_TOASTS = 1;
const TOAST_DURATION_MS = 4000;

/** Everything the app runs inside: store, translations, white-label theme, toasts and the router. */
export const AppProviders = () => (
  <ReduxProvider store={store}>
    <Suspense fallback={<SplashScreen />}>
      <OrgThemeProvider>
        <SnackbarProvider
          maxSnack={MAX_TOASTS}
          preventDuplicate
          autoHideDuration={TOAST_DURATION_MS}
          anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
        >
          <GlobalLoadingBar />
          <RouterProvider router={router} />
        </SnackbarProvider>
      </OrgThemeProvider>
    </Suspense>
  </ReduxProvider>
);
