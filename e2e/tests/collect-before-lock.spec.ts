import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { AgentProcess } from '../support/agent-process';
import { addCustomerWithEnrolledPhone } from '../support/enrolled-phone';
import {
  expect,
  expectTranslated,
  freshImei,
  freshMobile,
  IN_PHONE,
  setLanguage,
  shot,
  test,
} from '../support/fixtures';
import { DEMO_RETAILER, loginToDashboard } from '../support/login';
import { ARTIFACTS } from '../support/server';
import { startKishtStack, type TKishtStack } from '../support/stack';

/**
 * Issue 29, "collect before you lock", the whole story as the shop, the customers' UPI apps and
 * their phones live it, on a Kisht of its own (its server sends SMS through the fake MSG91 and
 * WhatsApp through the fake Cloud API, and has the job clock on, so the due date's debit, the
 * reminders and the ladder run as of the days they belong to without waiting for the calendar):
 * Anita and Ravi each get an enrolled phone (the reference agent) and UPI AutoPay, approved in
 * their UPI app (the fake gateway's page). Their debits are asked for the morning before the due
 * date (the gateway's pre-debit notice); on the due date Anita's is captured, her
 * instalment is paid and her phone's paid-through date moves a month on; Ravi's fails at his bank.
 * He is reminded by WhatsApp and SMS (the fakes see the template name and the DLT template id),
 * the ladder locks his phone once the 3 grace days have passed, and he pays the gateway UPI QR of
 * his instalment (its `tr`) from his UPI app: the phone unlocks within seconds. Then the same in
 * Hindi, and the organisation's paid-through lock on device_settings.
 */
test.use({ ...IN_PHONE, serviceWorkers: 'block' });

const story = test.extend<{ stack: TKishtStack }>({
  stack: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies as an object pattern
    async ({}, use, testInfo) => {
      const stack = await startKishtStack(`collect-w${testInfo.parallelIndex}`, {
        messaging: true,
        env: { JOB_CLOCK: 'true' },
      });
      try {
        await use(stack);
      } finally {
        stack.stop();
      }
    },
    { timeout: 150_000 },
  ],
  baseURL: async ({ stack }, use) => {
    await use(stack.baseUrl);
  },
});

/**
 * The fake gateways the story's server started (no Razorpay keys), from its log; each starts the
 * first time the server calls the gateway.
 */
const fakeGatewayUrls = (workerIndex: number): string[] => {
  const log = readFileSync(join(ARTIFACTS, `server-collect-w${workerIndex}.log`), 'utf8');
  return [...log.matchAll(/fake payment gateway \(no RAZORPAY_KEY_ID\) at (http:\/\/[\d.:]+)/g)].map(
    (m) => m[1]!,
  );
};

/** Calls the server's API as the signed-in page's user; answers the envelope's data (throws on non-2xx). */
const callApi = async (
  page: Page,
  baseURL: string,
  method: 'GET' | 'PUT' | 'POST',
  path: string,
  data?: unknown,
) => {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.fetch(`${baseURL}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(data === undefined ? {} : { data }),
  });
  expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
  return (await response.json()).data;
};

/** The job clock: runs `job` on the story's server as of `at` (ISO 8601 with +05:30). */
const runJobAt = (page: Page, baseURL: string, job: string, at: string) =>
  callApi(page, baseURL, 'POST', '/api/dev/job_clock', { job, at }) as Promise<{
    counts: Record<string, number>;
  }>;

/** YYYY-MM-DD plus `days`. */
const plusDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The shop sets up AutoPay on customer_details; the customer approves it in their UPI app (the fake's page). */
const setUpAutopay = async (
  page: Page,
  context: BrowserContext,
  customerId: number,
  gateways: () => string[],
) => {
  await page.goto(`/customer_details/${customerId}`);
  await page.getByTestId('autopay-card').scrollIntoViewIfNeeded();
  await page.getByTestId('autopay-set-up').click();
  await expect(page.getByTestId('autopay-state')).toHaveText('Waiting for approval');
  await expect(
    page.getByTestId('autopay-qr').getByRole('img', { name: 'AutoPay approval QR' }),
  ).toBeVisible();
  const link = await page.getByTestId('autopay-qr').getByRole('link').getAttribute('href');
  const orderId = /[?&]tr=([^&]+)/.exec(link ?? '')?.[1];
  expect(orderId, link ?? 'no link').toBeTruthy();
  let approvalUrl: string | undefined;
  expect(gateways().length).toBeGreaterThan(0);
  for (const url of gateways()) {
    if ((await fetch(`${url}/v1/fake/mandates/${orderId}`)).ok)
      approvalUrl = `${url}/v1/fake/mandates/${orderId}`;
  }
  expect(approvalUrl, `no fake gateway holds ${orderId}`).toBeTruthy();
  const upiApp = await context.newPage();
  await upiApp.goto(approvalUrl!);
  await upiApp.getByRole('button', { name: 'Approve' }).click();
  await expect(upiApp.locator('#done')).toHaveText('confirmed');
  await upiApp.close();
  await page.reload();
  await expect(page.getByTestId('autopay-state')).toHaveText('Active');
};

/** The recurring debits of an instalment reference (`tr`) the fake gateways hold. */
const debitsOf = async (gateways: () => string[], reference: string) => {
  const debits: { id: string; status: string; amount: number }[] = [];
  for (const url of gateways()) {
    const answer = await (await fetch(`${url}/v1/fake/recurring?tr=${reference}`)).json();
    debits.push(...answer.items);
  }
  return debits;
};

/** The customer's bank answers a recurring debit (the fake's page for a person). */
const bankAnswers = async (gateways: () => string[], paymentId: string, outcome: 'captured' | 'failed') => {
  for (const url of gateways()) {
    const answer = await fetch(`${url}/v1/fake/recurring/${paymentId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ outcome }),
    });
    if (answer.ok) return;
  }
  throw new Error(`no fake gateway holds ${paymentId}`);
};

story(
  'AutoPay pays Anita on her due date; Ravi is reminded by WhatsApp and SMS, locked after grace, and unlocked within seconds of paying his instalment’s UPI QR',
  async ({ page, context, baseURL, stack }, testInfo) => {
    test.setTimeout(300_000);
    const anitaAgent = new AgentProcess('agent-collect-anita');
    const raviAgent = new AgentProcess('agent-collect-ravi');
    const stateDir = mkdtempSync(join(tmpdir(), 'kisht-e2e-collect-'));
    try {
      await loginToDashboard(page, DEMO_RETAILER);
      const gateways = () => fakeGatewayUrls(testInfo.parallelIndex);

      // The organisation's reminders (on the due date, 1 and 3 days after, by SMS and WhatsApp) and
      // ladder (lock after 3 days overdue, unlock on payment).
      await callApi(page, baseURL!, 'PUT', '/api/reminders/settings', {
        reminders: { offsetsDays: [0, 1, 3], channels: ['sms', 'whatsapp'] },
      });
      const settings = await callApi(page, baseURL!, 'GET', '/api/organizations/device_settings');
      await callApi(page, baseURL!, 'PUT', '/api/organizations/device_settings', {
        ...settings,
        autoLock: { reminderDaysBefore: null, lockAfterDaysOverdue: 3, autoUnlock: true },
      });

      const customers = [
        { firstName: 'Anita', lastName: 'Kulkarni', agent: anitaAgent },
        { firstName: 'Ravi', lastName: 'Shinde', agent: raviAgent },
      ];
      const [anita, ravi] = await Promise.all(
        customers.map(async (c) => {
          const mobile = freshMobile();
          const customerId = await addCustomerWithEnrolledPhone(page, baseURL, c.agent, {
            firstName: c.firstName,
            lastName: c.lastName,
            mobile,
            imei1: freshImei(),
            imei2: freshImei(),
            pricePaise: 1_499_900,
            loanAmountPaise: 1_200_000,
            statePath: join(stateDir, `${c.firstName}.json`),
          });
          return { customerId, mobile, agent: c.agent };
        }),
      );
      const firstInstalment = async (customerId: number) =>
        (await callApi(page, baseURL!, 'GET', `/country/get_emi_details?customer_id=${customerId}`))
          .instalments[0] as { dueDate: string; paidPaise: number; amountPaise: number };
      const dueDate = (await firstInstalment(anita!.customerId)).dueDate;
      expect((await firstInstalment(ravi!.customerId)).dueDate).toBe(dueDate);

      // Both set up AutoPay; each approves it in their UPI app.
      await setUpAutopay(page, context, anita!.customerId, gateways);
      await shot(page, 'collect-autopay-active-en');
      await setUpAutopay(page, context, ravi!.customerId, gateways);
      await page.goto(`/customer_details/${anita!.customerId}`);
      const paidThrough = page.getByTestId('device-paid-through');
      await expect(paidThrough).toHaveText(/^Locks itself after \d{2}-\d{2}-\d{4} 12:00 AM unless paid$/);
      const anitaBefore = (await paidThrough.textContent())!;

      // The morning before the due date the AutoPay job asks for both debits (the gateway sends the
      // pre-debit notice and debits a day later); on the due date Anita's bank pays, Ravi's refuses.
      const charged = await runJobAt(
        page,
        baseURL!,
        'autopay_charges',
        `${plusDays(dueDate, -1)}T09:30:00+05:30`,
      );
      expect(charged.counts.created).toBe(2);
      const [anitaDebit] = await debitsOf(gateways, `KSH${anita!.customerId}I1`);
      const [raviDebit] = await debitsOf(gateways, `KSH${ravi!.customerId}I1`);
      expect(anitaDebit && raviDebit).toBeTruthy();
      await bankAnswers(gateways, anitaDebit!.id, 'captured');
      await bankAnswers(gateways, raviDebit!.id, 'failed');

      // Anita's instalment is paid; her phone's paid-through date moves a month on.
      await expect
        .poll(async () => (await firstInstalment(anita!.customerId)).paidPaise)
        .toBe((await firstInstalment(anita!.customerId)).amountPaise);
      await page.reload();
      await expect(paidThrough).toHaveText(/^Locks itself after \d{2}-\d{2}-\d{4} 12:00 AM unless paid$/);
      await expect(paidThrough).not.toHaveText(anitaBefore);
      await page.getByTestId('autopay-card').scrollIntoViewIfNeeded();
      await expect(page.getByTestId('autopay-card')).toContainText('Paid');
      await shot(page, 'collect-anita-paid-en');
      expect((await firstInstalment(ravi!.customerId)).paidPaise).toBe(0);

      // Ravi is reminded on the due date and the day after, by WhatsApp and SMS.
      for (const day of [dueDate, plusDays(dueDate, 1)])
        await runJobAt(page, baseURL!, 'payment_reminders', `${day}T10:00:00+05:30`);
      const fakes = async <T>(path: string): Promise<T> => (await fetch(`${stack.fakeMdmUrl}${path}`)).json();
      await expect
        .poll(async () => {
          const whatsapp = await fakes<{ to: string; templateName: string }[]>('/control/whatsapp');
          return whatsapp.filter((m) => m.to === `91${ravi!.mobile}`).map((m) => m.templateName);
        })
        .toEqual(['emi_reminder', 'emi_reminder']);
      await expect
        .poll(async () => {
          const sms = await fakes<{ mobile: string; templateId: string }[]>('/control/sms');
          return sms.filter((m) => m.mobile === `91${ravi!.mobile}`).map((m) => m.templateId);
        })
        .toEqual(['6650a1f0d6fc05123a4b0006', '6650a1f0d6fc05123a4b0006']);
      const anitaReminded = (await fakes<{ to: string }[]>('/control/whatsapp')).filter(
        (m) => m.to === `91${anita!.mobile}`,
      );
      expect(anitaReminded).toEqual([]);
      await page.goto(`/customer_details/${ravi!.customerId}`);
      const reminders = page.getByTestId('customer-reminders-card');
      await reminders.scrollIntoViewIfNeeded();
      await expect(reminders.getByText('Sent')).toHaveCount(4);
      await shot(page, 'collect-ravi-reminded-en');

      // Past the 3 grace days the ladder locks Ravi's phone, not Anita's.
      const ladder = await runJobAt(page, baseURL!, 'auto_lock', `${plusDays(dueDate, 4)}T10:00:00+05:30`);
      expect(ladder.counts.locks).toBeGreaterThanOrEqual(1);
      await expect.poll(() => raviAgent.lastState(), { timeout: 20_000 }).toBe('LOCKED');
      expect(anitaAgent.lastState()).not.toBe('LOCKED');
      await page.reload();
      await expect(page.getByTestId('lock-state')).toHaveText('Locked');

      // Ravi pays his instalment's gateway UPI QR from his UPI app: his phone unlocks within seconds.
      // The AutoPay card (with his failed debit) has loaded before the button under it is tapped: a
      // tap on a button the page is still drawing again is lost (seen on a loaded machine).
      await expect(page.getByTestId('autopay-card')).toContainText('Failed');
      const image = page.getByTestId('instalment-qr-image');
      await expect(async () => {
        if ((await image.count()) === 0)
          await page.getByTestId('instalment-qr-create').click({ timeout: 5_000 });
        await expect(image).toBeVisible({ timeout: 5_000 });
      }).toPass({ timeout: 40_000 });
      await expect(image).toHaveAttribute('alt', 'UPI QR for EMI 1');
      await expect(page.getByTestId('instalment-qr')).toContainText('for EMI 1');
      await page.getByTestId('instalment-qr').scrollIntoViewIfNeeded();
      await shot(page, 'collect-ravi-upi-qr-en');
      const qrPage = (await image.getAttribute('src'))!.replace(/\.png$/, '');
      const upiApp = await context.newPage();
      await upiApp.goto(qrPage);
      const paidAt = Date.now();
      await upiApp.getByRole('button', { name: 'Pay' }).click();
      await expect(upiApp.locator('#done')).toHaveText('paid');
      await upiApp.close();
      await expect.poll(() => raviAgent.lastState(), { timeout: 10_000, intervals: [100] }).toBe('UNLOCKED');
      const unlockedInMs = Date.now() - paidAt;
      testInfo.annotations.push({
        type: 'unlocked after the UPI payment',
        description: `${unlockedInMs} ms`,
      });
      expect(unlockedInMs).toBeLessThan(10_000);
      await page.reload();
      await expect(page.getByTestId('lock-state')).toHaveText('Unlocked');
      expect((await firstInstalment(ravi!.customerId)).paidPaise).toBeGreaterThan(0);
      await shot(page, 'collect-ravi-unlocked-en');

      // The organisation's paid-through lock and its grace days.
      await page.goto('/device_settings');
      await expect(page.getByTestId('device-settings-grace-days')).toHaveValue('3');
      await page.getByTestId('device-settings-timing').scrollIntoViewIfNeeded();
      await shot(page, 'device-settings-paid-through-en');

      // The same in Hindi.
      await setLanguage(context, baseURL!, 'hn');
      await page.goto(`/customer_details/${ravi!.customerId}`);
      await expect(page.getByTestId('device-paid-through')).toContainText('खुद लॉक होगा');
      await expect(page.getByTestId('autopay-state')).toHaveText('चालू');
      await expect(page.getByTestId('instalment-qr-create')).toHaveText('UPI QR से भुगतान करें');
      await expectTranslated(page, ['autopay', 'device', 'reminders']);
      await page.getByTestId('autopay-card').scrollIntoViewIfNeeded();
      await shot(page, 'collect-ravi-hn');
      await page.goto('/device_settings');
      await expect(page.getByTestId('device-settings-paid-through')).toBeVisible();
      await shot(page, 'device-settings-paid-through-hn');
    } finally {
      await Promise.all([anitaAgent.stop(), raviAgent.stop()]);
      rmSync(stateDir, { recursive: true, force: true });
    }
  },
);
