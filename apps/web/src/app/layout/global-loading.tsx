import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { matchPath, useLocation } from 'react-router';
import { appPaths } from '../../lib/paths';
import type { TStateWithUi } from '../../lib/ui-slice';
import { selectIsApiLoading } from '../../lib/ui-slice';

/**
 * Spec §2: the global spinner does not show on these screens; they load and poll behind their own
 * skeletons and progress. pending_commands (beyond spec §2's list) polls every 10 s too, so it is
 * one of them: a spinner every 10 s would only distract.
 */
export const SPINNER_EXCEPTION_PATHS: readonly string[] = [
  appPaths.customerDetails.path,
  appPaths.customerList.path,
  appPaths.multipleLockUnlock.path,
  appPaths.topUpHistory.path,
  appPaths.dashboard.path,
  appPaths.pendingCommands.path,
];

/** Whether the global spinner stays hidden on this route (spec §2 exceptions). */
export const isGlobalSpinnerSuppressed = (pathname: string): boolean =>
  SPINNER_EXCEPTION_PATHS.some((path) => matchPath({ path, end: true }, pathname) !== null);

/**
 * Spec §2, §4: a spinner while any API call runs (ui.apiLoading), except on the exception routes.
 * It floats low on the screen, above the bottom navigation, so it never covers a page's title
 * (issue 28: under the app bar it sat on them), and lets clicks through, so polling never blocks
 * the screen.
 */
export const GlobalSpinner = () => {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const isApiLoading = useSelector(selectIsApiLoading);
  if (!isApiLoading || isGlobalSpinnerSuppressed(pathname)) return null;
  return (
    <Box
      sx={{
        position: 'fixed',
        bottom: { xs: 88, sm: 24 },
        left: 0,
        right: 0,
        display: 'flex',
        justifyContent: 'center',
        pointerEvents: 'none',
        zIndex: (theme) => theme.zIndex.snackbar + 1,
      }}
    >
      <Paper elevation={4} sx={{ borderRadius: '50%', p: 1, display: 'flex' }}>
        <CircularProgress size={28} aria-label={t('common.loading')} data-testid="global-loading" />
      </Paper>
    </Box>
  );
};

const selectTopLoadingBar = (state: TStateWithUi) => state.ui.topLoadingBar;

/** Spec §3 topLoadingBar: a thin bar over the top of the screen (e.g. while a language loads). */
export const TopLoadingBar = () => {
  const { t } = useTranslation();
  const isShown = useSelector(selectTopLoadingBar);
  if (!isShown) return null;
  return (
    <LinearProgress
      aria-label={t('common.loading')}
      data-testid="top-loading-bar"
      sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: (theme) => theme.zIndex.snackbar + 1 }}
    />
  );
};
