import GlobalStyles from '@mui/material/GlobalStyles';
import type { Theme } from '@mui/material/styles';
import { SnackbarProvider } from 'notistack';
import { Suspense } from 'react';
import { Provider as ReduxProvider, useSelector } from 'react-redux';
import { RouterProvider } from 'react-router';
import { ReloadPrompt } from '../components/reload-prompt';
import { SplashScreen } from '../components/splash-screen';
import type { TAppRouter } from './router';
import type { TRootState } from './store';
import { store } from './store';
import { OrgThemeProvider } from './theme/org-theme-provider';

/** Spec §9: one toast at a time. */
const MAX_TOASTS = 1;
const TOAST_DURATION_MS = 4000;

const selectIsSplashShown = (state: TRootState) => state.ui.splashScreen;

/** The splash screen until start-up is done (app/bootstrap.ts), then the routes. */
const AppContent = ({ router }: { router: TAppRouter }) => {
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
export const AppProviders = ({ router }: { router: TAppRouter }) => (
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
          <AppContent router={router} />
          <ReloadPrompt />
        </SnackbarProvider>
      </OrgThemeProvider>
    </Suspense>
  </ReduxProvider>
);
