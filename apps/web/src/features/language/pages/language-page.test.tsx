import { configureStore } from '@reduxjs/toolkit';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createInstance } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import en from '../../../../public/locales/en.json';
import { rememberLanguage, SUPPORTED_LANGUAGES } from '../../../lib/i18n';
import { uiSlice } from '../../../lib/ui-slice';
import { LanguagePage } from './language-page';

const renderPage = async () => {
  const i18n = createInstance();
  i18n.on('languageChanged', rememberLanguage);
  await i18n.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    supportedLngs: [...SUPPORTED_LANGUAGES],
    resources: Object.fromEntries(SUPPORTED_LANGUAGES.map((lng) => [lng, { translation: en }])),
    react: { useSuspense: false },
  });
  render(
    <Provider store={configureStore({ reducer: { ui: uiSlice.reducer } })}>
      <I18nextProvider i18n={i18n}>
        <LanguagePage />
      </I18nextProvider>
    </Provider>,
  );
  return i18n;
};

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('language screen (spec §1)', () => {
  it('lists the ten languages by their own names, the current one marked', async () => {
    await renderPage();
    const names = screen.getAllByRole('button').map((button) => button.textContent);
    expect(names).toEqual([
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
    expect(screen.getByTestId('language-option-en').getAttribute('aria-current')).toBe('true');
  });

  it('switches on tap and remembers the choice', async () => {
    const i18n = await renderPage();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'ગુજરાતી' }));
    });
    expect(i18n.language).toBe('gj');
    expect(localStorage.getItem('language')).toBe('gj');
    expect(document.documentElement.lang).toBe('gj');
    expect(screen.getByTestId('language-option-gj').getAttribute('aria-current')).toBe('true');
    expect(screen.getByTestId('language-option-en').getAttribute('aria-current')).toBeNull();
  });
});
