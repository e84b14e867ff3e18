import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { loginToDashboard, loginWithOtp } from '../support/login';
import { ARTIFACTS, REPO_ROOT } from '../support/server';

/** Issue 3 journeys: MPIN, languages, unknown route, revoked session, offline, inactive customers. */
const MINI_RETAILER = '9876543211';
const RETAILER = '9876543210';
const SECOND_ORG_RETAILER = '9812345678';

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(ARTIFACTS, 'screenshots', `${name}.png`) });
const locale = (lng: string) =>
  JSON.parse(readFileSync(join(REPO_ROOT, `apps/web/public/locales/${lng}.json`), 'utf8'));

test.use({ serviceWorkers: 'block' });

test('MPIN: set after the first OTP login, then log in with it', async ({ page }) => {
  await loginWithOtp(page, MINI_RETAILER);
  await expect(page).toHaveURL(/\/m_pin\?mode=set$/);
  await page.getByTestId('mpin-new').fill('2580');
  await page.getByTestId('mpin-confirm').fill('2580');
  await shot(page, '20-mpin-set');
  await page.getByTestId('mpin-set-submit').click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.getByTestId('logout-button').click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByTestId('login-with-mpin').click();
  await expect(page).toHaveURL(/\/m_pin/);
  await expect(page.getByTestId('mpin-mobile')).toHaveValue(/98765\s?43211/);
  await page.getByTestId('mpin-input').fill('1111');
  await page.getByTestId('mpin-login-submit').click();
  await expect(page.getByText('Incorrect MPIN. 4 tries left')).toBeVisible();
  await page.getByTestId('mpin-input').fill('2580');
  await shot(page, '21-mpin-login');
  await page.getByTestId('mpin-login-submit').click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('language: switch to Hindi and back to English', async ({ page }) => {
  const hindi = locale('hn');
  const english = locale('en');
  await loginToDashboard(page, RETAILER);
  await page.getByTestId('drawer-open').click();
  await page.getByTestId('drawer-item-language').click();
  await expect(page).toHaveURL(/\/language$/);
  await page.getByTestId('language-option-hn').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'hn');
  await expect(page.getByTestId('nav-dashboard')).toHaveText(hindi.nav.dashboard);
  await shot(page, '22-language-hindi');
  await page.reload();
  await expect(page.getByTestId('nav-dashboard')).toHaveText(hindi.nav.dashboard); // remembered
  await page.getByTestId('nav-dashboard').click();
  await expect(page.getByTestId('dashboard-total')).toBeVisible();
  await shot(page, '23-dashboard-hindi');
  await page.goto('/language');
  await page.getByTestId('language-option-en').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByTestId('nav-dashboard')).toHaveText(english.nav.dashboard);
  await shot(page, '24-language-english');
});

test('an unknown route says Not found; every spec screen is built (help: issue 16)', async ({ page }) => {
  await loginToDashboard(page, RETAILER);
  await page.goto('/no_such_screen');
  await expect(page.getByText('Not found', { exact: true })).toBeVisible();
  await page.goto('/help');
  await expect(page.getByTestId('markdown-body')).toBeVisible();
  await expect(page.getByTestId('coming-soon')).toHaveCount(0);
  // Built in issue 13: the seeded key movements (top-ups, the transfer, keys used).
  await page.goto('/top_up_history');
  await expect(page.getByTestId('ledger-movements')).toBeVisible();
});

test('a session revoked from another device lands on /login with storage cleared', async ({ browser }) => {
  const phone = await browser.newPage();
  const laptop = await browser.newPage();
  try {
    await loginToDashboard(phone, RETAILER);
    await loginToDashboard(laptop, RETAILER);
    await laptop.goto('/sessions');
    const other = laptop.locator('[data-testid^="session-row-"][data-current="false"]').first();
    await expect(other).toBeVisible();
    await shot(laptop, '26-sessions');
    await other.getByTestId('session-logout').click();
    await expect(laptop.getByText('Logged out of that device')).toBeVisible();

    await phone.getByTestId('nav-customers').click();
    await expect(phone).toHaveURL(/\/login$/);
    expect(await phone.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
  } finally {
    await phone.close();
    await laptop.close();
  }
});

test('opening an inactive customer: organisation 41 goes to the QR, organisation 46 warns', async ({
  page,
  browser,
}) => {
  await loginToDashboard(page, RETAILER);
  await page.getByTestId('nav-customers').click();
  await page
    .getByTestId(/customer-row-\d+/)
    .filter({ hasText: 'Rahul' })
    .click();
  await expect(page).toHaveURL(/\/customer_navigate\?customer_id=\d+$/);

  const second = await browser.newPage();
  try {
    await loginToDashboard(second, SECOND_ORG_RETAILER, '?org=46');
    await expect(second.getByTestId('app-shell')).toHaveAttribute('data-layout', 'compact');
    await expect(second.getByTestId('dashboard-list')).toBeVisible();
    await shot(second, '27-org-46-dashboard');
    await second.goto('/customer_list');
    await second
      .getByTestId(/customer-row-\d+/)
      .filter({ hasText: 'Farah' })
      .click();
    await expect(second.getByText('Customer is Inactive')).toBeVisible();
    await expect(second).toHaveURL(/\/customer_list/);
    await shot(second, '28-org-46-inactive-warning');
  } finally {
    await second.close();
  }
});
