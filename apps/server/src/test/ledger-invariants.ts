import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../db/client';

/**
 * The ledger's invariants, checked in SQL over the whole database: every movement has exactly two
 * entries that sum to zero (double entry); every user balance equals the sum of its account's
 * entries of that app_type, and no account's entries of an app_type sum differently from a balance
 * row; no user balance is below zero.
 */
export const checkInvariants = async (db: Db) => {
  const rowsOf = async (query: ReturnType<typeof sql>) =>
    ((await db.execute(query)) as unknown as { rows: unknown[] }).rows;
  const unbalanced = await rowsOf(sql`
    select m.id from ledger_movements m left join ledger_entries e on e.movement_id = m.id
    group by m.id having count(e.id) <> 2 or coalesce(sum(e.delta), 1) <> 0 or min(e.delta) <> -m.quantity`);
  expect(unbalanced).toEqual([]);
  const drifted = await rowsOf(sql`
    select a.id, s.app_type, s.total, b.balance
    from ledger_accounts a
    join (select account_id, app_type, sum(delta)::int as total from ledger_entries group by 1, 2) s
      on s.account_id = a.id
    left join ledger_balances b on b.account_id = a.id and b.app_type = s.app_type
    where a.kind = 'user' and (b.balance is null or b.balance <> s.total)`);
  expect(drifted).toEqual([]);
  const orphanBalances = await rowsOf(sql`
    select b.account_id, b.app_type from ledger_balances b
    where b.balance <> coalesce((select sum(delta) from ledger_entries e
      where e.account_id = b.account_id and e.app_type = b.app_type), 0)`);
  expect(orphanBalances).toEqual([]);
  const negative = await rowsOf(sql`select * from ledger_balances where balance < 0`);
  expect(negative).toEqual([]);
};
