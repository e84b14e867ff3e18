import type { Page } from '@playwright/test';
import { digits, expect, freshImei, freshMobile, IN_PHONE, shot, test } from '../support/fixtures';
import { chooseLockReason } from '../support/lock-reason';

/**
 * Issue 28, offline reading: the customer list, a customer's details, their EMI schedule and the
 * upcoming EMIs, loaded once, open again after an offline reload (the service worker serves the
 * app, the last answers come from the phone's IndexedDB) saying "as of" when they were fetched,
 * and "You are offline" only once; a lock tried offline says it needs a connection, and nothing
 * is sent then or later.
 */
test.use({ ...IN_PHONE, signedInAs: 'demoRetailer', serviceWorkers: 'allow' });

/** "as of 29-11-2026 10:42 AM": India time as spec §1 writes it. */
const AS_OF = /as of \d{2}-\d{2}-\d{4} \d{2}:\d{2} [AP]M/;
const UNANSWERED = 'You are offline. Check your internet connection and try again.';
/** The lock and unlock commands' paths (packages/domain paths.devices.lock and unlock). */
const COMMAND_PATHS = ['/api/device/lock', '/api/device/unlock'];
/**
 * The customer list searched for Aarav: other journeys on this worker's server add customers, so
 * which seeded ones are on the unsearched first page varies.
 */
const AARAV_LIST = '/customer_list?search=Aarav';

/**
 * A loan of the signed-in retailer whose first instalment fell due 10 days ago, added through the
 * API, so the overdue tab has a row whatever other journeys on this server paid (the seeded
 * overdue loan, Priya's, is paid by the EMI payments journey when it runs here first).
 */
const addOverdueLoan = async (page: Page) => {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const headers = { authorization: `Bearer ${token}` };
  const products = await (await page.request.get('/api/products?device_type=0', { headers })).json();
  const firstDueDate = new Date(Date.now() + (5.5 * 60 - 10 * 24 * 60) * 60_000).toISOString().slice(0, 10);
  const created = await page.request.post('/country/customerRegistrationByKegenUpdateV3', {
    headers,
    data: {
      firstName: 'Overdue',
      lastName: `Offline${digits(4)}`,
      mobile: freshMobile('8'),
      imei1: freshImei(),
      imei2: freshImei(),
      productId: products.data[0].id,
      pricePaise: 1_299_900,
      downPaymentPaise: 299_900,
      loanAmountPaise: 1_000_000,
      annualRateBps: 1400,
      tenureMonths: 6,
      firstDueDate,
    },
  });
  expect(created.status(), await created.text()).toBe(200);
};

test('offline, the customer list, details, EMI schedule and upcoming EMIs read as of the last fetch; a lock needs a connection', async ({
  page,
  context,
}) => {
  // Every lock or unlock the page sends, for the end: none must leave while offline or after.
  const commandsSent: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (COMMAND_PATHS.includes(pathname)) commandsSent.push(pathname);
  });

  await page.goto(AARAV_LIST);
  // The service worker keeps the app, so that a reload without a network still opens it.
  await expect(page.getByTestId('reload-prompt-message')).toHaveText('App ready to work offline');
  const aarav = page.getByTestId(/^customer-row-\d+$/).filter({ hasText: 'Aarav Sharma' });
  await expect(aarav).toBeVisible();
  await expect(page.getByTestId('saved-read-notice')).toHaveCount(0);
  // Aarav's details and EMI schedule, and the overdue EMIs, are opened once online, so they too
  // are kept for offline reading.
  await aarav.click();
  await expect(page).toHaveURL(/\/customer_details\/\d+$/);
  await expect(page.getByTestId('lock-state')).toHaveText('Unlocked');
  await expect(page.getByTestId('customer-schedule-card')).toBeVisible();
  await page.getByTestId('open-emi-details').click();
  await expect(page).toHaveURL(/\/emi_details\?customer_id=\d+$/);
  const emiDetailsUrl = page.url();
  await expect(page.getByTestId('emi-payments-card')).toBeVisible();
  await addOverdueLoan(page);
  await page.goto('/up_coming_emi?range=overdue');
  // Who is overdue depends on what other journeys on this server paid or added: the offline tab is
  // checked against what was read here.
  const overdueRow = page.getByTestId(/^upcoming-row-\d+$/).first();
  const overdueOnline = (await overdueRow.textContent()) ?? '';
  expect(overdueOnline).not.toBe('');
  await page.goto(AARAV_LIST);
  await expect(aarav).toBeVisible();
  // The list as it was read online: the offline list is checked against this one.
  const firstRow = page.getByTestId(/^customer-row-\d+$/).first();
  const firstOnline = (await firstRow.textContent()) ?? '';
  expect(firstOnline).not.toBe('');

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('saved-read-notice')).toContainText(AS_OF);
  await expect(aarav).toBeVisible();
  await expect(firstRow).toHaveText(firstOnline);
  await expect(page.getByText(UNANSWERED)).toHaveCount(0);
  await shot(page, '173-offline-customer-list');

  await page.goto('/up_coming_emi?range=overdue');
  await expect(page.getByTestId('saved-read-notice')).toContainText(AS_OF);
  await expect(overdueRow).toHaveText(overdueOnline);
  await expect(page.getByText(UNANSWERED)).toHaveCount(0);
  await page.goto(emiDetailsUrl);
  await expect(page.getByTestId('saved-read-notice')).toContainText(AS_OF);
  await expect(page.getByTestId('emi-payments-card')).toBeVisible();
  // The EMI PIN is not kept on the phone; its card says so rather than that the network failed.
  await expect(page.getByTestId('emi-pin-offline')).toBeVisible();
  await expect(page.getByText(UNANSWERED)).toHaveCount(0);
  await shot(page, '174-offline-emi-details');
  await page.goto(AARAV_LIST);
  await expect(aarav).toBeVisible();

  await aarav.click();
  await expect(page).toHaveURL(/\/customer_details\/\d+$/);
  await expect(page.getByTestId('saved-read-notice')).toContainText(AS_OF);
  await expect(page.getByTestId('customer-schedule-card')).toBeVisible();
  await expect(page.getByTestId('customer-plans-offline')).toBeVisible();
  await expect(page.getByText(UNANSWERED)).toHaveCount(0);
  await page.getByTestId('lock-button').click();
  const dialog = page.getByRole('dialog', { name: 'Lock this phone?' });
  await chooseLockReason(dialog, 'customer_request');
  await dialog.getByTestId('confirm-dialog-confirm').click();
  await expect(page.getByText('This needs a connection. Nothing was sent.')).toBeVisible();
  await shot(page, '175-offline-lock-refused');
  expect(commandsSent).toEqual([]);

  // Back online: the details are fetched afresh (the "as of" goes), the phone is still unlocked
  // with nothing on its way, and the refused lock was never sent later.
  await context.setOffline(false);
  await expect(page.getByTestId('saved-read-notice')).toHaveCount(0);
  await expect(page.getByTestId('lock-state')).toHaveText('Unlocked');
  await expect(page.getByTestId('device-pending')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('lock-state')).toHaveText('Unlocked');
  expect(commandsSent).toEqual([]);
});
