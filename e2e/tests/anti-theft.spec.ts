import type { Page } from '@playwright/test';
import {
  ACTIVATION_CODE,
  expect,
  expectTranslated,
  IN_PHONE,
  openDrawerItem,
  setLanguage,
  shot,
  test,
} from '../support/fixtures';

/**
 * Issue 14, anti-theft: the demo retailer sells anti-theft plans to two of its demo customers
 * (Aarav, installed, and Rahul, still inactive), gets each code, sees both sales listed with
 * spec §4's display (inactive → Disabled, any other status → Enabled), and opens a customer from
 * the list. The screen is photographed in English and Hindi at 412×915.
 */

test.use({ ...IN_PHONE, signedInAs: 'demoRetailer' });

/** The translation sections whose keys must never show untranslated. */
const SECTIONS = ['antiTheft', 'appType', 'pages', 'nav'];

/** Sells the plan whose option starts with `planName` to the demo customer `customerName`; returns the code. */
const sellTo = async (page: Page, planName: string, customerName: string): Promise<string> => {
  await page.getByRole('combobox', { name: /^Plan/ }).click();
  await page.getByRole('option', { name: new RegExp(`^${planName} ·`) }).click();
  // The customer list searches a name, mobile or IMEI: the first name finds them.
  await page.getByTestId('anti-theft-customer').fill(customerName.split(' ')[0]!);
  await page.getByRole('option', { name: new RegExp(`^${customerName} ·`) }).click();
  await page.getByTestId('anti-theft-sell').click();
  const code = (await page.getByTestId('code-drawer-code').textContent()) ?? '';
  expect(code).toMatch(ACTIVATION_CODE);
  return code;
};

test('a retailer sells anti-theft to its customers, sees Enabled or Disabled, and opens a customer', async ({
  page,
  context,
  baseURL,
}) => {
  await page.goto('/dashboard');
  await openDrawerItem(page, 'antiTheft', /\/anti_theft$/);
  await expect(page.getByTestId('anti-theft-sell-form')).toBeVisible();

  const aaravCode = await sellTo(page, 'Device Lock \\+ Anti-Theft', 'Aarav Sharma');
  await expect(page.getByText('Anti-theft plan sold')).toBeVisible();
  await page.getByTestId('code-drawer-cancel').click();
  await expect(page.getByTestId('code-drawer')).toBeHidden();

  const rahulCode = await sellTo(page, 'Anti-Theft', 'Rahul Verma');
  await shot(page, '14-anti-theft-code-en');
  await page.getByTestId('code-drawer-cancel').click();
  await expect(page.getByTestId('code-drawer')).toBeHidden();

  const sales = page.getByTestId('anti-theft-sales');
  const aaravRow = sales.getByTestId(/^anti-theft-sale-\d+$/).filter({ hasText: aaravCode });
  const rahulRow = sales.getByTestId(/^anti-theft-sale-\d+$/).filter({ hasText: rahulCode });
  // Installed → Enabled; inactive → Disabled (spec §4).
  await expect(aaravRow.getByTestId('anti-theft-display')).toHaveText('Enabled');
  await expect(rahulRow.getByTestId('anti-theft-display')).toHaveText('Disabled');
  await expect(rahulRow).toContainText('Rahul Verma');
  // The list is the server's, not just the page's memory: it survives a reload.
  await page.reload();
  await expect(rahulRow.getByTestId('anti-theft-display')).toHaveText('Disabled');
  await expect(aaravRow.getByTestId('anti-theft-display')).toHaveText('Enabled');
  await shot(page, '14-anti-theft-en');

  await setLanguage(context, baseURL!, 'hn');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'hn');
  await expect(rahulRow.getByTestId('anti-theft-display')).toHaveText('बंद');
  await expect(aaravRow.getByTestId('anti-theft-display')).toHaveText('चालू');
  await expectTranslated(page, SECTIONS);
  await shot(page, '14-anti-theft-hn');

  await aaravRow.click();
  await expect(page).toHaveURL(/\/customer_details\/\d+$/);
  await expect(page.getByText('Aarav Sharma').first()).toBeVisible();
});
