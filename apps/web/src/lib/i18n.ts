import type { InitOptions } from 'i18next';
import i18next from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import type en from '../../public/locales/en.json';
import {
  FALLBACK_LANGUAGE,
  isSupportedLanguage,
  LANGUAGE_COOKIE,
  LOCALES_LOAD_PATH,
  SUPPORTED_LANGUAGES,
  type TLanguage,
} from './languages';
import { STORAGE_KEYS } from './storage-keys';

export type { TLanguage } from './languages';
export {
  FALLBACK_LANGUAGE,
  isSupportedLanguage,
  LANGUAGE_BCP47,
  LANGUAGE_COOKIE,
  LANGUAGE_NATIVE_NAMES,
  LOCALES_LOAD_PATH,
  SUPPORTED_LANGUAGES,
} from './languages';

/** Spec §1 detection order. */
export const DETECTION_ORDER = ['cookie', 'htmlTag', 'localStorage', 'path', 'subdomain'];

declare module 'i18next' {
  // An interface, not a type: it augments i18next's own declaration, which makes t() keys typed.
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}

/** The app's i18next instance. */
export const i18n = i18next;

/** The language an i18next instance (the app's by default) shows now, as a spec §1 code. */
export const currentLanguage = (
  instance: Pick<typeof i18n, 'resolvedLanguage' | 'language'> = i18n,
): TLanguage => {
  const language = instance.resolvedLanguage ?? instance.language;
  return isSupportedLanguage(language) ? language : FALLBACK_LANGUAGE;
};

/**
 * Keeps `<html lang>` and local storage `language` (spec §3) in step with the language shown:
 * the detector reads the html tag before local storage (design §8), so a stale tag would win.
 */
export const rememberLanguage = (language: string): void => {
  if (!isSupportedLanguage(language)) return;
  document.documentElement.lang = language;
  try {
    window.localStorage.setItem(STORAGE_KEYS.language, language);
  } catch {
    // Storage can be unavailable (private mode); the cookie still remembers the choice.
  }
};

/**
 * The i18next options of spec §1: the ten languages with fallback en; detection order cookie,
 * html tag, local storage (`language`, spec §3), path, subdomain; the choice cached in the
 * `i18next` cookie; translations loaded per language from /locales/{{lng}}.json.
 */
export const I18N_OPTIONS = {
  supportedLngs: [...SUPPORTED_LANGUAGES],
  fallbackLng: FALLBACK_LANGUAGE,
  load: 'languageOnly',
  defaultNS: 'translation',
  ns: ['translation'],
  backend: { loadPath: LOCALES_LOAD_PATH },
  detection: {
    order: DETECTION_ORDER,
    caches: ['cookie'],
    lookupCookie: LANGUAGE_COOKIE,
    lookupLocalStorage: STORAGE_KEYS.language,
  },
  interpolation: { escapeValue: false },
  react: { useSuspense: true },
} satisfies InitOptions;

/**
 * Starts i18n with I18N_OPTIONS. The chosen language is also kept in local storage `language`
 * and `<html lang>` (rememberLanguage). Before detection, `<html lang>` is set from local
 * storage, so that when the cookie is gone the remembered choice still beats index.html's static
 * `lang="en"`.
 */
export const initI18n = () => {
  const remembered = window.localStorage.getItem(STORAGE_KEYS.language);
  if (isSupportedLanguage(remembered)) document.documentElement.lang = remembered;
  i18n.on('languageChanged', rememberLanguage);
  return i18n.use(HttpBackend).use(LanguageDetector).use(initReactI18next).init(I18N_OPTIONS);
};

/** Translation key of a screen's title (the `pages` section of the translations). */
export type TPageTitleKey = `pages.${keyof (typeof en)['pages']}`;
