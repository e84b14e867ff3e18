import { and, desc, eq, getTableColumns, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { descendantIdsSql, outerUser, parentTypeSql } from '../../db/network-sql';
import { organizations, otpChallenges, sessions, smsOutbox, users } from '../../db/schema';

/** A user's columns and its parent's type (parentTypeSql: whom it asks for keys; issue 30). */
const userWithParentType = { ...getTableColumns(users), parentType: parentTypeSql };

export const findUserByMobile = async (db: DbOrTx, orgId: number, mobile: string) => {
  const rows = await db
    .select(userWithParentType)
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.mobile, mobile)))
    // A retailer who is also a customer logs in as the retailer.
    .orderBy(sql`${users.userType} = 'customer'`, users.id)
    .limit(1);
  return rows[0] ?? null;
};

export const findUserById = async (db: DbOrTx, id: number) => {
  const rows = await db.select(userWithParentType).from(users).where(eq(users.id, id)).limit(1);
  return rows[0] ?? null;
};

export const findLatestOtp = async (db: DbOrTx, orgId: number, mobile: string, purpose: string) => {
  const rows = await db
    .select()
    .from(otpChallenges)
    .where(
      and(
        eq(otpChallenges.orgId, orgId),
        eq(otpChallenges.mobile, mobile),
        eq(otpChallenges.purpose, purpose),
      ),
    )
    .orderBy(desc(otpChallenges.createdAt), desc(otpChallenges.id))
    .limit(1);
  return rows[0] ?? null;
};

/**
 * Serialises OTP work on one mobile number until the transaction ends (a transaction-scoped
 * advisory lock), so concurrent requests cannot all pass the number's caps before any of them is
 * recorded. Call first in the transaction.
 */
export const lockOtpNumber = async (db: DbOrTx, mobile: string): Promise<void> => {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`kisht:otp:${mobile}`}))`);
};

/** The number's challenges made since `since`, every organisation and purpose (the per-number caps). */
export const findOtpHistory = (db: DbOrTx, mobile: string, since: Date) =>
  db
    .select({
      orgId: otpChallenges.orgId,
      purpose: otpChallenges.purpose,
      createdAt: otpChallenges.createdAt,
      sentAt: otpChallenges.sentAt,
      expiresAt: otpChallenges.expiresAt,
      attempts: otpChallenges.attempts,
      lastAttemptAt: otpChallenges.lastAttemptAt,
      // Queued with no try ended: the request that made it is delivering it now (issue 27).
      isSmsInFlight: sql<boolean>`exists (select 1 from ${smsOutbox} s
        where s.otp_challenge_id = ${otpChallenges.id} and s.state = 'queued' and s.attempts = 0)`,
    })
    .from(otpChallenges)
    .where(and(eq(otpChallenges.mobile, mobile), gt(otpChallenges.createdAt, since)));

/** Inserts a challenge; returns its id. */
export const insertOtp = async (db: DbOrTx, row: typeof otpChallenges.$inferInsert): Promise<number> => {
  const [inserted] = await db.insert(otpChallenges).values(row).returning({ id: otpChallenges.id });
  return inserted!.id;
};

/**
 * Expires the live challenges of the organisation, number and purpose whose SMS has not gone out
 * (a newer one replaces them; only the newest is ever checked), so they stop counting towards the
 * daily cap. Returns their ids, for their queued SMS to be dropped.
 */
export const expireUnsentOtps = async (
  db: DbOrTx,
  key: { orgId: number; mobile: string; purpose: string },
  now: Date,
): Promise<number[]> => {
  const rows = await db
    .update(otpChallenges)
    .set({ expiresAt: now })
    .where(
      and(
        eq(otpChallenges.orgId, key.orgId),
        eq(otpChallenges.mobile, key.mobile),
        eq(otpChallenges.purpose, key.purpose),
        isNull(otpChallenges.sentAt),
        isNull(otpChallenges.consumedAt),
        gt(otpChallenges.expiresAt, now),
      ),
    )
    .returning({ id: otpChallenges.id });
  return rows.map((row) => row.id);
};

/** Counts one wrong code against the challenge and notes when (the growing cool-down). */
export const recordOtpAttempt = async (db: DbOrTx, id: number, at: Date) => {
  await db
    .update(otpChallenges)
    .set({ attempts: sql`${otpChallenges.attempts} + 1`, lastAttemptAt: at })
    .where(eq(otpChallenges.id, id));
};

/** Marks an OTP used; returns false when another request consumed it first. */
export const consumeOtp = async (db: DbOrTx, id: number): Promise<boolean> => {
  const rows = await db
    .update(otpChallenges)
    .set({ consumedAt: new Date() })
    .where(and(eq(otpChallenges.id, id), isNull(otpChallenges.consumedAt)))
    .returning({ id: otpChallenges.id });
  return rows.length === 1;
};

export const insertSession = async (db: DbOrTx, row: typeof sessions.$inferInsert) => {
  await db.insert(sessions).values(row);
};

export const findLiveSession = async (db: DbOrTx, id: string) => {
  // One statement for everything a request knows about its actor (issue 26): the session, the user
  // (access flags among its columns), a retailer's mini-retailers, a distributor's subtree and the
  // organisation.
  const rows = await db
    .select({
      session: sessions,
      user: users,
      organization: organizations,
      childRetailerIds: sql<number[]>`array(select c.id from ${users} c
        where c.org_id = ${users.orgId} and c.parent_id = ${users.id} and c.user_type = 'miniretailer'
        order by c.id)`,
      parentType: parentTypeSql,
      // A distributor's whole subtree (issue 30): every node below it, at any depth.
      descendantIds: sql<number[]>`case when ${users.userType} = 'distributor'
        then ${descendantIdsSql(outerUser.orgId, outerUser.id)} else '{}'::int[] end`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(organizations, eq(organizations.id, users.orgId))
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())))
    .limit(1);
  return rows[0] ?? null;
};

/**
 * Extends a pending session (live, not revoked, expiring no later than `pendingUntil`) to
 * `expiresAt` in one UPDATE; returns its user id, or null when there is no such pending session
 * (already claimed, expired or revoked).
 */
export const claimPendingSession = async (
  db: DbOrTx,
  id: string,
  times: { pendingUntil: Date; expiresAt: Date },
): Promise<number | null> => {
  const rows = await db
    .update(sessions)
    .set({ expiresAt: times.expiresAt })
    .where(
      and(
        eq(sessions.id, id),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date()),
        lte(sessions.expiresAt, times.pendingUntil),
      ),
    )
    .returning({ userId: sessions.userId });
  return rows[0]?.userId ?? null;
};

export const touchSession = async (db: DbOrTx, id: string) => {
  await db.update(sessions).set({ lastSeenAt: new Date() }).where(eq(sessions.id, id));
};

export const revokeSession = async (db: DbOrTx, id: string) => {
  await db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, id));
};

export const updateUserMpin = async (db: DbOrTx, id: number, values: Partial<typeof users.$inferInsert>) => {
  await db.update(users).set(values).where(eq(users.id, id));
};

/**
 * Reserves one MPIN try for the user in a single UPDATE, before the MPIN is checked, so concurrent
 * logins cannot all read the same count (issue 12). Only a user with no lock, or whose lock has
 * expired, gets a try; an expired lock starts a fresh count at 1. The try that reaches maxAttempts
 * sets mpin_locked_until = now() + lockMinutes in the same statement, so every later try finds the
 * row locked (Postgres re-checks the WHERE on the row it waited for). Returns the count including
 * this try and the hash to check, or null when the MPIN is locked.
 */
export const reserveMpinAttempt = async (
  db: DbOrTx,
  id: number,
  limits: { maxAttempts: number; lockMinutes: number },
): Promise<{ attempts: number; mpinHash: string | null } | null> => {
  // In SET every column reads the row as it was; the WHERE lets through only NULL or expired locks.
  const attempts = sql`case when ${users.mpinLockedUntil} is null then ${users.mpinFailedAttempts} + 1 else 1 end`;
  const rows = await db
    .update(users)
    .set({
      mpinFailedAttempts: attempts,
      mpinLockedUntil: sql`case when ${attempts} >= ${limits.maxAttempts}::int
        then now() + make_interval(mins => ${limits.lockMinutes}::int) end`,
    })
    .where(and(eq(users.id, id), or(isNull(users.mpinLockedUntil), lte(users.mpinLockedUntil, sql`now()`))))
    .returning({ attempts: users.mpinFailedAttempts, mpinHash: users.mpinHash });
  return rows[0] ?? null;
};

/** Live sessions of a user, newest activity first. */
export const listLiveSessions = (db: DbOrTx, userId: number) =>
  db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.lastSeenAt));

/** Revokes one live session of the user; false when there is none with that id. */
export const revokeUserSession = async (db: DbOrTx, userId: number, sessionId: string): Promise<boolean> => {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length === 1;
};
