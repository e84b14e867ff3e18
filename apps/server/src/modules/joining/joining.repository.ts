import type { TSignupStatus } from '@kisht/domain/joining/joining.schema';
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { signupRequests, users } from '../../db/schema';

/** One signup_requests row. */
export type TSignupRow = typeof signupRequests.$inferSelect;

/**
 * Serialises join requests and decisions for one organisation and mobile until the transaction ends
 * (a transaction-scoped advisory lock), so two requests at once cannot both pass the checks.
 */
export const lockSignupMobile = async (db: DbOrTx, orgId: number, mobile: string): Promise<void> => {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`kisht:signup:${orgId}:${mobile}`}))`);
};

/** True when the organisation has a retailer, mini-retailer or admin with this mobile (customers do not count). */
export const hasShopAccount = async (db: DbOrTx, orgId: number, mobile: string): Promise<boolean> => {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.mobile, mobile), ne(users.userType, 'customer')))
    .limit(1);
  return rows.length > 0;
};

/** The organisation's pending join request for this mobile, or null. */
export const findPendingSignup = async (
  db: DbOrTx,
  orgId: number,
  mobile: string,
): Promise<TSignupRow | null> => {
  const rows = await db
    .select()
    .from(signupRequests)
    .where(
      and(
        eq(signupRequests.orgId, orgId),
        eq(signupRequests.mobile, mobile),
        eq(signupRequests.status, 'pending'),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
};

/** Inserts a pending join request; returns its id. */
export const insertSignup = async (
  db: DbOrTx,
  row: { orgId: number; name: string; shopName: string; mobile: string; city: string },
): Promise<number> => {
  const [inserted] = await db.insert(signupRequests).values(row).returning({ id: signupRequests.id });
  return inserted!.id;
};

/** The organisation's join requests, of one status or all: pending first, then newest first. */
export const listSignups = (
  db: DbOrTx,
  orgId: number,
  status: TSignupStatus | 'all',
): Promise<TSignupRow[]> =>
  db
    .select()
    .from(signupRequests)
    .where(
      and(eq(signupRequests.orgId, orgId), status === 'all' ? undefined : eq(signupRequests.status, status)),
    )
    .orderBy(
      sql`${signupRequests.status} <> 'pending'`,
      desc(signupRequests.createdAt),
      desc(signupRequests.id),
    )
    .limit(500);

/** The organisation's join request `id`, locked until the transaction ends; null for any other id. */
export const findSignupForUpdate = async (
  db: DbOrTx,
  orgId: number,
  id: number,
): Promise<TSignupRow | null> => {
  const rows = await db
    .select()
    .from(signupRequests)
    .where(and(eq(signupRequests.orgId, orgId), eq(signupRequests.id, id)))
    .for('update')
    .limit(1);
  return rows[0] ?? null;
};

/** Records the decision on a pending request; returns the updated row (null when it was no longer pending). */
export const markSignupDecided = async (
  db: DbOrTx,
  id: number,
  decision: { status: 'approved' | 'declined'; decidedBy: number; userId: number | null },
): Promise<TSignupRow | null> => {
  const rows = await db
    .update(signupRequests)
    .set({ ...decision, decidedAt: new Date() })
    .where(and(eq(signupRequests.id, id), eq(signupRequests.status, 'pending')))
    .returning();
  return rows[0] ?? null;
};

/** Creates the retailer of an approved join request (no parent, default access); returns its id. */
export const insertRetailer = async (
  db: DbOrTx,
  row: { orgId: number; name: string; shopName: string; mobile: string; city: string },
): Promise<number> => {
  const [inserted] = await db
    .insert(users)
    .values({
      orgId: row.orgId,
      userType: 'retailer',
      name: row.name,
      shopName: row.shopName,
      mobile: row.mobile,
      address: { line1: '', countryCode: 'IN', stateCode: '', city: row.city },
    })
    .returning({ id: users.id });
  return inserted!.id;
};
