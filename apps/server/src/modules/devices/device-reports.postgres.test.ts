import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase, queryRows } from '../../db/client';
import {
  createCustomerWithLoan,
  createOrganization,
  createProducts,
  createUser,
} from '../../db/seed/factories';
import { recordRound, type TRoundRow } from './device-reports.repository';

/**
 * Two server processes record rounds of events of the same phones at once (issue 26, scale-out:
 * a command's received ack reaches one process and its done ack the other). Each round locks its
 * devices in id order before writing, so concurrent rounds wait for each other and never deadlock
 * (PostgreSQL would end one as the victim, losing every ack of that round). On the machine's
 * PostgreSQL, in a database of its own; skipped when it is not reachable.
 */
const ADMIN_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
const isPostgresReachable = await (async () => {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
})();

/** Phones in the rounds; enough that two rounds crossing in opposite order overlap for long. */
const PHONES = 150;

describe.skipIf(!isPostgresReachable)('recordRound on PostgreSQL', () => {
  const dbName = `kisht_rounds_${randomBytes(5).toString('hex')}`;
  let admin: pg.Client;
  let handle: DatabaseHandle | undefined;
  const deviceIds: string[] = [];

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    handle = await openDatabase({ databaseUrl: ADMIN_DATABASE_URL.replace(/\/[^/]*$/, `/${dbName}`) });
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
    await handle?.close();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  });

  it('records rounds of the same phones from two connections at once, in opposite orders, with no deadlock', async () => {
    expect(deviceIds).toHaveLength(PHONES);
    const round = (ids: string[], seq: number): TRoundRow[] =>
      ids.map((deviceId) => ({ deviceId, isLocked: seq % 2 === 0, isHello: false, seq, at: new Date() }));
    const reversed = [...deviceIds].reverse();
    for (let k = 0; k < 10; k += 1) {
      const seq = 2 * k + 1;
      const [a, b] = await Promise.all([
        recordRound(handle!.db, round(deviceIds, seq), new Date()),
        recordRound(handle!.db, round(reversed, seq + 1), new Date()),
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
});
