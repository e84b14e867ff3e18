import { and, eq, gte, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { ledgerAccounts, ledgerBalances, ledgerEntries, ledgerMovements } from '../../db/schema';

export type TSystemAccountKind = 'issuance' | 'sales' | 'consumption';
export type TMovementKind = (typeof ledgerMovements.$inferSelect)['kind'];

/** The ledger account of a retailer or mini-retailer, created on first use. Returns its id. */
export const ensureUserAccount = async (db: DbOrTx, orgId: number, userId: number): Promise<number> => {
  await db.insert(ledgerAccounts).values({ orgId, kind: 'user', userId }).onConflictDoNothing();
  const [row] = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.userId, userId), eq(ledgerAccounts.orgId, orgId)));
  return row!.id;
};

/** An organisation's system account (issuance, sales or consumption), created on first use. */
export const ensureSystemAccount = async (
  db: DbOrTx,
  orgId: number,
  kind: TSystemAccountKind,
): Promise<number> => {
  await db.insert(ledgerAccounts).values({ orgId, kind }).onConflictDoNothing();
  const [row] = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(
      and(eq(ledgerAccounts.orgId, orgId), eq(ledgerAccounts.kind, kind), isNull(ledgerAccounts.userId)),
    );
  return row!.id;
};

export const findAccountKind = async (db: DbOrTx, accountId: number) => {
  const [row] = await db
    .select({ kind: ledgerAccounts.kind })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.id, accountId));
  return row?.kind ?? null;
};

/**
 * Takes `quantity` keys of `appType` off a user account's balance, only if it holds that many
 * (one guarded UPDATE, so two spends at once never take the same key). Returns false otherwise.
 */
export const debitBalance = async (
  db: DbOrTx,
  accountId: number,
  appType: number,
  quantity: number,
): Promise<boolean> => {
  const rows = await db
    .update(ledgerBalances)
    .set({ balance: sql`${ledgerBalances.balance} - ${quantity}` })
    .where(
      and(
        eq(ledgerBalances.accountId, accountId),
        eq(ledgerBalances.appType, appType),
        gte(ledgerBalances.balance, quantity),
      ),
    )
    .returning({ balance: ledgerBalances.balance });
  return rows.length === 1;
};

/** Adds `quantity` keys of `appType` to a user account's balance. */
export const creditBalance = async (db: DbOrTx, accountId: number, appType: number, quantity: number) => {
  await db
    .insert(ledgerBalances)
    .values({ accountId, appType, balance: quantity })
    .onConflictDoUpdate({
      target: [ledgerBalances.accountId, ledgerBalances.appType],
      set: { balance: sql`${ledgerBalances.balance} + ${quantity}` },
    });
};

/**
 * Inserts a movement, or nothing when its unique key (payment order, or key use of the IMEI and
 * app_type) already has one. Returns the new id, or null when it already existed.
 */
export const insertMovement = async (
  db: DbOrTx,
  row: typeof ledgerMovements.$inferInsert,
): Promise<number | null> => {
  const inserted = await db
    .insert(ledgerMovements)
    .values(row)
    .onConflictDoNothing()
    .returning({ id: ledgerMovements.id });
  return inserted[0]?.id ?? null;
};

export const insertEntries = async (db: DbOrTx, rows: (typeof ledgerEntries.$inferInsert)[]) => {
  await db.insert(ledgerEntries).values(rows);
};
