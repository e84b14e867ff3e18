import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { loginToDashboard } from '../support/login';
import { ARTIFACTS } from '../support/server';

/** Issue 4 journeys: a retailer records two payments; the customer sees only their own loan. */
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(ARTIFACTS, 'screenshots', `${name}.png`), fullPage: true });
const rupeesToNumber = (text: string) => Number(text.replace(/[^\d.]/g, ''));

test.use({ serviceWorkers: 'block' });

test('a retailer records a partial payment and then the rest of two instalments', async ({ page }) => {
  await loginToDashboard(page, '9876543210');
  await page.getByTestId('nav-customers').click();
  await page
    .getByTestId(/customer-row-\d+/)
    .filter({ hasText: 'Priya' })
    .click();
  await expect(page).toHaveURL(/\/customer_details\/\d+$/);
  await page.getByTestId('open-emi-details').click();
  await expect(page).toHaveURL(/\/emi_details\?customer_id=\d+$/);
  await expect(page.getByTestId('emi-row-1').getByTestId('instalment-status')).toHaveText('Overdue');

  // Payment 1: ₹1,000 towards instalment 1 (partial).
  await page.getByTestId('emi-select-1').click();
  await page.getByTestId('emi-pay-amount').fill('1000');
  await page.getByTestId('emi-pay-mode').click();
  await page.getByTestId('emi-pay-mode-cash').click();
  await page.getByTestId('emi-pay-submit').click();
  const receipt = page.getByRole('dialog', { name: 'Payment receipt' });
  await expect(receipt.getByTestId('receipt-no')).toHaveText(/KR-41-\d{6}/);
  await expect(receipt.getByTestId('receipt-amount')).toContainText('1,000.00');
  await shot(page, '40-first-receipt');
  await receipt.getByTestId('receipt-close').click();
  await expect(page.getByTestId('emi-row-1').getByTestId('emi-row-paid')).toContainText('1,000.00');

  // Payment 2: the rest of instalment 1 and all of instalment 2, by UPI with a reference.
  await page.getByTestId('emi-select-1').click();
  await page.getByTestId('emi-select-2').click();
  const owed = rupeesToNumber(await page.getByTestId('emi-pay-amount').inputValue());
  expect(owed).toBeGreaterThan(0);
  await page.getByTestId('emi-pay-mode').click();
  await page.getByTestId('emi-pay-mode-upi').click();
  await page.getByTestId('emi-pay-reference').fill('UPI-4242');
  await page.getByTestId('emi-pay-submit').click();
  await expect(receipt.getByTestId('receipt-reference')).toHaveText('UPI-4242');
  await receipt.getByTestId('receipt-close').click();

  await expect(page.getByTestId('emi-row-1').getByTestId('instalment-status')).toHaveText('Paid');
  await expect(page.getByTestId('emi-row-2').getByTestId('instalment-status')).toHaveText('Paid');
  await expect(page.locator('[data-testid^="emi-payment-KR-41-"]')).toHaveCount(2);
  const paid = rupeesToNumber((await page.getByTestId('emi-total-paid').textContent()) ?? '');
  expect(paid).toBeCloseTo(1000 + owed, 2);
  await shot(page, '41-emi-details-after-payments');

  // The dashboard shows the money collected.
  await page.getByTestId('nav-dashboard').click();
  await expect(page.getByTestId('dashboard-collected-month-value')).not.toHaveText('N/A');
  // Four seeded customers, and any other journey's on this shared server.
  await expect(page.getByTestId('dashboard-total')).toContainText(/([4-9]|\d{2,})Total/);
  await shot(page, '42-dashboard-money');
});

test('a customer logs in and sees only their own loan and how to pay', async ({ page }) => {
  await loginToDashboard(page, '9811111102');
  const loan = page.locator('[data-testid^="my-loan-"][data-testid$="0"], [data-testid^="my-loan-"]').first();
  await expect(page.getByTestId('my-loan-upi-id')).toHaveText('ravimobiles@okaxis');
  await expect(page.getByTestId('my-loan-lock-status')).toHaveText('Locked');
  await expect(page.getByTestId('my-loan-pay-upi')).toHaveAttribute(
    'href',
    /^upi:\/\/pay\?pa=ravimobiles@okaxis&pn=Ravi%20Mobiles&am=\d+\.\d{2}&tr=KSH\d+I\d+&cu=INR/,
  );
  await expect(loan).toBeVisible();
  await expect(page.getByTestId('nav-customers')).toHaveCount(0);
  await shot(page, '43-my-loan');
  await page.goto('/customer_list');
  await expect(page).toHaveURL(/\/dashboard$/);
});
