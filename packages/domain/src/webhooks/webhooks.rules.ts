/**
 * Outbound webhooks (issue 30, design §6): what Kisht tells a lender's system, and how it keeps
 * trying. Messages follow the Standard Webhooks specification
 * (https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md):
 * headers `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature`
 * (`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` under the endpoint's `whsec_` secret,
 * space-separated while a rotated secret is still honoured).
 */

/** The events an endpoint may subscribe to. A lock or unlock is sent when the phone applied it. */
export const WEBHOOK_EVENT_TYPES = [
  'device.enrolled',
  'device.locked',
  'device.unlocked',
  'device.offline',
  'sim.changed',
  'payment.recorded',
  'instalment.overdue',
  'loan.completed',
  'device.released',
] as const;
export type TWebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * The delays before each retry of a message that was not answered 2xx, ms: 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h and 10 h, the schedule the Standard Webhooks specification gives as its example
 * (its "Retry Schedule"), so a message is tried for a little over 27 hours (at least the 24 h the
 * issue asks) before it is marked failed.
 */
export const WEBHOOK_RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
] as const;

/** The most attempts a message gets: the first and one per retry delay. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;

/**
 * When the next attempt of a message is due after its `attempts`-th attempt failed at `failedAt`,
 * or null when that was the last (the message is then failed and its endpoint disabled).
 */
export const nextWebhookAttemptAt = (attempts: number, failedAt: Date): Date | null => {
  const delay = WEBHOOK_RETRY_DELAYS_MS[attempts - 1];
  return delay === undefined ? null : new Date(failedAt.getTime() + delay);
};

/** How long a message's attempt waits for the receiver's answer, ms (the specification's 15 s at most). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** How long, after a rotation, messages are also signed with the previous secret, ms (24 h). */
export const WEBHOOK_PREVIOUS_SECRET_TTL_MS = 24 * 3_600_000;

/**
 * An endpoint is disabled (and the organisation's admin notified) when a message to it failed
 * every attempt: its receiver has not answered 2xx for over a day. Enabling it again sends what
 * waits for it.
 */
export const WEBHOOK_DISABLE_RULE = {
  afterMessagesFailed: 1,
  source:
    'Kisht: one message failed through the whole retry schedule (over 24 h of failures) disables its endpoint',
} as const;
