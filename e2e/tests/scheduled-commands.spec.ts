import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { AgentProcess } from '../support/agent-process';
import { addCustomerWithEnrolledPhone } from '../support/enrolled-phone';
import { expect, test } from '../support/fixtures';
import { chooseLockReason } from '../support/lock-reason';
import { loginToDashboard } from '../support/login';
import { ARTIFACTS } from '../support/server';

/**
 * A retailer schedules a lock for later, finds it on pending_commands and cancels it; sets a new
 * screen-lock PIN on the phone; sees a command wait for the phone while it is offline; and saves
 * the organisation's device-control settings, which a mini-retailer may not change.
 */
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(ARTIFACTS, 'screenshots', `${name}.png`), fullPage: true });
const IMEI_1 = '358472059316470';
const IMEI_2 = '864128033752191';

test.use({ serviceWorkers: 'block' });

test('schedule, pending commands, change PIN and device settings', async ({ page, baseURL }) => {
  const agent = new AgentProcess('agent-scheduled-commands');
  const statePath = join(mkdtempSync(join(tmpdir(), 'kisht-e2e-sc-')), 'device.json');
  try {
    await loginToDashboard(page, '9876543210');
    // Set-up through the API: a customer whose phone enrols with the reference agent.
    const customerId = await addCustomerWithEnrolledPhone(page, baseURL, agent, {
      firstName: 'Meena',
      lastName: 'Iyer',
      mobile: '9123400088',
      imei1: IMEI_1,
      imei2: IMEI_2,
      pricePaise: 1_499_900,
      loanAmountPaise: 1_200_000,
      statePath,
    });

    // 1. Schedule a lock for later: the picker reads India time; the history says when.
    await page.goto(`/customer_details/${customerId}?tab=actions`);
    await expect(page.getByTestId('lock-state')).toHaveText('Unlocked');
    await page.getByTestId('lock-button').click();
    await page.getByTestId('lock-when-later').check();
    await chooseLockReason(page, 'customer_request', 'Customer asked us to test the lock');
    const picked = await page.getByTestId('lock-when-run-at').inputValue();
    await expect(page.getByText(/^India time \(IST\): \d{2}-\d{2}-\d{4} \d{2}:\d{2} (AM|PM)$/)).toBeVisible();
    await page.getByRole('button', { name: 'Schedule lock' }).click();
    const [date, time] = picked.split('T') as [string, string];
    const [year, month, day] = date.split('-');
    const hour = Number(time.slice(0, 2));
    const shown = `${day}-${month}-${year} ${String(((hour + 11) % 12) + 1).padStart(2, '0')}:${time.slice(3, 5)} ${hour < 12 ? 'AM' : 'PM'}`;
    await expect(page.getByText(`Lock scheduled for ${shown}`)).toBeVisible();
    // Exact: the toast above also contains "scheduled for …".
    await expect(page.getByText(`Scheduled for ${shown}`, { exact: true })).toBeVisible();
    // The history says why: the reason's category and the note (issue 25).
    await expect(
      page.getByText('Reason: Customer request — Customer asked us to test the lock').first(),
    ).toBeVisible();
    // Waiting for its time, not on its way: the phone stays unlocked and the card does not say "Locking…".
    await expect(page.getByTestId('lock-state')).toHaveText('Unlocked');
    await shot(page, '70-lock-scheduled');

    // 2. Change the phone's screen-lock PIN after a BYPASS_CODE OTP; the history never shows it.
    await page.getByTestId('action-change-pin').click();
    await page.getByTestId('change-pin-send-otp').click();
    const otp = /(\d{6})/.exec((await page.getByTestId('change-pin-dev-otp').textContent()) ?? '')![1]!;
    await page.getByTestId('change-pin-pin').fill('1234');
    await page.getByTestId('change-pin-confirmPin').fill('1234');
    await page.getByTestId('change-pin-otp').fill(otp);
    // A new PIN leaves only a lock screen: with nothing overdue it asks why (issue 25).
    await chooseLockReason(page, 'customer_request');
    await page.getByTestId('change-pin-submit').click();
    await expect(page.getByText('Choose a PIN that is not a repeated digit or a straight run')).toBeVisible();
    await page.getByTestId('change-pin-pin').fill('47193');
    await page.getByTestId('change-pin-confirmPin').fill('47193');
    await page.getByTestId('change-pin-submit').click();
    await expect(page.getByText('Change PIN: sent to the phone')).toBeVisible();
    const pinRow = page.getByTestId('command-history').locator('li', { hasText: 'Change PIN' });
    await expect(pinRow.locator('[data-state="done"]')).toBeVisible();
    await expect(page.getByTestId('command-history')).not.toContainText('47193');
    await shot(page, '71-pin-changed');

    // 3. pending_commands: the scheduled lock, cancelled after a confirmation.
    await page.goto('/pending_commands?tab=scheduled');
    const scheduled = page.getByTestId('pending-commands-list').locator('li', { hasText: 'Meena Iyer' });
    await expect(scheduled).toContainText(`Scheduled for ${shown}`);
    await shot(page, '72-pending-scheduled');
    await scheduled.getByRole('button', { name: 'Cancel Lock' }).click();
    await page.getByTestId('pending-command-cancel-confirm').click();
    await expect(page.getByText('Command cancelled')).toBeVisible();
    await expect(
      page.getByTestId('pending-commands-list').locator('li', { hasText: 'Meena Iyer' }),
    ).toHaveCount(0);

    // 4. The phone goes offline: a command waits for it on the first tab.
    await agent.stop();
    await page.goto(`/customer_details/${customerId}?tab=device`);
    await expect(page.getByTestId('device-online')).toHaveText('Offline');
    await page.getByTestId('control-camera_lock').click();
    // A restriction asks why; with nothing overdue and no lock screen, the reason may stay unsaid.
    await chooseLockReason(page.getByTestId('control-args-dialog'), 'customer_request');
    await page.getByTestId('control-args-submit').click();
    await expect(page.getByText('Camera lock: sent to the phone')).toBeVisible();
    await page.goto('/pending_commands');
    await expect(
      page.getByTestId('pending-commands-list').locator('li', { hasText: 'Meena Iyer' }),
    ).toContainText('Camera lock');
    await shot(page, '73-pending-offline');

    // 5. Device control settings: the retailer saves an expiry; a mini-retailer may not.
    await page.goto('/device_settings');
    await page.getByTestId('device-settings-expiry').check();
    await page.getByTestId('device-settings-expiry-hours').fill('48');
    await page.getByTestId('device-settings-save').click();
    await expect(page.getByText('Settings saved')).toBeVisible();
    await page.reload();
    await expect(page.getByTestId('device-settings-expiry-hours')).toHaveValue('48');
    await shot(page, '74-device-settings');

    await page.getByTestId('logout-button').click();
    await loginToDashboard(page, '9876543211');
    await page.goto('/device_settings');
    await expect(page.getByText('Only the retailer can change these settings')).toBeVisible();
    await shot(page, '75-device-settings-mini-retailer');
  } finally {
    await agent.stop();
  }
});
