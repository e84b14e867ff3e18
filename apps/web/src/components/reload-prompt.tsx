import { useRegisterSW } from 'virtual:pwa-register/react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../lib/i18n';
import { keepLanguageOffline } from '../lib/offline-language';

/** How long 'App ready to work offline' stays, ms; an update waiting stays until answered. */
export const OFFLINE_READY_HIDE_MS = 6000;

/**
 * Spec §2, §4 service worker prompt: 'App ready to work offline' once the app is cached, or 'New
 * content available, click on reload button to update.' with Reload (applies the waiting service
 * worker and reloads) when an update waits; Close dismisses either, and the offline notice also
 * goes by itself after OFFLINE_READY_HIDE_MS. A registration error is only logged (spec §8).
 */
export const ReloadPrompt = () => {
  const { t } = useTranslation();
  const {
    offlineReady: [isOfflineReady, setIsOfflineReady],
    needRefresh: [isRefreshNeeded, setIsRefreshNeeded],
    updateServiceWorker,
  } = useRegisterSW({
    // The language shown is kept for offline use (the worker precaches none, issue 28).
    onRegisteredSW: () => void keepLanguageOffline(currentLanguage()),
    onRegisterError: (error: unknown) => {
      console.error('Service worker registration failed', error);
    },
  });

  const close = () => {
    setIsOfflineReady(false);
    setIsRefreshNeeded(false);
  };

  return (
    <Snackbar
      open={isOfflineReady || isRefreshNeeded}
      autoHideDuration={isRefreshNeeded ? null : OFFLINE_READY_HIDE_MS}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway') close();
      }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      sx={{ bottom: { xs: 88 } }}
    >
      <Alert
        severity="info"
        variant="filled"
        data-testid="reload-prompt"
        action={
          <Stack direction="row" spacing={1}>
            {isRefreshNeeded ? (
              <Button
                color="inherit"
                size="small"
                variant="outlined"
                onClick={() => void updateServiceWorker(true)}
                data-testid="reload-prompt-reload"
              >
                {t('pwa.reload')}
              </Button>
            ) : null}
            <Button color="inherit" size="small" onClick={close} data-testid="reload-prompt-close">
              {t('pwa.close')}
            </Button>
          </Stack>
        }
      >
        <span data-testid="reload-prompt-message">
          {isRefreshNeeded ? t('pwa.needRefresh') : t('pwa.offlineReady')}
        </span>
      </Alert>
    </Snackbar>
  );
};
