import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_CUSTOMER_MOBILE, DEMO_ORG_ID, DEMO_RETAILER_UPI_ID } from '../../db/seed/seed';
import { apiGet, apiPost, customerBody, customerIdNamed } from '../../test/fixtures';
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
const emiDetails = async (customerId: number) =>
  (await apiGet(t, retailer, `${paths.emi.details}?customer_id=${customerId}`)).body.data;
const paymentCount = async () =>
  Number((await queryRows(t.app.ctx.db, sql`select count(*)::int as n from payments`))[0]!.n);

describe('EMI details', () => {
  it('shows the schedule with statuses, totals and no payments yet', async () => {
    const priya = await customerNamed('Priya');
    const details = await emiDetails(priya);
    expect(details.customerName).toBe('Priya Patel');
    expect(details.instalments[0].status).toBe('overdue'); // her loan started 50 days ago
    expect(details.instalments.at(-1).status).toBe('upcoming');
    expect(details.totals.outstandingPaise).toBe(details.totals.amountPaise);
    expect(details.totals.overduePaise).toBe(details.instalments[0].amountPaise);
    expect(details.payments).toEqual([]);
  });

  it('answers 404 for another organisation’s customer and 400 for a bad id', async ({
    otherRetailer: other,
  }) => {
    const foreign = await customerNamed('Kiran', other);
    expect((await apiGet(t, retailer, `${paths.emi.details}?customer_id=${foreign}`)).status).toBe(404);
    const bad = await apiGet(t, retailer, `${paths.emi.details}?customer_id=x`);
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('customer_id');
  });
});

describe('recording payments (multiple_emi_paid)', () => {
  it('applies a partial payment, then one covering the rest of two instalments', async () => {
    const priya = await customerNamed('Priya');
    const [first, second] = (await emiDetails(priya)).instalments;

    const partial = await apiPost(t, retailer, paths.emi.pay, {
      customer_id: priya,
      emi_ids: [first.id],
      amountPaise: 100_000,
      mode: 'cash',
    });
    expect(partial.status).toBe(200);
    expect(partial.body.data).toMatchObject({
      receiptNo: expect.stringMatching(/^KR-41-\d{6}$/),
      amountPaise: 100_000,
      mode: 'cash',
      allocations: [{ instalmentNo: 1, amountPaise: 100_000 }],
      customerStatus: 1,
      recordedByName: 'Ravi Mobiles',
    });
    expect((await emiDetails(priya)).instalments[0]).toMatchObject({ paidPaise: 100_000, status: 'overdue' });

    const rest = first.amountPaise - 100_000 + second.amountPaise;
    const both = await apiPost(t, retailer, paths.emi.pay, {
      customer_id: priya,
      emi_ids: [second.id, first.id],
      amountPaise: rest,
      mode: 'upi',
      reference: 'UPI-REF-42',
    });
    expect(both.body.data.allocations).toEqual([
      { instalmentNo: 1, amountPaise: first.amountPaise - 100_000 },
      { instalmentNo: 2, amountPaise: second.amountPaise },
    ]);
    const after = await emiDetails(priya);
    expect(after.instalments.slice(0, 2).map((i: { status: string }) => i.status)).toEqual(['paid', 'paid']);
    expect(after.totals.paidPaise).toBe(first.amountPaise + second.amountPaise);
    expect(after.payments.map((p: { reference: string | null }) => p.reference)).toEqual([
      'UPI-REF-42',
      null,
    ]);
    const audit = await queryRows(
      t.app.ctx.db,
      sql`select count(*)::int as n from audit_log where action = 'emi.payment'`,
    );
    expect(audit[0]!.n).toBe(2);
  });

  it('moves the customer to EMIs completed when the last instalment is paid', async () => {
    const aarav = await customerNamed('Aarav');
    const { instalments, totals } = await emiDetails(aarav);
    const receipt = await apiPost(t, retailer, paths.emi.pay, {
      customer_id: aarav,
      emi_ids: instalments.map((i: { id: number }) => i.id),
      amountPaise: totals.outstandingPaise,
      mode: 'bank_transfer',
    });
    expect(receipt.body.data.customerStatus).toBe(5);
    const dashboard = (await apiGet(t, retailer, paths.stats.dashboard)).body.data;
    expect(dashboard.countsByStatus).toMatchObject({ install: 1, emi_completed: 2 });
  });

  it.each([
    [{ amountPaise: 0 }, 'amountPaise'],
    [{ amountPaise: 10.5 }, 'amountPaise'],
    [{ amountPaise: 999_999_999 }, 'amountPaise'],
    [{ emi_ids: [] }, 'emi_ids'],
    [{ mode: 'gold' }, 'mode'],
    [{ customer_id: 'x' }, 'customer_id'],
  ])('refuses %o naming %s and writes nothing', async (override, field) => {
    const priya = await customerNamed('Priya');
    const [first] = (await emiDetails(priya)).instalments;
    const response = await apiPost(t, retailer, paths.emi.pay, {
      customer_id: priya,
      emi_ids: [first.id],
      amountPaise: 1000,
      mode: 'cash',
      ...override,
    });
    expect(response.status).toBe(400);
    expect(response.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect(await paymentCount()).toBe(0);
    expect((await emiDetails(priya)).totals.paidPaise).toBe(0);
  });

  it("answers 404 naming emi_ids for another customer's instalment and 404 for another organisation's customer", async ({
    otherRetailer: other,
  }) => {
    const priya = await customerNamed('Priya');
    const aaravFirst = (await emiDetails(await customerNamed('Aarav'))).instalments[0];
    const mixed = await apiPost(t, retailer, paths.emi.pay, {
      customer_id: priya,
      emi_ids: [aaravFirst.id],
      amountPaise: 1000,
      mode: 'cash',
    });
    expect(mixed.status).toBe(404);
    expect(mixed.body.fields[0].field).toBe('emi_ids');

    const foreign = await customerNamed('Kiran', other);
    const response = await apiPost(t, retailer, paths.emi.pay, {
      customer_id: foreign,
      emi_ids: [aaravFirst.id],
      amountPaise: 1000,
      mode: 'cash',
    });
    expect(response.status).toBe(404);
    expect(await paymentCount()).toBe(0);
  });
});

describe('upcoming EMIs, counts and totals', () => {
  it('lists overdue and this week’s unpaid instalments of own customers only', async ({
    otherRetailer: other,
  }) => {
    const overdue = (await apiGet(t, retailer, `${paths.emi.upcoming}?range=overdue`)).body.data;
    expect(overdue.items.map((i: { customerName: string }) => i.customerName)).toContain('Priya Patel');
    expect(overdue.items.every((i: { status: string }) => i.status === 'overdue')).toBe(true);
    const counts = (await apiGet(t, retailer, paths.emi.upcomingCounts)).body.data;
    expect(counts.overdue).toBe(overdue.total);
    expect(counts.week).toBeGreaterThanOrEqual(counts.today);

    const theirs = (await apiGet(t, other, `${paths.emi.upcoming}?range=overdue`)).body.data;
    expect(theirs.items.some((i: { customerName: string }) => i.customerName === 'Priya Patel')).toBe(false);

    const bad = await apiGet(t, retailer, `${paths.emi.upcoming}?range=month`);
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('range');
  });

  it('sums outstanding, overdue and collections, moving with a payment', async ({ otherRetailer: other }) => {
    const before = (await apiGet(t, retailer, paths.stats.totalOutstanding)).body.data;
    expect(before.overduePaise).toBeGreaterThan(0);
    expect(before.collectedPaise).toBe(0);
    const priya = await customerNamed('Priya');
    const [first] = (await emiDetails(priya)).instalments;
    await apiPost(t, retailer, paths.emi.pay, {
      customer_id: priya,
      emi_ids: [first.id],
      amountPaise: 50_000,
      mode: 'cash',
    });
    const after = (await apiGet(t, retailer, paths.stats.totalOutstanding)).body.data;
    expect(after).toMatchObject({
      outstandingPaise: before.outstandingPaise - 50_000,
      overduePaise: before.overduePaise - 50_000,
      collectedPaise: 50_000,
      collectedThisMonthPaise: 50_000,
    });
    expect((await apiGet(t, other, paths.stats.totalOutstanding)).body.data.collectedPaise).toBe(0);
  });
});

describe('CSV exports', () => {
  it('exports a schedule and the customer list; another tenant gets 404', async ({
    otherRetailer: other,
  }) => {
    const priya = await customerNamed('Priya');
    const schedule = await t.app.inject({
      method: 'GET',
      url: `${paths.emi.scheduleCsv}?customer_id=${priya}`,
      headers: bearer(retailer),
    });
    expect(schedule.headers['content-type']).toContain('text/csv');
    const lines = schedule.body.trim().split('\n');
    expect(lines[0]).toBe(
      'Instalment,Due date,Amount (₹),Principal (₹),Interest (₹),Penalty (₹),Paid (₹),Waived (₹),Outstanding (₹),Status',
    );
    expect(lines[1]).toMatch(/^1,\d{2}-\d{2}-\d{4},\d+\.\d{2},/);

    const list = await t.app.inject({
      method: 'GET',
      url: `${paths.customers.listCsv}?status=install`,
      headers: bearer(retailer),
    });
    const rows = list.body.trim().split('\n');
    expect(rows).toHaveLength(3);
    expect(rows.slice(1).join('\n')).toMatch(
      /Priya,Patel,\+919811111102,\d{15},.*,install,Locked,\d{2}-\d{2}-\d{4} \d{2}:\d{2} (AM|PM)/,
    );

    const foreign = await t.app.inject({
      method: 'GET',
      url: `${paths.emi.scheduleCsv}?customer_id=${priya}`,
      headers: bearer(other),
    });
    expect(foreign.statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'GET',
      url: `${paths.customers.listCsv}?status=nope`,
      headers: bearer(retailer),
    });
    expect(bad.statusCode).toBe(400);
  });

  it('writes a customer named like a formula as text, so a spreadsheet does not run it', async () => {
    const productId = (await apiGet(t, retailer, `${paths.catalogue.products}?device_type=0`)).body.data[0]
      .id as number;
    const formula = '=HYPERLINK("http://evil.example","x")';
    const created = await apiPost(
      t,
      retailer,
      paths.customers.create,
      customerBody(productId, { firstName: formula, lastName: '+cmd|calc' }),
    );
    expect(created.status).toBe(200);
    const list = await t.app.inject({
      method: 'GET',
      url: paths.customers.listCsv,
      headers: bearer(retailer),
    });
    const row = list.body.split('\n').find((line) => line.includes('evil.example'));
    expect(row).toContain(`,"'=HYPERLINK(""http://evil.example"",""x"")",'+cmd|calc,+919123456780,`);
  });
});

describe('the customer user', () => {
  it('logs in with OTP and sees only their own loan, with a UPI link to pay the retailer', async () => {
    const customer = await t.login(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    expect((await apiGet(t, customer, paths.users.me)).body.data.userType).toBe('customer');
    const loans = (await apiGet(t, customer, paths.emi.myLoans)).body.data;
    expect(loans).toHaveLength(1);
    expect(loans[0]).toMatchObject({
      lockStatus: 1,
      payTo: { retailerName: 'Ravi Mobiles', upiId: DEMO_RETAILER_UPI_ID },
    });
    const link = new URL(loans[0].payTo.upiLink.replace('upi://', 'http://'));
    expect(link.searchParams.get('pa')).toBe(DEMO_RETAILER_UPI_ID);
    expect(link.searchParams.get('am')).toBe((loans[0].instalments[0].totalDuePaise / 100).toFixed(2));
    expect(link.searchParams.get('cu')).toBe('INR');
  });

  it('cannot use retailer routes, and retailers have no own loans', async () => {
    const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    expect((await apiGet(t, customer, paths.customers.list)).status).toBe(403);
    const priya = await customerNamed('Priya');
    expect((await apiGet(t, customer, `${paths.emi.details}?customer_id=${priya}`)).status).toBe(403);
    expect((await apiGet(t, retailer, paths.emi.myLoans)).status).toBe(403);
  });

  it('gets a login when a retailer adds them', async () => {
    const productId = (await apiGet(t, retailer, `${paths.catalogue.products}?device_type=0`)).body.data[0]
      .id;
    const { customerBody } = await import('../../test/fixtures');
    await apiPost(t, retailer, paths.customers.create, customerBody(productId, { mobile: '9000012345' }));
    const token = await t.login(DEMO_ORG_ID, '+919000012345');
    const loans = (await apiGet(t, token, paths.emi.myLoans)).body.data;
    expect(loans).toHaveLength(1);
    expect(loans[0].lockStatus).toBe(0);
  });
});
