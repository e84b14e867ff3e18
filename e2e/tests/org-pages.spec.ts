import type { Page } from '@playwright/test';
import { appPaths, CUSTOMER_ID_PARAM, PUBLIC_ROUTES, type TRouteKey } from '../../apps/web/src/lib/paths';
import {
  expect,
  expectTranslated,
  IN_PHONE,
  openDrawerItem,
  setLanguage,
  shot,
  test,
} from '../support/fixtures';
import { loginToAdmin } from '../support/login';

/**
 * Issue 16 "help/support/privacy render in English and Hindi; no 'Coming soon' route is left":
 * the demo retailer reads the three pages in English and Hindi (support with its call, WhatsApp and
 * e-mail links), every route of the app that needs no id is opened and none says "Coming soon",
 * and the organisation admin rewrites the Hindi help page, which the retailer then reads.
 */

test.use(IN_PHONE);

/** The organisation-page routes (packages/domain paths.orgPages). */
const HELP_PATH = '/api/org_pages/help';
/** The translation sections whose keys must never show untranslated. */
const SECTIONS = ['orgPages', 'pages', 'nav'];

/** A route's link built with `arg` (or none); every href takes at most one optional-or-id argument. */
const hrefOf = (key: TRouteKey, arg?: number) => (appPaths[key].href as (value?: number) => string)(arg);
/** Every protected route that needs no id: no path parameter, no customer_id. */
const PLAIN_ROUTES = (Object.keys(appPaths) as TRouteKey[]).filter(
  (key) =>
    key !== 'root' &&
    !PUBLIC_ROUTES.includes(key) &&
    !appPaths[key].path.includes(':') &&
    !hrefOf(key, 1).includes(`${CUSTOMER_ID_PARAM}=1`),
);

/** Client-side navigation, as a link in the app does (no reload per route). */
const navigate = (page: Page, path: string) =>
  page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);

test.describe('signed in as the demo retailer', () => {
  test.use({ signedInAs: 'demoRetailer' });

  test('help, support and privacy_policy in English and Hindi; no route is "Coming soon"', async ({
    page,
    context,
    baseURL,
  }) => {
    await page.goto('/dashboard');
    await openDrawerItem(page, 'help', /\/help$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Help' })).toBeVisible();
    await expect(page.getByTestId('markdown-body')).toContainText('Paying your EMI');
    await expectTranslated(page, SECTIONS);
    await shot(page, '16-help-en');

    await openDrawerItem(page, 'support', /\/support$/);
    await expect(page.getByTestId('support-call')).toHaveAttribute('href', 'tel:+919876500001');
    await expect(page.getByTestId('support-whatsapp')).toHaveAttribute('href', 'https://wa.me/919876500001');
    await expect(page.getByTestId('support-email')).toHaveAttribute('href', 'mailto:support@kisht.example');
    await expect(page.getByTestId('markdown-body')).toContainText('Monday to Saturday');
    await shot(page, '16-support-en');

    await openDrawerItem(page, 'privacyPolicy', /\/privacy_policy$/);
    await expect(page.getByTestId('markdown-body')).toContainText('Digital Personal Data Protection Act');
    await shot(page, '16-privacy-en');

    await setLanguage(context, baseURL!, 'hn');
    await page.goto('/help');
    await expect(page.locator('html')).toHaveAttribute('lang', 'hn');
    await expect(page.getByRole('heading', { level: 1, name: 'मदद' })).toBeVisible();
    await expect(page.getByTestId('markdown-body')).toContainText('EMI का भुगतान');
    await expectTranslated(page, SECTIONS);
    await shot(page, '16-help-hn');
    await openDrawerItem(page, 'support', /\/support$/);
    await expect(page.getByTestId('support-whatsapp')).toContainText('WhatsApp');
    await expect(page.getByTestId('markdown-body')).toContainText('सोमवार से शनिवार');
    await shot(page, '16-support-hn');
    await openDrawerItem(page, 'privacyPolicy', /\/privacy_policy$/);
    await expect(page.getByTestId('markdown-body')).toContainText('हम क्या रखते हैं');
    await shot(page, '16-privacy-hn');

    // Every route that needs no id, in English: none shows the coming-soon page.
    await setLanguage(context, baseURL!, 'en');
    await page.goto('/dashboard');
    for (const key of PLAIN_ROUTES) {
      await navigate(page, hrefOf(key));
      await expect(page.getByTestId('app-shell'), key).toBeVisible();
      await expect(page.getByTestId('page-skeleton'), key).toHaveCount(0);
      await expect(page.getByTestId('coming-soon'), key).toHaveCount(0);
      expect(await page.locator('body').innerText(), key).not.toContain('Coming soon');
    }
  });
});

test('the admin rewrites the Hindi help page and the retailer reads it', async ({
  page,
  context,
  baseURL,
  browser,
  demoRetailerSession,
}) => {
  const marker = `दुकान ${Date.now() % 100_000}`;
  await loginToAdmin(page);
  await page.getByTestId('admin-tab-pages').click();
  const markdown = page.getByTestId('org-page-markdown');
  await expect(markdown).toHaveValue(/Paying your EMI/);
  await expectTranslated(page, SECTIONS);
  await shot(page, '16-editor-en');

  await setLanguage(context, baseURL!, 'hn');
  await page.reload();
  await page.getByTestId('admin-tab-pages').click();
  await page.getByTestId('org-language-select').click();
  await page.getByTestId('org-language-option-hn').click();
  await expect(markdown).toHaveValue(/EMI का भुगतान/);
  const original = await markdown.inputValue();
  try {
    await markdown.fill(`## भुगतान\n\n**${marker}** पर भुगतान करें।`);
    await expect(page.getByTestId('org-page-preview').locator('strong')).toHaveText(marker);
    await expectTranslated(page, SECTIONS);
    await shot(page, '16-editor-hn');
    const saved = page.waitForResponse((r) => r.url().endsWith(HELP_PATH) && r.request().method() === 'PUT');
    await page.getByTestId('org-page-save').click();
    expect((await saved).status()).toBe(200);

    // The retailer, on its own phone in Hindi, reads the new text.
    const shop = await browser.newContext({
      ...IN_PHONE,
      baseURL,
      storageState: await demoRetailerSession(),
    });
    try {
      await setLanguage(shop, baseURL!, 'hn');
      const shopPage = await shop.newPage();
      await shopPage.goto('/help');
      await expect(shopPage.getByTestId('markdown-body').locator('strong')).toHaveText(marker);
    } finally {
      await shop.close();
    }
  } finally {
    // Leave the seeded Hindi help page as it was for other journeys.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const restored = await page.request.put(HELP_PATH, {
      headers: { authorization: `Bearer ${token}` },
      data: { language: 'hn', bodyMarkdown: original },
    });
    expect.soft(restored.status(), await restored.text()).toBe(200);
  }
});
