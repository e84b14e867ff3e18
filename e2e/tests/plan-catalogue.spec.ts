import type { Page } from '@playwright/test';
import {
  expect,
  expectTranslated,
  IN_PHONE,
  setLanguage,
  shot,
  test,
  viewportShot,
} from '../support/fixtures';
import { loginToAdmin } from '../support/login';

/**
 * Issue 14 "plans per organisation … an admin can edit them": the organisation admin adds two
 * anti-hacking plans, changes the price of one and deactivates the other; the retailer's
 * antihacking screen then offers the new price and no longer the deactivated plan. The admin's
 * plans section and dialog are photographed in English and Hindi at 412×915. The plans are the
 * test's own and are deactivated at the end, so the demo plans other journeys sell stay as seeded
 * and are the only ones offered.
 */

test.use(IN_PHONE);

/** The plan routes (packages/domain paths.plans.list and .antihacking). */
const PLANS_PATH = '/api/plans';
const ANTIHACKING_PLANS_PATH = '/api/customer/get_plans_antihacking';
/** The part of a plan (TPlan) the journey reads. */
type TPlan = { id: number; name: string; pricePaise: number; isActive: boolean };

/** The translation sections whose keys must never show untranslated. */
const SECTIONS = ['adminPlans', 'admin', 'appType'];

/** Opens the Plans tab of the admin home. */
const openPlansTab = async (page: Page) => {
  await page.getByTestId('admin-tab-plans').click();
  await expect(page.getByTestId('plan-group-8')).toBeVisible();
};

/**
 * Deactivates the journey's own anti-hacking plan through the admin's PUT paths.plans.list (a soft
 * check, so that a clean-up after a failure never hides the failure).
 */
const deactivatePlan = async (page: Page, plan: { id: number; name: string; pricePaise: number }) => {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.put(PLANS_PATH, {
    headers: { authorization: `Bearer ${token}` },
    data: {
      plan_id: plan.id,
      name: plan.name,
      appType: 8,
      pricePaise: plan.pricePaise,
      durationMonths: 12,
      description: 'Blocks hacking and phishing apps',
      isActive: false,
    },
  });
  expect.soft(response.status(), await response.text()).toBe(200);
};

/** Adds an anti-hacking plan through the dialog; returns its id. */
const addPlan = async (page: Page, name: string, rupees: string): Promise<number> => {
  await page.getByTestId('plan-add').click();
  const dialog = page.getByTestId('plan-dialog');
  await dialog.getByTestId('plan-name').fill(name);
  await dialog.getByRole('combobox', { name: 'Plan type' }).click();
  await page.getByRole('option', { name: 'Anti-hacking', exact: true }).click();
  await dialog.getByTestId('plan-price').fill(rupees);
  await dialog.getByTestId('plan-description').fill('Blocks hacking and phishing apps');
  const saved = page.waitForResponse((r) => r.url().endsWith(PLANS_PATH) && r.request().method() === 'PUT');
  await dialog.getByTestId('plan-save').click();
  const body = (await (await saved).json()) as { data: TPlan };
  await expect(dialog).toBeHidden();
  return body.data.id;
};

test('the admin reprices one plan and deactivates another; the retailer sees the change', async ({
  page,
  context,
  baseURL,
  browser,
  demoRetailerSession,
}) => {
  const suffix = String(Date.now() % 100_000);
  const kept = { id: 0, name: `Shield ${suffix}`, pricePaise: 15_000 };
  const dropped = { id: 0, name: `Shield Lite ${suffix}`, pricePaise: 9_900 };

  await loginToAdmin(page);
  await openPlansTab(page);
  try {
    kept.id = await addPlan(page, kept.name, '150');
    dropped.id = await addPlan(page, dropped.name, '99');
    await expect(page.getByTestId(`plan-terms-${kept.id}`)).toContainText(
      '₹150.00 · 12 months · All products',
    );

    // Bad input first: the dialog says why and sends nothing.
    await page.getByTestId(`plan-edit-${kept.id}`).click();
    const dialog = page.getByTestId('plan-dialog');
    await expect(dialog.getByTestId('plan-price')).toHaveValue('150');
    await dialog.getByTestId('plan-price').fill('175.505');
    await dialog.getByTestId('plan-save').click();
    await expect(dialog).toContainText('Enter a price from ₹0 to ₹10,00,000');
    await dialog.getByTestId('plan-price').fill('175.50');
    await expectTranslated(page, SECTIONS);
    await viewportShot(page, '14-admin-plan-dialog-en');
    await dialog.getByTestId('plan-save').click();
    await expect(dialog).toBeHidden();
    kept.pricePaise = 17_550;
    await expect(page.getByTestId(`plan-terms-${kept.id}`)).toContainText('₹175.50');

    await page.getByTestId(`plan-edit-${dropped.id}`).click();
    await dialog.getByTestId('plan-active').uncheck();
    await dialog.getByTestId('plan-save').click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId(`plan-status-${dropped.id}`)).toHaveText('Inactive');
    await expect(page.getByTestId(`plan-status-${kept.id}`)).toHaveText('Active');
    await shot(page, '14-admin-plans-en');

    // The retailer (on its own phone) opens the antihacking screen, which loads the plans afresh:
    // the new price, no deactivated plan.
    const shop = await browser.newContext({
      ...IN_PHONE,
      baseURL,
      storageState: await demoRetailerSession(),
    });
    try {
      const shopPage = await shop.newPage();
      const plansLoaded = shopPage.waitForResponse((r) => r.url().endsWith(ANTIHACKING_PLANS_PATH));
      await shopPage.goto('/antihacking');
      const offered = ((await (await plansLoaded).json()) as { data: TPlan[] }).data;
      expect(offered.find((plan) => plan.id === kept.id)).toMatchObject({
        name: kept.name,
        pricePaise: 17_550,
      });
      expect(offered.map((plan) => plan.id)).not.toContain(dropped.id);
      await shopPage.getByTestId('plan-plan_id').locator('..').getByRole('combobox').click();
      await expect(shopPage.getByTestId(`plan-option-${kept.id}`)).toContainText('₹175.50');
      await expect(shopPage.getByTestId(`plan-option-${dropped.id}`)).toHaveCount(0);
    } finally {
      await shop.close();
    }

    // The admin's screens in Hindi.
    await setLanguage(context, baseURL!, 'hn');
    await page.reload();
    await openPlansTab(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'hn');
    await expect(page.getByTestId(`plan-status-${dropped.id}`)).toHaveText('निष्क्रिय');
    await expectTranslated(page, SECTIONS);
    await shot(page, '14-admin-plans-hn');
    await page.getByTestId(`plan-edit-${kept.id}`).click();
    await expect(dialog).toContainText('प्लान बदलें');
    await viewportShot(page, '14-admin-plan-dialog-hn');
  } finally {
    // Leave the catalogue as seeded: protection-plans checks the exact anti-hacking plans offered.
    for (const plan of [kept, dropped]) if (plan.id) await deactivatePlan(page, plan);
  }
});
