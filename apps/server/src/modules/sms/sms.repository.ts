import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { queryRows } from '../../db/client';
import { smsOutbox } from '../../db/schema';
import { parseSmsContent, type TSmsContent } from './sms-templates';

/**
 * What delivering a claimed row needs: the rendered text, and the DLT template it came from (null
 * on a row queued before templates were stored).
 */
export type TSmsToSend = {
  id: number;
  mobile: string;
  body: string;
  template: TSmsContent | null;
  attempts: number;
};

const toSend = {
  id: smsOutbox.id,
  mobile: smsOutbox.mobile,
  body: smsOutbox.body,
  templateKind: smsOutbox.templateKind,
  templateVars: smsOutbox.templateVars,
  attempts: smsOutbox.attempts,
};
const sendable = (
  rows: {
    id: number;
    mobile: string;
    body: string | null;
    templateKind: string | null;
    templateVars: unknown;
    attempts: number;
  }[],
): TSmsToSend[] =>
  rows.flatMap(({ templateKind, templateVars, body, ...row }) =>
    body === null ? [] : [{ ...row, body, template: parseSmsContent(templateKind, templateVars) }],
  );

/** Inserts a queued row; returns its id. */
export const insertSms = async (db: DbOrTx, row: typeof smsOutbox.$inferInsert): Promise<number> => {
  const [inserted] = await db.insert(smsOutbox).values(row).returning({ id: smsOutbox.id });
  return inserted!.id;
};

/** The row if it is still queued (and so still has its body), else null. */
export const findQueuedSms = async (db: DbOrTx, id: number): Promise<TSmsToSend | null> => {
  const rows = await db
    .select(toSend)
    .from(smsOutbox)
    .where(and(eq(smsOutbox.id, id), eq(smsOutbox.state, 'queued')))
    .limit(1);
  return sendable(rows)[0] ?? null;
};

/**
 * Claims at most `limit` queued rows that are due (next_attempt_at ≤ now) and not past not_after,
 * oldest due first, skipping rows another process holds (FOR UPDATE SKIP LOCKED), and moves their
 * next_attempt_at leaseMs ahead, so no other process or run takes them while they are being sent.
 * Call inside a transaction; send after commit. A process that dies mid-send leaves the row to be
 * taken again when the lease runs out.
 */
export const claimDueSms = async (
  db: DbOrTx,
  options: { limit: number; leaseMs: number },
): Promise<TSmsToSend[]> => {
  const now = new Date();
  const due = await db
    .select(toSend)
    .from(smsOutbox)
    .where(
      and(
        eq(smsOutbox.state, 'queued'),
        lte(smsOutbox.nextAttemptAt, now),
        or(isNull(smsOutbox.notAfter), gt(smsOutbox.notAfter, now)),
      ),
    )
    .orderBy(asc(smsOutbox.nextAttemptAt))
    .limit(options.limit)
    .for('update', { skipLocked: true });
  if (due.length === 0) return [];
  await db
    .update(smsOutbox)
    .set({ nextAttemptAt: new Date(now.getTime() + options.leaseMs) })
    .where(
      inArray(
        smsOutbox.id,
        due.map((row) => row.id),
      ),
    );
  return sendable(due);
};

/**
 * Marks a row sent after `tries` tries, clearing its body and variables (no OTP stays in clear), and in the same
 * statement sets sent_at on the OTP challenge it carries, so the resend cool-down starts. A row a
 * newer OTP superseded (expired) while it was on its way is marked sent too: it was. Returns false
 * when the row had already ended otherwise (sent or failed).
 */
export const markSmsSent = async (db: DbOrTx, id: number, tries: number): Promise<boolean> => {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`with sent as (
          update sms_outbox
             set state = 'sent', sent_at = now(), body = null, template_vars = null, last_error = null,
                 attempts = attempts + ${tries}::int
           where id = ${id} and state in ('queued', 'expired')
       returning otp_challenge_id
        ), challenge as (
          update otp_challenges set sent_at = now()
           where id in (select otp_challenge_id from sent) and sent_at is null
       returning id
        )
        select count(*)::int as n from sent`,
  );
  return (rows[0]?.n ?? 0) > 0;
};

/**
 * Records `tries` failed tries of a queued row. It ends `failed` with its body and variables cleared when the
 * failure is permanent or the tries reach maxAttempts; otherwise it waits retryAfterSeconds ×
 * 2^(tries so far − 1), at most an hour, before the job tries again. Returns the row's new state,
 * or null when it was no longer queued.
 */
export const recordSmsFailure = async (
  db: DbOrTx,
  id: number,
  failure: {
    tries: number;
    error: string;
    isPermanent: boolean;
    maxAttempts: number;
    retryAfterSeconds: number;
  },
): Promise<'queued' | 'failed' | null> => {
  const attempts = sql`(attempts + ${failure.tries}::int)`;
  const isOver = sql`(${failure.isPermanent}::boolean or ${attempts} >= ${failure.maxAttempts}::int)`;
  const rows = await queryRows<{ state: 'queued' | 'failed' }>(
    db,
    sql`update sms_outbox
           set attempts = ${attempts},
               last_error = ${failure.error.slice(0, 500)},
               state = case when ${isOver} then 'failed' else 'queued' end,
               body = case when ${isOver} then null else body end,
               template_vars = case when ${isOver} then null else template_vars end,
               next_attempt_at = now() + make_interval(secs => least(
                 ${failure.retryAfterSeconds}::int * power(2, greatest(${attempts} - 1, 0)), 3600))
         where id = ${id} and state = 'queued'
     returning state`,
  );
  return rows[0]?.state ?? null;
};

/** Ends queued rows past not_after (an OTP nobody can use any more) as expired, clearing body and variables. */
export const expireOverdueSms = async (db: DbOrTx): Promise<number> => {
  const rows = await db
    .update(smsOutbox)
    .set({ state: 'expired', body: null, templateVars: null })
    .where(and(eq(smsOutbox.state, 'queued'), lte(smsOutbox.notAfter, new Date())))
    .returning({ id: smsOutbox.id });
  return rows.length;
};

/** Ends the queued SMS of these OTP challenges as expired (a newer OTP replaced them), body and variables cleared. */
export const expireQueuedOtpSms = async (
  db: DbOrTx,
  otpChallengeIds: number[],
  reason: string,
): Promise<void> => {
  if (otpChallengeIds.length === 0) return;
  await db
    .update(smsOutbox)
    .set({ state: 'expired', body: null, templateVars: null, lastError: reason })
    .where(and(eq(smsOutbox.state, 'queued'), inArray(smsOutbox.otpChallengeId, otpChallengeIds)));
};
