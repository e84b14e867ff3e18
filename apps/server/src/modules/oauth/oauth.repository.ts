import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema';

/**
 * A shop account Google sign-in may reach: its id, the Google subject it is linked to, if any, and
 * whether it is active (a deactivated one is found, so the sign-in can say so: USER_INACTIVE).
 */
export type TLinkableUser = { id: number; googleSubject: string | null; isActive: boolean };

/** Only retailers and mini-retailers sign in with Google (never customers or admins). */
const linkable = (orgId: number) =>
  and(eq(users.orgId, orgId), inArray(users.userType, ['retailer', 'miniretailer']));

const columns = { id: users.id, googleSubject: users.googleSubject, isActive: users.isActive };

/** How many accounts an e-mail or mobile look-up reads at most (enough to tell one from several). */
const MATCH_LIMIT = 10;

/** The shop account of the organisation linked to this Google subject, or null. */
export const findUserBySubject = async (
  db: DbOrTx,
  orgId: number,
  subject: string,
): Promise<TLinkableUser | null> => {
  const rows = await db
    .select(columns)
    .from(users)
    .where(and(linkable(orgId), eq(users.googleSubject, subject)))
    .limit(1);
  return rows[0] ?? null;
};

/** The organisation's shop accounts with this e-mail (compared without case); at most MATCH_LIMIT. */
export const findUsersByEmail = (db: DbOrTx, orgId: number, email: string): Promise<TLinkableUser[]> =>
  db
    .select(columns)
    .from(users)
    .where(and(linkable(orgId), sql`lower(${users.email}) = ${email.toLowerCase()}`))
    .limit(MATCH_LIMIT);

/** The organisation's shop accounts with this mobile (E.164); at most MATCH_LIMIT. */
export const findUsersByMobile = (db: DbOrTx, orgId: number, mobile: string): Promise<TLinkableUser[]> =>
  db
    .select(columns)
    .from(users)
    .where(and(linkable(orgId), eq(users.mobile, mobile)))
    .limit(MATCH_LIMIT);

/** Links the user to a Google subject when it is not linked yet; false when it was linked meanwhile. */
export const linkGoogleSubject = async (db: DbOrTx, userId: number, subject: string): Promise<boolean> => {
  const rows = await db
    .update(users)
    .set({ googleSubject: subject })
    .where(and(eq(users.id, userId), isNull(users.googleSubject)))
    .returning({ id: users.id });
  return rows.length === 1;
};
