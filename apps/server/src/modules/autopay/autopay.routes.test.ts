import type { AddressInfo } from 'node:net';
import { ZInstalmentQr, ZMandate } from '@kisht/domain/autopay/autopay.schema';
import { addDays } from '@kisht/domain/common/time';
import { paths } from '@kisht/domain/paths';
import { instalmentReference } from '@kisht/domain/users/upi';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { createCustomerWithLoan } from '../../db/seed/factories';
import { DEMO_CUSTOMER_MOBILE, DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import {
  autopayDepsFor,
  fakeGatewayConfig,
  istMorningOf,
  postAutopayWebhook,
} from '../../test/fake-gateway-fixtures';
import { apiGet, apiPost, customerIdNamed } from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';
import { routeTest as it, type TTestFactories } from '../../test/route-test';
import { startFakeGateway, type TFakeGateway } from '../payments/fake-gateway';
import { hmacSha256Hex } from '../payments/payment-gateway';
import { planReminders } from '../reminders/reminders.service';
import { runAutopayCharges } from './autopay.service';

/**
 * UPI AutoPay against the fake gateway (Razorpay's HTTP: customers, a mandate order with a
 * recurring token, the UPI intent, tokens, recurring payments, QR codes, signed webhooks): set-up
 * and scope, approval, the morning charge once, failure and retry, cancellation, and payments
 * matched to their instalment by the `tr` reference.
 */

let fake: TFakeGateway;
let t: TestApp;
let retailer: string;

beforeAll(async () => {
  fake = await startFakeGateway();
});
afterAll(async () => {
  await fake.close();
});
it.override('appOverrides', () => fakeGatewayConfig(fake));
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field);
const mandateUrl = (customerId: number | string) => `${paths.autopay.mandate}?customer_id=${customerId}`;
const postWebhook = (event: { body: string; signature: string }) => postAutopayWebhook(t, event);
const jobDeps = () => autopayDepsFor(t, fake);
const morningOf = istMorningOf;
const apiDelete = (token: string, url: string) =>
  t.app.inject({ method: 'DELETE', url, headers: { authorization: `Bearer ${token}` } });

/**
 * The newest mandate order at the fake for a customer id (the fake outlives each test's database,
 * whose ids start again).
 */
const newestOrderOf = (customerId: number) =>
  [...fake.orders.values()].filter((o) => o.notes.customerId === String(customerId)).at(-1)!;

const count = async (query: ReturnType<typeof sql>) =>
  Number((await queryRows<{ n: number }>(t.app.ctx.db, query))[0]!.n);

const instalmentsOf = (customerId: number) =>
  queryRows<{
    id: number;
    instalment_no: number;
    due_date: string;
    amount_paise: number;
    paid_paise: number;
  }>(
    t.app.ctx.db,
    sql`select id, instalment_no, due_date::text as due_date, amount_paise::int as amount_paise,
        paid_paise::int as paid_paise from emis where customer_id = ${customerId} order by instalment_no`,
  );

/** A fresh customer of the demo retailer with a mandate set up and approved (active). */
const activeMandateFor = async (make: TTestFactories) => {
  const { customer } = await make.customer({ firstName: 'Anita', mobile: '+919822220001' });
  const created = await apiPost(t, retailer, paths.autopay.mandate, { customer_id: customer.id });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const mandate = ZMandate.parse(created.body.data);
  const authOrder = newestOrderOf(customer.id);
  const approved = fake.approveMandate(authOrder.id);
  expect((await postWebhook(approved)).json().data).toEqual({ outcome: 'applied' });
  return { customerId: customer.id as number, mandate, tokenId: approved.tokenId };
};

describe('setting up a mandate', () => {
  it('creates the gateway customer, a UPI mandate order with its token terms and the intent, once', async ({
    make,
  }) => {
    const { customer } = await make.customer({ firstName: 'Anita', mobile: '+919822220001' });
    const instalments = await instalmentsOf(customer.id);
    const created = await apiPost(t, retailer, paths.autopay.mandate, { customer_id: customer.id });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const mandate = ZMandate.parse(created.body.data);
    const largest = Math.max(...instalments.map((i) => i.amount_paise));
    expect(mandate).toMatchObject({
      customerId: customer.id,
      state: 'created',
      maxAmountPaise: largest,
      frequency: 'as_presented',
      endedBy: null,
      charges: [],
    });
    expect(mandate.authorisationLink).toMatch(/^upi:\/\/mandate\?/);
    const order = newestOrderOf(customer.id);
    expect(order.token).toMatchObject({ max_amount: largest, frequency: 'as_presented' });
    // expire_at: 30 days after the last due date.
    const lastDue = instalments.at(-1)!.due_date;
    expect(new Date(order.token!.expire_at * 1000).toISOString().slice(0, 10)).toBe(addDays(lastDue, 30));
    expect(fake.requests.filter((r) => r.path.startsWith('/v1/')).every((r) => r.isAuthorised)).toBe(true);

    // Setting up again answers the same mandate and asks the gateway for nothing.
    const ordersBefore = fake.orders.size;
    const again = await apiPost(t, retailer, paths.autopay.mandate, { customer_id: customer.id });
    expect(ZMandate.parse(again.body.data).id).toBe(mandate.id);
    expect(fake.orders.size).toBe(ordersBefore);
    const read = await apiGet(t, retailer, mandateUrl(customer.id));
    expect(ZMandate.parse(read.body.data)).toEqual(mandate);
    expect(await count(sql`select count(*)::int as n from audit_log where action = 'autopay.mandate'`)).toBe(
      1,
    );
  });

  it('refuses bad input naming the field, writing nothing and calling no gateway', async ({ make }) => {
    const { customer } = await make.customer({ mobile: '+919822220002' });
    const before = fake.requests.length;
    for (const [body, field] of [
      [{ customer_id: 'x' }, 'customer_id'],
      [{}, 'customer_id'],
      [{ customer_id: customer.id, maxAmountPaise: 50 }, 'maxAmountPaise'],
      [{ customer_id: customer.id, maxAmountPaise: 1.5 }, 'maxAmountPaise'],
      [{ customer_id: customer.id, maxAmountPaise: 10_000_001 }, 'maxAmountPaise'],
    ] as const) {
      const refused = await apiPost(t, retailer, paths.autopay.mandate, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(refused.body)).toEqual([field]);
    }
    expect((await apiGet(t, retailer, mandateUrl('abc'))).status).toBe(400);
    expect(await count(sql`select count(*)::int as n from autopay_mandates`)).toBe(0);
    expect(fake.requests.length).toBe(before);
  });

  it("answers 404 for another organisation's and another retailer's customer; a customer may not set up", async ({
    make,
    otherRetailer,
  }) => {
    const { customer } = await make.customer({ mobile: '+919822220003' });
    await make.user({ mobile: '+919800000777', name: 'Other Shop', userType: 'retailer' });
    const otherShop = await t.tokenFor(DEMO_ORG_ID, '+919800000777');
    for (const token of [otherRetailer, otherShop]) {
      expect((await apiPost(t, token, paths.autopay.mandate, { customer_id: customer.id })).status).toBe(404);
      expect((await apiGet(t, token, mandateUrl(customer.id))).status).toBe(404);
      expect((await apiDelete(token, mandateUrl(customer.id))).statusCode).toBe(404);
    }
    const priyaUser = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    const priya = await customerIdNamed(t, retailer, 'Priya');
    expect((await apiPost(t, priyaUser, paths.autopay.mandate, { customer_id: priya })).status).toBe(403);
    // A customer user reads only their own loan's mandate.
    expect((await apiGet(t, priyaUser, mandateUrl(customer.id))).status).toBe(404);
    expect((await apiGet(t, priyaUser, mandateUrl(priya))).body.data).toBeNull();
    expect(await count(sql`select count(*)::int as n from autopay_mandates`)).toBe(0);
    // The organisation's admin reaches every customer of the organisation.
    await make.user({ mobile: '+919800000778', name: 'Org Admin', userType: 'admin' });
    const admin = await t.tokenFor(DEMO_ORG_ID, '+919800000778');
    const byAdmin = await apiPost(t, admin, paths.autopay.mandate, { customer_id: customer.id });
    expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(200);
    expect(ZMandate.parse(byAdmin.body.data).state).toBe('created');
  });
});

describe('placing the token', () => {
  it('two loans of one mobile: a token event naming only the customer is not guessed; the authorisation payment places it', async ({
    make,
  }) => {
    const { customer: first } = await make.customer({ mobile: '+919822220005' });
    const { customer: second } = await make.customer({ mobile: '+919822220005' });
    for (const customer of [first, second])
      expect((await apiPost(t, retailer, paths.autopay.mandate, { customer_id: customer.id })).status).toBe(
        200,
      );
    const orderOf = newestOrderOf;
    expect(orderOf(first.id).customerId).toBe(orderOf(second.id).customerId);
    const approved = fake.approveMandate(orderOf(second.id).id);
    expect((await postWebhook(approved)).json().data.outcome).toBe('ignored');
    const body = JSON.stringify({
      entity: 'event',
      event: 'payment.captured',
      payload: {
        payment: {
          entity: {
            id: 'pay_Authorisation01',
            order_id: orderOf(second.id).id,
            amount: 100,
            status: 'captured',
            token_id: approved.tokenId,
            notes: {},
          },
        },
      },
    });
    const placed = await postWebhook({ body, signature: hmacSha256Hex(fake.webhookSecret, body) });
    expect(placed.json().data.outcome).toBe('applied');
    const states = async () =>
      Promise.all(
        [first.id, second.id].map(
          async (id) => ZMandate.parse((await apiGet(t, retailer, mandateUrl(id))).body.data).state,
        ),
      );
    expect(await states()).toEqual(['created', 'active']);
    // The token event now finds its mandate by the token, and repeats change nothing.
    expect((await postWebhook(approved)).json().data.outcome).toBe('ignored');
    expect(await states()).toEqual(['created', 'active']);
  });
});

describe('charging on the due date', () => {
  it('approval activates it; the morning job charges the instalment due once; the capture is recorded once', async ({
    make,
  }) => {
    const { customerId, tokenId } = await activeMandateFor(make);
    const read = ZMandate.parse((await apiGet(t, retailer, mandateUrl(customerId))).body.data);
    expect(read).toMatchObject({ state: 'active', authorisationLink: null });
    const [first] = await instalmentsOf(customerId);
    const due = first!.due_date;

    // Two days before, and before 09:00 +05:30 the day before: nothing.
    const dayBefore = addDays(due, -1);
    expect(await runAutopayCharges(jobDeps(), morningOf(addDays(due, -2)))).toBe(0);
    expect(await runAutopayCharges(jobDeps(), new Date(morningOf(dayBefore).getTime() - 2 * 3_600_000))).toBe(
      0,
    );
    // The morning before the due date (the gateway's pre-debit notice, the debit a day later), two
    // processes at once, a later run and the due date's own run: one charge.
    const runs = await Promise.all([
      runAutopayCharges(jobDeps(), morningOf(dayBefore)),
      runAutopayCharges(jobDeps(), morningOf(dayBefore)),
    ]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await runAutopayCharges(jobDeps(), new Date(morningOf(dayBefore).getTime() + 3_600_000))).toBe(0);
    expect(await runAutopayCharges(jobDeps(), morningOf(due))).toBe(0);
    const recurring = [...fake.recurringPayments.values()].filter((p) => p.tokenId === tokenId);
    expect(recurring).toHaveLength(1);
    expect(recurring[0]).toMatchObject({ tokenId, amount: first!.amount_paise });
    expect(recurring[0]!.notes.tr).toBe(instalmentReference(customerId, 1));

    const captured = fake.settleRecurring(recurring[0]!.id, 'captured');
    const [a, b] = await Promise.all([postWebhook(captured), postWebhook(captured)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    await postWebhook(captured);
    const [paid] = await instalmentsOf(customerId);
    expect(paid!.paid_paise).toBe(first!.amount_paise);
    expect(
      await count(
        sql`select count(*)::int as n from payments where customer_id = ${customerId} and mode = 'online'`,
      ),
    ).toBe(1);
    const after = ZMandate.parse((await apiGet(t, retailer, mandateUrl(customerId))).body.data);
    expect(after.charges).toEqual([
      expect.objectContaining({
        instalmentNo: 1,
        attempt: 1,
        status: 'captured',
        receiptNo: expect.stringMatching(/^KR-41-/),
      }),
    ]);
  });

  it('a debit captured after the loan was paid at the shop is refunded once, the part still owed recorded', async ({
    make,
  }) => {
    const { customerId, tokenId } = await activeMandateFor(make);
    const instalments = await instalmentsOf(customerId);
    const first = instalments[0]!;
    expect(await runAutopayCharges(jobDeps(), morningOf(first.due_date))).toBe(1);
    const [debit] = [...fake.recurringPayments.values()].filter((p) => p.tokenId === tokenId);
    // The customer pays at the shop before the debit lands: all but ₹300 of the loan.
    const leftPaise = 30_000;
    await t.app.ctx.db.execute(
      sql`update emis set paid_paise = amount_paise where customer_id = ${customerId}`,
    );
    await t.app.ctx.db.execute(
      sql`update emis set paid_paise = amount_paise - ${leftPaise}
          where customer_id = ${customerId} and instalment_no = ${instalments.at(-1)!.instalment_no}`,
    );
    const captured = fake.settleRecurring(debit!.id, 'captured');
    await postWebhook(captured);
    await postWebhook(captured);
    const refunds = [...fake.refunds.values()].filter((r) => r.paymentId === debit!.id);
    expect(refunds).toEqual([
      expect.objectContaining({
        amount: first.amount_paise - leftPaise,
        idempotencyKey: expect.stringMatching(/^autopay-refund-\d+$/),
      }),
    ]);
    expect(
      await count(
        sql`select count(*)::int as n from payments where customer_id = ${customerId} and mode = 'online' and amount_paise = ${leftPaise}`,
      ),
    ).toBe(1);
    expect((await instalmentsOf(customerId)).every((i) => i.paid_paise === i.amount_paise)).toBe(true);
    const [charge] = ZMandate.parse((await apiGet(t, retailer, mandateUrl(customerId))).body.data).charges;
    expect(charge).toMatchObject({ status: 'captured', receiptNo: expect.stringMatching(/^KR-41-/) });
    expect(charge!.failureReason).toMatch(
      /^Refunded ₹[\d,]+\.\d{2}: the loan owed less than the debit \(rfnd_/,
    );
  });

  it('a failed debit leaves the instalment unpaid (the reminder ladder goes on) and is retried the next morning', async ({
    make,
  }) => {
    const { customerId, tokenId } = await activeMandateFor(make);
    const saved = await t.app.inject({
      method: 'PUT',
      url: paths.reminders.settings,
      headers: { authorization: `Bearer ${retailer}` },
      payload: { reminders: { offsetsDays: [0, 1], channels: ['sms'] } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const [first] = await instalmentsOf(customerId);
    const due = first!.due_date;
    expect(await runAutopayCharges(jobDeps(), morningOf(due))).toBe(1);
    const payment = [...fake.recurringPayments.values()].find((p) => p.tokenId === tokenId)!;
    expect((await postWebhook(fake.settleRecurring(payment.id, 'failed'))).json().data.outcome).toBe(
      'applied',
    );
    expect((await instalmentsOf(customerId))[0]!.paid_paise).toBe(0);

    // Not again the same day; the next morning, attempt 2.
    expect(await runAutopayCharges(jobDeps(), new Date(morningOf(due).getTime() + 3_600_000))).toBe(0);
    const nextDay = addDays(due, 1);
    const reminded = await planReminders(t.app.ctx.db, morningOf(nextDay));
    expect(reminded).toBeGreaterThan(0);
    expect(
      await count(
        sql`select count(*)::int as n from reminders where emi_id = ${first!.id} and offset_days = 1`,
      ),
    ).toBe(1);
    expect(await runAutopayCharges(jobDeps(), morningOf(nextDay))).toBe(1);
    const charges = ZMandate.parse((await apiGet(t, retailer, mandateUrl(customerId))).body.data).charges;
    expect(charges.map((c) => [c.attempt, c.status])).toEqual([
      [2, 'created'],
      [1, 'failed'],
    ]);
    expect(charges[1]!.failureReason).toContain('insufficient');
  });
});

describe('cancellation', () => {
  it("the customer's cancellation in their UPI app (token.cancelled) is honoured: no charge after it", async ({
    make,
  }) => {
    const { customerId, tokenId } = await activeMandateFor(make);
    await postWebhook(fake.tokenEvent(tokenId, 'token.cancelled'));
    const mandate = ZMandate.parse((await apiGet(t, retailer, mandateUrl(customerId))).body.data);
    expect(mandate).toMatchObject({ state: 'cancelled', endedBy: 'customer' });
    const [first] = await instalmentsOf(customerId);
    expect(await runAutopayCharges(jobDeps(), morningOf(first!.due_date))).toBe(0);
    expect([...fake.recurringPayments.values()].filter((p) => p.tokenId === tokenId)).toEqual([]);
  });

  it('a paused mandate is not charged; the shop cancels it at the gateway too', async ({ make }) => {
    const { customerId, tokenId } = await activeMandateFor(make);
    await postWebhook(fake.tokenEvent(tokenId, 'token.paused'));
    const [first] = await instalmentsOf(customerId);
    expect(await runAutopayCharges(jobDeps(), morningOf(first!.due_date))).toBe(0);
    const cancelled = await apiDelete(retailer, mandateUrl(customerId));
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(ZMandate.parse(cancelled.json().data)).toMatchObject({ state: 'cancelled', endedBy: 'shop' });
    expect(fake.tokens.get(tokenId)!.status).toBe('cancelled');
    // Cancelling again changes nothing and answers it as it stands.
    const again = await apiDelete(retailer, mandateUrl(customerId));
    expect(again.statusCode).toBe(200);
    expect(ZMandate.parse(again.json().data)).toMatchObject({ state: 'cancelled', endedBy: 'shop' });
    expect(
      await count(
        sql`select count(*)::int as n from audit_log where action = 'autopay.mandate' and details->>'event' = 'cancelled'`,
      ),
    ).toBe(1);
  });

  it('the customer user sees and cancels their own mandate', async ({ make }) => {
    const { customerId } = await activeMandateFor(make);
    // The customer's login (a customer user with the loan's mobile) comes with the loan.
    const anita = await t.tokenFor(DEMO_ORG_ID, '+919822220001');
    expect(ZMandate.parse((await apiGet(t, anita, mandateUrl(customerId))).body.data).state).toBe('active');
    const cancelled = await apiDelete(anita, mandateUrl(customerId));
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(ZMandate.parse(cancelled.json().data)).toMatchObject({ state: 'cancelled', endedBy: 'customer' });
  });
});

describe('payments matched by their tr reference', () => {
  it('records a QR payment carrying KSH<customer>I<instalment> against that instalment once, and unlocks', async ({
    make,
  }) => {
    await make.orgSettings({
      autoLock: { reminderDaysBefore: null, lockAfterDaysOverdue: null, autoUnlock: true },
    });
    const priya = await customerIdNamed(t, retailer, 'Priya');
    const overdue = (await instalmentsOf(priya)).find((i) => i.paid_paise < i.amount_paise)!;
    const owed = overdue.amount_paise - overdue.paid_paise;
    const gateway = jobDeps().gateways;
    const qr = await (await gateway.get()).createUpiQr({
      amountPaise: owed,
      name: 'Ravi Mobiles',
      description: 'EMI',
      closeBy: new Date(Date.now() + 86_400_000),
      notes: { tr: instalmentReference(priya, overdue.instalment_no), orgId: String(DEMO_ORG_ID) },
    });
    const credited = fake.creditQr(qr.id);
    expect((await postWebhook(credited)).json().data.outcome).toBe('applied');
    await postWebhook(credited);
    const paid = (await instalmentsOf(priya)).find((i) => i.id === overdue.id)!;
    expect(paid.paid_paise).toBe(overdue.amount_paise);
    expect(
      await count(
        sql`select count(*)::int as n from payments where customer_id = ${priya} and reference like ${`%${credited.paymentId}`}`,
      ),
    ).toBe(1);
    const unlocks = await count(
      sql`select count(*)::int as n from device_commands c join devices d on d.id = c.device_id
          where d.customer_id = ${priya} and c.name = 'unlock'`,
    );
    expect(unlocks).toBe(1);
  });

  it('acknowledges and ignores a wrong amount, an unknown reference, and refuses a bad signature', async () => {
    const priya = await customerIdNamed(t, retailer, 'Priya');
    const overdue = (await instalmentsOf(priya)).find((i) => i.paid_paise < i.amount_paise)!;
    const gateway = await jobDeps().gateways.get();
    const make = async (tr: string, amountPaise: number) =>
      (
        await gateway.createUpiQr({
          amountPaise,
          name: 'Ravi Mobiles',
          description: 'EMI',
          closeBy: new Date(Date.now() + 86_400_000),
          notes: { tr },
        })
      ).id;
    const tooMuch = fake.creditQr(await make(instalmentReference(priya, overdue.instalment_no), 99_999_900));
    const unknown = fake.creditQr(await make('KSH999999I1', 10_000));
    const notOurs = fake.creditQr(await make('hello', 10_000));
    for (const event of [tooMuch, unknown, notOurs])
      expect((await postWebhook(event)).json().data.outcome).toBe('ignored');
    const forged = await postWebhook({ body: unknown.body, signature: 'ab'.repeat(32) });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('PAYMENT_SIGNATURE_INVALID');
    expect(await count(sql`select count(*)::int as n from payments where mode = 'online'`)).toBe(0);
  });
});

describe('a gateway UPI QR per instalment', () => {
  it('is made for the oldest unpaid instalment with its tr, its image served; paid, it settles that instalment', async () => {
    const priya = await customerIdNamed(t, retailer, 'Priya');
    const oldest = (await instalmentsOf(priya)).find((i) => i.paid_paise < i.amount_paise)!;
    const made = await apiPost(t, retailer, paths.autopay.instalmentQr, { customer_id: priya });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const qr = ZInstalmentQr.parse(made.body.data);
    expect(qr).toMatchObject({
      instalmentNo: oldest.instalment_no,
      amountPaise: oldest.amount_paise - oldest.paid_paise,
      reference: instalmentReference(priya, oldest.instalment_no),
    });
    expect(fake.qrCodes.get(qr.qrId)!.notes).toMatchObject({ tr: qr.reference, orgId: String(DEMO_ORG_ID) });
    const image = await fetch(qr.imageUrl);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(100);
    // The customer user makes one for their own loan too.
    const priyaUser = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    const own = await apiPost(t, priyaUser, paths.autopay.instalmentQr, { customer_id: priya });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(await count(sql`select count(*)::int as n from payments where mode = 'online'`)).toBe(0);
    expect((await postWebhook(fake.creditQr(qr.qrId))).json().data.outcome).toBe('applied');
    const paid = (await instalmentsOf(priya)).find((i) => i.id === oldest.id)!;
    expect(paid.paid_paise).toBe(oldest.amount_paise);
  });

  it("refuses bad input naming the field, another organisation's or retailer's customer (404), a paid-up loan (409), a gateway turned off; makes no QR", async ({
    make,
    otherRetailer,
  }) => {
    const before = fake.qrCodes.size;
    for (const body of [{}, { customer_id: 'abc' }, { customer_id: 0 }, { customer_id: 1.5 }]) {
      const refused = await apiPost(t, retailer, paths.autopay.instalmentQr, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(refused.body)).toEqual(['customer_id']);
    }
    const { customer } = await make.customer({ mobile: '+919822220013' });
    await make.user({ mobile: '+919800000779', name: 'Other Shop', userType: 'retailer' });
    const otherShop = await t.tokenFor(DEMO_ORG_ID, '+919800000779');
    const priyaUser = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    for (const token of [otherRetailer, otherShop, priyaUser])
      expect((await apiPost(t, token, paths.autopay.instalmentQr, { customer_id: customer.id })).status).toBe(
        404,
      );
    await t.app.ctx.db.execute(
      sql`update emis set paid_paise = amount_paise where customer_id = ${customer.id}`,
    );
    const paidUp = await apiPost(t, retailer, paths.autopay.instalmentQr, { customer_id: customer.id });
    expect(paidUp.status).toBe(409);
    expect(paidUp.body.code).toBe('NOTHING_DUE');
    expect(fieldsOf(paidUp.body)).toEqual(['customer_id']);
    await t.app.ctx.db.execute(
      sql`update organizations set features = features || '{"paymentGateway": false}'::jsonb where id = ${DEMO_ORG_ID}`,
    );
    const priya = await customerIdNamed(t, retailer, 'Priya');
    const off = await apiPost(t, retailer, paths.autopay.instalmentQr, { customer_id: priya });
    expect(off.status).toBe(409);
    expect(off.body.code).toBe('PAYMENT_GATEWAY_DISABLED');
    expect(fake.qrCodes.size).toBe(before);
  });
});

describe('the fake gateway delivering to a listening server', () => {
  it('a person approves the mandate on the fake’s page; its signed token.confirmed activates it', async ({
    make,
  }) => {
    let webhookUrl: string | null = null;
    const live = await startFakeGateway({ autopayWebhookUrl: () => webhookUrl });
    const app = await createTestApp({
      RAZORPAY_KEY_ID: live.keyId,
      RAZORPAY_KEY_SECRET: live.keySecret,
      RAZORPAY_WEBHOOK_SECRET: live.webhookSecret,
      RAZORPAY_API_URL: live.url,
      RAZORPAY_CHECKOUT_URL: live.checkoutScriptUrl,
    });
    try {
      await app.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = app.app.server.address() as AddressInfo;
      webhookUrl = `http://127.0.0.1:${port}${paths.autopay.webhook}`;
      const { customer } = await createCustomerWithLoan(app.app.ctx.db, {
        orgId: DEMO_ORG_ID,
        retailerId: (await make.userByMobile(DEMO_RETAILER_MOBILE)).id,
        product: { id: 1, pricePaise: 1_200_000 },
        mobile: '+919822220009',
      });
      const token = await app.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
      const auth = { authorization: `Bearer ${token}` };
      const created = await app.app.inject({
        method: 'POST',
        url: paths.autopay.mandate,
        headers: auth,
        payload: { customer_id: customer.id },
      });
      expect(created.statusCode, created.body).toBe(200);
      const orderId = new URL(ZMandate.parse(created.json().data).authorisationLink!).searchParams.get('tr')!;
      const page = await fetch(`${live.url}/v1/fake/mandates/${orderId}`);
      expect(await page.text()).toContain('Approve');
      const approved = await fetch(`${live.url}/v1/fake/mandates/${orderId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ outcome: 'confirmed' }),
      });
      expect(await approved.json()).toEqual({ status: 'confirmed' });
      await live.settled();
      expect(live.webhookDeliveries.map((d) => [d.event, d.status])).toEqual([['token.confirmed', 200]]);
      const read = await app.app.inject({ method: 'GET', url: mandateUrl(customer.id), headers: auth });
      expect(ZMandate.parse(read.json().data).state).toBe('active');
    } finally {
      await app.close();
      await live.close();
    }
  });
});
