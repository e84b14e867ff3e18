import { useEffect, useState } from 'react';
import { SignInToast } from '../features/auth/components/sign-in-ui';
import type { TLanguage } from '../lib/languages';
import { keepLanguageOffline } from '../lib/offline-language';
import type { TTranslate } from '../lib/plain-i18n';

/** How long 'App ready to work offline' stays, ms (components/reload-prompt.tsx: the same). */
const OFFLINE_READY_HIDE_MS = 6000;

/**
 * The service worker on the sign-in screens before the app loads (issue 28): registered after the
 * first paint (`virtual:pwa-register`, without React or MUI), with the prompt of spec §2, §4 —
 * 'App ready to work offline' for a while, or an update waiting with Reload — and the language
 * shown kept for offline use. The app's own prompt (components/reload-prompt.tsx) takes over
 * once the app is mounted; registering again there is harmless.
 */
export const SignInReloadPrompt = ({ t, language }: { t: TTranslate; language: TLanguage }) => {
  const [state, setState] = useState<'offlineReady' | 'needRefresh' | null>(null);
  const [update, setUpdate] = useState<((reload?: boolean) => Promise<void>) | null>(null);

  useEffect(() => {
    let isCancelled = false;
    void import('virtual:pwa-register').then(({ registerSW }) => {
      if (isCancelled) return;
      const updateSW = registerSW({
        onOfflineReady: () => setState('offlineReady'),
        onNeedRefresh: () => setState('needRefresh'),
        onRegisteredSW: () => void keepLanguageOffline(language),
        onRegisterError: (error: unknown) => console.error('Service worker registration failed', error),
      });
      setUpdate(() => updateSW);
    });
    return () => {
      isCancelled = true;
    };
  }, [language]);

  useEffect(() => {
    if (state !== 'offlineReady') return;
    const timer = window.setTimeout(() => setState(null), OFFLINE_READY_HIDE_MS);
    return () => window.clearTimeout(timer);
  }, [state]);

  if (!state) return null;
  return (
    <SignInToast
      message={state === 'needRefresh' ? t('pwa.needRefresh') : t('pwa.offlineReady')}
      reloadLabel={t('pwa.reload')}
      closeLabel={t('pwa.close')}
      onReload={state === 'needRefresh' && update ? () => void update(true) : null}
      onClose={() => setState(null)}
    />
  );
};
