import type { TSignupStatus } from '@kisht/domain/joining/joining.schema';
import type { TJoiningRole } from '@kisht/domain/network/network.rules';
import { and, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { distributorLevelSql, outerUser } from '../../db/network-sql';
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

/** True when the organisation has a distributor, retailer, mini-retailer or admin with this mobile (customers do not count). */
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

/**
 * The organisation's active distributor with this mobile, or with this id, and its level
 * (network.rules); null when there is no such distributor.
 */
export const findDistributor = async (
  db: DbOrTx,
  orgId: number,
  by: { mobile: string } | { id: number },
): Promise<{ id: number; level: number } | null> => {
  const [row] = await db
    .select({ id: users.id, level: distributorLevelSql(outerUser.id) })
    .from(users)
    .where(
      and(
        eq(users.orgId, orgId),
        'id' in by ? eq(users.id, by.id) : eq(users.mobile, by.mobile),
        eq(users.userType, 'distributor'),
        eq(users.isActive, true),
      ),
    )
    .limit(1);
  return row ?? null;
};

/** Inserts a pending join request; returns its id. */
export const insertSignup = async (
  db: DbOrTx,
  row: {
    orgId: number;
    name: string;
    shopName: string;
    mobile: string;
    city: string;
    role: TJoiningRole;
    parentId: number | null;
  },
): Promise<number> => {
  const [inserted] = await db.insert(signupRequests).values(row).returning({ id: signupRequests.id });
  return inserted!.id;
};

/**
 * The join requests made to one parent (a distributor's id; null: the organisation) of one status
 * or all: pending first, then newest first.
 */
export const listSignups = (
  db: DbOrTx,
  scope: { orgId: number; parentId: number | null },
  status: TSignupStatus | 'all',
): Promise<TSignupRow[]> =>
  db
    .select()
    .from(signupRequests)
    .where(
      and(
        eq(signupRequests.orgId, scope.orgId),
        scope.parentId === null
          ? isNull(signupRequests.parentId)
          : eq(signupRequests.parentId, scope.parentId),
        status === 'all' ? undefined : eq(signupRequests.status, status),
      ),
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

/**
 * Creates the retailer or distributor of an approved join request (`role`, under `parentId`, null:
 * the organisation; default access); returns its id.
 */
export const insertMember = async (db: DbOrTx, row: TSignupRow): Promise<number> => {
  const [inserted] = await db
    .insert(users)
    .values({
      orgId: row.orgId,
      userType: row.role,
      parentId: row.parentId,
      name: row.name,
      shopName: row.shopName,
      mobile: row.mobile,
      address: { line1: '', countryCode: 'IN', stateCode: '', city: row.city },
    })
    .returning({ id: users.id });
  return inserted!.id;
};
