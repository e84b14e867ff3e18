import { and, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { keyRequests, organizations, users } from '../../db/schema';

export type TKeyRequestRow = typeof keyRequests.$inferSelect;

const requester = alias(users, 'requester');
const parent = alias(users, 'parent');

const withNames = {
  request: keyRequests,
  requesterName: sql<string>`coalesce(${requester.shopName}, ${requester.name})`,
  parentName: sql<string | null>`coalesce(${parent.shopName}, ${parent.name})`,
};

const selectWithNames = (db: DbOrTx, where: SQL) =>
  db
    .select(withNames)
    .from(keyRequests)
    .innerJoin(requester, eq(requester.id, keyRequests.requesterId))
    .leftJoin(parent, eq(parent.id, keyRequests.parentId))
    .where(where)
    .orderBy(desc(keyRequests.id))
    .limit(200);

/** A shop's own requests, newest first (at most 200). */
export const listSent = (db: DbOrTx, orgId: number, requesterId: number) =>
  selectWithNames(db, and(eq(keyRequests.orgId, orgId), eq(keyRequests.requesterId, requesterId))!);

/** Requests to `parentId` (a retailer), or to the organisation when null, newest first. */
export const listReceived = (db: DbOrTx, orgId: number, parentId: number | null) =>
  selectWithNames(
    db,
    and(
      eq(keyRequests.orgId, orgId),
      parentId === null ? isNull(keyRequests.parentId) : eq(keyRequests.parentId, parentId),
    )!,
  );

/** One request with names, or null. */
export const findWithNames = async (db: DbOrTx, orgId: number, id: number) => {
  const [row] = await selectWithNames(db, and(eq(keyRequests.orgId, orgId), eq(keyRequests.id, id))!);
  return row ?? null;
};

export const insertRequest = async (db: DbOrTx, row: typeof keyRequests.$inferInsert): Promise<number> => {
  const [inserted] = await db.insert(keyRequests).values(row).returning({ id: keyRequests.id });
  return inserted!.id;
};

/**
 * Moves a pending request to `status`, once: the row is changed only while pending, so of two
 * decisions at once the second changes nothing (it waits for the first's row lock, then finds it
 * decided). Answers the row, or null when it was no longer pending (or not of this scope).
 */
export const decidePending = async (
  db: DbOrTx,
  scope: { orgId: number; id: number; parentId?: number | null; requesterId?: number },
  patch: Partial<typeof keyRequests.$inferInsert> & { status: TKeyRequestRow['status'] },
): Promise<TKeyRequestRow | null> => {
  const conditions: SQL[] = [
    eq(keyRequests.orgId, scope.orgId),
    eq(keyRequests.id, scope.id),
    eq(keyRequests.status, 'pending'),
  ];
  if (scope.parentId !== undefined)
    conditions.push(
      scope.parentId === null ? isNull(keyRequests.parentId) : eq(keyRequests.parentId, scope.parentId),
    );
  if (scope.requesterId !== undefined) conditions.push(eq(keyRequests.requesterId, scope.requesterId));
  const [row] = await db
    .update(keyRequests)
    .set({ ...patch, decidedAt: new Date() })
    .where(and(...conditions))
    .returning();
  return row ?? null;
};

/** Sets the movement an approval posted. */
export const setMovement = async (db: DbOrTx, id: number, movementId: number) => {
  await db.update(keyRequests).set({ movementId }).where(eq(keyRequests.id, id));
};

/** A retailer's prices to its mini-retailers, and the organisation's, paise by app_type code. */
export const findPrices = async (db: DbOrTx, orgId: number, retailerId: number | null) => {
  const [org] = await db
    .select({ settings: organizations.settings })
    .from(organizations)
    .where(eq(organizations.id, orgId))
    .limit(1);
  const orgPrices = (org?.settings?.keyPricesPaise ?? {}) as Record<string, number>;
  if (retailerId === null) return { shop: null, organisation: orgPrices };
  const [shop] = await db
    .select({ prices: users.keyPricesPaise })
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.id, retailerId)))
    .limit(1);
  return { shop: shop?.prices ?? null, organisation: orgPrices };
};

export const updateShopPrices = async (db: DbOrTx, userId: number, prices: Record<string, number>) => {
  await db.update(users).set({ keyPricesPaise: prices }).where(eq(users.id, userId));
};

/** A user's type and parent (for an actor a job built, without the request's user row). */
export const findUserParent = async (db: DbOrTx, orgId: number, userId: number) => {
  const [row] = await db
    .select({ userType: users.userType, parentId: users.parentId })
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.id, userId)))
    .limit(1);
  return row ?? null;
};
