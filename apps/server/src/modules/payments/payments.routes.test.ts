import { ZEmiDetails } from '@kisht/domain/emi/emi.schema';
import { paths } from '@kisht/domain/paths';
import {
  PRICES_NOT_SET_MESSAGE,
  ZCheckoutOrder,
  ZKeyPrices,
  ZPaymentOrderStatus,
  ZPaymentQuote,
} from '@kisht/domain/payments/payments.schema';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import {
  DEMO_CUSTOMER_MOBILE,
  DEMO_MINI_RETAILER_MOBILE,
  DEMO_ORG_ID,
  DEMO_RETAILER_MOBILE,
  SECOND_ORG_ID,
  SECOND_RETAILER_MOBILE,
} from '../../db/seed/seed';
import { fakeGatewayConfig } from '../../test/fake-gateway-fixtures';
import { apiGet, apiPost, apiPut, customerIdNamed, waitUntil } from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';
import { startFakeGateway, type TFakeGateway } from './fake-gateway';

/**
 * payment_gateway against the fake gateway (a local Fastify speaking Razorpay's HTTP): keys bought
 * online are credited exactly once whoever reports the payment (checkout callback, webhook, both,
 * repeated, at once); a customer's instalment paid online is recorded as a retailer-recorded one.
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
// Each test's app talks to the fake gateway, which is up by the time the app is built.
it.override('appOverrides', () => fakeGatewayConfig(fake));
// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field);

const userId = async (orgId: number, mobile: string, userType = 'retailer') =>
  (
    await queryRows<{ id: number }>(
      t.app.ctx.db,
      sql`select id from users where org_id = ${orgId} and mobile = ${mobile} and user_type = ${userType}`,
    )
  )[0]!.id;

/** The user's key balance of an app_type (ledger_balances; 0 without a row). */
const balance = async (user: number, appType: number) =>
  (
    await queryRows<{ balance: number }>(
      t.app.ctx.db,
      sql`select b.balance from ledger_balances b join ledger_accounts a on a.id = b.account_id
          where a.user_id = ${user} and b.app_type = ${appType}`,
    )
  )[0]?.balance ?? 0;

const count = async (table: 'payment_orders' | 'ledger_movements' | 'payments') =>
  Number(
    (
      await queryRows<{ n: number }>(
        t.app.ctx.db,
        sql`select count(*)::int as n from ${sql.identifier(table)}`,
      )
    )[0]!.n,
  );

const auditCount = async (action: string) =>
  Number(
    (
      await queryRows<{ n: number }>(
        t.app.ctx.db,
        sql`select count(*)::int as n from audit_log where action = ${action}`,
      )
    )[0]!.n,
  );

const orderRow = async (orderId: string) =>
  (
    await queryRows<{ status: string; gateway_payment_id: string | null; payment_id: number | null }>(
      t.app.ctx.db,
      sql`select status, gateway_payment_id, payment_id from payment_orders where id = ${orderId}`,
    )
  )[0]!;

/** Orders keys as `token` and answers the parsed checkout order. */
const orderKeys = async (token: string, appType = 0, quantity = 5) => {
  const created = await apiPost(t, token, paths.payments.create, { appType, quantity });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return ZCheckoutOrder.parse(created.body.data);
};

/** Sends a webhook body with its signature (or another) to the app, as the gateway would. */
const postWebhook = (body: string, signature: string) =>
  t.app.inject({
    method: 'POST',
    url: paths.payments.webhook,
    headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature },
    payload: body,
  });

describe('quotes (validate)', () => {
  it('prices keys from the organisation settings, in paise', async () => {
    const quote = await apiPost(t, retailer, paths.payments.validate, { appType: 0, quantity: 3 });
    expect(quote.status).toBe(200);
    expect(ZPaymentQuote.parse(quote.body.data)).toEqual({
      appType: 0,
      quantity: 3,
      unitPricePaise: 49_900,
      amountPaise: 149_700,
      currency: 'INR',
    });
  });

  it("answers 'Please contact admin for prices' (409 PRICES_NOT_SET) for an app type without a price", async () => {
    for (const url of [paths.payments.validate, paths.payments.create]) {
      const refused = await apiPost(t, retailer, url, { appType: 8, quantity: 1 });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'PRICES_NOT_SET', message: PRICES_NOT_SET_MESSAGE });
    }
    expect(await count('payment_orders')).toBe(0);
  });

  it('answers 409 PAYMENT_GATEWAY_DISABLED when the organisation flag is off (spec §1 default)', async ({
    otherRetailer: other,
  }) => {
    for (const url of [paths.payments.validate, paths.payments.create]) {
      const refused = await apiPost(t, other, url, { appType: 0, quantity: 1 });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('PAYMENT_GATEWAY_DISABLED');
    }
    expect(await count('payment_orders')).toBe(0);
    expect(fake.requests.filter((r) => r.path === '/v1/orders')).toHaveLength(0);
  });

  it('refuses bad input naming the field, writing nothing and calling no gateway', async () => {
    const ordersBefore = fake.requests.length;
    for (const [body, field] of [
      [{ appType: 0, quantity: 0 }, 'quantity'],
      [{ appType: 0, quantity: 1001 }, 'quantity'],
      [{ appType: 0, quantity: 1.5 }, 'quantity'],
      [{ appType: 0 }, 'quantity'],
      [{ appType: 3, quantity: 1 }, 'appType'],
      [{ appType: '0', quantity: 1 }, 'appType'],
    ] as const) {
      for (const url of [paths.payments.validate, paths.payments.create]) {
        const refused = await apiPost(t, retailer, url, body);
        expect(refused.status, JSON.stringify(body)).toBe(400);
        expect(fieldsOf(refused.body)).toEqual([field]);
      }
    }
    expect(await count('payment_orders')).toBe(0);
    expect(fake.requests.length).toBe(ordersBefore);
  });

  it('lets only retailers and mini-retailers buy keys (a customer gets 403)', async ({
    miniRetailer: mini,
  }) => {
    const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    expect((await apiPost(t, customer, paths.payments.create, { appType: 0, quantity: 1 })).status).toBe(403);
    expect((await apiPost(t, mini, paths.payments.validate, { appType: 1, quantity: 2 })).status).toBe(200);
  });
});

describe('buying keys: credited exactly once', () => {
  it('creates the gateway order with Basic auth and the amount in paise, and our order row', async () => {
    const checkout = await orderKeys(retailer, 1, 4);
    expect(checkout).toMatchObject({
      amountPaise: 4 * 29_900,
      currency: 'INR',
      keyId: fake.keyId,
      checkoutScriptUrl: fake.checkoutScriptUrl,
      name: 'Kisht Demo',
      prefill: { name: 'Ravi Mobiles', contact: DEMO_RETAILER_MOBILE },
    });
    const atGateway = fake.orders.get(checkout.gatewayOrderId)!;
    expect(atGateway).toMatchObject({ amount: 119_600, currency: 'INR', receipt: checkout.orderId });
    expect(fake.requests.filter((r) => r.path === '/v1/orders').every((r) => r.isAuthorised)).toBe(true);
    expect(await orderRow(checkout.orderId)).toEqual({
      status: 'created',
      gateway_payment_id: null,
      payment_id: null,
    });
    const status = await apiGet(t, retailer, `${paths.payments.status}?order_id=${checkout.orderId}`);
    expect(ZPaymentOrderStatus.parse(status.body.data)).toEqual({
      orderId: checkout.orderId,
      status: 'created',
      purpose: 'keys',
      amountPaise: 119_600,
      appType: 1,
      quantity: 4,
    });
  });

  it('credits on the checkout callback, and neither a repeat nor the webhooks credit again', async () => {
    const ravi = await userId(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
    const before = await balance(ravi, 0);
    const checkout = await orderKeys(retailer, 0, 5);
    const paid = await fake.capture(checkout.gatewayOrderId);

    const verified = await apiPost(t, retailer, paths.payments.verify, paid);
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(ZPaymentOrderStatus.parse(verified.body.data)).toMatchObject({ status: 'paid', quantity: 5 });
    expect(await balance(ravi, 0)).toBe(before + 5);

    const again = await apiPost(t, retailer, paths.payments.verify, paid);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(verified.body.data);
    for (const event of ['payment.captured', 'order.paid', 'payment.captured'] as const) {
      const { body, signature } = fake.webhookFor(checkout.gatewayOrderId, event);
      const answered = await postWebhook(body, signature);
      expect(answered.statusCode).toBe(200);
    }
    expect(await balance(ravi, 0)).toBe(before + 5);
    const movements = await queryRows<{ quantity: number; kind: string }>(
      t.app.ctx.db,
      sql`select quantity, kind from ledger_movements where payment_order_id = ${checkout.orderId}`,
    );
    expect(movements).toEqual([{ quantity: 5, kind: 'purchase' }]);
    expect(await auditCount('payments.paid')).toBe(1);
    expect((await orderRow(checkout.orderId)).gateway_payment_id).toBe(paid.razorpay_payment_id);
  });

  it('credits on the webhook alone (no callback), once, also when it is repeated', async () => {
    const ravi = await userId(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
    const before = await balance(ravi, 2);
    const checkout = await orderKeys(retailer, 2, 3);
    await fake.capture(checkout.gatewayOrderId);
    const { body, signature } = fake.webhookFor(checkout.gatewayOrderId);
    const first = await postWebhook(body, signature);
    expect(first.json()).toMatchObject({ data: { outcome: 'settled' } });
    await postWebhook(body, signature);
    expect(await balance(ravi, 2)).toBe(before + 3);
    const status = await apiGet(t, retailer, `${paths.payments.status}?order_id=${checkout.orderId}`);
    expect(status.body.data.status).toBe('paid');
  });

  it('credits once when the callback and the webhook arrive at the same time', async () => {
    const ravi = await userId(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
    const before = await balance(ravi, 11);
    const checkout = await orderKeys(retailer, 11, 7);
    const paid = await fake.capture(checkout.gatewayOrderId);
    const { body, signature } = fake.webhookFor(checkout.gatewayOrderId);
    const answers = await Promise.all([
      apiPost(t, retailer, paths.payments.verify, paid),
      postWebhook(body, signature),
      apiPost(t, retailer, paths.payments.verify, paid),
      postWebhook(body, signature),
    ]);
    expect(answers.map((a) => ('statusCode' in a ? a.statusCode : a.status))).toEqual([200, 200, 200, 200]);
    expect(await balance(ravi, 11)).toBe(before + 7);
    expect(await auditCount('payments.paid')).toBe(1);
  });

  it('settles a paid order on a status check when the callback and webhook were both lost', async () => {
    const ravi = await userId(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
    const before = await balance(ravi, 0);
    const checkout = await orderKeys(retailer, 0, 2);
    await fake.capture(checkout.gatewayOrderId);
    const status = await apiGet(t, retailer, `${paths.payments.status}?order_id=${checkout.orderId}`);
    expect(status.body.data.status).toBe('paid');
    expect(await balance(ravi, 0)).toBe(before + 2);
  });

  it('refuses a bad checkout signature (400 PAYMENT_SIGNATURE_INVALID) and credits nothing', async () => {
    const ravi = await userId(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
    const before = await balance(ravi, 0);
    const checkout = await orderKeys(retailer, 0, 5);
    const paid = await fake.capture(checkout.gatewayOrderId);
    const flipped = `${paid.razorpay_signature[0] === 'a' ? 'b' : 'a'}${paid.razorpay_signature.slice(1)}`;
    for (const forged of [
      { ...paid, razorpay_signature: flipped },
      // A genuine signature of another payment id does not sign this one.
      { ...paid, razorpay_payment_id: 'pay_Forged00000000' },
    ]) {
      const refused = await apiPost(t, retailer, paths.payments.verify, forged);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('PAYMENT_SIGNATURE_INVALID');
    }
    const malformed = await apiPost(t, retailer, paths.payments.verify, {
      ...paid,
      razorpay_signature: 'xyz',
    });
    expect(malformed.status).toBe(400);
    expect(fieldsOf(malformed.body)).toEqual(['razorpay_signature']);
    expect(await balance(ravi, 0)).toBe(before);
    expect((await orderRow(checkout.orderId)).status).toBe('created');
    expect(await auditCount('payments.paid')).toBe(0);
  });

  it('refuses a webhook whose signature does not match its exact bytes, crediting nothing', async () => {
    const ravi = await userId(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
    const before = await balance(ravi, 0);
    const checkout = await orderKeys(retailer, 0, 5);
    await fake.capture(checkout.gatewayOrderId);
    const { body, signature } = fake.webhookFor(checkout.gatewayOrderId);
    // Re-serialised JSON (a space added) is other bytes: its signature no longer matches.
    for (const [sentBody, sentSignature] of [
      [body.replace('{"entity"', '{ "entity"'), signature],
      [body, 'f'.repeat(64)],
      [body, ''],
    ] as const) {
      const refused = await postWebhook(sentBody, sentSignature);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().code).toBe('PAYMENT_SIGNATURE_INVALID');
    }
    expect(await balance(ravi, 0)).toBe(before);
    expect((await orderRow(checkout.orderId)).status).toBe('created');
  });

  it('acknowledges and ignores a signed webhook for an order it does not know', async () => {
    const other = await startFakeGateway({ webhookSecret: fake.webhookSecret });
    try {
      const created = await fetch(`${other.url}/v1/orders`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${other.keyId}:${other.keySecret}`).toString('base64')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ amount: 50_000, currency: 'INR', receipt: 'elsewhere' }),
      });
      const { id } = (await created.json()) as { id: string };
      await other.capture(id);
      const { body, signature } = other.webhookFor(id);
      const answered = await postWebhook(body, signature);
      expect(answered.statusCode).toBe(200);
      expect(answered.json().data).toEqual({ outcome: 'ignored' });
      expect(await count('payment_orders')).toBe(0);
    } finally {
      await other.close();
    }
  });

  it("answers 404 for another tenant's or another shop's order, crediting nothing", async () => {
    const checkout = await orderKeys(retailer, 0, 5);
    const paid = await fake.capture(checkout.gatewayOrderId);
    const ravi = await userId(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
    const before = await balance(ravi, 0);
    for (const [orgId, mobile] of [
      [SECOND_ORG_ID, SECOND_RETAILER_MOBILE],
      [DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE],
      [DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE],
    ] as const) {
      const intruder = await t.tokenFor(orgId, mobile);
      const verify = await apiPost(t, intruder, paths.payments.verify, paid);
      expect(verify.status, mobile).toBe(404);
      const status = await apiGet(t, intruder, `${paths.payments.status}?order_id=${checkout.orderId}`);
      expect(status.status, mobile).toBe(404);
      expect(JSON.stringify(status.body)).not.toContain(checkout.gatewayOrderId);
    }
    expect(await balance(ravi, 0)).toBe(before);
    expect((await orderRow(checkout.orderId)).status).toBe('created');
    const badId = await apiGet(t, retailer, `${paths.payments.status}?order_id=42`);
    expect(badId.status).toBe(400);
    expect(fieldsOf(badId.body)).toEqual(['order_id']);
  });
});

describe('key prices (admin)', () => {
  it('reads and replaces the prices with an audit entry; others get 403; bad input names the field', async ({
    make,
  }) => {
    await make.user({
      mobile: '+919800000999',
      name: 'Org Admin',
      userType: 'admin',
    });
    const admin = await t.tokenFor(DEMO_ORG_ID, '+919800000999');
    const read = await apiGet(t, admin, paths.admin.keyPrices);
    expect(ZKeyPrices.parse(read.body.data).prices).toEqual([
      { appType: 0, unitPricePaise: 49_900 },
      { appType: 1, unitPricePaise: 29_900 },
      { appType: 2, unitPricePaise: 79_900 },
      { appType: 11, unitPricePaise: 19_900 },
    ]);
    const saved = await apiPut(t, admin, paths.admin.keyPrices, {
      prices: [
        { appType: 8, unitPricePaise: 9_900 },
        { appType: 0, unitPricePaise: 45_000 },
      ],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data.prices).toEqual([
      { appType: 0, unitPricePaise: 45_000 },
      { appType: 8, unitPricePaise: 9_900 },
    ]);
    expect(await auditCount('payments.key_prices')).toBe(1);
    // The new prices are what retailers are quoted; a price removed means 'contact admin'.
    expect(
      (await apiPost(t, retailer, paths.payments.validate, { appType: 8, quantity: 2 })).body.data
        .amountPaise,
    ).toBe(19_800);
    expect((await apiPost(t, retailer, paths.payments.validate, { appType: 1, quantity: 1 })).body.code).toBe(
      'PRICES_NOT_SET',
    );

    for (const [body, field] of [
      [{ prices: [{ appType: 0, unitPricePaise: 0 }] }, 'prices.0.unitPricePaise'],
      [{ prices: [{ appType: 0, unitPricePaise: 10.5 }] }, 'prices.0.unitPricePaise'],
      [{ prices: [{ appType: 3, unitPricePaise: 100 }] }, 'prices.0.appType'],
      [
        {
          prices: [
            { appType: 0, unitPricePaise: 100 },
            { appType: 0, unitPricePaise: 200 },
          ],
        },
        'prices.1.appType',
      ],
      [{}, 'prices'],
    ] as const) {
      const refused = await apiPut(t, admin, paths.admin.keyPrices, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(refused.body)).toEqual([field]);
    }
    expect(await auditCount('payments.key_prices')).toBe(1);

    expect((await apiGet(t, retailer, paths.admin.keyPrices)).status).toBe(403);
    expect((await apiPut(t, retailer, paths.admin.keyPrices, { prices: [] })).status).toBe(403);
    // Another organisation's admin sees its own (none), never organisation 41's.
    await make.user({
      orgId: SECOND_ORG_ID,
      mobile: '+919800000998',
      name: 'Shree Admin',
      userType: 'admin',
    });
    const otherAdmin = await t.tokenFor(SECOND_ORG_ID, '+919800000998');
    expect((await apiGet(t, otherAdmin, paths.admin.keyPrices)).body.data).toEqual({ prices: [] });
  });
});

describe('a customer pays an instalment online', () => {
  it('records it as a retailer-recorded payment once (receipt, allocation, auto-unlock)', async ({
    make,
  }) => {
    await make.orgSettings({
      autoLock: { reminderDaysBefore: null, lockAfterDaysOverdue: null, autoUnlock: true },
    });
    const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    const priya = await customerIdNamed(t, retailer, 'Priya');
    const before = ZEmiDetails.parse(
      (await apiGet(t, retailer, `${paths.emi.details}?customer_id=${priya}`)).body.data,
    );
    const overdue = before.instalments.filter((i) => i.status === 'overdue' || i.status === 'due_today');
    expect(overdue.length).toBeGreaterThan(0);
    const duePaise = overdue.reduce((total, i) => total + i.outstandingPaise, 0);

    const created = await apiPost(t, customer, paths.payments.instalment, { customerId: priya });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const checkout = ZCheckoutOrder.parse(created.body.data);
    expect(checkout.amountPaise).toBe(duePaise);
    const paid = await fake.capture(checkout.gatewayOrderId);
    const { body, signature } = fake.webhookFor(checkout.gatewayOrderId);
    const [verified] = await Promise.all([
      apiPost(t, customer, paths.payments.verify, paid),
      postWebhook(body, signature),
    ]);
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    await postWebhook(body, signature);
    const again = await apiPost(t, customer, paths.payments.verify, paid);
    expect(again.body.data).toEqual(verified.body.data);
    const status = ZPaymentOrderStatus.parse(verified.body.data);
    expect(status).toMatchObject({ status: 'paid', purpose: 'instalment', amountPaise: duePaise });
    expect(status.receiptNo).toMatch(/^KR-41-\d{6}$/);

    const after = ZEmiDetails.parse(
      (await apiGet(t, retailer, `${paths.emi.details}?customer_id=${priya}`)).body.data,
    );
    expect(after.payments.length).toBe(before.payments.length + 1);
    const payment = after.payments.find((p) => p.receiptNo === status.receiptNo)!;
    expect(payment).toMatchObject({
      amountPaise: duePaise,
      mode: 'online',
      reference: paid.razorpay_payment_id,
    });
    // Allocated earliest first: the overdue instalments are now paid.
    expect(payment.allocations.map((a) => a.instalmentNo)).toEqual(overdue.map((i) => i.instalmentNo));
    expect(after.instalments.filter((i) => i.status === 'overdue')).toEqual([]);
    // The auto-lock ladder's unlock rung ran, as for a payment the shop records.
    const unlocks = await queryRows<{ name: string }>(
      t.app.ctx.db,
      sql`select c.name from device_commands c join devices d on d.id = c.device_id
          where d.customer_id = ${priya} and c.name = 'unlock'`,
    );
    expect(unlocks).toHaveLength(1);
    expect(await auditCount('emi.payment')).toBe(1);
  });

  it("answers 404 for another customer's loan, 403 for a retailer, 400 naming a bad amount", async () => {
    const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    const rahul = await customerIdNamed(t, retailer, 'Rahul');
    const priya = await customerIdNamed(t, retailer, 'Priya');
    const refused = await apiPost(t, customer, paths.payments.instalment, { customerId: rahul });
    expect(refused.status).toBe(404);
    expect((await apiPost(t, retailer, paths.payments.instalment, { customerId: priya })).status).toBe(403);
    for (const [body, field] of [
      [{ customerId: priya, amountPaise: 999_999_999 }, 'amountPaise'],
      [{ customerId: priya, amountPaise: -5 }, 'amountPaise'],
      [{ customerId: priya, amountPaise: 12.5 }, 'amountPaise'],
      [{ customerId: 'x' }, 'customerId'],
    ] as const) {
      const bad = await apiPost(t, customer, paths.payments.instalment, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(bad.body)).toEqual([field]);
    }
    expect(await count('payment_orders')).toBe(0);
  });
});

describe('the gateway down', () => {
  it('answers 503 PAYMENT_GATEWAY_UNAVAILABLE and writes nothing', async () => {
    const gone = await startFakeGateway();
    const app = await createTestApp(fakeGatewayConfig(gone));
    try {
      await gone.close();
      const token = await app.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
      const refused = await app.app.inject({
        method: 'POST',
        url: paths.payments.create,
        headers: { authorization: `Bearer ${token}` },
        payload: { appType: 0, quantity: 1 },
      });
      expect(refused.statusCode).toBe(503);
      expect(refused.json().code).toBe('PAYMENT_GATEWAY_UNAVAILABLE');
      const rows = await queryRows<{ n: number }>(
        app.app.ctx.db,
        sql`select (select count(*) from payment_orders)::int + (select count(*) from audit_log where action like 'payments.%')::int as n`,
      );
      expect(rows[0]!.n).toBe(0);
    } finally {
      await app.close();
    }
  });
});

describe('the in-process fake gateway (no Razorpay keys, outside production)', () => {
  it.override('appOverrides', {});
  // The fake posts its webhook to the app, so the app listens.
  it.beforeEach(async ({ t: app }) => {
    await app.app.listen({ host: '127.0.0.1', port: 0 });
  });

  it('serves checkout.js and a pay endpoint that hands back a signature the server accepts, then the webhook', async ({
    t: app,
    retailer: token,
  }) => {
    const auth = { authorization: `Bearer ${token}` };
    const created = await app.app.inject({
      method: 'POST',
      url: paths.payments.create,
      headers: auth,
      payload: { appType: 0, quantity: 2 },
    });
    const checkout = ZCheckoutOrder.parse(created.json().data);
    const script = await fetch(checkout.checkoutScriptUrl);
    expect(await script.text()).toContain('window.Razorpay = Razorpay');
    // What the dialog's Pay button does.
    const pay = await fetch(new URL('/v1/checkout/pay', checkout.checkoutScriptUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: checkout.keyId, order_id: checkout.gatewayOrderId, outcome: 'pay' }),
    });
    const result = (await pay.json()) as Record<string, string>;
    // The fake posts its signed payment.captured webhook to this listening server: it alone credits.
    const purchases = async () =>
      (
        await queryRows<{ n: number }>(
          app.app.ctx.db,
          sql`select count(*)::int as n from ledger_movements where kind = 'purchase' and payment_order_id = ${checkout.orderId}`,
        )
      )[0]!.n;
    await waitUntil(async () => (await purchases()) === 1);
    const verified = await app.app.inject({
      method: 'POST',
      url: paths.payments.verify,
      headers: auth,
      payload: result,
    });
    expect(verified.json().data.status).toBe('paid');
    expect(await purchases()).toBe(1);
  });
});
