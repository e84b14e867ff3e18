import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { AgentProcess } from '../support/agent-process';
import { addCustomerWithEnrolledPhone } from '../support/enrolled-phone';
import { expect, test } from '../support/fixtures';
import { chooseLockReason } from '../support/lock-reason';
import { loginToDashboard } from '../support/login';
import { ARTIFACTS, REPO_ROOT } from '../support/server';

/**
 * Issue 5 journey: a retailer locks a phone, unlocks it with an offline code while it has no
 * network, then bulk-locks it from multiple_lock_unlock and watches the progress.
 */
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(ARTIFACTS, 'screenshots', `${name}.png`), fullPage: true });
const IMEI_1 = '357805023984942';
const IMEI_2 = '490154203237526';
const agentCli = (args: string[]) =>
  execFileSync(process.execPath, [join(REPO_ROOT, 'apps/device-agent/bin/kisht-agent.mjs'), ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });

test.use({ serviceWorkers: 'block' });

test('lock, unlock with an offline code, then bulk: a paid-up phone left out of a lock, unlocked with live progress', async ({
  page,
  baseURL,
}) => {
  const agent = new AgentProcess('agent-device-control');
  const statePath = join(mkdtempSync(join(tmpdir(), 'kisht-e2e-dc-')), 'device.json');
  try {
    await loginToDashboard(page, '9876543210');
    // Set-up through the API: a customer and their enrolment QR (issue 4's journeys cover the form).
    const customerId = await addCustomerWithEnrolledPhone(page, baseURL, agent, {
      firstName: 'Vikram',
      lastName: 'Rao',
      mobile: '9123400077',
      imei1: IMEI_1,
      imei2: IMEI_2,
      pricePaise: 1_799_900,
      loanAmountPaise: 1_500_000,
      statePath,
    });

    // 1. Lock from customer_details.
    await page.goto(`/customer_details/${customerId}`);
    await expect(page.getByTestId('lock-state')).toHaveText('Unlocked');
    await page.getByTestId('lock-button').click();
    // Nothing is overdue for a new customer: the lock asks why, and a payment is no reason (issue 25).
    await expect(page.getByTestId('lock-reason-why')).toBeVisible();
    await expect(page.getByTestId('lock-reason-category').locator('option[value="overdue_emi"]')).toHaveCount(
      0,
    );
    await chooseLockReason(page, 'customer_request', 'Customer asked us to test the lock');
    await page.getByTestId('confirm-dialog-confirm').click();
    await expect(page.getByTestId('lock-state')).toHaveText('Locked');
    await agent.waitFor(/state: LOCKED/);
    await shot(page, '60-locked');

    // 2. The phone loses its network; the customer pays at the shop and reads out the challenge.
    await agent.stop();
    const challenge = /challenge: (\d{6})/.exec(agentCli(['challenge', '--state', statePath]))![1]!;
    await page.getByTestId('offline-code-open').click();
    await page.getByTestId('offline-code-send-otp').click();
    const otp = /(\d{6})/.exec((await page.getByTestId('offline-code-dev-otp').textContent()) ?? '')![1]!;
    await page.getByTestId('offline-code-challenge').fill(challenge);
    await page.getByTestId('offline-code-otp').fill(otp);
    await page.getByTestId('offline-code-submit').click();
    const result = page.getByTestId('offline-code-result');
    await expect(result).toContainText(/\d{8}/);
    await shot(page, '61-offline-code');
    const code = /(\d{8})/.exec((await result.textContent()) ?? '')![1]!;
    expect(agentCli(['offline-code', '--state', statePath, '--code', code])).toContain(
      'offline code accepted: unlock',
    );
    await page.keyboard.press('Escape');

    // Back online, the phone reports the unlock it made offline.
    agent.start(['run', '--state', statePath]);
    await agent.waitFor(/connected to ws:\/\/.+\/mqtt/);
    await page.reload();
    await expect(page.getByTestId('lock-state')).toHaveText('Unlocked');
    await shot(page, '62-unlocked-offline');

    // 3. A bulk lock leaves out a customer with nothing overdue (issue 12) and says no phone got it.
    const bulk = async (action: 'lock' | 'unlock') => {
      await page.goto('/multiple_lock_unlock');
      await page.getByTestId(`bulk-action-${action}`).click();
      await page.getByTestId('bulk-filter-selection').check();
      await page.getByTestId(`bulk-customer-${customerId}`).click();
      await page.getByTestId('bulk-submit').click();
      await page.getByTestId('bulk-confirm').click();
    };
    await bulk('lock');
    await expect(page.getByTestId('bulk-nothing-sent')).toBeVisible();
    await shot(page, '63-bulk-lock-left-out');

    // 4. Locked by hand with a reason, the phone is unlocked in bulk, with live progress to done.
    await page.goto(`/customer_details/${customerId}`);
    await page.getByTestId('lock-button').click();
    await chooseLockReason(page, 'customer_request');
    await page.getByTestId('confirm-dialog-confirm').click();
    await expect(page.getByTestId('lock-state')).toHaveText('Locked');
    // The agent printed UNLOCKED before (step 2): follow its latest state line.
    await expect.poll(() => agent.lastState(), { timeout: 30_000 }).toBe('LOCKED');
    await bulk('unlock');
    await expect(page.getByTestId('bulk-progress')).toBeVisible();
    await expect(page.getByTestId('bulk-count-done')).toContainText('1');
    await expect.poll(() => agent.lastState(), { timeout: 30_000 }).toBe('UNLOCKED');
    await shot(page, '64-bulk-unlock-done');
  } finally {
    await agent.stop();
  }
});

test('a phone whose SIM changed while it was off reconnects, tracking is turned on a second later: its first location report shows (issue 27)', async ({
  page,
  baseURL,
}) => {
  const agent = new AgentProcess('agent-first-location');
  const statePath = join(mkdtempSync(join(tmpdir(), 'kisht-e2e-loc-')), 'device.json');
  try {
    await loginToDashboard(page, '9876543210');
    const customerId = await addCustomerWithEnrolledPhone(page, baseURL, agent, {
      firstName: 'Farhan',
      lastName: 'Ali',
      mobile: '9123400078',
      imei1: '356938035643817',
      imei2: '490154203237534',
      pricePaise: 1_799_900,
      loanAmountPaise: 1_500_000,
      statePath,
    });
    // Off: another SIM goes in and the phone is somewhere else (the reference agent's own screens).
    await agent.stop();
    agentCli([
      'sim',
      '--slot',
      '1',
      '--iccid',
      '8991000900000000456',
      '--operator',
      'Jio',
      '--state',
      statePath,
    ]);
    agentCli(['position', '--lat', '12.971600', '--lon', '77.594600', '--state', statePath]);
    // On again: it reports the SIM, and the shop turns tracking on a second later.
    agent.start(['run', '--state', statePath]);
    await agent.waitFor(/report sim/);
    await page.waitForTimeout(1_000);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const tracking = await page.request.post(`${baseURL}/api/device/tracking`, {
      headers: { authorization: `Bearer ${token}` },
      data: { customer_id: customerId, enable: true },
    });
    expect(tracking.status()).toBe(200);
    await agent.waitFor(/report location 12\.971600,77\.594600/);
    await page.goto(`/customer_details/${customerId}`);
    await page.getByRole('tab', { name: 'Actions' }).click();
    await expect(page.getByTestId('device-location-coordinates')).toContainText('12.971600');
    await shot(page, '27-first-location-after-sim-change');
  } finally {
    await agent.stop();
  }
});
