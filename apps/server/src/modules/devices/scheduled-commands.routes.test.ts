import { deviceControlPath, paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { apiGet, apiPost, customerIdNamed, TEST_LOCK_REASON } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';
import { dispatchDueScheduledCommands } from './command-jobs.service';

/** Scheduled lock/unlock (run_at on /api/device/lock and unlock) and the scheduled_commands list. */
let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const commandCount = async () =>
  Number((await queryRows(t.app.ctx.db, sql`select count(*)::int as n from device_commands`))[0]!.n);

describe('scheduled lock and unlock', () => {
  it('holds a lock with run_at until it is due, lists it, then sends it once', async () => {
    const aarav = await customerIdNamed(t, retailer, 'Aarav');
    const runAt = inMinutes(90);
    const scheduled = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: aarav,
      run_at: runAt,
      ...TEST_LOCK_REASON,
    });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.message).toBe('Command scheduled');
    expect(scheduled.body.data).toMatchObject({ name: 'lock', state: 'queued' });

    const list = await apiGet(t, retailer, paths.devices.scheduledCommands);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({
      id: scheduled.body.data.id,
      name: 'lock',
      customerId: aarav,
      customerName: expect.stringContaining('Aarav'),
      runAt: new Date(runAt).toISOString(),
    });
    // Not yet due: not pending on the phone, not in the offline command log.
    const details = await apiGet(t, retailer, `${paths.customers.details}?customer_id=${aarav}`);
    expect(details.body.data.device.pendingCommand).toBeNull();
    const offline = await apiGet(t, retailer, paths.devices.offlineCommandLog);
    expect(offline.body.data.map((c: { id: string }) => c.id)).not.toContain(scheduled.body.data.id);

    const ctx = t.app.ctx;
    expect(await dispatchDueScheduledCommands(ctx, new Date(Date.now() + 89 * 60_000))).toBe(0);
    expect(await dispatchDueScheduledCommands(ctx, new Date(Date.now() + 91 * 60_000))).toBe(1);
    expect(await dispatchDueScheduledCommands(ctx, new Date(Date.now() + 92 * 60_000))).toBe(0);
    expect((await apiGet(t, retailer, paths.devices.scheduledCommands)).body.data).toEqual([]);
  });

  it('lists soonest first, for the actor’s own customers only', async ({
    otherRetailer: other,
    miniRetailer: mini,
  }) => {
    const aarav = await customerIdNamed(t, retailer, 'Aarav');
    const later = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: aarav,
      run_at: inMinutes(300),
      ...TEST_LOCK_REASON,
    });
    const sooner = await apiPost(t, retailer, deviceControlPath('camera_lock'), {
      customer_id: aarav,
      enable: true,
      run_at: inMinutes(30),
    });
    const ids = (await apiGet(t, retailer, paths.devices.scheduledCommands)).body.data.map(
      (c: { id: string }) => c.id,
    );
    expect(ids).toEqual([sooner.body.data.id, later.body.data.id]);

    expect((await apiGet(t, other, paths.devices.scheduledCommands)).body.data).toEqual([]);
    // Aarav belongs to the retailer, not the mini-retailer.
    expect((await apiGet(t, mini, paths.devices.scheduledCommands)).body.data).toEqual([]);
  });

  it('refuses a run_at in the past, too far ahead or malformed, naming run_at, and writes nothing', async () => {
    const aarav = await customerIdNamed(t, retailer, 'Aarav');
    const before = await commandCount();
    for (const runAt of [inMinutes(-5), inMinutes(91 * 24 * 60), 'tomorrow', '2026-11-23 09:00']) {
      const refused = await apiPost(t, retailer, paths.devices.unlock, { customer_id: aarav, run_at: runAt });
      expect(refused.status).toBe(400);
      expect(refused.body.fields.map((f: { field: string }) => f.field)).toContain('run_at');
    }
    expect(await commandCount()).toBe(before);
  });

  it('answers 404 for another organisation’s customer', async ({ otherRetailer: other }) => {
    const kiran = await customerIdNamed(t, other, 'Kiran');
    const before = await commandCount();
    const refused = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: kiran,
      run_at: inMinutes(60),
    });
    expect(refused.status).toBe(404);
    expect(await commandCount()).toBe(before);
  });
});
