import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { AgentProcess } from '../support/agent-process';
import { addCustomerWithEnrolledPhone } from '../support/enrolled-phone';
import {
  expect,
  expectTranslated,
  freshImei,
  freshMobile,
  IN_PHONE,
  setLanguage,
  test,
  viewportShot,
} from '../support/fixtures';

/**
 * In-app notifications (issue 16): an enrolled phone's SIM is changed (`kisht-agent sim`), the
 * retailer sees the unread badge on the bell, opens the notifications (English, then Hindi), reads
 * the SIM change (which opens the customer) and the badge clears.
 */
test.use({ ...IN_PHONE, signedInAs: 'demoRetailer' });

/** A phone-sized (412×915) screenshot among the run's artifacts. */
const shotBoth = (page: Page, name: string) => viewportShot(page, `notifications-${name}`);

const apiAuth = async (page: Page) => ({
  authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('token'))}`,
});

test('a SIM change reaches the retailer as a notification it reads', async ({ page, baseURL, context }) => {
  const agent = new AgentProcess('agent-notifications');
  const statePath = join(mkdtempSync(join(tmpdir(), 'kisht-e2e-notify-')), 'device.json');
  const lastName = `Simcheck${freshMobile().slice(-4)}`;
  try {
    await page.goto('/dashboard');
    const customerId = await addCustomerWithEnrolledPhone(page, baseURL, agent, {
      firstName: 'Kavya',
      lastName,
      mobile: freshMobile(),
      imei1: freshImei(),
      imei2: freshImei(),
      pricePaise: 1_500_000,
      loanAmountPaise: 1_200_000,
      statePath,
    });
    // Start from a clear badge (other journeys share the retailer).
    await page.request.post(`${baseURL}/api/notifications/read`, {
      headers: await apiAuth(page),
      data: { all: true },
    });

    // The phone gets another SIM; the running agent reports it.
    const sim = new AgentProcess('agent-notifications-sim');
    sim.start([
      'sim',
      '--slot',
      '1',
      '--iccid',
      '8991000900000077777',
      '--operator',
      'Airtel',
      '--state',
      statePath,
    ]);
    await sim.waitFor(/sims: .*8991000900000077777/);
    await agent.waitFor(/sims: .*8991000900000077777/);

    // The bell shows it (the count is asked on load, every minute and on focus).
    const bell = page.getByTestId('notification-bell');
    await expect(async () => {
      await page.reload();
      await expect(bell).not.toHaveAttribute('data-unread', '0', { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await shotBoth(page, '01-badge');

    await bell.click();
    await expect(page).toHaveURL(/\/notifications$/);
    const item = page
      .locator('[data-kind="sim_changed"]')
      .filter({ hasText: `Kavya ${lastName}` })
      .first();
    await expect(item).toHaveAttribute('data-unread', 'true');
    await expect(item).toContainText(`Kavya ${lastName}'s phone has a new SIM: Airtel.`);
    await expect(item.getByTestId('notification-time')).toHaveText(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2} [AP]M$/);
    await page.mouse.move(200, 600); // no tooltip over the shot
    await shotBoth(page, '02-list-en');

    // The same list in Hindi, the reader's language.
    await setLanguage(context, baseURL!, 'hn');
    await page.reload();
    await expect(item).toContainText(`Kavya ${lastName} के फ़ोन में नया SIM है: Airtel`);
    await expectTranslated(page, ['notifications']);
    await shotBoth(page, '03-list-hn');

    // Reading it opens the customer, and it is read when we come back.
    await item.click();
    await expect(page).toHaveURL(new RegExp(`/customer_details/${customerId}`));
    await page.goBack();
    await expect(item).toHaveAttribute('data-unread', 'false');
    // The badge clears (anything another journey added meanwhile goes with "Mark all as read").
    const markAll = page.getByTestId('notifications-mark-all');
    if (await markAll.isEnabled()) await markAll.click();
    await expect(bell).toHaveAttribute('data-unread', '0');
    await expect(markAll).toBeDisabled();
    await expect(page.locator('[data-unread="true"]')).toHaveCount(0);
    await shotBoth(page, '04-read-hn');
  } finally {
    await agent.stop();
  }
});
