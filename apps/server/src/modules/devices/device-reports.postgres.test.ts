import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, type DbOrTx, endPoolFully, openDatabase, queryRows } from '../../db/client';
import {
  createCustomerWithLoan,
  createOrganization,
  createProducts,
  createUser,
} from '../../db/seed/factories';
import { createScratchDatabase, isPostgresReachable } from '../../test/scratch-postgres';
import { recordRound, type TRoundRow } from './device-reports.repository';

/**
 * Two server processes record rounds of events of the same phones at once (issue 26, scale-out:
 * a command's received ack reaches one process and its done ack the other). Each round locks its
 * devices in id order before writing, so concurrent rounds wait for each other and never deadlock
 * (PostgreSQL would end one as the victim, losing every ack of that round). On the machine's
 * PostgreSQL, in a database of its own; skipped when it is not reachable.
 */
const isReachable = await isPostgresReachable();

/** Phones in the rounds; enough that two rounds crossing in opposite order overlap for long. */
const PHONES = 150;

describe.skipIf(!isReachable)('recordRound on PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let handle: DatabaseHandle | undefined;
  // The rounds run on a plain pool: the server's pool would run a deadlock's victim again
  // (db/client.ts), and this test is about there being none to run again.
  let closeUnretried: (() => Promise<void>) | undefined;
  let unretried: DbOrTx | undefined;
  const deviceIds: string[] = [];

  beforeAll(async () => {
    scratch = await createScratchDatabase('kisht_rounds');
    handle = await openDatabase({ databaseUrl: scratch.url });
    const unretriedPool = new pg.Pool({ connectionString: scratch.url, max: 4 });
    // Closed only once every session has ended: dropping the database would otherwise end a
    // session still closing, and its FATAL would reach a pool with nobody listening.
    closeUnretried = endPoolFully(unretriedPool);
    unretriedPool.on('error', () => {});
    unretried = drizzle(unretriedPool) as unknown as DbOrTx;
    const { db } = handle;
    await createOrganization(db, { id: 1 });
    const retailer = await createUser(db, { orgId: 1, mobile: '+919811100001', keys: {} });
    const [product] = await createProducts(db, 1, [{ brand: 'Redmi', name: '14C 5G', pricePaise: 999_900 }]);
    for (let k = 0; k < PHONES; k += 1) {
      const { device } = await createCustomerWithLoan(db, {
        orgId: 1,
        retailerId: retailer.id,
        product: product!,
        mobile: `+9197${String(k).padStart(8, '0')}`,
        status: 1,
        isEnrolled: true,
      });
      deviceIds.push(device.id);
    }
  }, 120_000);
  afterAll(async () => {
    await closeUnretried?.();
    await handle?.close();
    await scratch?.drop();
  });

  it('records rounds of the same phones from two connections at once, in opposite orders, with no deadlock', async () => {
    expect(deviceIds).toHaveLength(PHONES);
    const round = (ids: string[], seq: number): TRoundRow[] =>
      ids.map((deviceId) => ({ deviceId, isLocked: seq % 2 === 0, isHello: false, seq, at: new Date() }));
    const reversed = [...deviceIds].reverse();
    for (let k = 0; k < 10; k += 1) {
      const seq = 2 * k + 1;
      const [a, b] = await Promise.all([
        recordRound(unretried!, round(deviceIds, seq), new Date()),
        recordRound(unretried!, round(reversed, seq + 1), new Date()),
      ]);
      expect(a.devices).toHaveLength(PHONES);
      expect(b.devices).toHaveLength(PHONES);
    }
    // The newest event's state won on every phone, whichever round committed last.
    const states = await queryRows<{ reported_seq: string; n: number }>(
      handle!.db,
      sql`select reported_seq::text, count(*)::int as n from devices where enrolled_at is not null group by 1`,
    );
    expect(states).toEqual([{ reported_seq: '20', n: PHONES }]);
  }, 60_000);

  it("answers a hello that waited for a command's commit with a sync whose policy matches its pending commands", async () => {
    const deviceId = deviceIds[0]!;
    const [before] = await queryRows<{ policy_version: number; org_id: number }>(
      handle!.db,
      sql`select policy_version::int, org_id from devices where id = ${deviceId}`,
    );
    // A lock being written (as the command gate does: the policy's new version and its command in
    // one transaction) holds the phone's row while the phone's hello is recorded.
    const writer = new pg.Client({ connectionString: scratch.url });
    writer.on('error', () => {});
    await writer.connect();
    const commandId = '01900000-0000-7000-8000-00000000d00d';
    try {
      await writer.query('begin');
      await writer.query(
        'update devices set policy_version = policy_version + 1, desired_locked = true where id = $1',
        [deviceId],
      );
      await writer.query(
        `insert into device_commands (id, org_id, device_id, name, state, last_sent_at)
         values ($1, $2, $3, 'lock', 'sent', now())`,
        [commandId, before!.org_id, deviceId],
      );
      const hello = recordRound(
        unretried!,
        [{ deviceId, isLocked: false, isHello: true, connectionId: 'c-race', seq: 100, at: new Date() }],
        new Date(),
      );
      // The round has taken its snapshot and waits for the row.
      await waitForLockWait(handle!.db);
      await writer.query('commit');
      const written = await hello;
      const synced = written.synced.filter((c) => c.deviceId === deviceId).map((c) => c.id);
      const policyVersion = written.helloDevices.get(deviceId)!.policyVersion;
      // Either both the new version and its command, or neither: never the version without it.
      expect(
        synced.includes(commandId)
          ? policyVersion === before!.policy_version + 1
          : policyVersion === before!.policy_version,
      ).toBe(true);
      // The locked row, as the round wrote it, is the newest.
      expect(written.devices.find((d) => d.id === deviceId)!.policyVersion).toBe(before!.policy_version + 1);
    } finally {
      await writer.end();
    }
  });
});

/** Resolves once some session of the database waits for a row lock (the round behind the writer). */
const waitForLockWait = async (db: DbOrTx): Promise<void> => {
  for (let i = 0; i < 200; i += 1) {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (row!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the round never waited for the row lock');
};
