import { FALLBACK_LANGUAGE, LOCALES_LOAD_PATH, type TLanguage } from './languages';

/** A translation function of the sign-in screens: a key of the translations, and `{{name}}` values. */
export type TTranslate = (key: string, values?: Record<string, string | number>) => string;

/** The value at a dotted key of a translations object, when it is a string. */
const lookUp = (strings: unknown, key: string): string | null => {
  let node: unknown = strings;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return null;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : null;
};

/**
 * A translate function over one language's strings (public/locales/{lng}.json), as i18next would
 * translate them with the app's options (lib/i18n.ts: no escaping): `{{name}}` is replaced by
 * `values.name`; a key that is not there shows as the key itself.
 */
export const translatorOf =
  (strings: unknown): TTranslate =>
  (key, values = {}) =>
    (lookUp(strings, key) ?? key).replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
      name in values ? String(values[name]) : whole,
    );

/** One language's strings, fetched from LOCALES_LOAD_PATH (the same file i18next loads). */
const fetchStrings = async (language: TLanguage): Promise<unknown> => {
  const response = await fetch(LOCALES_LOAD_PATH.replace('{{lng}}', language));
  if (!response.ok) throw new Error(`translations of ${language}: HTTP ${response.status}`);
  return response.json();
};

/**
 * The strings of `language` without the i18n runtime (issue 28: the sign-in screens paint before
 * i18next loads), and the language they are in: English when the language's file cannot be had.
 * Throws only when English cannot be had either.
 */
export const loadTranslations = async (
  language: TLanguage,
): Promise<{ language: TLanguage; t: TTranslate }> => {
  try {
    return { language, t: translatorOf(await fetchStrings(language)) };
  } catch (error) {
    if (language === FALLBACK_LANGUAGE) throw error;
    return { language: FALLBACK_LANGUAGE, t: translatorOf(await fetchStrings(FALLBACK_LANGUAGE)) };
  }
};
