import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { loginToDashboard, loginWithOtp } from '../support/login';
import { ARTIFACTS } from '../support/server';

/**
 * Issue 14 "plans per organisation … an admin can edit them": the organisation admin adds two
 * anti-hacking plans, changes the price of one and deactivates the other; the retailer's
 * antihacking screen then offers the new price and no longer the deactivated plan. The admin's
 * plans section and dialog are photographed in English and Hindi at 412×915. The plans are the
 * test's own, so the demo plans other journeys sell stay as seeded.
 */

const SHOTS = join(ARTIFACTS, 'screenshots');
mkdirSync(SHOTS, { recursive: true });
const VIEWPORT = { width: 412, height: 915 };
test.use({ locale: 'en-IN', timezoneId: 'Asia/Kolkata', viewport: VIEWPORT });

/** The plan routes (packages/domain paths.plans.list and .antihacking). */
const PLANS_PATH = '/api/plans';
const ANTIHACKING_PLANS_PATH = '/api/customer/get_plans_antihacking';
/** The part of a plan (TPlan) the journey reads. */
type TPlan = { id: number; name: string; pricePaise: number; isActive: boolean };

const DEMO_RETAILER = '9876543210';
const DEMO_ADMIN = '9876500000';

/** A screenshot of the whole page, taken on a phone as tall as the page. */
const shot = async (page: Page, name: string) => {
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height > VIEWPORT.height) await page.setViewportSize({ width: VIEWPORT.width, height });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
  await page.setViewportSize(VIEWPORT);
};

/** Text that is an i18n key left untranslated. */
const RAW_KEY = /\b(adminPlans|admin|appType)\.[a-zA-Z_]+\b/;

/** The admin logs in and opens the Plans tab of the admin home. */
const openAdminPlans = async (page: Page) => {
  await loginWithOtp(page, DEMO_ADMIN);
  await page.waitForURL(/\/(m_pin\?mode=set|admin)$/);
  if (page.url().includes('m_pin')) await page.getByTestId('mpin-skip').click();
  await expect(page).toHaveURL(/\/admin$/);
  await page.getByTestId('admin-tab-plans').click();
  await expect(page.getByTestId('plan-group-8')).toBeVisible();
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
}) => {
  const suffix = String(Date.now() % 100_000);
  const kept = `Shield ${suffix}`;
  const dropped = `Shield Lite ${suffix}`;

  await openAdminPlans(page);
  const keptId = await addPlan(page, kept, '150');
  const droppedId = await addPlan(page, dropped, '99');
  await expect(page.getByTestId(`plan-terms-${keptId}`)).toContainText('₹150.00 · 12 months · All products');

  // Bad input first: the dialog says why and sends nothing.
  await page.getByTestId(`plan-edit-${keptId}`).click();
  const dialog = page.getByTestId('plan-dialog');
  await expect(dialog.getByTestId('plan-price')).toHaveValue('150');
  await dialog.getByTestId('plan-price').fill('175.505');
  await dialog.getByTestId('plan-save').click();
  await expect(dialog).toContainText('Enter a price from ₹0 to ₹10,00,000');
  await dialog.getByTestId('plan-price').fill('175.50');
  await expect(page.locator('body')).not.toContainText(RAW_KEY);
  await page.screenshot({ path: join(SHOTS, '14-admin-plan-dialog-en.png') });
  await dialog.getByTestId('plan-save').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId(`plan-terms-${keptId}`)).toContainText('₹175.50');

  await page.getByTestId(`plan-edit-${droppedId}`).click();
  await dialog.getByTestId('plan-active').uncheck();
  await dialog.getByTestId('plan-save').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId(`plan-status-${droppedId}`)).toHaveText('Inactive');
  await expect(page.getByTestId(`plan-status-${keptId}`)).toHaveText('Active');
  await shot(page, '14-admin-plans-en');
  await page.getByTestId('logout-button').click();
  await expect(page).toHaveURL(/\/login$/);

  // The retailer's antihacking screen loads the plans afresh: the new price, no deactivated plan.
  await loginToDashboard(page, DEMO_RETAILER);
  const plansLoaded = page.waitForResponse((r) => r.url().endsWith(ANTIHACKING_PLANS_PATH));
  await page.goto('/antihacking');
  const offered = ((await (await plansLoaded).json()) as { data: TPlan[] }).data;
  expect(offered.find((plan) => plan.id === keptId)).toMatchObject({ name: kept, pricePaise: 17_550 });
  expect(offered.map((plan) => plan.id)).not.toContain(droppedId);
  await page.getByTestId('plan-plan_id').locator('..').getByRole('combobox').click();
  await expect(page.getByTestId(`plan-option-${keptId}`)).toContainText('₹175.50');
  await expect(page.getByTestId(`plan-option-${droppedId}`)).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.getByTestId('logout-button').click();
  await expect(page).toHaveURL(/\/login$/);

  // The admin's screens in Hindi.
  await context.addCookies([{ name: 'i18next', value: 'hn', url: baseURL! }]);
  await openAdminPlans(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'hn');
  await expect(page.getByTestId(`plan-status-${droppedId}`)).toHaveText('निष्क्रिय');
  await expect(page.locator('body')).not.toContainText(RAW_KEY);
  await shot(page, '14-admin-plans-hn');
  await page.getByTestId(`plan-edit-${keptId}`).click();
  await expect(dialog).toContainText('प्लान बदलें');
  await page.screenshot({ path: join(SHOTS, '14-admin-plan-dialog-hn.png') });
});
