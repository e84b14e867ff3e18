import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { useTheme } from '@mui/material/styles';
import { act, cleanup, render, screen } from '@testing-library/react';
import { createInstance } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it } from 'vitest';
import { SUPPORTED_LANGUAGES, type TLanguage } from '../../lib/i18n';
import { createTestStore } from '../../test/render-app';
import { createAppTheme, fontStackFor } from './create-app-theme';
import { OrgThemeProvider } from './org-theme-provider';

afterEach(cleanup);

/** Issue 12: each language's script is drawn with a bundled Noto face, whatever the phone has. */
const OWN_FAMILY: Record<TLanguage, string> = {
  en: 'Noto Sans',
  sp: 'Noto Sans',
  hn: 'Noto Sans Devanagari',
  mr: 'Noto Sans Devanagari',
  bd: 'Noto Sans Bengali',
  gj: 'Noto Sans Gujarati',
  kn: 'Noto Sans Kannada',
  pp: 'Noto Sans Gurmukhi',
  tg: 'Noto Sans Telugu',
  tm: 'Noto Sans Tamil',
};
const BUNDLED_FAMILIES = [...new Set(Object.values(OWN_FAMILY))];
/** The weights the theme draws with: body 400, medium 500, buttons 600, headings 700. */
const THEME_WEIGHTS = ['400', '500', '600', '700'];

const familiesOf = (stack: string) => stack.split(',').map((family) => family.replaceAll('"', '').trim());

describe('font stack (issue 12: Tamil drawn as empty boxes)', () => {
  it.each(SUPPORTED_LANGUAGES)(
    '%s: its own Noto face first, every bundled face before the phone fonts',
    (lng) => {
      const families = familiesOf(createAppTheme(undefined, { language: lng }).typography.fontFamily ?? '');
      expect(families[0]).toBe(OWN_FAMILY[lng]);
      expect(families.slice(0, BUNDLED_FAMILIES.length).sort()).toEqual([...BUNDLED_FAMILIES].sort());
      expect(families).toContain('sans-serif');
    },
  );

  it('English until a language is known', () => {
    expect(fontStackFor()).toBe(fontStackFor('en'));
  });
});

describe('fonts.css (the bundled faces)', () => {
  // Read from disk: Vitest hands CSS imports, even ?raw ones, to tests as empty strings.
  const css = readFileSync(join(import.meta.dirname, 'fonts.css'), 'utf8');
  const faces = [...css.matchAll(/@font-face\s*{([^}]*)}/g)].map(([, body]) => {
    const read = (name: string) => new RegExp(`${name}:\\s*([^;]+);`).exec(body ?? '')?.[1]?.trim();
    return {
      family: read('font-family')?.replaceAll(/['"]/g, ''),
      weight: read('font-weight'),
      display: read('font-display'),
      unicodeRange: read('unicode-range'),
      src: /url\(["']?([^"')]+)["']?\)/.exec(body ?? '')?.[1],
    };
  });

  it.each(BUNDLED_FAMILIES)('%s comes in every weight the theme uses', (family) => {
    const weights = faces.filter((face) => face.family === family).map((face) => face.weight);
    expect([...new Set(weights)].sort()).toEqual(THEME_WEIGHTS);
  });

  it('declares only bundled families, as WOFF2 files of @fontsource that exist', () => {
    // 9 subsets (Latin, Latin Extended, one per Indian script) × 4 weights.
    expect(faces).toHaveLength(36);
    const require = createRequire(import.meta.filename);
    for (const face of faces) {
      expect(BUNDLED_FAMILIES).toContain(face.family);
      expect(face.src).toMatch(/^@fontsource\/noto-sans[a-z-]*\/files\/[a-z0-9-]+\.woff2$/);
      expect(existsSync(require.resolve(face.src ?? ''))).toBe(true);
    }
  });

  it('shows text at once (swap) and fetches a face only for its own characters (unicode-range)', () => {
    for (const face of faces) {
      expect(face.display).toBe('swap');
      expect(face.unicodeRange).toMatch(/^U\+[0-9A-F]/);
    }
  });
});

describe('OrgThemeProvider', () => {
  const FontFamily = () => <p data-testid="font-family">{useTheme().typography.fontFamily}</p>;

  it('switches the font stack with the language', async () => {
    const i18n = createInstance();
    await i18n.use(initReactI18next).init({
      lng: 'en',
      supportedLngs: [...SUPPORTED_LANGUAGES],
      resources: { en: { translation: {} }, tm: { translation: {} } },
      react: { useSuspense: false },
    });
    render(
      <Provider store={createTestStore()}>
        <I18nextProvider i18n={i18n}>
          <OrgThemeProvider>
            <FontFamily />
          </OrgThemeProvider>
        </I18nextProvider>
      </Provider>,
    );
    expect(screen.getByTestId('font-family').textContent).toBe(fontStackFor('en'));
    await act(async () => {
      await i18n.changeLanguage('tm');
    });
    expect(screen.getByTestId('font-family').textContent).toBe(fontStackFor('tm'));
  });
});
