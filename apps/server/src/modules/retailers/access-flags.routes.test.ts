import { deviceControlPath, paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_MINI_RETAILER_MOBILE } from '../../db/seed/seed';
import { apiGet, apiPost } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';
import { dispatchDueScheduledCommands } from '../devices/command-jobs.service';

/**
 * Spec §6 access flags a retailer sets for its mini-retailer (updateUsers), enforced by the server
 * on every route they govern: a flag '0' answers 403 naming the flag, and nothing is written.
 */
let t: TestApp;
let retailer: string;
let mini: string;
let miniId: number;
let customerId: number;

// The file's helpers and CASES below act as the test's app and users (routeTest fixtures).
it.beforeEach(async ({ t: app, retailer: token, miniRetailer, make }) => {
  t = app;
  retailer = token;
  mini = miniRetailer;
  miniId = (await make.userByMobile(DEMO_MINI_RETAILER_MOBILE)).id;
  // An enrolled phone of the mini-retailer's, its first instalment overdue (a lock needs no reason).
  const made = await make.customer({
    retailerId: miniId,
    firstName: 'Flagtest',
    lastName: 'Customer',
    mobile: '+919800011122',
    status: 1,
    isEnrolled: true,
    createdAt: new Date(Date.now() - 50 * 86_400_000),
  });
  customerId = made.customer.id;
});

const writtenCounts = async () =>
  (
    await queryRows<{ commands: number; audits: number; customers: number }>(
      t.app.ctx.db,
      sql`select (select count(*)::int from device_commands) as commands,
                 (select count(*)::int from audit_log) as audits,
                 (select status from customers where id = ${customerId}) as customers`,
    )
  )[0]!;

const setFlag = async (flag: string, value: '0' | '1') => {
  const [group, key] = flag.split('.') as [string, string];
  const body = { user_id: miniId, [group === 'user' ? 'userAccess' : 'lockAccess']: { [key]: value } };
  const response = await apiPost(t, retailer, paths.retailers.update, body);
  expect(response.status).toBe(200);
};

const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

/** Each flag with a request it governs, sent by the mini-retailer. */
const CASES: {
  flag: string;
  what: string;
  send: () => Promise<{ status: number; body: { message: string } }>;
}[] = [
  {
    flag: 'user.lock_unlock',
    what: 'lock',
    send: () => apiPost(t, mini, paths.devices.lock, { customer_id: customerId }),
  },
  {
    flag: 'lock.lock',
    what: 'lock',
    send: () => apiPost(t, mini, paths.devices.lock, { customer_id: customerId }),
  },
  {
    flag: 'lock.lock',
    what: 'scheduled lock',
    send: () => apiPost(t, mini, paths.devices.lock, { customer_id: customerId, run_at: inHours(2) }),
  },
  {
    flag: 'lock.unlock',
    what: 'unlock',
    send: () => apiPost(t, mini, paths.devices.unlock, { customer_id: customerId }),
  },
  {
    flag: 'user.feature_access',
    what: 'reboot',
    send: () => apiPost(t, mini, deviceControlPath('reboot'), { customer_id: customerId }),
  },
  {
    flag: 'user.feature_access',
    what: 'camera lock',
    send: () => apiPost(t, mini, deviceControlPath('camera_lock'), { customer_id: customerId, enable: true }),
  },
  {
    flag: 'user.unistall',
    what: 'uninstall',
    send: () => apiPost(t, mini, paths.devices.uninstall, { customer_id: customerId, otp: '123456' }),
  },
  {
    flag: 'lock.uninstall',
    what: 'unclaim',
    send: () => apiPost(t, mini, paths.devices.unclaim, { customer_id: customerId }),
  },
  {
    flag: 'lock.read',
    what: 'command history',
    send: () => apiGet(t, mini, `${paths.devices.history}?customer_id=${customerId}`),
  },
  {
    flag: 'lock.read',
    what: 'scheduled commands',
    send: () => apiGet(t, mini, paths.devices.scheduledCommands),
  },
  {
    flag: 'user.active_deactive',
    what: 'status change',
    send: () =>
      apiPost(t, mini, paths.customers.updateStatus, {
        customer_id: customerId,
        status: 2,
        reason: 'Testing flags',
      }),
  },
  {
    flag: 'user.bulk_retailer',
    what: 'bulk lock',
    send: () =>
      apiPost(t, mini, paths.devices.bulkLockUnlock, { action: 'lock', customer_ids: [customerId] }),
  },
];

describe('access flags set by the parent retailer', () => {
  it.each(CASES.map((c) => [`${c.flag} '0' refuses ${c.what}`, c] as const))(
    '%s with 403 naming the flag, nothing written',
    async (_name, c) => {
      // bulk_retailer is '0' by default (spec §6); the others start allowed, so the route works first.
      if (c.flag !== 'user.bulk_retailer') await setFlag(c.flag, '0');
      const before = await writtenCounts();
      const refused = await c.send();
      expect(refused.status).toBe(403);
      expect(refused.body.message).toContain(`${c.flag} is off`);
      expect(await writtenCounts()).toEqual(before);
    },
  );

  it('lets the same requests through once the flag is back on', async () => {
    await setFlag('user.lock_unlock', '0');
    expect((await apiPost(t, mini, paths.devices.lock, { customer_id: customerId })).status).toBe(403);
    await setFlag('user.lock_unlock', '1');
    expect((await apiPost(t, mini, paths.devices.lock, { customer_id: customerId })).status).toBe(200);
    expect((await apiGet(t, mini, `${paths.devices.history}?customer_id=${customerId}`)).status).toBe(200);
    await setFlag('user.bulk_retailer', '1');
    const bulk = await apiPost(t, mini, paths.devices.bulkLockUnlock, {
      action: 'unlock',
      customer_ids: [customerId],
    });
    expect(bulk.status).toBe(200);
  });

  it('does not send a scheduled lock whose creator lost lock access before it was due', async () => {
    const scheduled = await apiPost(t, mini, paths.devices.lock, {
      customer_id: customerId,
      run_at: inHours(2),
    });
    expect(scheduled.status).toBe(200);
    await setFlag('lock.lock', '0');
    expect(await dispatchDueScheduledCommands(t.app.ctx, new Date(Date.now() + 3 * 3_600_000))).toBe(0);
    const [row] = await queryRows<{ state: string; error: string }>(
      t.app.ctx.db,
      sql`select state, error from device_commands where id = ${scheduled.body.data.id}`,
    );
    expect(row).toEqual({
      state: 'cancelled',
      error: 'not sent: lock.lock was turned off before it was due',
    });
  });
});
