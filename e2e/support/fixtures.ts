import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type BrowserContext, test as base, expect, type Page } from '@playwright/test';
import { DEMO_RETAILER, loginToDashboard } from './login';
import { ARTIFACTS } from './server';
import { startKishtStack, type TKishtStack } from './stack';

/** What Playwright saves of a signed-in browser (cookies and local storage, where the session is). */
type TStorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** Who a test's page starts signed in as (see `signedInAs`); null: nobody, the journey logs in. */
type TSignedInAs = 'demoRetailer' | null;

/** The screen of the phones the journeys are photographed on. */
export const PHONE_VIEWPORT = { width: 412, height: 915 };

/** A phone in India (its language and time zone) at 412×915: `test.use(IN_PHONE)`. */
export const IN_PHONE = { locale: 'en-IN', timezoneId: 'Asia/Kolkata', viewport: PHONE_VIEWPORT };

/**
 * Playwright's test with its worker's own Kisht (server and MDM fakes: support/stack.ts, started
 * when the worker starts, its URLs also left in KISHT_E2E_BASE_URL and KISHT_E2E_FAKE_MDM_URL for
 * helpers that run outside a fixture), baseURL pointing at it, and
 * `test.use({ signedInAs: 'demoRetailer' })` to start each page signed in as the demo retailer
 * (one OTP login per worker, its local storage reused). Such tests must not log out: that would
 * end the shared session.
 */
export const test = base.extend<
  { signedInAs: TSignedInAs },
  { kisht: TKishtStack; demoRetailerSession: () => Promise<TStorageState> }
>({
  kisht: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies as an object pattern
    async ({}, use, workerInfo) => {
      const stack = await startKishtStack(`w${workerInfo.parallelIndex}`);
      process.env.KISHT_E2E_BASE_URL = stack.baseUrl;
      process.env.KISHT_E2E_FAKE_MDM_URL = stack.fakeMdmUrl;
      try {
        await use(stack);
      } finally {
        stack.stop();
      }
    },
    { scope: 'worker', auto: true, timeout: 150_000 },
  ],
  baseURL: async ({ kisht }, use) => {
    await use(kisht.baseUrl);
  },
  signedInAs: [null, { option: true }],
  storageState: async ({ signedInAs, storageState, demoRetailerSession }, use) => {
    await use(signedInAs === 'demoRetailer' ? await demoRetailerSession() : storageState);
  },
  // Logs in lazily, the first time a test of the worker asks, so other journeys never pay for it.
  demoRetailerSession: [
    async ({ browser, kisht }, use) => {
      let session: Promise<TStorageState> | undefined;
      const login = async () => {
        const context = await browser.newContext({ ...IN_PHONE, baseURL: kisht.baseUrl });
        try {
          await loginToDashboard(await context.newPage(), DEMO_RETAILER);
          return await context.storageState();
        } finally {
          await context.close();
        }
      };
      await use(() => {
        session ??= login();
        return session;
      });
    },
    { scope: 'worker' },
  ],
});
export { expect };

/** Where the journeys' screenshots go (e2e/artifacts/screenshots). */
export const SHOTS = join(ARTIFACTS, 'screenshots');
mkdirSync(SHOTS, { recursive: true });

/** A screenshot of the viewport as the phone shows it (a modal or a drawer over the page). */
export const viewportShot = (page: Page, name: string) =>
  page.screenshot({ path: join(SHOTS, `${name}.png`) });

/**
 * A screenshot of the whole page once any open select menu has gone, taken on a phone as tall as
 * the page (a full-page capture would paint the fixed bottom tabs over the middle of a long page).
 */
export const shot = async (page: Page, name: string) => {
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height > PHONE_VIEWPORT.height) await page.setViewportSize({ width: PHONE_VIEWPORT.width, height });
  await viewportShot(page, name);
  await page.setViewportSize(PHONE_VIEWPORT);
};

/** Fails when the page shows an i18n key of these top-level sections left untranslated (`nav.x`). */
export const expectTranslated = async (page: Page, sections: readonly string[]) =>
  expect(await page.locator('body').innerText()).not.toMatch(
    new RegExp(`\\b(${sections.join('|')})\\.[a-zA-Z_]+\\b`),
  );

/**
 * Chooses the UI language as the language screen leaves it (the i18next cookie); it applies from
 * the next load. The session lives in local storage, so it survives.
 */
export const setLanguage = async (context: BrowserContext, baseURL: string, language: string) => {
  await context.clearCookies({ name: 'i18next' });
  await context.addCookies([{ name: 'i18next', value: language, url: baseURL }]);
};

/** Opens the side drawer, clicks the item `drawer-item-<item>` and waits for its `path`. */
export const openDrawerItem = async (page: Page, item: string, path: RegExp) => {
  await page.getByTestId('drawer-open').click();
  await page.getByTestId(`drawer-item-${item}`).click();
  await expect(page).toHaveURL(path);
};

/** Random digits, so runs against one server never reuse a mobile, shop or IMEI. */
export const digits = (count: number) =>
  Array.from({ length: count }, () => Math.floor(Math.random() * 10)).join('');

/** A fresh Indian mobile (10 digits) starting with `prefix`. */
export const freshMobile = (prefix = '9') => `${prefix}${digits(10 - prefix.length)}`;

/** A 15-digit IMEI with a valid Luhn check digit. */
export const freshImei = () => {
  const body = `35${digits(12)}`;
  const sum = [...body].reverse().reduce((total, char, index) => {
    let value = Number(char);
    if (index % 2 === 0) value *= 2;
    return total + (value > 9 ? value - 9 : value);
  }, 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
};

/** A plan's activation code as the server issues it (Crockford base32, 4-4-4). */
export const ACTIVATION_CODE = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;
