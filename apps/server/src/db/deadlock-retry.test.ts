import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryOnDeadlock } from './client';

/**
 * retryOnDeadlock runs again what PostgreSQL ended as a deadlock's victim, and nothing else: two
 * transactions taking the same two rows in opposite order on real PostgreSQL both commit, one of
 * them on its second try (issue 26: two server processes recording acks of the same phones).
 */
describe('retryOnDeadlock', () => {
  const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:5432/test', max: 2 });
  pool.on('error', () => {}); // a connection dropped by the server is replaced; nothing to report
  const db = drizzle(pool);
  const table = sql.raw(`deadlock_probe_${randomBytes(4).toString('hex')}`);
  beforeAll(async () => {
    await db.execute(sql`create table ${table} (id int primary key, n int not null)`);
    await db.execute(sql`insert into ${table} values (1, 0), (2, 0)`);
  });
  afterAll(async () => {
    await db.execute(sql`drop table if exists ${table}`);
    await pool.end();
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
      retryOnDeadlock(() =>
        db.transaction(async (tx) => {
          tries += 1;
          await tx.execute(sql`update ${table} set n = n + 1 where id = ${first}`);
          if (tries <= 2) {
            bothHoldOne();
            await held;
          }
          await tx.execute(sql`update ${table} set n = n + 1 where id = ${second}`);
        }),
      );
    await Promise.all([crossing(1, 2), crossing(2, 1)]);
    expect(tries).toBe(3);
    const rows = (await db.execute(sql`select id, n from ${table} order by id`)).rows;
    expect(rows).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });

  it('throws any other error at once, untried again', async () => {
    let tries = 0;
    await expect(
      retryOnDeadlock(async () => {
        tries += 1;
        await db.execute(sql`select 1 / 0`);
      }),
    ).rejects.toThrow();
    expect(tries).toBe(1);
  });
});
