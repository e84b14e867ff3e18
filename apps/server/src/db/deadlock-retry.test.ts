import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase, queryRows } from './client';

/**
 * On PostgreSQL, a transaction PostgreSQL ended as a deadlock's victim runs again, and nothing
 * else does: two transactions taking the same two rows in opposite order on real PostgreSQL both
 * commit, one of them on its second try (issue 26: two server processes recording acks of the
 * same phones; db/client.ts retryingTransactions).
 */
describe('a deadlock on PostgreSQL', () => {
  let handle: DatabaseHandle;
  const table = sql.raw(`deadlock_probe_${randomBytes(4).toString('hex')}`);
  beforeAll(async () => {
    handle = await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:5432/test', migrate: false });
    await queryRows(handle.db, sql`create table ${table} (id int primary key, n int not null)`);
    await queryRows(handle.db, sql`insert into ${table} values (1, 0), (2, 0)`);
  });
  afterAll(async () => {
    await queryRows(handle.db, sql`drop table if exists ${table}`);
    await handle.close();
  });

  it('runs the victim of a real deadlock again, and both transactions commit', async () => {
    let tries = 0;
    let bothHoldOne: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      let count = 0;
      bothHoldOne = () => {
        count += 1;
        if (count === 2) resolve();
      };
    });
    const crossing = (first: number, second: number) =>
      handle.db.transaction(async (tx) => {
        tries += 1;
        await tx.execute(sql`update ${table} set n = n + 1 where id = ${first}`);
        if (tries <= 2) {
          bothHoldOne();
          await held;
        }
        await tx.execute(sql`update ${table} set n = n + 1 where id = ${second}`);
      });
    await Promise.all([crossing(1, 2), crossing(2, 1)]);
    expect(tries).toBe(3);
    expect(await queryRows(handle.db, sql`select id, n from ${table} order by id`)).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });

  it('throws any other error at once, untried again', async () => {
    let tries = 0;
    await expect(
      handle.db.transaction(async (tx) => {
        tries += 1;
        await tx.execute(sql`select 1 / 0`);
      }),
    ).rejects.toThrow();
    expect(tries).toBe(1);
  });
});
