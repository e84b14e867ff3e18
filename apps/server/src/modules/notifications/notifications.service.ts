import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { addDays, istDate } from '@kisht/domain/common/time';
import {
  CUSTOMER_FACING_KINDS,
  NOTIFICATIONS_PAGE_SIZE,
  type TMarkNotificationsReadResponse,
  type TNotification,
  type TNotificationKind,
  type TNotificationPage,
  type TNotificationParams,
  type TUnreadCount,
  ZNotificationKind,
} from '@kisht/domain/notifications/notifications.schema';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import * as repo from './notifications.repository';

/** Keys of an app_type at or under which a "keys running low" notification goes out, unless the organisation sets lowKeysThreshold. */
export const DEFAULT_LOW_KEYS_THRESHOLD = 5;
/** Days without a check-in after which a phone is reported offline, unless the organisation sets offlineNotifyDays. */
export const DEFAULT_OFFLINE_NOTIFY_DAYS = 3;
/** Days before a plan's last day that its "plan expiring" notification goes out. */
export const PLAN_EXPIRING_DAYS = 7;
/** Most rows one run of a notification job takes. */
const JOB_BATCH = 500;

/**
 * Writes one notification of `kind` to each user of `userIds` (duplicates ignored), in the
 * caller's transaction, so it commits or rolls back with the event it tells of. A user who already
 * has `dedupeKey` gets nothing new (insert … on conflict (user_id, dedupe_key) do nothing); a null
 * dedupeKey never deduplicates. Returns the ids written.
 */
export const notify = <K extends TNotificationKind>(
  tx: DbOrTx,
  options: {
    orgId: number;
    userIds: number[];
    kind: K;
    params: TNotificationParams<K>;
    customerId: number | null;
    dedupeKey: string | null;
  },
): Promise<number[]> =>
  repo.insertNotifications(
    tx,
    [...new Set(options.userIds)].map((userId) => ({
      orgId: options.orgId,
      userId,
      kind: options.kind,
      params: options.params,
      customerId: options.customerId,
      dedupeKey: options.dedupeKey,
    })),
  );

/**
 * Notifies about a customer of the organisation: the customer's retailer, its parent when a
 * mini-retailer, and for customer-facing kinds (payment_received, plan_expiring) the customer user
 * who logs in with the customer's mobile; the customer's first and last name are added to params
 * as `customerName`. One statement (repository insertPartyNotifications), in the caller's
 * transaction. Nothing is written for an unknown customer. Returns the ids written.
 */
export const notifyAboutCustomer = async <K extends Exclude<TNotificationKind, 'keys_low'>>(
  tx: DbOrTx,
  options: {
    orgId: number;
    customerId: number;
    kind: K;
    params: Omit<TNotificationParams<K>, 'customerName'>;
    dedupeKey: string | null;
  },
): Promise<number[]> =>
  repo.insertPartyNotifications(tx, {
    orgId: options.orgId,
    party: { customerId: options.customerId },
    kind: options.kind,
    params: options.params as Record<string, unknown>,
    dedupeKey: options.dedupeKey,
    toCustomer: CUSTOMER_FACING_KINDS.includes(options.kind),
  });

/**
 * A lock (command `lock`, `lost_mode_on`, `antitheft_lost_mode_on`) failed on the phone or expired
 * undelivered: `lock_failed` to the phone's retailer(s), once per command. In the caller's
 * transaction (or straight on the database when there is none).
 */
export const notifyLockFailed = async (
  db: DbOrTx,
  options: { orgId: number; deviceId: string; commandId: string; reason: string },
): Promise<void> => {
  const customerId = await repo.findCustomerIdOfDevice(db, options.deviceId);
  if (customerId === null) return;
  await notifyAboutCustomer(db, {
    orgId: options.orgId,
    customerId,
    kind: 'lock_failed',
    params: { reason: options.reason },
    dedupeKey: `lock_failed:${options.commandId}`,
  });
};

/**
 * The organisation's low-keys threshold (settings.lowKeysThreshold, default 5): from the request's
 * organisation row when known, else read.
 */
export const lowKeysThresholdOf = async (
  db: DbOrTx,
  orgId: number,
  known?: { settings: unknown } | undefined,
): Promise<number> => {
  const settings = known
    ? ((known.settings ?? {}) as { lowKeysThreshold?: number })
    : await repo.findOrgNotificationSettings(db, orgId);
  return settings.lowKeysThreshold ?? DEFAULT_LOW_KEYS_THRESHOLD;
};

/**
 * After a key of `appType` left user `userId`'s account (reserved or spent), in that transaction:
 * when `balance` (what is left) is at or under the organisation's lowKeysThreshold (default 5),
 * `keys_low` to that user, at most once per app_type and +05:30 day.
 */
export const notifyIfKeysLow = async (
  tx: DbOrTx,
  options: { orgId: number; userId: number; appType: number; balance: number; now?: Date },
): Promise<void> => {
  if (options.balance > (await lowKeysThresholdOf(tx, options.orgId))) return;
  await notify(tx, {
    orgId: options.orgId,
    userIds: [options.userId],
    kind: 'keys_low',
    params: { appType: options.appType, balance: options.balance },
    customerId: null,
    dedupeKey: `keys_low:${options.appType}:${istDate(options.now ?? new Date())}`,
  });
};

/** A phone the phone-offline job found long offline (notifyLongOfflinePhones). */
export type TLongOfflinePhone = {
  orgId: number;
  customerId: number;
  deviceId: string;
  /** The organisation's offlineNotifyDays it has been offline past. */
  days: number;
  /** When the server last heard from it, UTC. */
  lastSeenAt: Date;
};

/**
 * The phone-offline job's work: enrolled phones of Kisht's device channel not seen for their
 * organisation's offlineNotifyDays (default 3) get `phone_offline` to their retailer(s), once per
 * offline spell (dedupe `offline:<deviceId>:<last seen +05:30 date>`). Rows are claimed FOR UPDATE
 * SKIP LOCKED in one transaction, so several server processes may run it. `alsoTell` gets the
 * phones in that transaction, once per spell too (the lender's device.offline webhook, which this
 * module cannot import). Returns how many phones.
 */
export const notifyLongOfflinePhones = (
  db: Db,
  now: Date = new Date(),
  alsoTell?: (tx: DbOrTx, phones: TLongOfflinePhone[]) => Promise<unknown>,
): Promise<number> =>
  db.transaction(async (tx) => {
    const phones = await repo.claimLongOfflinePhones(tx, {
      now,
      defaultDays: DEFAULT_OFFLINE_NOTIFY_DAYS,
      limit: JOB_BATCH,
    });
    for (const phone of phones) {
      await notifyAboutCustomer(tx, {
        orgId: phone.org_id,
        customerId: phone.customer_id,
        kind: 'phone_offline',
        params: { days: Number(phone.days), lastSeenAt: new Date(phone.last_seen_at).toISOString() },
        dedupeKey: phone.dedupe_key,
      });
    }
    if (alsoTell && phones.length > 0) {
      await alsoTell(
        tx,
        phones.map((phone) => ({
          orgId: phone.org_id,
          customerId: phone.customer_id,
          deviceId: phone.device_id,
          days: Number(phone.days),
          lastSeenAt: new Date(phone.last_seen_at),
        })),
      );
    }
    return phones.length;
  });

/**
 * The plan-expiry job's work: plan activations whose last day is within PLAN_EXPIRING_DAYS (+05:30)
 * get `plan_expiring` to the seller, its parent when a mini-retailer, and the buyer's customer user
 * (by the activation's mobile), once per activation (dedupe `plan_expiring:<id>`). Rows claimed
 * FOR UPDATE SKIP LOCKED. Returns how many activations.
 */
export const notifyExpiringPlans = (db: Db, now: Date = new Date()): Promise<number> =>
  db.transaction(async (tx) => {
    const today = istDate(now);
    const plans = await repo.claimExpiringPlans(tx, {
      from: today,
      to: addDays(today, PLAN_EXPIRING_DAYS),
      limit: JOB_BATCH,
    });
    for (const plan of plans) {
      await repo.insertPartyNotifications(tx, {
        orgId: plan.org_id,
        party: {
          customerId: plan.customer_id,
          retailerId: plan.retailer_id,
          mobile: plan.mobile,
          customerName: `${plan.first_name} ${plan.last_name}`.trim(),
        },
        kind: 'plan_expiring',
        params: { planName: plan.plan_name, endsOn: plan.ends_on },
        dedupeKey: `plan_expiring:${plan.id}`,
        toCustomer: true,
      });
    }
    return plans.length;
  });

// ---------------------------------------------------------------------------------------------
// The actor's own notifications (routes).
// ---------------------------------------------------------------------------------------------

const toNotification = (
  row: Awaited<ReturnType<typeof repo.listNotifications>>['rows'][number],
): TNotification => ({
  id: row.id,
  kind: ZNotificationKind.parse(row.kind),
  params: row.params,
  customerId: row.customerId,
  customerName: row.firstName === null ? null : `${row.firstName} ${row.lastName ?? ''}`.trim(),
  createdAt: row.createdAt.toISOString(),
  readAt: row.readAt?.toISOString() ?? null,
});

/**
 * GET /api/notifications: the actor's own notifications, newest first, NOTIFICATIONS_PAGE_SIZE a
 * page (`page` from 1), only unread ones when `unread` is 'true'. Never another user's.
 */
export const listMyNotifications = async (
  db: DbOrTx,
  actor: TActor,
  query: { page: number; unread?: 'true' | 'false' | undefined },
): Promise<TNotificationPage> => {
  const { rows, total } = await repo.listNotifications(db, {
    orgId: actor.orgId,
    userId: actor.userId,
    unreadOnly: query.unread === 'true',
    limit: NOTIFICATIONS_PAGE_SIZE,
    offset: (query.page - 1) * NOTIFICATIONS_PAGE_SIZE,
  });
  return { items: rows.map(toNotification), total, page: query.page, pageSize: NOTIFICATIONS_PAGE_SIZE };
};

/** GET /api/notifications/unread_count: how many of the actor's own notifications are unread. */
export const countMyUnread = async (db: DbOrTx, actor: TActor): Promise<TUnreadCount> => ({
  unread: await repo.countUnread(db, actor.orgId, actor.userId),
});

/**
 * POST /api/notifications/read: marks the actor's own notifications read, `ids` or `all`, and
 * answers how many changed and how many stay unread. An id that is not the actor's own (another
 * user's, another organisation's, or none) throws NOT_FOUND naming `ids`, and nothing is marked.
 * Already-read ones are left as they were.
 */
export const markMyNotificationsRead = async (
  db: Db,
  actor: TActor,
  request: { ids?: number[] | undefined; all?: boolean | undefined },
): Promise<TMarkNotificationsReadResponse> =>
  db.transaction(async (tx) => {
    let ids: number[] | null = null;
    if (request.all !== true) {
      ids = [...new Set(request.ids ?? [])];
      const own = new Set(await repo.findOwnIds(tx, actor.orgId, actor.userId, ids));
      const missing = ids.filter((id) => !own.has(id));
      if (missing.length > 0) {
        throw new AppError(AppErrorCode.NOT_FOUND, 'Notification not found', [
          { field: 'ids', message: `No such notification of yours: ${missing.join(', ')}` },
        ]);
      }
    }
    const marked = await repo.markRead(tx, { orgId: actor.orgId, userId: actor.userId, ids, at: new Date() });
    return { marked, unread: await repo.countUnread(tx, actor.orgId, actor.userId) };
  });
