import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { webhookEndpoints, webhookMessages } from '../../db/schema';

export type TEndpointRow = typeof webhookEndpoints.$inferSelect;
export type TMessageRow = typeof webhookMessages.$inferSelect;

/** The organisation's endpoints not removed, newest first. */
export const listEndpoints = (db: DbOrTx, orgId: number) =>
  db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.orgId, orgId), isNull(webhookEndpoints.deletedAt)))
    .orderBy(desc(webhookEndpoints.id));

/** The organisation's endpoint `id` not removed, or null (another organisation's too). */
export const findEndpoint = async (db: DbOrTx, orgId: number, id: number): Promise<TEndpointRow | null> => {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(
      and(eq(webhookEndpoints.orgId, orgId), eq(webhookEndpoints.id, id), isNull(webhookEndpoints.deletedAt)),
    )
    .limit(1);
  return row ?? null;
};

export const insertEndpoint = async (db: DbOrTx, row: typeof webhookEndpoints.$inferInsert) => {
  const [inserted] = await db.insert(webhookEndpoints).values(row).returning();
  return inserted!;
};

export const updateEndpoint = async (
  db: DbOrTx,
  id: number,
  patch: Partial<typeof webhookEndpoints.$inferInsert>,
): Promise<TEndpointRow> => {
  const [row] = await db.update(webhookEndpoints).set(patch).where(eq(webhookEndpoints.id, id)).returning();
  return row!;
};

/** Ends the messages still waiting for an endpoint (removed): failed, with `reason`. */
export const failPendingOf = (db: DbOrTx, endpointId: number, reason: string) =>
  db
    .update(webhookMessages)
    .set({ status: 'failed', lastError: reason })
    .where(and(eq(webhookMessages.endpointId, endpointId), eq(webhookMessages.status, 'pending')));

/**
 * Events as messages to every endpoint of their organisation (not removed) that takes their type,
 * in one statement, in the caller's transaction, in the order given (so one subject's messages
 * keep their order). A disabled endpoint keeps its messages until it is enabled again. Answers how
 * many were written.
 */
export const insertEventMessages = async (
  db: DbOrTx,
  events: readonly { orgId: number; type: string; orderingKey: string; body: string }[],
): Promise<number> => {
  if (events.length === 0) return 0;
  const rows = await queryRows<{ id: string }>(
    db,
    sql`insert into webhook_messages (id, org_id, endpoint_id, event_type, ordering_key, body)
        select 'msg_' || substr(md5(random()::text || clock_timestamp()::text || e.id::text || ev.n::text), 1, 26),
               e.org_id, e.id, ev.v->>'type', ev.v->>'orderingKey', ev.v->>'body'
        from jsonb_array_elements(${JSON.stringify(events)}::jsonb) with ordinality as ev(v, n)
        join webhook_endpoints e
          on e.org_id = (ev.v->>'orgId')::int and e.deleted_at is null and (ev.v->>'type') = any(e.events)
        order by ev.n, e.id
        returning id`,
  );
  return rows.length;
};

/** A message claimed for an attempt, with its endpoint's address and secrets. */
export type TClaimedMessage = {
  id: string;
  org_id: number;
  endpoint_id: number;
  body: string;
  attempts: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | string | null;
};

/**
 * Claims up to `limit` messages due at `now` to enabled endpoints, each the earliest pending one
 * of its endpoint and ordering key (so one device's messages go in order), for `leaseMs` (another
 * process or run skips them meanwhile: FOR UPDATE SKIP LOCKED, and the lease moves
 * next_attempt_at on).
 */
export const claimDueMessages = (db: DbOrTx, options: { now: Date; leaseMs: number; limit: number }) =>
  queryRows<TClaimedMessage>(
    db,
    sql`with due as (
          select m.id from webhook_messages m
          join webhook_endpoints e on e.id = m.endpoint_id
          where m.status = 'pending' and m.next_attempt_at <= ${options.now.toISOString()}::timestamptz
            and e.status = 'enabled' and e.deleted_at is null
            and not exists (
              select 1 from webhook_messages p
              where p.endpoint_id = m.endpoint_id and p.ordering_key = m.ordering_key
                and p.status = 'pending' and p.seq < m.seq)
          order by m.seq
          limit ${options.limit}
          for update of m skip locked)
        update webhook_messages m
        set next_attempt_at = ${new Date(options.now.getTime() + options.leaseMs).toISOString()}::timestamptz
        from due, webhook_endpoints e
        where m.id = due.id and e.id = m.endpoint_id
        returning m.id, m.org_id, m.endpoint_id, m.body, m.attempts, e.url, e.secret, e.previous_secret,
                  e.previous_secret_expires_at`,
  );

/** Records an attempt's outcome on its message. */
export const finishAttempt = (
  db: DbOrTx,
  id: string,
  outcome: {
    status: 'pending' | 'delivered' | 'failed';
    attempts: number;
    nextAttemptAt: Date | null;
    lastStatusCode: number | null;
    lastError: string | null;
    deliveredAt: Date | null;
  },
) =>
  db
    .update(webhookMessages)
    .set({
      status: outcome.status,
      attempts: outcome.attempts,
      ...(outcome.nextAttemptAt ? { nextAttemptAt: outcome.nextAttemptAt } : {}),
      lastStatusCode: outcome.lastStatusCode,
      lastError: outcome.lastError,
      deliveredAt: outcome.deliveredAt,
    })
    .where(eq(webhookMessages.id, id));

/** The endpoint's newest `limit` messages. */
export const listMessages = (db: DbOrTx, endpointId: number, limit: number) =>
  db
    .select()
    .from(webhookMessages)
    .where(eq(webhookMessages.endpointId, endpointId))
    .orderBy(desc(webhookMessages.seq))
    .limit(limit);

/** The organisation's message `id`, or null (another organisation's too). */
export const findMessage = async (db: DbOrTx, orgId: number, id: string): Promise<TMessageRow | null> => {
  const [row] = await db
    .select()
    .from(webhookMessages)
    .where(and(eq(webhookMessages.orgId, orgId), eq(webhookMessages.id, id)))
    .limit(1);
  return row ?? null;
};

/** Makes a message due now again (resend): pending, attempts counted afresh. */
export const requeueMessage = async (db: DbOrTx, id: string, now: Date): Promise<TMessageRow> => {
  const [row] = await db
    .update(webhookMessages)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: now, lastError: null, deliveredAt: null })
    .where(eq(webhookMessages.id, id))
    .returning();
  return row!;
};

/** The organisation's admins (who are told when an endpoint is disabled). */
export const listAdminIds = async (db: DbOrTx, orgId: number): Promise<number[]> =>
  (
    await queryRows<{ id: number }>(
      db,
      sql`select id from users where org_id = ${orgId} and user_type = 'admin'`,
    )
  ).map((r) => r.id);

/** An instalment that fell overdue, claimed once for its `instalment.overdue` event. */
export type TOverdueInstalmentRow = {
  id: number;
  org_id: number;
  customer_id: number;
  instalment_no: number;
  due_date: string;
  amount_paise: number;
  paid_paise: number;
};

/**
 * Unpaid instalments due before `today` (+05:30) not yet told, of customers still paying (not
 * released, Apple-removed or completed), marked told in the same statement, oldest first, at most
 * `limit`; rows another process holds are skipped (FOR UPDATE SKIP LOCKED), so each is told once.
 */
export const claimNewlyOverdue = (db: DbOrTx, options: { today: string; now: Date; limit: number }) =>
  queryRows<TOverdueInstalmentRow>(
    db,
    sql`
      with due as (
        select e.id from emis e
        join customers c on c.id = e.customer_id
        where e.paid_paise < e.amount_paise
          and e.due_date < ${options.today}::date
          and e.overdue_told_at is null
          and c.status not in (3, 4, 5)
        order by e.due_date, e.id
        limit ${options.limit}
        for update of e skip locked
      )
      update emis e set overdue_told_at = ${options.now.toISOString()}::timestamptz
      from due where e.id = due.id
      returning e.id, e.org_id, e.customer_id, e.instalment_no, e.due_date::text as due_date,
        e.amount_paise::int as amount_paise, e.paid_paise::int as paid_paise`,
  );
