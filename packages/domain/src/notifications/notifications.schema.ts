import { z } from 'zod';
import { zPage } from '../common/envelope';
import { ZId } from '../common/identifiers';

/**
 * What an in-app notification is about (issue 16, spec §7 `/api/notifications`). Each kind has its
 * params (ZNotificationParams) and one wording per interface language on the web
 * (`notifications.kinds.<kind>`).
 */
export const NOTIFICATION_KINDS = [
  'sim_changed',
  'phone_offline',
  'lock_failed',
  'payment_received',
  'plan_expiring',
  'keys_low',
  'webhook_disabled',
] as const;
export const ZNotificationKind = z.enum(NOTIFICATION_KINDS);
export type TNotificationKind = z.infer<typeof ZNotificationKind>;

/** Kinds a customer user also receives about their own loan or plan; the rest go to the shop only. */
export const CUSTOMER_FACING_KINDS: readonly TNotificationKind[] = ['payment_received', 'plan_expiring'];

/**
 * The params of each kind (stored as notifications.params jsonb). Names are the customer's name
 * when the notification has one; amounts are integer paise; dates `YYYY-MM-DD` (+05:30 days).
 */
export const ZNotificationParams = {
  /** A phone reported other SIMs: the new operator(s) ('' when the slots are empty). */
  sim_changed: z.object({ customerName: z.string(), operator: z.string() }),
  /** An enrolled phone has not checked in for `days` days, last on `lastSeenAt` (ISO UTC). */
  phone_offline: z.object({ customerName: z.string(), days: z.number().int(), lastSeenAt: z.string() }),
  /** A lock command failed on the phone or expired undelivered; `reason` as the history says it. */
  lock_failed: z.object({ customerName: z.string(), reason: z.string() }),
  /** A payment was recorded: its amount (paise) and receipt number. */
  payment_received: z.object({
    customerName: z.string(),
    amountPaise: z.number().int(),
    receiptNo: z.string(),
  }),
  /** A protection plan ends on `endsOn` (YYYY-MM-DD). */
  plan_expiring: z.object({ customerName: z.string(), planName: z.string(), endsOn: z.string() }),
  /** The user holds `balance` keys of `appType`, at or under the organisation's threshold. */
  keys_low: z.object({ appType: z.number().int(), balance: z.number().int() }),
  /** A webhook endpoint (`url`) was disabled: a message to it failed for over a day (issue 30). */
  webhook_disabled: z.object({ url: z.string() }),
} satisfies Record<TNotificationKind, z.ZodType>;

/** The params of one kind. */
export type TNotificationParams<K extends TNotificationKind = TNotificationKind> = z.infer<
  (typeof ZNotificationParams)[K]
>;

/**
 * One notification as the list answers it: `params` as stored (see ZNotificationParams), the
 * customer it is about (null for keys_low) with their current name, times ISO UTC, `readAt` null
 * while unread.
 */
export const ZNotification = z.object({
  id: ZId,
  kind: ZNotificationKind,
  params: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
  customerId: ZId.nullable(),
  customerName: z.string().nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type TNotification = z.infer<typeof ZNotification>;

/** Rows per page of the notifications list. */
export const NOTIFICATIONS_PAGE_SIZE = 30;

/** GET /api/notifications ?page= (1…10,000) &unread= (true: only unread ones). */
export const ZNotificationsQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  unread: z.enum(['true', 'false']).optional(),
});
export type TNotificationsQuery = z.input<typeof ZNotificationsQuery>;

/** The actor's notifications, newest first, NOTIFICATIONS_PAGE_SIZE a page. */
export const ZNotificationPage = zPage(ZNotification);
export type TNotificationPage = z.infer<typeof ZNotificationPage>;

/** GET /api/notifications/unread_count → how many of the actor's notifications are unread. */
export const ZUnreadCount = z.object({ unread: z.number().int().min(0) });
export type TUnreadCount = z.infer<typeof ZUnreadCount>;

/**
 * POST /api/notifications/read: mark some of the actor's own notifications read (`ids`, 1…100) or
 * all of them (`all: true`); one of the two.
 */
export const ZMarkNotificationsReadRequest = z
  .object({
    ids: z.array(ZId).min(1).max(100).optional(),
    all: z.boolean().optional(),
  })
  .refine((body) => body.all === true || (body.ids !== undefined && body.ids.length > 0), {
    message: 'Give the ids to mark read, or all: true',
    path: ['ids'],
  });
export type TMarkNotificationsReadRequest = z.input<typeof ZMarkNotificationsReadRequest>;

/** What marking read answers: how many changed and how many are still unread. */
export const ZMarkNotificationsReadResponse = z.object({
  marked: z.number().int(),
  unread: z.number().int(),
});
export type TMarkNotificationsReadResponse = z.infer<typeof ZMarkNotificationsReadResponse>;
