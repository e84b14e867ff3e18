import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openTestPglite } from '../test/harness';
import { openDatabase, queryRows } from './client';
import { countPoolStatements } from './statement-counter';

/**
 * The statement counter behind issue 26's budgets counts what reaches the database, on both
 * drivers: BEGIN and COMMIT too, and on PGlite the statements of transaction(), which run on a
 * private path a wrapper of query() alone never sees. Each measure() sees its own async context's.
 */

describe('on PGlite', () => {
  it('counts queries, exec and every statement of a transaction, BEGIN and COMMIT included', async () => {
    const pglite = await openTestPglite();
    const { db, statements, close } = await openDatabase({ pglite, migrate: false });
    try {
      const { statements: seen } = await statements.measure(async () => {
        await queryRows(db, sql`select 1`);
        await db.transaction(async (tx) => {
          await tx.execute(sql`select 2`);
          await tx.execute(sql`select 3`);
        });
      });
      expect(seen.map((s) => s.text)).toEqual(['select 1', 'BEGIN', 'select 2', 'select 3', 'COMMIT']);
      const failed = await statements.measure(() =>
        db
          .transaction(async (tx) => {
            await tx.execute(sql`select 4`);
            throw new Error('roll it back');
          })
          .catch(() => 'rolled back'),
      );
      expect(failed.result).toBe('rolled back');
      expect(failed.statements.map((s) => s.text)).toEqual(['BEGIN', 'select 4', 'ROLLBACK']);
    } finally {
      await close();
    }
  });

  it("tells two measures' statements apart when they run at once", async () => {
    const pglite = await openTestPglite();
    const { db, statements, close } = await openDatabase({ pglite, migrate: false });
    try {
      const [a, b] = await Promise.all([
        statements.measure(async () => {
          await queryRows(db, sql`select 'a1'`);
          await queryRows(db, sql`select 'a2'`);
        }),
        statements.measure(() => queryRows(db, sql`select 'b1'`)),
      ]);
      expect(a.statements.map((s) => s.text)).toEqual(["select 'a1'", "select 'a2'"]);
      expect(b.statements.map((s) => s.text)).toEqual(["select 'b1'"]);
      expect(statements.total).toBeGreaterThanOrEqual(3);
    } finally {
      await close();
    }
  });
});

describe('on PostgreSQL (node-postgres)', () => {
  const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:5432/test', max: 2 });
  const counter = countPoolStatements(pool);
  afterAll(() => pool.end());

  it("counts a pool's query once and a transaction's BEGIN, statements and COMMIT", async () => {
    const db = drizzle(pool);
    const { statements } = await counter.measure(async () => {
      await db.execute(sql`select 1`);
      await db.transaction(async (tx) => {
        await tx.execute(sql`select 2`);
      });
    });
    expect(statements.map((s) => s.text)).toEqual(['select 1', 'begin', 'select 2', 'commit']);
    expect(statements[0]!.rows).toBe(1);
  });
});
