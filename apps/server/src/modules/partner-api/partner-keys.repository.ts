import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { organizations, partnerApiKeys, users } from '../../db/schema';

export type TPartnerKeyRow = typeof partnerApiKeys.$inferSelect;

const keyWithRetailer = {
  key: partnerApiKeys,
  retailerName: sql<string>`coalesce(${users.shopName}, ${users.name})`,
};

/** The organisation's keys with their retailer's shop (or owner) name, newest first. */
export const listKeys = (db: DbOrTx, orgId: number) =>
  db
    .select(keyWithRetailer)
    .from(partnerApiKeys)
    .innerJoin(users, eq(users.id, partnerApiKeys.retailerId))
    .where(eq(partnerApiKeys.orgId, orgId))
    .orderBy(desc(partnerApiKeys.id));

/** The organisation's key `id` with its retailer's name, or null (another organisation's too). */
export const findKey = async (db: DbOrTx, orgId: number, id: number) => {
  const [row] = await db
    .select(keyWithRetailer)
    .from(partnerApiKeys)
    .innerJoin(users, eq(users.id, partnerApiKeys.retailerId))
    .where(and(eq(partnerApiKeys.orgId, orgId), eq(partnerApiKeys.id, id)))
    .limit(1);
  return row ?? null;
};

export const insertKey = async (db: DbOrTx, row: typeof partnerApiKeys.$inferInsert) => {
  const [inserted] = await db.insert(partnerApiKeys).values(row).returning({ id: partnerApiKeys.id });
  return inserted!.id;
};

/** Revokes a live key; false when it was revoked already. */
export const revokeKey = async (db: DbOrTx, id: number, revokedBy: number): Promise<boolean> => {
  const rows = await db
    .update(partnerApiKeys)
    .set({ revokedAt: new Date(), revokedBy })
    .where(and(eq(partnerApiKeys.id, id), isNull(partnerApiKeys.revokedAt)))
    .returning({ id: partnerApiKeys.id });
  return rows.length > 0;
};

/**
 * Everything a partner request knows about its caller, in one statement (as a session's read,
 * auth findLiveSession): the live key of `publicId`, the retailer its loans are booked under (its
 * user row, access flags among it), the organisation, and the ids of every other retailer and
 * mini-retailer of the organisation (a key sees the whole organisation). Null for an unknown or
 * revoked key.
 */
export const findLiveKey = async (db: DbOrTx, publicId: string) => {
  const [row] = await db
    .select({
      key: partnerApiKeys,
      user: users,
      organization: organizations,
      otherRetailerIds: sql<number[]>`array(select r.id from ${users} r
        where r.org_id = ${partnerApiKeys.orgId} and r.id <> ${partnerApiKeys.retailerId}
          and r.user_type in ('retailer', 'miniretailer')
        order by r.id)`,
    })
    .from(partnerApiKeys)
    .innerJoin(users, eq(users.id, partnerApiKeys.retailerId))
    .innerJoin(organizations, eq(organizations.id, partnerApiKeys.orgId))
    .where(and(eq(partnerApiKeys.publicId, publicId), isNull(partnerApiKeys.revokedAt)))
    .limit(1);
  return row ?? null;
};

/** An active shop (retailer or mini-retailer) of the organisation, or null. */
export const findActiveShop = async (db: DbOrTx, orgId: number, id: number) => {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.orgId, orgId),
        eq(users.id, id),
        inArray(users.userType, ['retailer', 'miniretailer']),
        eq(users.isActive, true),
      ),
    )
    .limit(1);
  return row ?? null;
};
