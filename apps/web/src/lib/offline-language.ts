import { LOCALES_LOAD_PATH, type TLanguage } from './languages';

/** The service worker's runtime cache of translations (vite.config.ts workbox runtimeCaching). */
export const LOCALES_CACHE = 'kisht-locales';

/**
 * Keeps the strings of `language` for offline use (issue 28): the worker precaches no language,
 * and on a first visit the page fetched its language before the worker was in control, so this adds
 * /locales/{lng}.json to the translations' cache itself. Does nothing without the Cache API; never
 * throws (offline or refused, the worker caches the file the next time the app fetches it).
 */
export const keepLanguageOffline = async (language: TLanguage): Promise<void> => {
  if (typeof caches === 'undefined') return;
  try {
    const cache = await caches.open(LOCALES_CACHE);
    await cache.add(LOCALES_LOAD_PATH.replace('{{lng}}', language));
  } catch {
    // Not kept now; the runtime cache takes it with the next fetch.
  }
};
