/** The interface languages of spec §1, by the spec's own codes (hn, gj, sp…, not standard ones). */
export const SPEC_LANGUAGES = ['en', 'hn', 'mr', 'gj', 'sp', 'bd', 'kn', 'tg', 'tm', 'pp'] as const;
export type TSpecLanguage = (typeof SPEC_LANGUAGES)[number];

/**
 * The standard (BCP 47, here ISO 639-1) tag of each spec language: for `lang` attributes, Intl
 * formatting and the languages of WhatsApp templates (which use the same tags).
 */
export const LANGUAGE_BCP47: Readonly<Record<TSpecLanguage, string>> = {
  en: 'en',
  hn: 'hi',
  mr: 'mr',
  gj: 'gu',
  sp: 'es',
  bd: 'bn',
  kn: 'kn',
  tg: 'te',
  tm: 'ta',
  pp: 'pa',
};
