import { createInstance } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import en from '../../public/locales/en.json';
import { I18N_OPTIONS, LANGUAGE_NATIVE_NAMES, rememberLanguage, SUPPORTED_LANGUAGES } from './i18n';

const resources = Object.fromEntries(SUPPORTED_LANGUAGES.map((lng) => [lng, { translation: en }]));

/** An instance with the app's options and the real detector, translations in memory. */
const startI18n = async () => {
  const instance = createInstance();
  instance.on('languageChanged', rememberLanguage);
  const { backend: _backend, react: _react, ...options } = I18N_OPTIONS;
  await instance.use(LanguageDetector).init({ ...options, resources });
  return instance;
};

/** Sets a cookie as a browser would have it from an earlier visit (jsdom has no CookieStore). */
const setCookie = (value: string) => {
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the browser's cookie jar
  document.cookie = value;
};

const clearCookie = () => setCookie('i18next=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/');

beforeEach(() => {
  localStorage.clear();
  clearCookie();
  document.documentElement.lang = 'en';
});
afterEach(clearCookie);

describe('i18n (spec §1)', () => {
  it('has the ten spec languages, with en as fallback, loaded from /locales/{{lng}}.json', () => {
    expect(SUPPORTED_LANGUAGES).toEqual(['en', 'hn', 'mr', 'gj', 'sp', 'bd', 'kn', 'tg', 'tm', 'pp']);
    expect(I18N_OPTIONS.fallbackLng).toBe('en');
    expect(I18N_OPTIONS.backend.loadPath).toBe('/locales/{{lng}}.json');
    expect(I18N_OPTIONS.detection).toEqual({
      order: ['cookie', 'htmlTag', 'localStorage', 'path', 'subdomain'],
      caches: ['cookie'],
      lookupCookie: 'i18next',
      lookupLocalStorage: 'language',
    });
  });

  it('names each language in its own script', () => {
    expect(Object.values(LANGUAGE_NATIVE_NAMES)).toEqual([
      'English',
      'हिन्दी',
      'मराठी',
      'ગુજરાતી',
      'Español',
      'বাংলা',
      'ಕನ್ನಡ',
      'తెలుగు',
      'தமிழ்',
      'ਪੰਜਾਬੀ',
    ]);
  });

  it('remembers a choice in the i18next cookie, local storage and <html lang>', async () => {
    const instance = await startI18n();
    await instance.changeLanguage('mr');
    expect(document.cookie).toContain('i18next=mr');
    expect(localStorage.getItem('language')).toBe('mr');
    expect(document.documentElement.lang).toBe('mr');
  });

  it('detects the cookie first', async () => {
    setCookie('i18next=tm; path=/');
    document.documentElement.lang = 'gj';
    localStorage.setItem('language', 'kn');
    expect((await startI18n()).language).toBe('tm');
  });

  it('without the cookie, detects the html tag the app keeps in step', async () => {
    document.documentElement.lang = 'gj';
    expect((await startI18n()).language).toBe('gj');
  });

  it('falls back to en for an unsupported language', async () => {
    setCookie('i18next=fr; path=/');
    document.documentElement.lang = 'fr';
    expect((await startI18n()).resolvedLanguage).toBe('en');
  });
});
