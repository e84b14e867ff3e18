import i18next from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import type en from '../../public/locales/en.json';

/** Interface languages of spec §1. */
export const SUPPORTED_LANGUAGES = ['en', 'hn', 'mr', 'gj', 'sp', 'bd', 'kn', 'tg', 'tm', 'pp'] as const;
export const FALLBACK_LANGUAGE = 'en';
/** Where translations are served from (spec §7: GET /locales/{lng}.json). */
export const LOCALES_LOAD_PATH = '/locales/{{lng}}.json';

declare module 'i18next' {
  // An interface, not a type: it augments i18next's own declaration, which makes t() keys typed.
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}

/** The app's i18next instance. */
export const i18n = i18next;

/**
 * Starts i18n (spec §1): the ten spec languages with fallback en; detection order cookie, html tag,
 * local storage ('language' key of spec §3), path, subdomain; the choice is cached in a cookie;
 * translations load per language over HTTP. Keeps `<html lang>` in step with the chosen language,
 * since htmlTag is read before localStorage (design §8).
 */
export const initI18n = () => {
  i18n.on('languageChanged', (lng) => {
    document.documentElement.lang = lng;
  });
  return i18n
    .use(HttpBackend)
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      supportedLngs: [...SUPPORTED_LANGUAGES],
      fallbackLng: FALLBACK_LANGUAGE,
      load: 'languageOnly',
      defaultNS: 'translation',
      ns: ['translation'],
      backend: { loadPath: LOCALES_LOAD_PATH },
      detection: {
        order: ['cookie', 'htmlTag', 'localStorage', 'path', 'subdomain'],
        caches: ['cookie'],
        lookupLocalStorage: 'language',
      },
      interpolation: { escapeValue: false },
      react: { useSuspense: true },
    });
};
