import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { AgentProcess } from '../support/agent-process';
import { signConsentInUi } from '../support/consent';
import { decodeQrOnPage } from '../support/families';
import { expect, test } from '../support/fixtures';
import { chooseLockReason } from '../support/lock-reason';
import { ARTIFACTS } from '../support/server';

/**
 * The walking skeleton, as a retailer and a phone live it (issue 2, steps 1–5): log in with the
 * OTP, add a customer, open the enrolment QR, enrol the reference agent with the downloaded QR
 * PNG, then lock and unlock — also across the agent being switched off.
 */
const IMEI_1 = '490154203237518';
const IMEI_2 = '356938035643809';

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(ARTIFACTS, 'screenshots', `${name}.png`), fullPage: true });

test('a retailer enrols a phone and locks and unlocks it', async ({ page }) => {
  const agent = new AgentProcess('agent');
  const statePath = join(mkdtempSync(join(tmpdir(), 'kisht-e2e-agent-')), 'device.json');
  try {
    // 1. Log in with the demo mobile and the development OTP from the banner.
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await page.getByTestId('login-mobile').fill('9876543210');
    await shot(page, '01-login');
    await page.getByTestId('login-submit').click();
    const banner = page.getByTestId('dev-otp-banner');
    await expect(banner).toContainText(/\d{6}/);
    await shot(page, '02-otp');
    const otp = /(\d{6})/.exec((await banner.textContent()) ?? '')![1]!;
    await page.getByTestId('otp-input').fill(otp);
    await page.getByTestId('otp-submit').click();
    // First login: the app offers to set an MPIN; this journey skips it.
    await expect(page).toHaveURL(/\/m_pin\?mode=set$/);
    await page.getByTestId('mpin-skip').click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('dashboard-total')).toContainText(/\d+/); // other journeys share the server
    await shot(page, '03-dashboard');

    // 2. Add a customer with the phone's IMEIs and a catalogue product.
    await page.getByTestId('nav-add-customer').click();
    // The guided form: personal → address → device → product & financer → loan.
    await page.getByLabel('First name').fill('Anita');
    await page.getByLabel('Last name').fill('Kulkarni');
    await page.getByLabel('Mobile number').fill('9123456789');
    await page.getByTestId('add-customer-next').click();
    await page.getByLabel('House, street and area').fill('12, FC Road');
    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: 'Maharashtra', exact: true }).click();
    await page.getByRole('combobox', { name: 'City' }).click();
    await page.getByRole('option', { name: 'Pune', exact: true }).click();
    await page.getByTestId('add-customer-next').click();
    await page.getByLabel('IMEI 1').fill(IMEI_1);
    await page.getByLabel('IMEI 2').fill(IMEI_2);
    await page.getByTestId('add-customer-next').click();
    await page.getByRole('combobox', { name: 'Product' }).click();
    await page.getByRole('option', { name: /Redmi Note 14 5G/ }).click();
    await page.getByTestId('add-customer-next').click();
    await page.getByLabel('Down payment (₹)').fill('2999');
    await page.getByRole('combobox', { name: 'Tenure' }).click();
    await page.getByRole('option', { name: '6 months', exact: true }).click();
    await expect(page.getByTestId('emi-preview-amount')).toContainText('₹');
    await shot(page, '04-add-customer');
    await page.getByTestId('add-customer-submit').click();
    // Step 6 offers photo, documents and signature; this journey goes straight on to enrolment.
    await expect(page).toHaveURL(/\/add_customer\?customer_id=\d+$/);
    await page.getByTestId('add-customer-finish-continue').click();
    // Step 7: the customer's signed consent to remote locking comes before any QR (issue 12).
    await signConsentInUi(page);

    // 3. The new, inactive customer lands on customer_navigate with the enrolment QR.
    await expect(page).toHaveURL(/\/customer_navigate\?customer_id=\d+/);
    const payload = await page.getByTestId('enrolment-payload').inputValue();
    expect(JSON.parse(payload)['android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE']).toBeTruthy();
    // A real decoder reads exactly the provisioning JSON from what the screen shows.
    expect(await decodeQrOnPage(page)).toBe(payload);
    await shot(page, '05-enrolment-qr');
    const download = page.waitForEvent('download');
    await page.getByTestId('download-qr').click();
    const pngPath = join(ARTIFACTS, 'enrolment-qr.png');
    await (await download).saveAs(pngPath);

    // 4. The phone (reference agent) enrols from the QR PNG with the IMEIs the retailer entered.
    agent.start(['enrol', '--qr', pngPath, '--imei1', IMEI_1, '--imei2', IMEI_2, '--state', statePath]);
    await agent.waitFor(/enrolled: device [0-9a-f-]{36}/);
    await agent.waitFor(/connected to ws:\/\/.+\/mqtt/);
    await expect(page.getByTestId('enrolment-success')).toBeVisible();
    await shot(page, '06-enrolled');
    await page.getByTestId('open-customer-details').click();
    await expect(page).toHaveURL(/\/customer_details\/\d+$/);
    await expect(page.getByTestId('lock-state')).toHaveText('Unlocked');

    // 5. Lock: confirm, see Locking…/Locked once the agent acknowledges.
    await page.getByTestId('lock-button').click();
    await expect(page.getByRole('dialog', { name: 'Lock this phone?' })).toBeVisible();
    // Nothing is overdue for a new customer: the lock asks why, as a category and a note (issue 25).
    await chooseLockReason(page, 'customer_request', 'Customer asked us to test the lock');
    await shot(page, '07-confirm-lock');
    await page.getByTestId('confirm-dialog-confirm').click();
    await expect(page.getByTestId('lock-state')).toHaveText('Locked');
    await agent.waitFor(/state: LOCKED/);
    await shot(page, '08-locked');

    // Unlock while the phone is switched off: the command waits, and lands when it comes back.
    await agent.stop();
    await page.getByTestId('unlock-button').click();
    await page.getByTestId('confirm-dialog-confirm').click();
    await expect(page.getByTestId('lock-state')).toHaveText('Unlocking…');
    await shot(page, '09-unlocking-offline');
    agent.start(['run', '--state', statePath]);
    await agent.waitFor(/state: UNLOCKED/);
    await expect(page.getByTestId('lock-state')).toHaveText('Unlocked');
    await shot(page, '10-unlocked');

    // Locking again while it runs ends Locked too.
    await page.getByTestId('lock-button').click();
    await chooseLockReason(page, 'device_misuse');
    await page.getByTestId('confirm-dialog-confirm').click();
    await expect(page.getByTestId('lock-state')).toHaveText('Locked');
    expect(agent.lastState()).toBe('LOCKED');

    // The list shows the customer as installed and locked.
    await page.getByTestId('nav-customers').click();
    const row = page.getByTestId(/customer-row-\d+/).filter({ hasText: 'Anita' });
    await expect(row.getByTestId('customer-lock-status')).toHaveText('Locked');
    await shot(page, '11-customer-list');
  } finally {
    await agent.stop();
  }
});
