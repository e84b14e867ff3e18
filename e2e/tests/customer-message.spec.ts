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
  test,
  viewportShot,
} from '../support/fixtures';

/**
 * Issue 16 journey: the retailer opens an enrolled customer, sends a message from the actions tab
 * and sees the phone (the reference agent CLI) show it and the history say done; the customer's
 * birthday is today, so the dashboard lists them under "Customers' birthdays today" with "Send
 * wishes", which opens the same dialog prefilled. Photographed at 412×915 in English and Hindi.
 */

test.use({ ...IN_PHONE, signedInAs: 'demoRetailer', serviceWorkers: 'block' });

/** Today's +05:30 month and day, born in 1990 (29 February falls back to the 28th). */
const bornToday = () => {
  const monthDay = new Date(Date.now() + 330 * 60_000).toISOString().slice(5, 10);
  return `1990-${monthDay === '02-29' ? '02-28' : monthDay}`;
};

/**
 * Moves the app to `path` as its own links do (history and popstate, which the router follows),
 * without loading the app again: each full load costs seconds of the suite's budget.
 */
const navigateInApp = (page: Page, path: string) =>
  page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);

const SECTIONS = ['customerMessage', 'birthday', 'commandState', 'commandName'];

test('a message to the phone: sent from customer_details, shown by the phone, done in the history; birthday wishes from the dashboard', async ({
  page,
  baseURL,
}) => {
  const agent = new AgentProcess('agent-customer-message');
  const statePath = join(mkdtempSync(join(tmpdir(), 'kisht-e2e-msg-')), 'device.json');
  try {
    await page.goto('/dashboard');
    const customerId = await addCustomerWithEnrolledPhone(page, baseURL, agent, {
      firstName: 'Lakshmi',
      lastName: 'Iyer',
      mobile: freshMobile('8'),
      imei1: freshImei(),
      imei2: freshImei(),
      pricePaise: 1_599_900,
      loanAmountPaise: 1_200_000,
      statePath,
      dateOfBirth: bornToday(),
    });

    // 1. customer_details → actions → Send message.
    await navigateInApp(page, `/customer_details/${customerId}?tab=actions`);
    await page.getByTestId('action-send-message').click();
    const dialog = page.getByTestId('send-message-dialog');
    await dialog.getByTestId('send-message-title').fill('Shop closed on Sunday');
    await dialog.getByTestId('send-message-text').fill('Dear customer, our shop stays closed this Sunday.');
    await viewportShot(page, 'messages-dialog-en');
    await dialog.getByTestId('send-message-submit').click();
    await expect(dialog).toBeHidden();

    // 2. The phone shows it, and the history says done with the text.
    await agent.waitFor(
      /showing message from Ravi Mobiles: "Dear customer, our shop stays closed this Sunday\."/,
    );
    const row = page.locator('li', { has: page.getByText('Shop closed on Sunday: “Dear customer') });
    await expect(row.locator('[data-testid^="command-state-"]')).toHaveText('done');

    // 3. The dashboard lists the customer's birthday; "Send wishes" opens the dialog prefilled.
    await navigateInApp(page, '/dashboard');
    const card = page.getByTestId('birthdays-today');
    await expect(card.getByTestId(`birthday-customer-${customerId}`)).toContainText('Lakshmi Iyer');
    await card.scrollIntoViewIfNeeded();
    await viewportShot(page, 'messages-birthdays-en');
    await card.getByTestId(`send-wishes-${customerId}`).click();
    await expect(page.getByTestId('send-message-text')).toHaveValue(/Dear Lakshmi Iyer, wishing you/);
    await page.getByTestId('send-message-submit').click();
    await agent.waitFor(/showing message from Ravi Mobiles: "Dear Lakshmi Iyer, wishing you/);

    // 4. The same screens in Hindi (chosen on the language screen, as a person would).
    await navigateInApp(page, '/language');
    await page.getByTestId('language-option-hn').click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'hn');
    await navigateInApp(page, '/dashboard');
    await expect(card).toContainText('आज ग्राहकों के जन्मदिन');
    await expectTranslated(page, SECTIONS);
    await card.scrollIntoViewIfNeeded();
    await viewportShot(page, 'messages-birthdays-hn');
    await navigateInApp(page, `/customer_details/${customerId}?tab=actions`);
    await page.getByTestId('action-send-message').click();
    await expect(page.getByTestId('send-message-dialog')).toContainText('ग्राहक के फ़ोन पर संदेश');
    await viewportShot(page, 'messages-dialog-hn');
    await page.keyboard.press('Escape');
    await expectTranslated(page, SECTIONS);
  } finally {
    await agent.stop();
  }
});
