import GlobalStyles from '@mui/material/GlobalStyles';
import type { Theme } from '@mui/material/styles';
import { SnackbarProvider } from 'notistack';
import { Suspense } from 'react';
import { Provider as ReduxProvider, useSelector } from 'react-redux';
import { RouterProvider } from 'react-router';
import { ReloadPrompt } from '../components/reload-prompt';
import { SplashScreen } from '../components/splash-screen';
import { ensureClientDefaults } from '../lib/client-storage';
import { ORG_ID, rememberOrgId } from '../lib/config';
import { setSessionGoneHandler } from '../lib/http/api';
import { appPaths } from '../lib/paths';
import { currentUserAgent } from '../lib/user-agent';
import { createAppRouter } from './router';
import type { TRootState } from './store';
import { store } from './store';
import { OrgThemeProvider } from './theme/org-theme-provider';

const router = createAppRouter();

// Spec §8: on 511 the base query has cleared all local storage; go to login. The app then writes
// back what identifies this installation (its organisation, so a reload keeps the white label, and
// the device defaults), none of which belongs to the session. Cached data is dropped at the next
// sign-in (purgeSessionCache).
setSessionGoneHandler(() => {
  rememberOrgId(ORG_ID);
  ensureClientDefaults({ storage: window.localStorage, userAgent: currentUserAgent() });
  void router.navigate(appPaths.login.href(), { replace: true });
});

/** Spec §9: one toast at a time. */
const MAX_TOASTS = 1;
const TOAST_DURATION_MS = 4000;

const selectIsSplashShown = (state: TRootState) => state.ui.splashScreen;

/** The splash screen until start-up is done (app/bootstrap.ts), then the routes. */
const AppContent = () => {
  const isSplashShown = useSelector(selectIsSplashShown);
  return isSplashShown ? <SplashScreen /> : <RouterProvider router={router} />;
};

/** The toasts' container: below the app bar, so its menu and bell stay usable while one shows (issue 28). */
const TOASTS_CLASS = 'kisht-toasts';

/** Top of the toasts: under MUI's app bar (56 px on a phone, 64 px from `sm`) and the notch. */
const toastsBelowAppBar = (theme: Theme) => ({
  [`.${TOASTS_CLASS}`]: {
    top: 'calc(env(safe-area-inset-top, 0px) + 64px) !important',
    [theme.breakpoints.up('sm')]: { top: 'calc(env(safe-area-inset-top, 0px) + 72px) !important' },
  },
});

/** Everything the app runs inside: store, translations, white-label theme, toasts and the router. */
export const AppProviders = () => (
  <ReduxProvider store={store}>
    <Suspense fallback={<SplashScreen />}>
      <OrgThemeProvider>
        <GlobalStyles styles={toastsBelowAppBar} />
        <SnackbarProvider
          maxSnack={MAX_TOASTS}
          preventDuplicate
          autoHideDuration={TOAST_DURATION_MS}
          anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
          classes={{ containerAnchorOriginTopCenter: TOASTS_CLASS }}
        >
          <AppContent />
          <ReloadPrompt />
        </SnackbarProvider>
      </OrgThemeProvider>
    </Suspense>
  </ReduxProvider>
);
