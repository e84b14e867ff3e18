import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema';

/** The UPI-relevant part of one user row: their name (the payee name) and UPI ID. */
export type TPayeeRow = { name: string; upiId: string | null };

/** The user's name and UPI ID, only within their organisation; null for an unknown user. */
export const findPayee = async (db: DbOrTx, orgId: number, userId: number): Promise<TPayeeRow | null> => {
  const rows = await db
    .select({ name: users.name, upiId: users.upiId })
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.id, userId)))
    .limit(1);
  return rows[0] ?? null;
};

/** Sets the user's UPI ID (users.upi_id), only within their organisation; returns rows changed. */
export const updateUpiId = async (
  db: DbOrTx,
  orgId: number,
  userId: number,
  upiId: string,
): Promise<number> => {
  const rows = await db
    .update(users)
    .set({ upiId })
    .where(and(eq(users.orgId, orgId), eq(users.id, userId)))
    .returning({ id: users.id });
  return rows.length;
};
