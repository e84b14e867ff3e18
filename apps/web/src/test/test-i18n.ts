import { createInstance } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../../public/locales/en.json';

/** An i18n instance with the real English translations in memory, for render tests. */
export const createTestI18n = async () => {
  const instance = createInstance();
  await instance.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    resources: { en: { translation: en } },
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  return instance;
};
