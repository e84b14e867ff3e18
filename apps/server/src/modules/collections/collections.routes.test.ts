import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_CUSTOMER_MOBILE, DEMO_ORG_ID } from '../../db/seed/seed';
import type { TActor } from '../../lib/actor';
import { apiGet } from '../../test/fixtures';
import { bearer, type TestApp } from '../../test/harness';
import type { TTestFactories } from '../../test/route-test';
import { routeTest as it } from '../../test/route-test';
import {
  getCollectionsSummary,
  listCollectionsCustomers,
  type TCollectionsClock,
} from './collections.service';

/*
 * The collections view (issue 29) on a small portfolio whose every figure is worked out by hand
 * below, on 29-11-2026 at 11:30 AM +05:30. Two shops: A (a retailer) and B (its mini-retailer);
 * every instalment is ₹1,000; loans were made on 01-08-2026 (Dev on 05-11-2026).
 *
 *   Asha   (A) due 15-10 (paid 14-10), 15-11, 15-12          → 14 days past due, 1–30
 *   Bala   (A) due 20-08, 20-09, 20-10, 20-11, 20-12 unpaid   → 101 days, over 90
 *   Chitra (B) due 25-09, 25-10 (paid 26-10), 25-11, 25-12    → 65 days, 61–90
 *   Dev    (B) due 05-12, 05-01                               → current
 *   Esha   (A) due 01-10, 01-11, both paid 10-11              → settled (not open)
 *   Farid  (A) due 10-10 (₹400 paid 09-10), 10-11             → 50 days, 31–60
 */
const TODAY = '2026-11-29';
const CLOCK: TCollectionsClock = { today: TODAY, now: new Date('2026-11-29T06:00:00Z') };
const RUPEES_1000 = 100_000;

let t: TestApp;
let receipt = 0;

type TInstalment = { due: string; paid?: { paise: number; at: string } };

/** A loan of `retailerId` with exactly these instalments (₹1,000 each) and payments. */
const loan = async (
  make: TTestFactories,
  retailerId: number,
  firstName: string,
  instalments: TInstalment[],
  madeOn = '2026-08-01',
) => {
  const { customer } = await make.customer({
    retailerId,
    firstName,
    lastName: 'Test',
    createdAt: new Date(`${madeOn}T06:00:00Z`),
  });
  const { db } = t.app.ctx;
  await db.execute(sql`delete from emis where customer_id = ${customer.id}`);
  for (const [index, instalment] of instalments.entries()) {
    const paid = instalment.paid?.paise ?? 0;
    const [emi] = await queryRows<{ id: number }>(
      db,
      sql`insert into emis (org_id, customer_id, instalment_no, due_date, amount_paise, principal_paise, interest_paise, paid_paise)
        values (${DEMO_ORG_ID}, ${customer.id}, ${index + 1}, ${instalment.due}, ${RUPEES_1000}, 90000, 10000, ${paid}) returning id`,
    );
    if (!instalment.paid) continue;
    receipt += 1;
    const [payment] = await queryRows<{ id: number }>(
      db,
      sql`insert into payments (org_id, customer_id, receipt_no, amount_paise, mode, received_at)
        values (${DEMO_ORG_ID}, ${customer.id}, ${`COLL-${receipt}`}, ${paid}, 'cash', ${`${instalment.paid.at}T06:00:00Z`}) returning id`,
    );
    await db.execute(
      sql`insert into payment_allocations (payment_id, emi_id, amount_paise) values (${payment!.id}, ${emi!.id}, ${paid})`,
    );
  }
  return customer.id;
};

/** The two shops and the six loans above; answers the shops and a token of A. */
const portfolio = async (make: TTestFactories) => {
  const shopA = await make.user({
    mobile: '+919811100001',
    name: 'Anil',
    shopName: 'Shop A',
    userType: 'retailer',
  });
  const shopB = await make.user({
    mobile: '+919811100002',
    name: 'Bina',
    shopName: 'Shop B',
    userType: 'miniretailer',
    parentId: shopA.id,
  });
  const paid = (at: string, paise = RUPEES_1000) => ({ paise, at });
  const ids = {
    asha: await loan(make, shopA.id, 'Asha', [
      { due: '2026-10-15', paid: paid('2026-10-14') },
      { due: '2026-11-15' },
      { due: '2026-12-15' },
    ]),
    bala: await loan(
      make,
      shopA.id,
      'Bala',
      ['2026-08-20', '2026-09-20', '2026-10-20', '2026-11-20', '2026-12-20'].map((due) => ({ due })),
    ),
    chitra: await loan(make, shopB.id, 'Chitra', [
      { due: '2026-09-25' },
      { due: '2026-10-25', paid: paid('2026-10-26') },
      { due: '2026-11-25' },
      { due: '2026-12-25' },
    ]),
    dev: await loan(make, shopB.id, 'Dev', [{ due: '2026-12-05' }, { due: '2027-01-05' }], '2026-11-05'),
    esha: await loan(make, shopA.id, 'Esha', [
      { due: '2026-10-01', paid: paid('2026-11-10') },
      { due: '2026-11-01', paid: paid('2026-11-10') },
    ]),
    farid: await loan(make, shopA.id, 'Farid', [
      { due: '2026-10-10', paid: paid('2026-10-09', 40_000) },
      { due: '2026-11-10' },
    ]),
  };
  const token = await t.tokenFor(DEMO_ORG_ID, '+919811100001');
  const actor: TActor = { userId: shopA.id, orgId: DEMO_ORG_ID, userType: 'retailer', sessionId: 'test' };
  return { shopA, shopB, ids, token, actor };
};

it.beforeEach(({ t: app }) => {
  t = app;
});

const bucket = (key: string, loans: number, outstandingPaise: number, overduePaise: number) => ({
  bucket: key,
  loans,
  outstandingPaise,
  overduePaise,
});

describe('collections summary (issue 29), figures by hand', () => {
  it('counts open loans by days past due, with outstanding and overdue money, and PAR 30', async ({
    make,
  }) => {
    const { actor } = await portfolio(make);
    const summary = await getCollectionsSummary(t.app.ctx.db, actor, {}, CLOCK);
    expect(summary.asOf).toBe(TODAY);
    // Dev ₹2,000 not yet due; Asha ₹2,000 (₹1,000 due); Farid ₹600 + ₹1,000, all due;
    // Chitra ₹3,000 (₹2,000 due); Bala ₹5,000 (₹4,000 due). Esha is settled.
    expect(summary.buckets).toEqual([
      bucket('current', 1, 200_000, 0),
      bucket('1_30', 1, 200_000, 100_000),
      bucket('31_60', 1, 160_000, 160_000),
      bucket('61_90', 1, 300_000, 200_000),
      bucket('90_plus', 1, 500_000, 400_000),
    ]);
    // Over 30 days: Farid + Chitra + Bala = ₹9,600 of ₹13,600 = 70.588…% → 7,058 bps.
    expect(summary.par30).toEqual({ loans: 3, outstandingPaise: 960_000, ratioBps: 7058 });
  });

  it('gives each shop its buckets and PAR 30, the most at risk first', async ({ make }) => {
    const { actor, shopA, shopB } = await portfolio(make);
    const { shops } = await getCollectionsSummary(t.app.ctx.db, actor, {}, CLOCK);
    expect(shops.map((shop) => [shop.retailerId, shop.name, shop.par30])).toEqual([
      // A: Farid ₹1,600 + Bala ₹5,000 of ₹8,600 (with Asha's ₹2,000) = 76.74…%.
      [shopA.id, 'Shop A', { loans: 2, outstandingPaise: 660_000, ratioBps: 7674 }],
      // B: Chitra ₹3,000 of ₹5,000 (with Dev's ₹2,000) = 60%.
      [shopB.id, 'Shop B', { loans: 1, outstandingPaise: 300_000, ratioBps: 6000 }],
    ]);
    expect(shops[1]!.buckets.map((row) => row.loans)).toEqual([1, 0, 0, 1, 0]);
  });

  it('measures collection efficiency: paid towards what fell due in the period, by its end', async ({
    make,
  }) => {
    const { actor } = await portfolio(make);
    const db = t.app.ctx.db;
    // October: Asha 15-10, Bala 20-10, Chitra 25-10, Esha 01-10, Farid 10-10 fell due (₹5,000);
    // by 31-10 Asha ₹1,000, Chitra ₹1,000 and Farid ₹400 were paid (Esha paid in November).
    expect(
      (await getCollectionsSummary(db, actor, { from: '2026-10-01', to: '2026-10-31' }, CLOCK)).efficiency,
    ).toEqual({
      from: '2026-10-01',
      to: '2026-10-31',
      duePaise: 500_000,
      collectedPaise: 240_000,
      ratioBps: 4800,
    });
    // This month by default: Asha, Bala, Chitra, Esha, Farid fell due (₹5,000); only Esha paid.
    expect((await getCollectionsSummary(db, actor, {}, CLOCK)).efficiency).toEqual({
      from: '2026-11-01',
      to: TODAY,
      duePaise: 500_000,
      collectedPaise: 100_000,
      ratioBps: 2000,
    });
  });

  it('rolls loans month to month from month-end to month-end, the last step to today', async ({ make }) => {
    const { actor } = await portfolio(make);
    const { rollRates } = await getCollectionsSummary(t.app.ctx.db, actor, {}, CLOCK);
    const step = (fromDate: string, toDate: string) =>
      rollRates
        .filter((row) => row.fromDate === fromDate && row.toDate === toDate)
        .map((row) => [row.fromBucket, row.loans, row.rolledForward, row.cured, row.rateBps]);
    expect(rollRates.length).toBe(6 * 4);
    expect(rollRates[0]).toMatchObject({
      fromDate: '2026-05-31',
      toDate: '2026-06-30',
      loans: 0,
      rateBps: null,
    });
    // 31-08: Bala 11 days late; the rest current. 30-09: Bala 41, Chitra 5.
    expect(step('2026-08-31', '2026-09-30')).toEqual([
      ['current', 4, 1, 0, 2500],
      ['1_30', 1, 1, 0, 10_000],
      ['31_60', 0, 0, 0, null],
      ['61_90', 0, 0, 0, null],
    ]);
    // 31-10: Asha current (paid 14-10), Esha 30 days, Farid 21, Chitra 36, Bala 72.
    expect(step('2026-09-30', '2026-10-31')).toEqual([
      ['current', 3, 2, 0, 6666],
      ['1_30', 1, 1, 0, 10_000],
      ['31_60', 1, 1, 0, 10_000],
      ['61_90', 0, 0, 0, null],
    ]);
    // Today: Asha 1–30, Esha settled (cured), Farid 31–60, Chitra 61–90, Bala over 90.
    expect(step('2026-10-31', TODAY)).toEqual([
      ['current', 1, 1, 0, 10_000],
      ['1_30', 2, 1, 1, 5000],
      ['31_60', 1, 1, 0, 10_000],
      ['61_90', 1, 1, 0, 10_000],
    ]);
  });

  it("lists a bucket's loans, most days past due first, a page at a time", async ({ make }) => {
    const { actor, ids } = await portfolio(make);
    const db = t.app.ctx.db;
    const over90 = await listCollectionsCustomers(
      db,
      actor,
      { bucket: '90_plus', page: 1, pageSize: 20 },
      CLOCK,
    );
    expect(over90).toMatchObject({ total: 1, page: 1, pageSize: 20 });
    expect(over90.items).toEqual([
      expect.objectContaining({
        customerId: ids.bala,
        customerName: 'Bala Test',
        shopName: 'Shop A',
        dpd: 101,
        oldestDueDate: '2026-08-20',
        outstandingPaise: 500_000,
        overduePaise: 400_000,
      }),
    ]);
    const current = await listCollectionsCustomers(
      db,
      actor,
      { bucket: 'current', page: 1, pageSize: 20 },
      CLOCK,
    );
    expect(current.items.map((item) => [item.customerId, item.dpd, item.oldestDueDate])).toEqual([
      [ids.dev, 0, null],
    ]);
  });
});

describe('collections routes: scope and bad input', () => {
  it('answers the summary over HTTP, narrows to a shop, and 404s another tenant’s shop', async ({
    make,
    otherRetailer,
  }) => {
    const { token, shopB } = await portfolio(make);
    const all = await apiGet(t, token, paths.collections.summary);
    expect(all.status).toBe(200);
    expect(all.body.data.buckets.map((row: { loans: number }) => row.loans)).toEqual([1, 1, 1, 1, 1]);
    // A few statements whatever the portfolio: the session, then buckets, efficiency and roll rates at once.
    const { statements } = await t.app.statements.measure(() =>
      t.app.inject({ method: 'GET', url: paths.collections.summary, headers: bearer(token) }),
    );
    expect(statements.length, statements.map((s) => s.text.slice(0, 80)).join('\n')).toBeLessThanOrEqual(4);
    const b = await apiGet(t, token, `${paths.collections.summary}?retailer_id=${shopB.id}`);
    expect(b.body.data.shops.map((shop: { name: string }) => shop.name)).toEqual(['Shop B']);
    // Shop B is not the other organisation's retailer's: 404 naming the field, as for a made-up id.
    for (const url of [
      `${paths.collections.summary}?retailer_id=${shopB.id}`,
      `${paths.collections.customers}?bucket=current&retailer_id=${shopB.id}`,
    ]) {
      const foreign = await apiGet(t, otherRetailer, url);
      expect(foreign.status).toBe(404);
      expect(foreign.body.fields[0].field).toBe('retailer_id');
    }
    // The other organisation's retailer sees none of these loans.
    const theirs = await apiGet(t, otherRetailer, `${paths.collections.customers}?bucket=90_plus`);
    expect(theirs.body.data.items.map((item: { customerName: string }) => item.customerName)).not.toContain(
      'Bala Test',
    );
  });

  it('shows a mini-retailer its own loans only, and an admin the whole organisation', async ({ make }) => {
    const { shopB, ids } = await portfolio(make);
    const mini = await t.tokenFor(DEMO_ORG_ID, '+919811100002');
    const own = await apiGet(t, mini, `${paths.collections.customers}?bucket=61_90`);
    expect(own.body.data.items.map((item: { customerId: number }) => item.customerId)).toEqual([ids.chitra]);
    expect((await apiGet(t, mini, `${paths.collections.customers}?bucket=90_plus`)).body.data.items).toEqual(
      [],
    );
    const admin = await make.user({ mobile: '+919811100003', name: 'Admin', userType: 'admin' });
    const adminToken = await t.tokenFor(DEMO_ORG_ID, admin.mobile);
    const whole = await apiGet(t, adminToken, `${paths.collections.customers}?bucket=90_plus&pageSize=100`);
    expect(whole.status).toBe(200);
    expect(whole.body.data.items.map((item: { customerId: number }) => item.customerId)).toContain(ids.bala);
    const narrowed = await apiGet(t, adminToken, `${paths.collections.summary}?retailer_id=${shopB.id}`);
    expect(narrowed.body.data.shops.map((shop: { name: string }) => shop.name)).toEqual(['Shop B']);
  });

  it('refuses customers (403) and bad input with 400 naming the field', async ({ make, retailer }) => {
    await portfolio(make);
    for (const [url, field] of [
      [`${paths.collections.customers}?bucket=2_5`, 'bucket'],
      [`${paths.collections.customers}`, 'bucket'],
      [`${paths.collections.summary}?from=2026-02-31`, 'from'],
      [`${paths.collections.summary}?from=2026-13-45`, 'from'],
      [`${paths.collections.export}?format=csv&to=0000-99-99`, 'to'],
      [`${paths.collections.summary}?from=2026-11-10&to=2026-11-01`, 'to'],
      [`${paths.collections.summary}?from=2024-01-01&to=2026-11-01`, 'to'],
      [`${paths.collections.summary}?retailer_id=x`, 'retailer_id'],
      [`${paths.collections.export}?format=pdf`, 'format'],
    ] as const) {
      const bad = await apiGet(t, retailer, url);
      expect(bad.status, url).toBe(400);
      expect(bad.body.fields[0].field, url).toBe(field);
    }
    const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    expect((await apiGet(t, customer, paths.collections.summary)).status).toBe(403);
  });
});

describe('collections exports', () => {
  it('downloads the open loans as CSV and every figure as an XLSX workbook', async ({ make }) => {
    const { token } = await portfolio(make);
    const csv = await t.app.inject({
      method: 'GET',
      url: `${paths.collections.export}?format=csv`,
      headers: bearer(token),
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(/collections-\d{4}-\d{2}-\d{2}\.csv/);
    const lines = csv.body.trim().split('\n');
    expect(lines[0]).toBe(
      'Customer id,Customer,Mobile,Shop,Days past due,Bucket,Oldest due date,Overdue (₹),Outstanding (₹),In PAR 30',
    );
    expect(lines.length).toBe(1 + 5);

    const xlsx = await t.app.inject({
      method: 'GET',
      url: `${paths.collections.export}?format=xlsx`,
      headers: bearer(token),
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(new Uint8Array(xlsx.rawPayload).buffer);
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual(['Buckets', 'Shops', 'Roll rates', 'Loans']);
    expect(book.getWorksheet('Loans')!.rowCount).toBe(1 + 5);
    expect(book.getWorksheet('Buckets')!.getRow(3).values).toEqual([
      undefined,
      'Current',
      1,
      expect.any(String),
      '2000.00',
    ]);
  });
});
