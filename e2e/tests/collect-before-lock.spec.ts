import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { loginToDashboard } from '../support/login';
import { ARTIFACTS } from '../support/server';

/**
 * Issue 29, what the retailer and the customer see of "collect before you lock": an enrolled
 * phone's card says when the phone locks itself unless paid (its paid-through date), and a payment
 * moves that date a month on; the retailer sets up UPI AutoPay, the customer approves it in their
 * UPI app (the fake gateway's approval page plays it), and the card shows it active; the
 * organisation's paid-through lock and grace days are on device_settings; all of it reads in
 * Hindi at a phone's size. (The debit on the due date, the reminders and the lock after grace run
 * by the clock: the server test collect-before-lock.test.ts drives them with the same fakes.)
 */
test.use({ ...IN_PHONE, serviceWorkers: 'block' });

/** The fake gateways the worker's server started (no Razorpay keys), from its log. */
const fakeGatewayUrls = (workerIndex: number): string[] => {
  const log = readFileSync(join(ARTIFACTS, `server-w${workerIndex}.log`), 'utf8');
  return [...log.matchAll(/fake payment gateway \(no RAZORPAY_KEY_ID\) at (http:\/\/[\d.:]+)/g)].map(
    (m) => m[1]!,
  );
};

test('the paid-through date on the phone card, UPI AutoPay approved in the UPI app, and the grace days, in English and Hindi', async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  const agent = new AgentProcess('agent-collect');
  const statePath = join(mkdtempSync(join(tmpdir(), 'kisht-e2e-collect-')), 'device.json');
  try {
    await loginToDashboard(page, '9876543210');
    const customerId = await addCustomerWithEnrolledPhone(page, baseURL, agent, {
      firstName: 'Lata',
      lastName: 'Deshmukh',
      mobile: freshMobile(),
      imei1: freshImei(),
      imei2: freshImei(),
      pricePaise: 1_499_900,
      loanAmountPaise: 1_200_000,
      statePath,
    });

    // The phone's card: when it locks itself unless the first instalment is paid.
    await page.goto(`/customer_details/${customerId}`);
    const paidThrough = page.getByTestId('device-paid-through');
    await expect(paidThrough).toHaveText(/^Locks itself after \d{2}-\d{2}-\d{4} 12:00 AM unless paid$/);
    const before = (await paidThrough.textContent())!;

    // UPI AutoPay: set up, shown as a QR for the customer's UPI app.
    const card = page.getByTestId('autopay-card');
    await card.scrollIntoViewIfNeeded();
    await expect(page.getByTestId('autopay-none')).toBeVisible();
    await page.getByTestId('autopay-set-up').click();
    await expect(page.getByTestId('autopay-state')).toHaveText('Waiting for approval');
    await expect(
      page.getByTestId('autopay-qr').getByRole('img', { name: 'AutoPay approval QR' }),
    ).toBeVisible();
    await shot(page, 'autopay-qr-en');
    const link = await page.getByTestId('autopay-qr').getByRole('link').getAttribute('href');
    const orderId = /[?&]tr=([^&]+)/.exec(link ?? '')?.[1];
    expect(orderId, link ?? 'no link').toBeTruthy();

    // The customer approves in their UPI app: the fake gateway's approval page plays it.
    const urls = fakeGatewayUrls(testInfo.parallelIndex);
    expect(urls.length).toBeGreaterThan(0);
    let approvalUrl: string | undefined;
    for (const url of urls) {
      const page = await fetch(`${url}/v1/fake/mandates/${orderId}`);
      if (page.ok) approvalUrl = `${url}/v1/fake/mandates/${orderId}`;
    }
    expect(approvalUrl, `no fake gateway holds ${orderId}`).toBeTruthy();
    const upiApp = await context.newPage();
    await upiApp.goto(approvalUrl!);
    await upiApp.getByRole('button', { name: 'Approve' }).click();
    await expect(upiApp.locator('#done')).toHaveText('confirmed');
    await upiApp.close();
    await page.reload();
    await expect(page.getByTestId('autopay-state')).toHaveText('Active');
    await expect(page.getByTestId('autopay-qr')).toHaveCount(0);
    await page.getByTestId('autopay-card').scrollIntoViewIfNeeded();
    await shot(page, 'autopay-active-en');

    // The first instalment paid at the shop: the phone's date moves a month on.
    await page.goto(`/emi_details?customer_id=${customerId}`);
    await page.getByTestId('emi-select-1').click();
    await page.getByTestId('emi-pay-mode').click();
    await page.getByTestId('emi-pay-mode-cash').click();
    await page.getByTestId('emi-pay-submit').click();
    await page.getByTestId('receipt-close').click();
    await page.goto(`/customer_details/${customerId}`);
    await expect(paidThrough).toHaveText(/^Locks itself after \d{2}-\d{2}-\d{4} 12:00 AM unless paid$/);
    await expect(paidThrough).not.toHaveText(before);

    // The organisation's paid-through lock and its grace days.
    await page.goto('/device_settings');
    await expect(page.getByTestId('device-settings-grace-days')).toHaveValue('3');
    await page.getByTestId('device-settings-timing').scrollIntoViewIfNeeded();
    await shot(page, 'device-settings-paid-through-en');

    // The same in Hindi.
    await setLanguage(context, baseURL!, 'hn');
    await page.goto(`/customer_details/${customerId}`);
    await expect(page.getByTestId('device-paid-through')).toContainText('खुद लॉक होगा');
    await expect(page.getByTestId('autopay-state')).toHaveText('चालू');
    await expectTranslated(page, ['autopay', 'device']);
    await page.getByTestId('autopay-card').scrollIntoViewIfNeeded();
    await shot(page, 'autopay-active-hn');
    await page.goto('/device_settings');
    await expect(page.getByTestId('device-settings-paid-through')).toBeVisible();
    await shot(page, 'device-settings-paid-through-hn');
  } finally {
    await agent.stop();
  }
});
