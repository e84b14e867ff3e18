import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../test/scratch-postgres';
import { type DatabaseHandle, openDatabase, queryRows } from './client';

/**
 * Issue 27: PostgreSQL ending the pool's idle connections (a restart, a failover, a proxy's idle
 * timeout; here `pg_terminate_backend`) must not end the process. The pool tells
 * onConnectionLost, drops those connections, and the next query opens a new one.
 */
describe('a PostgreSQL database whose connections the server ends', () => {
  const lost: Error[] = [];
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let handle: DatabaseHandle | undefined;

  beforeAll(async () => {
    scratch = await createScratchDatabase('kisht_conn');
    handle = await openDatabase({
      databaseUrl: scratch.url,
      migrate: false,
      onConnectionLost: (error) => lost.push(error),
    });
  });
  afterAll(async () => {
    await handle?.close();
    await scratch?.drop();
  });

  it('keeps the process up, says so, and answers the next query on a new connection', async () => {
    const db = handle!.db;
    // Three idle connections in the pool.
    await Promise.all([1, 2, 3].map((n) => queryRows(db, sql`select ${n}::int as n, pg_sleep(0.05)`)));
    const { rowCount } = await scratch.admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [scratch.name],
    );
    expect(rowCount).toBeGreaterThan(0);
    // Each ended connection is told once, and dropped from the pool.
    await expect.poll(() => lost.length, { timeout: 5_000 }).toBe(rowCount);
    expect(lost.every((error) => /terminat/i.test(error.message))).toBe(true);
    const [row] = await queryRows<{ n: number }>(db, sql`select 42::int as n`);
    expect(row?.n).toBe(42);
  });

  it('runs a transaction whose connection died before COMMIT again, once, and it commits once', async () => {
    const db = handle!.db;
    await queryRows(db, sql`create table probe_once (id int primary key, note text)`);
    let tries = 0;
    await db.transaction(async (tx) => {
      tries += 1;
      await tx.execute(sql`insert into probe_once values (1, ${`try ${tries}`})`);
      if (tries === 1) {
        const [session] = await queryRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
        const pid = session!.pid;
        await scratch.admin.query('select pg_terminate_backend($1)', [pid]);
      }
      await tx.execute(sql`select 1`);
    });
    expect(tries).toBe(2);
    expect(await queryRows(db, sql`select id, note from probe_once`)).toEqual([{ id: 1, note: 'try 2' }]);
  });

  it('throws any other error at once, running the transaction once', async () => {
    const db = handle!.db;
    let tries = 0;
    await expect(
      db.transaction(async (tx) => {
        tries += 1;
        await tx.execute(sql`insert into probe_once values (1, 'again')`);
      }),
    ).rejects.toThrow();
    expect(tries).toBe(1);
  });
});
