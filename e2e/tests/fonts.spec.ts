import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { ARTIFACTS, REPO_ROOT } from '../support/server';

/**
 * Issue 12: the app ships the Noto faces of its ten languages (apps/web/src/app/theme/fonts.css),
 * so no script depends on the phone's fonts (Tamil showed as empty boxes on a phone without a
 * Tamil font). Chromium's own report of the fonts it drew a node with (DevTools CSS
 * getPlatformFontsForNode) tells a bundled face from a system font that happens to be installed.
 */
const SCRIPT_FACES = [
  { language: 'tm', family: 'Noto Sans Tamil' },
  { language: 'hn', family: 'Noto Sans Devanagari' },
  { language: 'mr', family: 'Noto Sans Devanagari' },
  { language: 'bd', family: 'Noto Sans Bengali' },
  { language: 'gj', family: 'Noto Sans Gujarati' },
  { language: 'kn', family: 'Noto Sans Kannada' },
  { language: 'pp', family: 'Noto Sans Gurmukhi' },
  { language: 'tg', family: 'Noto Sans Telugu' },
] as const;
/** The Latin face every page loads with its script's (digits, "OTP", "MPIN", spaces). */
const LATIN_FAMILY = 'Noto Sans';

type TPlatformFont = { familyName: string; isCustomFont: boolean; glyphCount: number };

const locale = (lng: string) =>
  JSON.parse(readFileSync(join(REPO_ROOT, `apps/web/public/locales/${lng}.json`), 'utf8'));

/** Opens /login in a language, as the language screen leaves it chosen (the i18next cookie). */
const openLogin = async (context: BrowserContext, baseURL: string, language: string): Promise<Page> => {
  await context.addCookies([{ name: 'i18next', value: language, url: baseURL }]);
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(locale(language).login.title);
  await page.evaluate(() => document.fonts.ready);
  return page;
};

/** The families of the faces the page has downloaded. */
const loadedFamilies = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const families = new Set<string>();
    document.fonts.forEach((face) => {
      if (face.status === 'loaded') families.add(face.family);
    });
    return [...families];
  });

/** The fonts Chromium drew the first node matching `selector` with (DevTools protocol). */
const platformFonts = async (page: Page, selector: string): Promise<TPlatformFont[]> => {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    return fonts;
  } finally {
    await cdp.detach();
  }
};

test.describe('the bundled Noto faces draw every script (issue 12)', () => {
  test.use({ serviceWorkers: 'block' });

  for (const { language, family } of SCRIPT_FACES) {
    test(`${language}: the login page is drawn with ${family}`, async ({ context, baseURL }) => {
      const page = await openLogin(context, baseURL!, language);
      const title: string = locale(language).login.title;

      // Only the page's own script and Latin: unicode-range keeps the other scripts' files away.
      await expect
        .poll(async () => (await loadedFamilies(page)).sort())
        .toEqual([LATIN_FAMILY, family].sort());
      // Its faces for the title's letters at 400 have loaded (check() is false while one loads).
      expect(
        await page.evaluate(([font, text]) => document.fonts.check(font!, text), [`16px "${family}"`, title]),
      ).toBe(true);
      // Every glyph of the title comes from a bundled face: its letters from the script's.
      const fonts = await platformFonts(page, 'h1');
      expect(fonts.filter((font) => !font.isCustomFont)).toEqual([]);
      expect(fonts.find((font) => font.familyName === family)?.glyphCount ?? 0).toBeGreaterThan(0);
      await page.screenshot({ path: join(ARTIFACTS, 'screenshots', `90-fonts-login-${language}.png`) });
    });
  }

  test('en: the login page is drawn with Noto Sans and loads no Indian script', async ({
    context,
    baseURL,
  }) => {
    const page = await openLogin(context, baseURL!, 'en');
    await expect.poll(() => loadedFamilies(page)).toEqual([LATIN_FAMILY]);
    const fonts = await platformFonts(page, 'h1');
    expect(fonts.map((font) => [font.familyName, font.isCustomFont])).toEqual([[LATIN_FAMILY, true]]);
  });
});

test('the service worker caches the fonts and the language a page uses, and precaches neither', async ({
  context,
  baseURL,
}) => {
  const page = await openLogin(context, baseURL!, 'tm');
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload(); // now under the worker's control
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.evaluate(() => document.fonts.ready);
  const fontsIn = (pathnames: string[]) => pathnames.filter((path) => path.endsWith('.woff2'));
  const localesIn = (pathnames: string[]) => pathnames.filter((path) => path.startsWith('/locales/'));
  await expect
    .poll(async () => {
      const cached = await page.evaluate(async () => {
        const byCache: Record<string, string[]> = {};
        for (const name of await caches.keys()) {
          const requests = await (await caches.open(name)).keys();
          byCache[name] = requests.map((request) => new URL(request.url).pathname);
        }
        return byCache;
      });
      const precache = Object.entries(cached).find(([name]) => name.startsWith('workbox-precache'));
      return {
        precacheFonts: precache ? fontsIn(precache[1]) : 'no precache',
        runtimeFonts: fontsIn(cached['kisht-fonts'] ?? []),
        // Issue 28: no language's strings in the precache; the one shown kept at run time, no
        // other (the light sign-in screens load no fallback; the app's i18next adds English, its
        // fallback, once it starts).
        precacheLocales: precache ? localesIn(precache[1]) : 'no precache',
        runtimeLocales: localesIn(cached['kisht-locales'] ?? []).sort(),
      };
    })
    .toEqual({
      precacheFonts: [],
      precacheLocales: [],
      runtimeLocales: ['/locales/tm.json'],
      runtimeFonts: expect.arrayContaining([
        expect.stringMatching(/noto-sans-tamil-tamil-400-normal-[\w-]+\.woff2$/),
        expect.stringMatching(/noto-sans-latin-400-normal-[\w-]+\.woff2$/),
      ]),
    });
});
