import { orgConfigApi } from '../lib/http/org-config-api';
import { startInstallation } from '../lib/installation';
import { appConfigLoaded, hideSplashScreen, orgConfigLoaded } from '../lib/ui-slice';
import type { TAppStore } from './store';

/** Spec §2 splash: shown at least this long, ms, so it does not flash. */
export const SPLASH_MIN_MS = 600;

const wait = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));

/** Runs an RTK Query fetch once and returns its data, or null when it failed. */
const fetchOnce = async <T>(request: {
  unwrap: () => Promise<T>;
  unsubscribe: () => void;
}): Promise<T | null> => {
  try {
    return await request.unwrap();
  } catch {
    // The failure has been toasted; the app carries on with Kisht's defaults.
    return null;
  } finally {
    request.unsubscribe();
  }
};

/**
 * Starts the app behind the splash screen (spec §2): remembers the organisation (`account_id`) and
 * fills the device keys of spec §3, asks the native shell for device details, loads the
 * organisation's config and then, from that organisation's API, the client config (both kept in
 * the ui slice), waits for the translations, and hides the splash after at least SPLASH_MIN_MS.
 * If a config cannot be loaded the app still starts, with Kisht's own theme.
 */
export const startApp = async (options: {
  store: TAppStore;
  orgId: number;
  translationsReady: Promise<unknown>;
}) => {
  const { store, orgId } = options;
  const startedAt = Date.now();
  // Handled now, not when awaited below: a failure to load translations must not go unhandled.
  const translationsReady = options.translationsReady.catch(() => undefined);
  startInstallation(orgId);

  const orgConfig = await fetchOnce(store.dispatch(orgConfigApi.endpoints.getOrgAppConfig.initiate(orgId)));
  if (orgConfig) store.dispatch(orgConfigLoaded(orgConfig));
  // After the org config, so that it comes from the organisation's own API base URL.
  const appConfig = await fetchOnce(store.dispatch(orgConfigApi.endpoints.getClientConfig.initiate()));
  if (appConfig) store.dispatch(appConfigLoaded(appConfig));

  await translationsReady;
  await wait(Math.max(0, SPLASH_MIN_MS - (Date.now() - startedAt)));
  store.dispatch(hideSplashScreen());
};
