import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_CUSTOMER_MOBILE, DEMO_ORG_ID, SECOND_ORG_ID, SECOND_RETAILER_MOBILE } from '../../db/seed/seed';
import { apiGet, apiPost, customerIdNamed } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

const customerNamed = (firstName: string, token = retailer) => customerIdNamed(t, token, firstName);
const emiDetails = async (customerId: number, token = retailer) =>
  (await apiGet(t, token, `${paths.emi.details}?customer_id=${customerId}`)).body.data;
/** Sums of the emis table, to show a refused request wrote nothing. */
const emiSums = async () =>
  (
    await queryRows(
      t.app.ctx.db,
      sql`select sum(amount_paise)::bigint as amount, sum(paid_paise)::bigint as paid,
                 sum(penalty_paise)::bigint as penalty, sum(waived_paise)::bigint as waived from emis`,
    )
  )[0];
const commandCount = async () =>
  Number((await queryRows(t.app.ctx.db, sql`select count(*)::int as n from device_commands`))[0]!.n);
const foreignCustomer = async () => {
  const other = await t.tokenFor(SECOND_ORG_ID, SECOND_RETAILER_MOBILE);
  return { other, kiran: await customerNamed('Kiran', other) };
};

describe('send_penalty', () => {
  it('levies the organisation’s ₹200 late fee once on an instalment overdue past the grace days', async () => {
    const priya = await customerNamed('Priya');
    const [first, second] = (await emiDetails(priya)).instalments;
    expect(first.status).toBe('overdue');
    expect(first.penaltyDuePaise).toBe(20_000);
    expect(second.penaltyDuePaise).toBe(0); // not yet due

    const levied = await apiPost(t, retailer, paths.customers.sendPenalty, {
      customer_id: priya,
      emi_id: first.id,
    });
    expect(levied.status).toBe(200);
    const after = levied.body.data.instalments[0];
    expect(after).toMatchObject({ penaltyPaise: 20_000, penaltyDuePaise: 0 });
    expect(after.amountPaise).toBe(first.amountPaise + 20_000);
    expect(after.outstandingPaise).toBe(first.outstandingPaise + 20_000);
    expect(levied.body.data.totals.overduePaise).toBe(first.outstandingPaise + 20_000);

    const again = await apiPost(t, retailer, paths.customers.sendPenalty, {
      customer_id: priya,
      emi_id: first.id,
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'PENALTY_NOT_DUE', fields: [{ field: 'emi_id' }] });
    const audit = await queryRows(
      t.app.ctx.db,
      sql`select details from audit_log where action = 'emi.penalty'`,
    );
    expect(audit).toHaveLength(1);
  });

  it('charges 2% of the instalment in an organisation with a percentage rule', async ({ make }) => {
    const { other, kiran } = await foreignCustomer();
    await make.overdue(kiran, { daysOverdue: 10 });
    const [first] = (await emiDetails(kiran, other)).instalments;
    expect(first.penaltyDuePaise).toBe(Math.round(first.amountPaise * 0.02));
  });

  it('refuses a bad body, an instalment not yet due, and other tenants’ ids, writing nothing', async () => {
    const priya = await customerNamed('Priya');
    const [, second] = (await emiDetails(priya)).instalments;
    const before = await emiSums();
    const bad = await apiPost(t, retailer, paths.customers.sendPenalty, { customer_id: priya, emi_id: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('emi_id');
    const notDue = await apiPost(t, retailer, paths.customers.sendPenalty, {
      customer_id: priya,
      emi_id: second.id,
    });
    expect(notDue.status).toBe(409);
    const { other, kiran } = await foreignCustomer();
    const [theirs] = (await emiDetails(kiran, other)).instalments;
    expect(
      (await apiPost(t, retailer, paths.customers.sendPenalty, { customer_id: kiran, emi_id: theirs.id }))
        .status,
    ).toBe(404);
    // Our customer with their instalment: still not found.
    const mixed = await apiPost(t, retailer, paths.customers.sendPenalty, {
      customer_id: priya,
      emi_id: theirs.id,
    });
    expect(mixed.status).toBe(404);
    expect(mixed.body.fields[0].field).toBe('emi_id');
    expect(await emiSums()).toEqual(before);
  });
});

describe('update_emi_status (waivers)', () => {
  it('waives only the penalty, then the rest; a fully waived loan is completed and nothing counts as collected', async () => {
    const priya = await customerNamed('Priya');
    const [first] = (await emiDetails(priya)).instalments;
    await apiPost(t, retailer, paths.customers.sendPenalty, { customer_id: priya, emi_id: first.id });
    const penaltyWaived = await apiPost(t, retailer, paths.emi.updateStatus, {
      customer_id: priya,
      emi_id: first.id,
      status: 'penalty_waived',
      reason: 'First delay, goodwill',
    });
    expect(penaltyWaived.status).toBe(200);
    const row = penaltyWaived.body.data.instalments[0];
    expect(row).toMatchObject({ penaltyPaise: 20_000, waivedPaise: 20_000, penaltyDuePaise: 0 });
    expect(row.outstandingPaise).toBe(first.outstandingPaise);

    const nothingLeft = await apiPost(t, retailer, paths.emi.updateStatus, {
      customer_id: priya,
      emi_id: first.id,
      status: 'penalty_waived',
      reason: 'again',
    });
    expect(nothingLeft.status).toBe(409);
    expect(nothingLeft.body.code).toBe('NOTHING_TO_WAIVE');

    const collectedBefore = (await apiGet(t, retailer, paths.stats.totalOutstanding)).body.data
      .collectedPaise;
    let details = penaltyWaived.body.data;
    for (const instalment of details.instalments) {
      const waived = await apiPost(t, retailer, paths.emi.updateStatus, {
        customer_id: priya,
        emi_id: instalment.id,
        status: 'waived',
        reason: 'Settled by the financer',
      });
      expect(waived.status).toBe(200);
      details = waived.body.data;
    }
    expect(details.totals.outstandingPaise).toBe(0);
    expect(details.instalments.every((i: { status: string }) => i.status === 'paid')).toBe(true);
    expect(details.customerStatus).toBe(5);
    expect(details.payments).toEqual([]);
    expect((await apiGet(t, retailer, paths.stats.totalOutstanding)).body.data.collectedPaise).toBe(
      collectedBefore,
    );
    const audit = await queryRows(
      t.app.ctx.db,
      sql`select details->>'reason' as reason from audit_log where action = 'emi.waive' order by id limit 1`,
    );
    expect(audit[0]!.reason).toBe('First delay, goodwill');
  });

  it('refuses a missing reason, an unknown status and other tenants’ ids, writing nothing', async () => {
    const priya = await customerNamed('Priya');
    const [first] = (await emiDetails(priya)).instalments;
    const before = await emiSums();
    const noReason = await apiPost(t, retailer, paths.emi.updateStatus, {
      customer_id: priya,
      emi_id: first.id,
      status: 'waived',
    });
    expect(noReason.status).toBe(400);
    expect(noReason.body.fields[0].field).toBe('reason');
    const badStatus = await apiPost(t, retailer, paths.emi.updateStatus, {
      customer_id: priya,
      emi_id: first.id,
      status: 'paid',
      reason: 'cash at shop',
    });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.fields[0].field).toBe('status');
    const { other, kiran } = await foreignCustomer();
    const [theirs] = (await emiDetails(kiran, other)).instalments;
    const foreign = await apiPost(t, retailer, paths.emi.updateStatus, {
      customer_id: kiran,
      emi_id: theirs.id,
      status: 'waived',
      reason: 'not mine',
    });
    expect(foreign.status).toBe(404);
    expect(await emiSums()).toEqual(before);
  });
});

describe('send_emialert', () => {
  it('queues an emi_alert command with the next amount due and the overdue total', async () => {
    const aarav = await customerNamed('Aarav');
    const details = await emiDetails(aarav);
    const sent = await apiPost(t, retailer, paths.emi.sendAlert, {
      customer_id: aarav,
      message: 'Please pay at the shop',
    });
    expect(sent.status).toBe(200);
    expect(sent.body.data.name).toBe('emi_alert');
    const [row] = await queryRows(
      t.app.ctx.db,
      sql`select args from device_commands where id = ${sent.body.data.id}`,
    );
    expect(row!.args).toEqual({
      amountPaise: details.instalments[0].outstandingPaise,
      dueDate: details.instalments[0].dueDate,
      overduePaise: details.totals.overduePaise,
      message: 'Please pay at the shop',
    });
  });

  it('refuses before enrolment, when nothing is due, for bad input and other tenants, writing nothing', async () => {
    const before = await commandCount();
    const priya = await customerNamed('Priya'); // locked: spec §6 offers no EMI alert then
    const locked = await apiPost(t, retailer, paths.emi.sendAlert, { customer_id: priya });
    expect(locked.status).toBe(409);
    expect(locked.body.code).toBe('COMMAND_NOT_AVAILABLE');
    const rahul = await customerNamed('Rahul'); // not enrolled
    const notEnrolled = await apiPost(t, retailer, paths.emi.sendAlert, { customer_id: rahul });
    expect(notEnrolled.status).toBe(409);
    expect(notEnrolled.body.code).toBe('DEVICE_NOT_ENROLLED');
    const sneha = await customerNamed('Sneha'); // paid off
    const paidOff = await apiPost(t, retailer, paths.emi.sendAlert, { customer_id: sneha });
    expect(paidOff.status).toBe(409);
    expect(paidOff.body.code).toBe('NOTHING_DUE');
    const tooLong = await apiPost(t, retailer, paths.emi.sendAlert, {
      customer_id: sneha,
      message: 'x'.repeat(161),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.fields[0].field).toBe('message');
    const { kiran } = await foreignCustomer();
    expect((await apiPost(t, retailer, paths.emi.sendAlert, { customer_id: kiran })).status).toBe(404);
    expect(await commandCount()).toBe(before);
  });
});

describe('customer_emi_pin', () => {
  it('issues a PIN on first ask, keeps it, rotates it on request, and finds the customer by it', async () => {
    const priya = await customerNamed('Priya');
    const first = await apiGet(t, retailer, `${paths.emi.emiPin}?customer_id=${priya}`);
    expect(first.status).toBe(200);
    expect(first.body.data.emiPin).toMatch(/^\d{6}$/);
    const again = await apiGet(t, retailer, `${paths.emi.emiPin}?customer_id=${priya}`);
    expect(again.body.data.emiPin).toBe(first.body.data.emiPin);

    const rotated = await apiPost(t, retailer, paths.emi.emiPin, { customer_id: priya });
    expect(rotated.status).toBe(200);
    const pin = rotated.body.data.emiPin as string;
    const found = await apiGet(t, retailer, `${paths.customers.list}?search=${pin}`);
    expect(found.body.data.items.map((c: { id: number }) => c.id)).toContain(priya);

    // The customer sees it in how-to-pay, and in the UPI note.
    const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    const [loan] = (await apiGet(t, customer, paths.emi.myLoans)).body.data;
    expect(loan.payTo.emiPin).toBe(pin);
    expect(decodeURIComponent(loan.payTo.upiLink.replace(/\+/g, ' '))).toContain(`EMI PIN ${pin}`);
  });

  it('refuses bad input and other tenants’ ids, and customers cannot ask for PINs', async () => {
    const bad = await apiGet(t, retailer, `${paths.emi.emiPin}?customer_id=-1`);
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('customer_id');
    const badPost = await apiPost(t, retailer, paths.emi.emiPin, {});
    expect(badPost.status).toBe(400);
    expect(badPost.body.fields[0].field).toBe('customer_id');
    const { kiran } = await foreignCustomer();
    expect((await apiGet(t, retailer, `${paths.emi.emiPin}?customer_id=${kiran}`)).status).toBe(404);
    expect((await apiPost(t, retailer, paths.emi.emiPin, { customer_id: kiran })).status).toBe(404);
    const pins = await queryRows(
      t.app.ctx.db,
      sql`select count(*)::int as n from customers where emi_pin is not null`,
    );
    expect(pins[0]!.n).toBe(0);
  });
});
