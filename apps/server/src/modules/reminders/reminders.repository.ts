import { REMINDED_STATUSES, type TReminderChannel } from '@kisht/domain/reminders/reminders.rules';
import type { TReminderState } from '@kisht/domain/reminders/reminders.schema';
import { and, desc, eq, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { customers, emis, reminders } from '../../db/schema';

/** The scheduled reminders of `orgId` due on `today`, as rows to insert (once each: ON CONFLICT). */
export const insertDueReminders = async (
  db: DbOrTx,
  options: {
    orgId: number;
    today: string;
    offsetsDays: readonly number[];
    channels: readonly TReminderChannel[];
    sendAfter: Date;
  },
): Promise<number> => {
  if (options.offsetsDays.length === 0 || options.channels.length === 0) return 0;
  const offsets = sql.join(
    options.offsetsDays.map((offset) => sql`(${offset}::int)`),
    sql`, `,
  );
  const channels = sql.join(
    options.channels.map((channel) => sql`(${channel}::text)`),
    sql`, `,
  );
  const statuses = sql.join(
    REMINDED_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  );
  const rows = await queryRows<{ id: number }>(
    db,
    sql`insert into reminders (org_id, customer_id, emi_id, offset_days, channel, send_after)
      select e.org_id, e.customer_id, e.id, o.offset_days, ch.channel, ${options.sendAfter.toISOString()}::timestamptz
      from (values ${offsets}) as o(offset_days)
      join emis e on e.org_id = ${options.orgId} and e.due_date = ${options.today}::date - o.offset_days
      join customers c on c.id = e.customer_id
      cross join (values ${channels}) as ch(channel)
      where e.paid_paise < e.amount_paise and c.status in (${statuses})
        and not (ch.channel = 'whatsapp' and c.whatsapp_opt_out)
      on conflict (emi_id, offset_days, channel) do nothing
      returning id`,
  );
  return rows.length;
};

/** What sending one reminder needs: the row, its instalment, the customer and the organisation. */
export type TClaimedReminder = {
  id: number;
  orgId: number;
  customerId: number;
  channel: TReminderChannel;
  offsetDays: number;
  emiId: number;
  dueDate: string;
  amountPaise: number;
  paidPaise: number;
  firstName: string;
  mobile: string;
  status: number;
  whatsappOptOut: boolean;
  companyName: string;
  /** The language the customer consented in (the spec's code), or null. */
  language: string | null;
  /** Tries so far, this one included. */
  attempts: number;
};

/**
 * Takes up to `limit` queued reminders whose time has come (FOR UPDATE SKIP LOCKED, so several
 * processes share the work) and leases them for `leaseMs` (send_after moves on, attempts + 1), so
 * a crash mid-send leaves them to a later run; answers them with what sending needs. One statement.
 */
export const claimDueReminders = async (
  db: DbOrTx,
  options: { now: Date; leaseMs: number; limit: number },
): Promise<TClaimedReminder[]> => {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`with due as (
        select id from reminders
        where state = 'queued' and send_after <= ${options.now.toISOString()}::timestamptz
        order by send_after, id
        limit ${options.limit}
        for update skip locked),
      leased as (
        update reminders r set attempts = r.attempts + 1,
          send_after = ${new Date(options.now.getTime() + options.leaseMs).toISOString()}::timestamptz
        from due where r.id = due.id
        returning r.*)
      select l.id, l.org_id, l.customer_id, l.channel, l.attempts, l.offset_days, l.emi_id, e.due_date::text as due_date,
        e.amount_paise::text as amount_paise, e.paid_paise::text as paid_paise, c.first_name, c.mobile,
        c.status, c.whatsapp_opt_out, o.company_name,
        (select cc.language from customer_consents cc where cc.customer_id = c.id) as language
      from leased l join emis e on e.id = l.emi_id join customers c on c.id = l.customer_id
      join organizations o on o.id = l.org_id`,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    orgId: Number(row.org_id),
    customerId: Number(row.customer_id),
    channel: row.channel as TReminderChannel,
    offsetDays: Number(row.offset_days),
    emiId: Number(row.emi_id),
    dueDate: String(row.due_date),
    amountPaise: Number(row.amount_paise),
    paidPaise: Number(row.paid_paise),
    firstName: String(row.first_name),
    mobile: String(row.mobile),
    status: Number(row.status),
    whatsappOptOut: Boolean(row.whatsapp_opt_out),
    companyName: String(row.company_name),
    language: row.language === null ? null : String(row.language),
    attempts: Number(row.attempts),
  }));
};

/** Records how a claimed reminder ended this try: sent (with the channel's reference), failed, cancelled, or queued again. */
export const finishReminder = async (
  db: DbOrTx,
  id: number,
  outcome:
    | { state: 'sent'; providerRef: string; at: Date }
    | { state: 'failed' | 'cancelled'; error: string }
    | { state: 'queued'; error: string; retryAt: Date },
) => {
  if (outcome.state === 'sent') {
    await db
      .update(reminders)
      .set({ state: 'sent', providerRef: outcome.providerRef, sentAt: outcome.at, lastError: null })
      .where(eq(reminders.id, id));
  } else if (outcome.state === 'queued') {
    await db
      .update(reminders)
      .set({ lastError: outcome.error, sendAfter: outcome.retryAt })
      .where(eq(reminders.id, id));
  } else {
    await db
      .update(reminders)
      .set({ state: outcome.state, lastError: outcome.error })
      .where(eq(reminders.id, id));
  }
};

/** The order of delivery states: a later report never moves a reminder back (read, then a late "delivered"). */
const STATE_RANK: Record<TReminderState, number> = {
  queued: 0,
  sent: 1,
  delivered: 2,
  read: 3,
  failed: 4,
  cancelled: 4,
};

/**
 * Applies a channel's delivery report to the reminder it sent (by `providerRef`): delivered, read
 * or failed, each with its time; an older report than the state it is in changes nothing.
 * Answers whether a reminder changed.
 */
export const applyDeliveryReport = async (
  db: DbOrTx,
  report: {
    providerRef: string;
    state: 'sent' | 'delivered' | 'read' | 'failed';
    at: Date;
    error: string | null;
  },
): Promise<boolean> => {
  const [row] = await db
    .select({ id: reminders.id, state: reminders.state })
    .from(reminders)
    .where(eq(reminders.providerRef, report.providerRef))
    .limit(1);
  if (!row || STATE_RANK[report.state] <= STATE_RANK[row.state]) return false;
  const times =
    report.state === 'delivered'
      ? { deliveredAt: report.at }
      : report.state === 'read'
        ? { readAt: report.at }
        : {};
  await db
    .update(reminders)
    .set({ state: report.state, ...times, ...(report.error ? { lastError: report.error } : {}) })
    .where(eq(reminders.id, row.id));
  return true;
};

/** A customer's reminders, newest first (at most `limit`), with their instalment's number and due date. */
export const listRemindersOfCustomer = (db: DbOrTx, customerId: number, limit: number) =>
  db
    .select({ reminder: reminders, instalmentNo: emis.instalmentNo, dueDate: emis.dueDate })
    .from(reminders)
    .innerJoin(emis, eq(emis.id, reminders.emiId))
    .where(eq(reminders.customerId, customerId))
    .orderBy(desc(reminders.createdAt), desc(reminders.id))
    .limit(limit);

/** Sets the customer's WhatsApp choice; their WhatsApp reminders still waiting are cancelled when they refuse. */
export const setWhatsAppOptOut = async (db: DbOrTx, customerId: number, optOut: boolean) => {
  await db.update(customers).set({ whatsappOptOut: optOut }).where(eq(customers.id, customerId));
  if (optOut) {
    await db
      .update(reminders)
      .set({ state: 'cancelled', lastError: 'The customer refused WhatsApp' })
      .where(
        and(
          eq(reminders.customerId, customerId),
          eq(reminders.channel, 'whatsapp'),
          eq(reminders.state, 'queued'),
        ),
      );
  }
};
