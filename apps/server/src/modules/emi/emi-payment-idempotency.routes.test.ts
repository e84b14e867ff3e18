import { randomUUID } from 'node:crypto';
import { ZPaymentReceipt } from '@kisht/domain/emi/emi.schema';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID, SECOND_ORG_ID } from '../../db/seed/seed';
import { apiGet, customerIdNamed } from '../../test/fixtures';
import { bearer, type TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

const customerNamed = (firstName: string, token = retailer) => customerIdNamed(t, token, firstName);
const firstInstalment = async (customerId: number, token = retailer) =>
  (await apiGet(t, token, `${paths.emi.details}?customer_id=${customerId}`)).body.data.instalments[0] as {
    id: number;
    outstandingPaise: number;
  };

/** POST multiple_emi_paid with an optional Idempotency-Key. */
const pay = async (token: string, payload: Record<string, unknown>, idempotencyKey?: string) => {
  const response = await t.app.inject({
    method: 'POST',
    url: paths.emi.pay,
    headers: {
      ...bearer(token),
      ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
    },
    payload,
  });
  return { status: response.statusCode, body: response.json() };
};

const paymentRows = () =>
  queryRows(
    t.app.ctx.db,
    sql`select org_id, receipt_no, amount_paise, idempotency_key, idempotency_fingerprint from payments order by id`,
  );
/** Paid on every instalment of the database, paise (seeded loans included). */
const paidOnEmis = async () =>
  Number(
    (await queryRows(t.app.ctx.db, sql`select coalesce(sum(paid_paise), 0)::bigint as n from emis`))[0]!.n,
  );
const auditCount = async () =>
  Number(
    (
      await queryRows(
        t.app.ctx.db,
        sql`select count(*)::int as n from audit_log where action = 'emi.payment'`,
      )
    )[0]!.n,
  );

describe('receipt numbers (per organisation)', () => {
  it("numbers each organisation's receipts from 1, independently of the others", async ({
    otherRetailer: other,
  }) => {
    const priya = await customerNamed('Priya');
    const aarav = await customerNamed('Aarav');
    const kiran = await customerNamed('Kiran', other);

    const first = await pay(retailer, {
      customer_id: priya,
      emi_ids: [(await firstInstalment(priya)).id],
      amountPaise: 10_000,
      mode: 'cash',
    });
    expect(first.status).toBe(200);
    expect(ZPaymentReceipt.parse(first.body.data).receiptNo).toBe(`KR-${DEMO_ORG_ID}-000001`);

    const theirs = await pay(other, {
      customer_id: kiran,
      emi_ids: [(await firstInstalment(kiran, other)).id],
      amountPaise: 10_000,
      mode: 'upi',
    });
    expect(theirs.body.data.receiptNo).toBe(`KR-${SECOND_ORG_ID}-000001`);

    const second = await pay(retailer, {
      customer_id: aarav,
      emi_ids: [(await firstInstalment(aarav)).id],
      amountPaise: 10_000,
      mode: 'cash',
    });
    expect(second.body.data.receiptNo).toBe(`KR-${DEMO_ORG_ID}-000002`);
    const counters = await queryRows(
      t.app.ctx.db,
      sql`select org_id, value::int as value from org_counters where name = 'receipt' order by org_id`,
    );
    expect(counters).toEqual([
      { org_id: DEMO_ORG_ID, value: 2 },
      { org_id: SECOND_ORG_ID, value: 1 },
    ]);
  });

  it('gives concurrent payments distinct, consecutive numbers', async () => {
    const priya = await customerNamed('Priya');
    const aarav = await customerNamed('Aarav');
    const [priyaFirst, aaravFirst] = [await firstInstalment(priya), await firstInstalment(aarav)];
    const answers = await Promise.all(
      [0, 1, 2, 3].map((n) =>
        pay(retailer, {
          customer_id: n % 2 === 0 ? priya : aarav,
          emi_ids: [n % 2 === 0 ? priyaFirst.id : aaravFirst.id],
          amountPaise: 1_000,
          mode: 'cash',
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((a) => a.body.data.receiptNo).sort()).toEqual([
      'KR-41-000001',
      'KR-41-000002',
      'KR-41-000003',
      'KR-41-000004',
    ]);
  });
});

describe('Idempotency-Key on multiple_emi_paid', () => {
  let paidBefore = 0;
  it.beforeEach(async () => {
    paidBefore = await paidOnEmis();
  });
  const body = async () => {
    const priya = await customerNamed('Priya');
    const first = await firstInstalment(priya);
    return { customer_id: priya, emi_ids: [first.id], amountPaise: 50_000, mode: 'upi', reference: 'UTR-1' };
  };

  it('answers a retry with the same key and request with the original receipt, writing nothing again', async () => {
    const request = await body();
    const key = randomUUID();
    const original = await pay(retailer, request, key);
    expect(original.status).toBe(200);
    const retry = await pay(retailer, request, key);
    expect(retry.status).toBe(200);
    expect(ZPaymentReceipt.parse(retry.body.data)).toEqual(ZPaymentReceipt.parse(original.body.data));

    const rows = await paymentRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ idempotency_key: key });
    expect(rows[0]!.idempotency_fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect((await paidOnEmis()) - paidBefore).toBe(50_000);
    expect(await auditCount()).toBe(1);

    // The same payment in another order of the same fields is the same request.
    const reordered = await pay(
      retailer,
      {
        reference: 'UTR-1',
        mode: 'upi',
        amountPaise: 50_000,
        emi_ids: request.emi_ids,
        customer_id: request.customer_id,
      },
      key,
    );
    expect(reordered.body.data.receiptNo).toBe(original.body.data.receiptNo);
    expect(await paymentRows()).toHaveLength(1);
  });

  it('refuses the same key with a different request (422 IDEMPOTENCY_KEY_REUSED), writing nothing', async () => {
    const request = await body();
    const key = randomUUID();
    await pay(retailer, request, key);
    const changed = await pay(retailer, { ...request, amountPaise: 40_000 }, key);
    expect(changed.status).toBe(422);
    expect(changed.body).toMatchObject({ response: 'failure', code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await paymentRows()).toHaveLength(1);
    expect((await paidOnEmis()) - paidBefore).toBe(50_000);
    expect(await auditCount()).toBe(1);
  });

  it('records once when two requests with one key arrive together', async () => {
    const request = await body();
    const key = randomUUID();
    const answers = await Promise.all([pay(retailer, request, key), pay(retailer, request, key)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers[0]!.body.data.receiptNo).toBe(answers[1]!.body.data.receiptNo);
    expect(await paymentRows()).toHaveLength(1);
    expect((await paidOnEmis()) - paidBefore).toBe(50_000);
  });

  it("keeps keys per organisation: another organisation's payment with the same key is its own", async ({
    otherRetailer: other,
  }) => {
    const key = randomUUID();
    await pay(retailer, await body(), key);
    const kiran = await customerNamed('Kiran', other);
    const theirs = await pay(
      other,
      {
        customer_id: kiran,
        emi_ids: [(await firstInstalment(kiran, other)).id],
        amountPaise: 1_000,
        mode: 'cash',
      },
      key,
    );
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.amountPaise).toBe(1_000);
    expect((await paymentRows()).map((r) => r.org_id)).toEqual([DEMO_ORG_ID, SECOND_ORG_ID]);
  });

  it("does not answer another organisation's customer through a key (404), and writes nothing", async ({
    otherRetailer: other,
  }) => {
    const request = await body();
    const key = randomUUID();
    await pay(retailer, request, key);
    const answer = await pay(other, request, key);
    expect(answer.status).toBe(404);
    expect(await paymentRows()).toHaveLength(1);
  });

  it.each([
    ['', 'empty'],
    ['x'.repeat(256), 'longer than 255'],
    ['has space', 'not visible ASCII'],
    ['clé', 'not ASCII'],
    ['"unterminated', 'a broken quoted string'],
  ])('refuses the key %j (%s) with 400 naming Idempotency-Key, writing nothing', async (key) => {
    const answer = await pay(retailer, await body(), key);
    expect(answer.status).toBe(400);
    expect(answer.body.fields.map((f: { field: string }) => f.field)).toEqual(['Idempotency-Key']);
    expect(answer.body.message).toContain('Idempotency-Key');
    expect(await paymentRows()).toHaveLength(0);
  });

  it('takes a key as a Structured Field string ("…") as well as bare, as the same key', async () => {
    const request = await body();
    const key = randomUUID();
    const quoted = await pay(retailer, request, `"${key}"`);
    expect(quoted.status).toBe(200);
    const bare = await pay(retailer, request, key);
    expect(bare.body.data.receiptNo).toBe(quoted.body.data.receiptNo);
    expect((await paymentRows())[0]).toMatchObject({ idempotency_key: key });
  });

  it('still records a payment without a key (each request its own payment)', async () => {
    const request = await body();
    expect((await pay(retailer, { ...request, amountPaise: 1_000 })).status).toBe(200);
    expect((await pay(retailer, { ...request, amountPaise: 1_000 })).status).toBe(200);
    expect(await paymentRows()).toHaveLength(2);
  });

  it('documents the Idempotency-Key header in the OpenAPI document', async () => {
    const response = await t.app.inject({ method: 'GET', url: `${paths.docs}/json` });
    const operation = response.json().paths[paths.emi.pay].post;
    const header = operation.parameters.find(
      (p: { in: string; name: string }) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key',
    );
    expect(header).toBeDefined();
    expect(header.required).toBeFalsy();
    expect(header.description).toMatch(/Idempotency-Key/);
  });
});
