import { istDate } from '@kisht/domain/common/time';
import { ZBulkPreview, ZBulkProgress, ZCommandHistoryItem } from '@kisht/domain/devices/devices.schema';
import { ZPolicyMessage } from '@kisht/domain/devices/protocol.schema';
import { deviceControlPath, paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import { apiGet, apiPost, apiPut, customerIdNamed, TEST_LOCK_REASON } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';
import { runAutoLockLadder } from './auto-lock.service';
import { dispatchDueScheduledCommands } from './command-jobs.service';
import { policyVersionOf } from './device-messages';
import * as repo from './devices.repository';

/**
 * Issue 12, borrower safeguards: a phone whose customer has nothing overdue is locked only with a
 * reason (audited, shown in the history), a completed loan (status 5) never, and the lock screen
 * says whom to pay, how much and how, and that emergency calls work.
 */
let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

const REASON = 'Customer asked us to test the lock';
const today = () => istDate();
const customerNamed = (firstName: string, token = retailer) => customerIdNamed(t, token, firstName);
const commandsOf = (customerId: number) =>
  queryRows<{
    id: string;
    name: string;
    state: string;
    reason_category: string | null;
    reason: string | null;
    error: string | null;
  }>(
    t.app.ctx.db,
    sql`select c.id, c.name, c.state, c.reason_category, c.reason, c.error from device_commands c
        join devices d on d.id = c.device_id where d.customer_id = ${customerId}
        order by c.created_at, c.id`,
  );
const deviceOf = async (customerId: number) => {
  const [row] = await queryRows<{ id: string }>(
    t.app.ctx.db,
    sql`select id from devices where customer_id = ${customerId}`,
  );
  return (await repo.findDeviceById(t.app.ctx.db, row!.id))!;
};
const lockAudits = () =>
  queryRows<{ action: string; details: Record<string, unknown> }>(
    t.app.ctx.db,
    sql`select action, details from audit_log where action like 'device.%lock%' order by id`,
  );
const owedOnFirst = async (customerId: number) =>
  Number(
    (
      await queryRows<{ owed: number }>(
        t.app.ctx.db,
        sql`select (amount_paise - paid_paise)::int as owed from emis
            where customer_id = ${customerId} and instalment_no = 1`,
      )
    )[0]!.owed,
  );
const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field);

describe('a lock of a customer with nothing overdue needs a reason category that is not a payment', () => {
  it('refuses a lock without one (400 naming the field), writing nothing; keeps the category and note', async ({
    make,
  }) => {
    const aarav = await customerNamed('Aarav');
    await make.paid(aarav, { dueBefore: today() });
    for (const [body, field] of [
      [{ customer_id: aarav }, 'reason_category'],
      [{ customer_id: aarav, reason: REASON }, 'reason_category'],
      [{ customer_id: aarav, reason_category: 'overdue_emi' }, 'reason_category'],
      [{ customer_id: aarav, reason_category: 'not_a_category' }, 'reason_category'],
      [{ customer_id: aarav, reason_category: 'other' }, 'reason'],
      [{ customer_id: aarav, reason_category: 'other', reason: '    ' }, 'reason'],
      [{ customer_id: aarav, reason_category: 'customer_request', reason: 'x'.repeat(301) }, 'reason'],
    ] as const) {
      const refused = await apiPost(t, retailer, paths.devices.lock, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(refused.body)).toEqual([field]);
    }
    expect(await commandsOf(aarav)).toEqual([]);
    expect(await lockAudits()).toEqual([]);
    expect((await deviceOf(aarav)).desiredLocked).toBe(false);

    const locked = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: aarav,
      reason_category: 'other',
      reason: `  ${REASON} `,
    });
    expect(locked.status).toBe(200);
    const [command] = await commandsOf(aarav);
    expect(command).toMatchObject({ name: 'lock', reason_category: 'other', reason: REASON });
    const [audit] = await lockAudits();
    expect(audit).toMatchObject({
      action: 'device.lock',
      details: { reasonCategory: 'other', reason: REASON },
    });
    const history = await apiGet(t, retailer, `${paths.devices.history}?customer_id=${aarav}`);
    expect(ZCommandHistoryItem.parse(history.body.data[0])).toMatchObject({
      name: 'lock',
      reasonCategory: 'other',
      reason: REASON,
    });
  });

  it('locks a customer with an overdue instalment for the overdue EMI, no reason needed', async ({
    make,
  }) => {
    const aarav = await customerNamed('Aarav');
    await make.overdue(aarav);
    const locked = await apiPost(t, retailer, paths.devices.lock, { customer_id: aarav });
    expect(locked.status).toBe(200);
    expect(await commandsOf(aarav)).toMatchObject([
      { name: 'lock', reason_category: 'overdue_emi', reason: null },
    ]);
  });

  it('asks for a reason for lost mode too, and for a scheduled lock', async ({ make }) => {
    const aarav = await customerNamed('Aarav');
    await make.customerRow(aarav, { deviceType: 3 }); // Apple phones offer lost mode (spec §6)
    await make.paid(aarav, { dueBefore: today() });
    const lostMode = { customer_id: aarav, enable: true, args: {} };
    const refused = await apiPost(t, retailer, deviceControlPath('lost_mode'), lostMode);
    expect(refused.status).toBe(400);
    expect(fieldsOf(refused.body)).toEqual(['reason_category']);
    const runAt = new Date(Date.now() + 10 * 60_000).toISOString();
    const scheduled = await apiPost(t, retailer, paths.devices.lock, { customer_id: aarav, run_at: runAt });
    expect(scheduled.status).toBe(400);
    expect(fieldsOf(scheduled.body)).toEqual(['reason_category']);
    expect(await commandsOf(aarav)).toEqual([]);
    const sent = await apiPost(t, retailer, deviceControlPath('lost_mode'), {
      ...lostMode,
      reason_category: 'fraud_or_theft',
      reason: REASON,
    });
    expect(sent.status).toBe(200);
    expect(await commandsOf(aarav)).toMatchObject([
      { name: 'lost_mode_on', reason_category: 'fraud_or_theft', reason: REASON },
    ]);
  });

  it('answers 404 for another organisation’s customer, writing nothing', async ({ otherRetailer: other }) => {
    const kiran = await customerNamed('Kiran', other);
    const foreign = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: kiran,
      ...TEST_LOCK_REASON,
    });
    expect(foreign.status).toBe(404);
    expect(await commandsOf(kiran)).toEqual([]);
  });
});

describe('a completed loan (status 5) is never locked', () => {
  it('refuses a lock and a scheduled lock with 409 LOAN_COMPLETED, writing nothing', async () => {
    const sneha = await customerNamed('Sneha'); // seeded with every EMI paid, status 5
    const runAt = new Date(Date.now() + 10 * 60_000).toISOString();
    for (const body of [
      { customer_id: sneha, ...TEST_LOCK_REASON },
      { customer_id: sneha },
      { customer_id: sneha, ...TEST_LOCK_REASON, run_at: runAt },
    ]) {
      const refused = await apiPost(t, retailer, paths.devices.lock, body);
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('LOAN_COMPLETED');
    }
    expect(await commandsOf(sneha)).toEqual([]);
    expect((await deviceOf(sneha)).desiredLocked).toBe(false);
  });

  it('is never locked by the auto-lock job, even with an instalment unpaid', async ({ make }) => {
    await make.orgSettings({
      autoLock: { reminderDaysBefore: null, lockAfterDaysOverdue: 0, autoUnlock: false },
    });
    const sneha = await customerNamed('Sneha');
    await make.overdue(sneha, { daysOverdue: 10 });
    await runAutoLockLadder(t.app.ctx);
    expect(await commandsOf(sneha)).toEqual([]);
  });

  it('drops a scheduled lock that comes due after the loan completed, or after a paid-up customer’s it had no reason for', async ({
    make,
  }) => {
    const aarav = await customerNamed('Aarav');
    const priya = await customerNamed('Priya');
    await make.overdue(aarav);
    await make.overdue(priya);
    const runAt = new Date(Date.now() + 10 * 60_000);
    for (const customerId of [aarav, priya]) {
      const scheduled = await apiPost(t, retailer, paths.devices.lock, {
        customer_id: customerId,
        run_at: runAt.toISOString(),
      });
      expect(scheduled.status).toBe(200);
    }
    const before = await deviceOf(aarav);
    // Aarav's loan is completed; Priya pays what was overdue.
    await make.paid(aarav);
    await make.customerRow(aarav, { status: 5 });
    await make.paid(priya, { dueBefore: today() });

    expect(await dispatchDueScheduledCommands(t.app.ctx, new Date(runAt.getTime() + 1000))).toBe(0);
    expect(await commandsOf(aarav)).toMatchObject([
      {
        name: 'lock',
        state: 'cancelled',
        error: expect.stringMatching(/EMIs of this customer are completed/),
      },
    ]);
    expect(await commandsOf(priya)).toMatchObject([
      { name: 'lock', state: 'cancelled', error: expect.stringMatching(/Nothing is overdue/) },
    ]);
    const after = await deviceOf(aarav);
    expect(after.desiredLocked).toBe(false);
    expect(after.policyVersion).toBe(before.policyVersion);
    const history = await apiGet(t, retailer, `${paths.devices.history}?customer_id=${aarav}`);
    expect(history.body.data[0]).toMatchObject({ state: 'cancelled', error: expect.stringMatching(/EMIs/) });
  });

  it('sends a scheduled lock with a reason when it comes due, overdue or not', async ({ make }) => {
    const aarav = await customerNamed('Aarav');
    await make.paid(aarav, { dueBefore: today() });
    const runAt = new Date(Date.now() + 10 * 60_000);
    const scheduled = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: aarav,
      run_at: runAt.toISOString(),
      ...TEST_LOCK_REASON,
    });
    expect(scheduled.status).toBe(200);
    expect(await dispatchDueScheduledCommands(t.app.ctx, new Date(runAt.getTime() + 1000))).toBe(1);
    expect(await commandsOf(aarav)).toMatchObject([
      { name: 'lock', state: 'sent', reason_category: 'customer_request', reason: TEST_LOCK_REASON.reason },
    ]);
    expect((await deviceOf(aarav)).desiredLocked).toBe(true);
  });

  it('cancels a pending lock and unlocks the phone when a payment completes the loan, whatever autoUnlock says', async ({
    make,
  }) => {
    const aarav = await customerNamed('Aarav');
    await make.overdue(aarav);
    expect((await apiPost(t, retailer, paths.devices.lock, { customer_id: aarav })).status).toBe(200);
    const later = new Date(Date.now() + 60 * 60_000).toISOString();
    expect(
      (await apiPost(t, retailer, paths.devices.lock, { customer_id: aarav, run_at: later })).status,
    ).toBe(200);
    // No auto-lock ladder (so no autoUnlock) in the demo organisation.
    const details = (await apiGet(t, retailer, `${paths.emi.details}?customer_id=${aarav}`)).body.data;
    const unpaid = details.instalments.filter((i: { outstandingPaise: number }) => i.outstandingPaise > 0);
    const paid = await apiPost(t, retailer, paths.emi.pay, {
      customer_id: aarav,
      emi_ids: unpaid.map((i: { id: number }) => i.id),
      amountPaise: unpaid.reduce(
        (total: number, i: { outstandingPaise: number }) => total + i.outstandingPaise,
        0,
      ),
      mode: 'cash',
    });
    expect(paid.status).toBe(200);
    expect(
      (await apiGet(t, retailer, `${paths.customers.details}?customer_id=${aarav}`)).body.data.status,
    ).toBe(5);
    const commands = await commandsOf(aarav);
    expect(commands.map((c) => [c.name, c.state])).toEqual([
      ['lock', 'cancelled'],
      ['lock', 'cancelled'],
      ['unlock', 'sent'],
    ]);
    expect(commands[0]!.error).toMatch(/EMIs completed/);
    expect((await deviceOf(aarav)).desiredLocked).toBe(false);
  });
});

describe('bulk lock never reaches a paid-up customer', () => {
  it('leaves customers with nothing overdue out of a bulk lock, and the preview counts the same', async ({
    make,
  }) => {
    const aarav = await customerNamed('Aarav');
    const priya = await customerNamed('Priya'); // seeded with an overdue instalment
    await make.paid(aarav, { dueBefore: today() });
    const preview = await apiGet(t, retailer, `${paths.devices.bulkPreview}?action=lock&filter=all_enrolled`);
    expect(ZBulkPreview.parse(preview.body.data)).toEqual({ total: 1, skipped: 1 });
    const sent = ZBulkProgress.parse(
      (await apiPost(t, retailer, paths.devices.bulkLockUnlock, { action: 'lock', filter: 'all_enrolled' }))
        .body.data,
    );
    expect(sent.total).toBe(preview.body.data.total);
    expect(sent.items.map((item) => item.customerId)).toEqual([priya]);
    expect(sent.skipped).toEqual([{ customerId: aarav, reason: 'nothing overdue' }]);
    const chosen = ZBulkProgress.parse(
      (await apiPost(t, retailer, paths.devices.bulkLockUnlock, { action: 'lock', customer_ids: [aarav] }))
        .body.data,
    );
    expect(chosen.total).toBe(0);
    expect(chosen.skipped).toEqual([{ customerId: aarav, reason: 'nothing overdue' }]);
    expect(await commandsOf(aarav)).toEqual([]);
    // Unlocking a paid-up customer is always fine.
    const unlock = await apiGet(
      t,
      retailer,
      `${paths.devices.bulkPreview}?action=unlock&filter=all_enrolled`,
    );
    expect(unlock.body.data).toEqual({ total: 2, skipped: 0 });
  });
});

describe('the lock screen', () => {
  it('puts the retailer, the amount overdue, how to pay and emergency calls in the policy of every lock', async ({
    make,
  }) => {
    const settings = await apiGet(t, retailer, paths.orgs.deviceSettings);
    const howToPay = 'Pay by UPI to ravimobiles@okaxis\nor at Shop 4, Andheri West';
    const saved = await apiPut(t, retailer, paths.orgs.deviceSettings, {
      ...settings.body.data,
      lockScreenText: howToPay,
    });
    expect(saved.status).toBe(200);
    const aarav = await customerNamed('Aarav');
    await make.overdue(aarav);
    const owed = await owedOnFirst(aarav);
    expect((await apiPost(t, retailer, paths.devices.lock, { customer_id: aarav })).status).toBe(200);

    const device = await deviceOf(aarav);
    const expected = {
      reason: 'overdue_emi',
      retailerName: 'Ravi Mobiles',
      retailerPhone: DEMO_RETAILER_MOBILE,
      overduePaise: owed,
      howToPay,
      emergencyCalls: true,
    };
    expect(device.desiredLockScreen).toEqual(expected);
    // The policy message the phone gets carries it.
    const message = ZPolicyMessage.parse({
      type: 'policy',
      deviceId: device.id,
      ...policyVersionOf(device, []),
    });
    expect(message.policy).toMatchObject({ locked: true, lockScreen: expected });

    // A lock with a reason of a paid-up customer says nothing is overdue.
    const priya = await customerNamed('Priya');
    await make.paid(priya, { dueBefore: today() });
    await apiPost(t, retailer, paths.devices.unlock, { customer_id: priya });
    await apiPost(t, retailer, paths.devices.lock, { customer_id: priya, ...TEST_LOCK_REASON });
    expect((await deviceOf(priya)).desiredLockScreen).toEqual({
      ...expected,
      reason: 'customer_request',
      overduePaise: 0,
    });
  });
});
