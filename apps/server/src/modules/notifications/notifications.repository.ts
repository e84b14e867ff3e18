import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { queryRows } from '../../db/client';
import { customers, devices, notifications, organizations } from '../../db/schema';

/** Whom a notification is about: a customer of the organisation by id, or a party named outright. */
export type TNotifiedParty =
  | { customerId: number }
  | { customerId: number | null; retailerId: number; mobile: string | null; customerName: string };

/**
 * Notifies about a customer or a party in one statement (issue 26): one `kind` notification, with
 * `params` and the party's name as `customerName`, to the party's retailer, that retailer's parent
 * when a mini-retailer, and (`toCustomer`) the organisation's active customer user who logs in
 * with the party's mobile; a recipient who has `dedupeKey` already gets nothing (as
 * insertNotifications). Nothing for an unknown customer. Returns the ids written.
 */
export const insertPartyNotifications = async (
  db: DbOrTx,
  options: {
    orgId: number;
    party: TNotifiedParty;
    kind: string;
    params: Record<string, unknown>;
    dedupeKey: string | null;
    toCustomer: boolean;
  },
): Promise<number[]> => {
  const { party } = options;
  const source =
    'retailerId' in party
      ? sql`select ${options.orgId}::int as org_id, ${party.customerId}::int as customer_id,
               ${party.retailerId}::int as retailer_id, ${party.mobile}::text as mobile,
               ${party.customerName}::text as name`
      : sql`select c.org_id, c.id as customer_id, c.retailer_id, c.mobile,
               btrim(c.first_name || ' ' || c.last_name) as name
            from customers c where c.org_id = ${options.orgId} and c.id = ${party.customerId}`;
  const rows = await queryRows<{ id: number }>(
    db,
    sql`with party as (${source})
        insert into notifications (org_id, user_id, kind, params, customer_id, dedupe_key)
        select distinct p.org_id, r.user_id, ${options.kind},
               ${JSON.stringify(options.params)}::jsonb || jsonb_build_object('customerName', p.name),
               p.customer_id, ${options.dedupeKey}::text
        from party p
        join users shop on shop.id = p.retailer_id and shop.org_id = p.org_id
        cross join lateral (values
          (shop.id),
          (case when shop.user_type = 'miniretailer' then shop.parent_id end),
          (case when ${options.toCustomer}::boolean then
             (select u.id from users u where u.org_id = p.org_id and u.mobile = p.mobile
                and u.user_type = 'customer' and u.is_active limit 1) end)
        ) as r (user_id)
        where r.user_id is not null
        on conflict (user_id, dedupe_key) do nothing
        returning id`,
  );
  return rows.map((row) => row.id);
};

/** A notification row to write (notifications table). */
export type TNotificationInsert = typeof notifications.$inferInsert;

/**
 * Inserts notifications in the caller's transaction; a row whose (user_id, dedupe_key) exists
 * already is skipped (notifications_user_dedupe_uq). Returns the ids written.
 */
export const insertNotifications = async (db: DbOrTx, rows: TNotificationInsert[]): Promise<number[]> => {
  if (rows.length === 0) return [];
  const inserted = await db
    .insert(notifications)
    .values(rows)
    .onConflictDoNothing({ target: [notifications.userId, notifications.dedupeKey] })
    .returning({ id: notifications.id });
  return inserted.map((row) => row.id);
};

/** The customer a device belongs to (within the organisation), or null. */
export const findCustomerIdOfDevice = async (db: DbOrTx, deviceId: string): Promise<number | null> => {
  const [row] = await db
    .select({ customerId: devices.customerId })
    .from(devices)
    .where(eq(devices.id, deviceId))
    .limit(1);
  return row?.customerId ?? null;
};

/** The organisation's notification settings (organizations.settings), {} when absent. */
export const findOrgNotificationSettings = async (
  db: DbOrTx,
  orgId: number,
): Promise<{ lowKeysThreshold?: number; offlineNotifyDays?: number }> => {
  const [row] = await db
    .select({ settings: organizations.settings })
    .from(organizations)
    .where(eq(organizations.id, orgId))
    .limit(1);
  return row?.settings ?? {};
};

const ownUnread = (orgId: number, userId: number) =>
  and(eq(notifications.orgId, orgId), eq(notifications.userId, userId), isNull(notifications.readAt));

/**
 * One page of a user's notifications, newest first (notifications_user_created_idx), with the
 * customer's current name; `unreadOnly` leaves out read ones. Also the total matching.
 */
export const listNotifications = async (
  db: DbOrTx,
  options: { orgId: number; userId: number; unreadOnly: boolean; limit: number; offset: number },
) => {
  const where = options.unreadOnly
    ? ownUnread(options.orgId, options.userId)
    : and(eq(notifications.orgId, options.orgId), eq(notifications.userId, options.userId));
  const rows = await db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      params: notifications.params,
      customerId: notifications.customerId,
      firstName: customers.firstName,
      lastName: customers.lastName,
      createdAt: notifications.createdAt,
      readAt: notifications.readAt,
    })
    .from(notifications)
    .leftJoin(customers, eq(customers.id, notifications.customerId))
    .where(where)
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(options.limit)
    .offset(options.offset);
  const [total] = await db.select({ n: count() }).from(notifications).where(where);
  return { rows, total: total?.n ?? 0 };
};

/** How many of a user's notifications are unread (notifications_user_unread_idx). */
export const countUnread = async (db: DbOrTx, orgId: number, userId: number): Promise<number> => {
  const [row] = await db.select({ n: count() }).from(notifications).where(ownUnread(orgId, userId));
  return row?.n ?? 0;
};

/** Which of these ids are the user's own notifications. */
export const findOwnIds = async (db: DbOrTx, orgId: number, userId: number, ids: number[]) => {
  const rows = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(
      and(eq(notifications.orgId, orgId), eq(notifications.userId, userId), inArray(notifications.id, ids)),
    );
  return rows.map((row) => row.id);
};

/** Marks the user's unread notifications read (these ids, or all when ids is null); returns how many. */
export const markRead = async (
  db: DbOrTx,
  options: { orgId: number; userId: number; ids: number[] | null; at: Date },
): Promise<number> => {
  const rows = await db
    .update(notifications)
    .set({ readAt: options.at })
    .where(
      options.ids === null
        ? ownUnread(options.orgId, options.userId)
        : and(ownUnread(options.orgId, options.userId), inArray(notifications.id, options.ids)),
    )
    .returning({ id: notifications.id });
  return rows.length;
};

/** An enrolled phone of Kisht's device channel gone quiet, as the offline job takes it. */
export type TOfflinePhoneRow = {
  org_id: number;
  device_id: string;
  customer_id: number;
  last_seen_at: string | Date;
  days: number;
  dedupe_key: string;
};

/**
 * Enrolled MQTT phones offline (is_online false) and not seen for at least their organisation's
 * offlineNotifyDays (default `defaultDays`), of customers not uninstalled, removed or completed
 * (status 3, 4, 5), whose retailer has no notification of this offline spell yet (dedupe key
 * `offline:<deviceId>:<last seen +05:30 date>`). Rows are taken FOR UPDATE SKIP LOCKED, so two
 * server processes never take the same phone; at most `limit`.
 */
export const claimLongOfflinePhones = (
  db: DbOrTx,
  options: { now: Date; defaultDays: number; limit: number },
): Promise<TOfflinePhoneRow[]> =>
  queryRows<TOfflinePhoneRow>(
    db,
    sql`
      select d.id as device_id, d.org_id, d.customer_id, d.last_seen_at,
             coalesce((o.settings->>'offlineNotifyDays')::int, ${options.defaultDays}) as days,
             'offline:' || d.id::text || ':' ||
               to_char(d.last_seen_at + interval '5 hours 30 minutes', 'YYYY-MM-DD') as dedupe_key
      from devices d
      join customers c on c.id = d.customer_id
      join organizations o on o.id = d.org_id
      where d.channel = 'mqtt'
        and d.enrolled_at is not null
        and d.secret_hash is not null
        and d.is_online = false
        and d.last_seen_at is not null
        and c.status not in (3, 4, 5)
        and d.last_seen_at < ${options.now.toISOString()}::timestamptz
              - make_interval(days => coalesce((o.settings->>'offlineNotifyDays')::int, ${options.defaultDays}))
        and not exists (
          select 1 from notifications n
          where n.user_id = c.retailer_id
            and n.dedupe_key = 'offline:' || d.id::text || ':' ||
              to_char(d.last_seen_at + interval '5 hours 30 minutes', 'YYYY-MM-DD')
        )
      order by d.last_seen_at
      limit ${options.limit}
      for update of d skip locked`,
  );

/** A plan activation ending soon, as the plan-expiry job takes it. */
export type TExpiringPlanRow = {
  id: number;
  org_id: number;
  retailer_id: number;
  customer_id: number | null;
  first_name: string;
  last_name: string;
  mobile: string;
  ends_on: string;
  plan_name: string;
};

/**
 * Plan activations whose term ends between `from` and `to` (+05:30 dates, inclusive) and whose
 * seller has no `plan_expiring:<id>` notification yet; taken FOR UPDATE SKIP LOCKED, at most `limit`.
 */
export const claimExpiringPlans = (
  db: DbOrTx,
  options: { from: string; to: string; limit: number },
): Promise<TExpiringPlanRow[]> =>
  queryRows<TExpiringPlanRow>(
    db,
    sql`
      select pa.id, pa.org_id, pa.retailer_id, pa.customer_id, pa.first_name, pa.last_name, pa.mobile,
             pa.ends_on::text as ends_on, p.name as plan_name
      from plan_activations pa
      join plans p on p.id = pa.plan_id
      where pa.ends_on between ${options.from}::date and ${options.to}::date
        and not exists (
          select 1 from notifications n
          where n.user_id = pa.retailer_id and n.dedupe_key = 'plan_expiring:' || pa.id::text
        )
      order by pa.ends_on, pa.id
      limit ${options.limit}
      for update of pa skip locked`,
  );
