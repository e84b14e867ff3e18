import { addDays, istDate } from '@kisht/domain/common/time';
import { deviceControlPath, paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { apiGet, apiPost, customerIdNamed } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';
import { runAutoLockLadder } from './auto-lock.service';
import { dispatchDueScheduledCommands } from './command-jobs.service';

let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures); the demo
// organisation gets a ladder: reminder 3 days before, lock after 5 days overdue, auto-unlock.
it.beforeEach(async ({ t: app, retailer: token, make }) => {
  t = app;
  retailer = token;
  await make.orgSettings({ autoLock: { reminderDaysBefore: 3, lockAfterDaysOverdue: 5, autoUnlock: true } });
});

const customerNamed = (firstName: string) => customerIdNamed(t, retailer, firstName);
const commandsOf = (customerId: number) =>
  queryRows<{ name: string; state: string; created_by: number | null; args: Record<string, unknown> }>(
    t.app.ctx.db,
    sql`select c.name, c.state, c.created_by, c.args from device_commands c join devices d on d.id = c.device_id
        where d.customer_id = ${customerId} order by c.created_at, c.id`,
  );
/** Moves the first instalment's due date, leaving what was paid of it (no factory for a future date). */
const setFirstDueDate = (customerId: number, dueDate: string) =>
  queryRows(
    t.app.ctx.db,
    sql`update emis set due_date = ${dueDate} where customer_id = ${customerId} and instalment_no = 1`,
  );

describe('auto-lock ladder', () => {
  it('locks a phone more than M days overdue once, even when two runs race', async ({ make }) => {
    const aarav = await customerNamed('Aarav');
    const today = istDate();
    await make.overdue(aarav, { daysOverdue: 5 }); // exactly 5 days overdue: not yet
    expect((await runAutoLockLadder(t.app.ctx, today)).locks).toBe(0);
    await make.overdue(aarav, { daysOverdue: 6 });
    const runs = await Promise.all([
      runAutoLockLadder(t.app.ctx, today),
      runAutoLockLadder(t.app.ctx, today),
    ]);
    expect(runs.reduce((total, run) => total + run.locks, 0)).toBe(1);
    expect((await runAutoLockLadder(t.app.ctx, today)).locks).toBe(0);
    const commands = await commandsOf(aarav);
    expect(commands.map((c) => [c.name, c.created_by])).toEqual([['lock', null]]);
    const [audit] = await queryRows(
      t.app.ctx.db,
      sql`select actor_user_id from audit_log where action = 'device.auto_lock'`,
    );
    expect(audit!.actor_user_id).toBeNull();
  });

  it('sends the EMI reminder wallpaper N days before the due date, once per instalment', async ({ make }) => {
    const aarav = await customerNamed('Aarav');
    const today = istDate();
    await make.paid(aarav, { dueBefore: today });
    await setFirstDueDate(aarav, addDays(today, 3));
    await queryRows(
      t.app.ctx.db,
      sql`update emis set paid_paise = 0 where customer_id = ${aarav} and instalment_no = 1`,
    );
    expect((await runAutoLockLadder(t.app.ctx, today)).reminders).toBe(1);
    expect((await runAutoLockLadder(t.app.ctx, today)).reminders).toBe(0);
    const [reminder] = await commandsOf(aarav);
    expect(reminder!.name).toBe('set_wallpaper');
    expect(String(reminder!.args.text)).toMatch(/^EMI of ₹[\d,]+\.\d{2} is due on \d{2}-\d{2}-\d{4}\./);
  });

  it('unlocks automatically when the overdue instalments are paid', async () => {
    const priya = await customerNamed('Priya'); // locked, first instalment overdue
    const details = (await apiGet(t, retailer, `${paths.emi.details}?customer_id=${priya}`)).body.data;
    const overdue = details.instalments.filter((i: { status: string }) => i.status === 'overdue');
    const paid = await apiPost(t, retailer, paths.emi.pay, {
      customer_id: priya,
      emi_ids: overdue.map((i: { id: number }) => i.id),
      amountPaise: overdue.reduce(
        (total: number, i: { outstandingPaise: number }) => total + i.outstandingPaise,
        0,
      ),
      mode: 'cash',
    });
    expect(paid.status).toBe(200);
    expect((await commandsOf(priya)).map((c) => [c.name, c.created_by])).toEqual([['unlock', null]]);
  });

  it('does nothing for an organisation without a ladder', async ({ make }) => {
    await make.orgSettings({ autoLock: undefined });
    const aarav = await customerNamed('Aarav');
    await make.overdue(aarav, { daysOverdue: 30 });
    expect(await runAutoLockLadder(t.app.ctx)).toEqual({ reminders: 0, locks: 0 });
  });
});

describe('scheduled commands', () => {
  it('keeps a command for later and sends it when due, once', async () => {
    const aarav = await customerNamed('Aarav');
    const runAt = new Date(Date.now() + 10 * 60_000);
    const scheduled = await apiPost(t, retailer, deviceControlPath('wifi_on_off'), {
      customer_id: aarav,
      enable: false,
      run_at: runAt.toISOString(),
    });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.message).toBe('Command scheduled');
    const history = (await apiGet(t, retailer, `${paths.devices.history}?customer_id=${aarav}`)).body.data;
    expect(history[0]).toMatchObject({ name: 'wifi_off', state: 'queued', runAt: runAt.toISOString() });
    const details = (await apiGet(t, retailer, `${paths.customers.details}?customer_id=${aarav}`)).body.data;
    expect(details.device.pendingControls).toEqual({}); // not "turning off" until it is due

    expect(await dispatchDueScheduledCommands(t.app.ctx, new Date())).toBe(0);
    const later = new Date(runAt.getTime() + 1000);
    const both = await Promise.all([
      dispatchDueScheduledCommands(t.app.ctx, later),
      dispatchDueScheduledCommands(t.app.ctx, later),
    ]);
    expect(both[0] + both[1]).toBe(1);
    const [sent] = await commandsOf(aarav);
    expect(sent!.state).toBe('sent');
  });

  it('refuses a time in the past or too far ahead, writing nothing', async () => {
    const aarav = await customerNamed('Aarav');
    for (const runAt of [
      new Date(Date.now() - 60_000),
      new Date(Date.now() + 100 * 86_400_000),
      'tomorrow',
    ]) {
      const response = await apiPost(t, retailer, deviceControlPath('reboot'), {
        customer_id: aarav,
        run_at: runAt instanceof Date ? runAt.toISOString() : runAt,
      });
      expect(response.status).toBe(400);
      expect(response.body.fields[0].field).toBe('run_at');
    }
    expect(await commandsOf(aarav)).toEqual([]);
  });
});
