import { and, eq, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { descendantIdsSql } from '../../db/network-sql';
import { users } from '../../db/schema';

/** Ids of every node below `rootId` in the organisation's network, at any depth (issue 30). */
export const findDescendantIds = async (db: DbOrTx, orgId: number, rootId: number): Promise<number[]> => {
  const [row] = await queryRows<{ ids: number[] }>(db, sql`select ${descendantIdsSql(orgId, rootId)} as ids`);
  return row?.ids ?? [];
};

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
