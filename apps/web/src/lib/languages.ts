import { LANGUAGE_BCP47, SPEC_LANGUAGES, type TSpecLanguage } from '@kisht/domain/common/languages';
import { STORAGE_KEYS } from './storage-keys';

// The languages and how the chosen one is found, without i18next: the sign-in screens use them
// before the i18n runtime loads (issue 28); lib/i18n.ts re-exports them.

/** Interface languages of spec §1 (the domain's list). */
export const SUPPORTED_LANGUAGES = SPEC_LANGUAGES;
export type TLanguage = TSpecLanguage;
export const FALLBACK_LANGUAGE: TLanguage = 'en';

/**
 * Each language by its own name, as the language screen lists it. These are proper names shown
 * the same in every language (a Hindi speaker looks for "हिन्दी" whatever the app is showing), so
 * they are data here rather than translation keys.
 */
export const LANGUAGE_NATIVE_NAMES: Record<TLanguage, string> = {
  en: 'English',
  hn: 'हिन्दी',
  mr: 'मराठी',
  gj: 'ગુજરાતી',
  sp: 'Español',
  bd: 'বাংলা',
  kn: 'ಕನ್ನಡ',
  tg: 'తెలుగు',
  tm: 'தமிழ்',
  pp: 'ਪੰਜਾਬੀ',
};

/**
 * The standard (BCP 47) tag of each language, for `lang` attributes read by screen readers and
 * fonts (the domain's table). The spec's own codes (hn, gj, sp…) stay the app's language ids and
 * what <html lang> carries for detection.
 */
export { LANGUAGE_BCP47 };

/** Where translations are served from (spec §7: GET /locales/{lng}.json). */
export const LOCALES_LOAD_PATH = '/locales/{{lng}}.json';
/** The cookie the choice is cached in (spec §1). */
export const LANGUAGE_COOKIE = 'i18next';
export const isSupportedLanguage = (value: unknown): value is TLanguage =>
  SUPPORTED_LANGUAGES.some((code) => code === value);

/** The value of cookie `name`, or null. */
const readCookie = (name: string): string | null => {
  for (const part of document.cookie.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return null;
};

const readStoredLanguage = (): string | null => {
  try {
    return window.localStorage.getItem(STORAGE_KEYS.language);
  } catch {
    return null;
  }
};

/**
 * The language to show, found as i18next's detector finds it (spec §1 order, lib/i18n.ts
 * DETECTION_ORDER): the `i18next` cookie, then local storage `language` (which initI18n puts in
 * `<html lang>` before detection, so it beats index.html's static `en`), then `<html lang>`; a
 * language outside the ten falls back to English.
 */
export const detectLanguage = (): TLanguage => {
  for (const candidate of [
    readCookie(LANGUAGE_COOKIE),
    readStoredLanguage(),
    document.documentElement.lang,
  ]) {
    if (isSupportedLanguage(candidate)) return candidate;
  }
  return FALLBACK_LANGUAGE;
};
