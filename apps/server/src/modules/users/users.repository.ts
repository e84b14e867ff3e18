import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema';

/** Ids of mini-retailers whose parent is the given retailer, within the organisation. */
export const findChildRetailerIds = async (
  db: DbOrTx,
  orgId: number,
  parentId: number,
): Promise<number[]> => {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.parentId, parentId), eq(users.userType, 'miniretailer')));
  return rows.map((r) => r.id);
};

/** Creates the customer user (spec §4 user type customer) for a mobile, unless it exists. */
export const ensureCustomerUser = async (db: DbOrTx, orgId: number, mobile: string, name: string) => {
  await db
    .insert(users)
    .values({ orgId, mobile, name, userType: 'customer' })
    .onConflictDoNothing({ target: [users.orgId, users.mobile, users.userType] });
};

/** The access overrides of a user (spec §6 flags the server sets), or null for an unknown user. */
export const findUserAccess = async (db: DbOrTx, userId: number) => {
  const rows = await db.select({ access: users.access }).from(users).where(eq(users.id, userId)).limit(1);
  return rows[0]?.access ?? null;
};
