import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ORG_ID } from '../lib/config';
import { setSessionGoneHandler } from '../lib/http/api';
import { initI18n } from '../lib/i18n';
import { rememberInstallation } from '../lib/installation';
import { appPaths } from '../lib/paths';
import { startApp } from './bootstrap';
import { AppProviders } from './providers';
import { createAppRouter } from './router';
import { store } from './store';

/**
 * Mounts the whole app in `container` at the current address: i18next, start-up behind the splash
 * (app/bootstrap.ts), the store, theme and router. Loaded by main.tsx: at once on every screen but
 * the sign-in ones, which start light (app/sign-in-start.tsx) and hand the page over to this.
 */
export const mountFullApp = (container: HTMLElement): void => {
  const translationsReady = initI18n();
  void startApp({ store, orgId: ORG_ID, translationsReady });
  // Made now, not when the module loads: a prefetched module must not read the address too early.
  const router = createAppRouter();
  // Spec §8: on 511 the base query has cleared all local storage; go to login. The app then writes
  // back what identifies this installation (its organisation, so a reload keeps the white label,
  // and the device defaults), none of which belongs to the session. Cached data is dropped at the
  // next sign-in (purgeSessionCache).
  setSessionGoneHandler(() => {
    rememberInstallation();
    void router.navigate(appPaths.login.href(), { replace: true });
  });
  createRoot(container).render(
    <StrictMode>
      <AppProviders router={router} />
    </StrictMode>,
  );
};
