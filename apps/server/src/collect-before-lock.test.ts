import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeviceAgent } from '@kisht/device-agent/agent';
import { ZMandate } from '@kisht/domain/autopay/autopay.schema';
import { addDays, istDate } from '@kisht/domain/common/time';
import { paths } from '@kisht/domain/paths';
import { instalmentReference } from '@kisht/domain/users/upi';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from './db/client';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from './db/seed/seed';
import { runAutopayCharges } from './modules/autopay/autopay.service';
import { runAutoLockLadder } from './modules/devices/auto-lock.service';
import { startFakeGateway, type TFakeGateway } from './modules/payments/fake-gateway';
import { deliverReminders, planReminders } from './modules/reminders/reminders.service';
import { createMsg91SmsTransport } from './modules/sms/msg91.transport';
import {
  autopayDepsFor,
  fakeGatewayConfig,
  istMorningOf,
  postAutopayWebhook,
} from './test/fake-gateway-fixtures';
import { FAKE_MSG91_ACCOUNT, startFakeMsg91, type TFakeMsg91 } from './test/fake-msg91';
import { FAKE_WHATSAPP_ACCOUNT, startFakeWhatsApp } from './test/fake-whatsapp';
import { apiPost, apiPut, enrolReferenceAgent, waitUntil } from './test/fixtures';
import { createTestApp, type TestApp } from './test/harness';

/**
 * Collect before you lock (issue 29), the whole story on one server with the real reference agents
 * over the embedded broker and the fakes of the outside systems (gateway, WhatsApp Cloud API,
 * MSG91): a customer with AutoPay is debited on the due date and their phone's paid-through date
 * moves; another's debit fails, they get the WhatsApp and SMS reminders (template name and DLT
 * template id seen by the fakes), the ladder locks the phone after the grace days, and a UPI
 * payment carrying the instalment's `tr` reference unlocks it within seconds.
 */

let t: TestApp;
let gateway: TFakeGateway;
let whatsapp: Awaited<ReturnType<typeof startFakeWhatsApp>>;
let msg91: TFakeMsg91;
let retailer: string;
let stateDir: string;
const agents: DeviceAgent[] = [];

beforeEach(async () => {
  gateway = await startFakeGateway();
  whatsapp = await startFakeWhatsApp();
  msg91 = await startFakeMsg91();
  t = await createTestApp(
    {
      ...fakeGatewayConfig(gateway),
      WHATSAPP_PROVIDER: 'cloud',
      WHATSAPP_API_URL: whatsapp.url,
      WHATSAPP_PHONE_NUMBER_ID: FAKE_WHATSAPP_ACCOUNT.phoneNumberId,
      WHATSAPP_ACCESS_TOKEN: FAKE_WHATSAPP_ACCOUNT.accessToken,
      WHATSAPP_APP_SECRET: 'whatsapp-app-secret-for-tests',
      WHATSAPP_VERIFY_TOKEN: 'whatsapp-verify-token',
    },
    {
      smsTransport: createMsg91SmsTransport({
        apiUrl: msg91.url,
        authKey: FAKE_MSG91_ACCOUNT.authKey,
        senderId: FAKE_MSG91_ACCOUNT.senderId,
        templateIds: FAKE_MSG91_ACCOUNT.templateIds,
        timeoutMs: 2_000,
      }),
    },
  );
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  retailer = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
  stateDir = mkdtempSync(join(tmpdir(), 'kisht-collect-'));
});
afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.stop();
  await t.close();
  await Promise.all([gateway.close(), whatsapp.close(), msg91.close()]);
  rmSync(stateDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

const morningOf = istMorningOf;
const postWebhook = (event: { body: string; signature: string }) => postAutopayWebhook(t, event);
const autopayDeps = () => autopayDepsFor(t, gateway);

/** The paid-through date of an oldest unpaid due date with the default 3 grace days, ISO 8601 UTC. */
const paidThroughFor = (dueDate: string) => new Date(`${addDays(dueDate, 4)}T00:00:00+05:30`).toISOString();

/**
 * An enrolled customer (reference agent) whose instalments fall due from `firstDue` a month apart
 * (₹1,000 each), with a UPI AutoPay mandate set up and approved in their UPI app.
 */
const customerWithAutopay = async (name: string, firstDue: string) => {
  const { agent, customerId } = await enrolReferenceAgent(t, retailer, join(stateDir, `${name}.json`));
  agents.push(agent);
  await t.app.ctx.db.execute(sql`update customers set first_name = ${name} where id = ${customerId}`);
  await t.app.ctx.db.execute(
    sql`update emis set due_date = (${firstDue}::date + (instalment_no - 1) * 30), amount_paise = 100000
        where customer_id = ${customerId}`,
  );
  const created = await apiPost(t, retailer, paths.autopay.mandate, { customer_id: customerId });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const order = [...gateway.orders.values()].filter((o) => o.notes.customerId === String(customerId)).at(-1)!;
  expect((await postWebhook(gateway.approveMandate(order.id))).json().data.outcome).toBe('applied');
  expect(ZMandate.parse(created.body.data).customerId).toBe(customerId);
  return { agent, customerId };
};

const instalmentsOf = (customerId: number) =>
  queryRows<{ id: number; instalment_no: number; due_date: string; paid_paise: number }>(
    t.app.ctx.db,
    sql`select id, instalment_no, due_date::text as due_date, paid_paise::int as paid_paise
        from emis where customer_id = ${customerId} order by instalment_no`,
  );

/** The recurring debits the gateway holds for a customer's mandate token. */
const debitsOf = async (customerId: number) => {
  const [mandate] = await queryRows<{ token_id: string }>(
    t.app.ctx.db,
    sql`select token_id from autopay_mandates where customer_id = ${customerId}`,
  );
  return [...gateway.recurringPayments.values()].filter((p) => p.tokenId === mandate!.token_id);
};

describe('collect before you lock', () => {
  it('AutoPay pays one customer on the due date; the other is reminded, locked after grace, and unlocked within seconds of a UPI payment with its tr', async () => {
    const today = istDate();
    const late = addDays(today, -5);
    await apiPut(t, retailer, paths.reminders.settings, {
      reminders: { offsetsDays: [0, 1, 3], channels: ['sms', 'whatsapp'] },
    });
    const settings = (
      await t.app.inject({
        method: 'GET',
        url: paths.orgs.deviceSettings,
        headers: { authorization: `Bearer ${retailer}` },
      })
    ).json().data;
    const ladder = await apiPut(t, retailer, paths.orgs.deviceSettings, {
      ...settings,
      autoLock: { reminderDaysBefore: null, lockAfterDaysOverdue: 3, autoUnlock: true },
    });
    expect(ladder.status, JSON.stringify(ladder.body)).toBe(200);

    const anita = await customerWithAutopay('Anita', today);
    const ravi = await customerWithAutopay('Ravi', late);

    // Ravi's due date, five days ago: the morning debit fails at the bank.
    expect(await runAutopayCharges(autopayDeps(), morningOf(late))).toBe(1);
    const [failing] = await debitsOf(ravi.customerId);
    expect((await postWebhook(gateway.settleRecurring(failing!.id, 'failed'))).statusCode).toBe(200);
    expect((await instalmentsOf(ravi.customerId))[0]!.paid_paise).toBe(0);

    // The reminders of that day and the next go out by WhatsApp and SMS (out of the quiet hours).
    for (const day of [late, addDays(late, 1)]) {
      await planReminders(t.app.ctx.db, morningOf(day));
      await deliverReminders(
        {
          db: t.app.ctx.db,
          dispatcher: t.app.ctx.dispatcher,
          sms: t.app.ctx.sms,
          whatsapp: t.app.ctx.whatsapp,
          whatsappTemplate: 'emi_reminder',
          log: t.app.log,
        },
        morningOf(day),
      );
    }
    await t.app.ctx.sms.settled();
    const raviMobile = (
      await queryRows<{ mobile: string }>(
        t.app.ctx.db,
        sql`select mobile from customers where id = ${ravi.customerId}`,
      )
    )[0]!.mobile.replace(/^\+/, '');
    const toRavi = whatsapp.sent.filter((m) => m.to === raviMobile);
    expect(toRavi.length).toBeGreaterThanOrEqual(2);
    expect(toRavi.every((m) => m.templateName === 'emi_reminder')).toBe(true);
    const smsToRavi = msg91.received.filter((sms) => sms.mobile === raviMobile);
    expect(smsToRavi.length).toBeGreaterThanOrEqual(2);
    expect(smsToRavi.every((sms) => sms.templateId === FAKE_MSG91_ACCOUNT.templateIds.EMI_REMINDER)).toBe(
      true,
    );
    expect(smsToRavi[0]!.variables.name).toBe('Ravi');

    // Today, past the 3 grace days: the ladder locks Ravi's phone, not Anita's.
    const ran = await runAutoLockLadder(t.app.ctx, today);
    expect(ran.locks).toBe(1);
    await waitUntil(async () => ravi.agent.isLocked);
    expect(ravi.agent.lockScreen?.emergencyCalls).toBe('allowed');
    expect(anita.agent.isLocked).toBe(false);

    // Anita's due date is today: the morning debit (the run of the day before, CHARGE_LEAD_DAYS, was
    // missed, so it is made on the day) is captured; her phone's date moves a month on.
    // The same run retries Ravi's failed debit (CHARGE_RETRY_RULE), which fails again.
    const [anitaFirst, anitaSecond] = await instalmentsOf(anita.customerId);
    expect(await runAutopayCharges(autopayDeps(), morningOf(today))).toBe(2);
    const retry = (await debitsOf(ravi.customerId)).find((p) => p.id !== failing!.id);
    expect(retry).toBeDefined();
    expect((await postWebhook(gateway.settleRecurring(retry!.id, 'failed'))).statusCode).toBe(200);
    const [debit] = await debitsOf(anita.customerId);
    expect(debit!.notes.tr).toBe(instalmentReference(anita.customerId, 1));
    expect((await postWebhook(gateway.settleRecurring(debit!.id, 'captured'))).statusCode).toBe(200);
    expect((await instalmentsOf(anita.customerId))[0]!.paid_paise).toBe(100_000);
    expect(anitaFirst!.due_date).toBe(today);
    await waitUntil(async () => anita.agent.paidThrough === paidThroughFor(anitaSecond!.due_date));

    // Ravi pays his first instalment by UPI to a QR carrying its tr: unlocked within seconds.
    const qr = await (await autopayDeps().gateways.get()).createUpiQr({
      amountPaise: 100_000,
      name: 'Ravi Mobiles',
      description: 'EMI 1',
      closeBy: new Date(Date.now() + 86_400_000),
      notes: { tr: instalmentReference(ravi.customerId, 1), orgId: String(DEMO_ORG_ID) },
    });
    const paidAt = Date.now();
    expect((await postWebhook(gateway.creditQr(qr.id))).json().data.outcome).toBe('applied');
    await waitUntil(async () => !ravi.agent.isLocked, 5_000);
    const unlockedInMs = Date.now() - paidAt;
    expect(unlockedInMs).toBeLessThan(5_000);
    const [raviFirst, raviSecond] = await instalmentsOf(ravi.customerId);
    expect(raviFirst!.paid_paise).toBe(100_000);
    await waitUntil(async () => ravi.agent.paidThrough === paidThroughFor(raviSecond!.due_date));
  });
});
