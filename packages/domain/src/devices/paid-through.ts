import { addDays, IST_OFFSET } from '../common/time';
import { isPaymentLockAllowed, statusRefusalOf } from './command-rules';

/*
 * The paid-through date (issue 29, device protocol §12.5): the moment up to which a loan is paid,
 * with the organisation's grace days, carried by every policy version, so a phone that stays
 * offline locks itself when it passes and a paid-up phone (no date) never does. Both halves live
 * here: what the server puts in the policy (paidThroughFor) and when the phone acts on the version
 * it holds (paidThroughLockAt, paidThroughCountdown). Pure; no I/O.
 */

/** Grace days of an organisation that set none: the paid-through lock is on by default (issue 29). */
export const DEFAULT_PAID_THROUGH_GRACE_DAYS = 3;

/** The most grace days an organisation may give (device_settings). */
export const MAX_PAID_THROUGH_GRACE_DAYS = 90;

/** How long before the phone would lock itself it shows a countdown (device protocol §12.5), ms. */
export const PAID_THROUGH_COUNTDOWN_MS = 3 * 86_400_000;

/**
 * The organisation's grace days from its settings: the number it set, null when it turned the
 * paid-through lock off, DEFAULT_PAID_THROUGH_GRACE_DAYS when it never set one.
 */
export const paidThroughGraceDaysOf = (settings: { paidThroughGraceDays?: number | null | undefined }) =>
  settings.paidThroughGraceDays === undefined
    ? DEFAULT_PAID_THROUGH_GRACE_DAYS
    : settings.paidThroughGraceDays;

/**
 * The paid-through date a customer's policy carries (device protocol §12.5), a UTC instant: the
 * start (+05:30) of the day after the oldest unpaid instalment's due date plus `graceDays`, e.g.
 * due 10-12-2026 with 3 grace days → 14-12-2026 00:00 +05:30 = 2026-12-13T18:30:00.000Z. Null (no
 * date: the phone never locks itself for it) when nothing is unpaid, the lock is off (`graceDays`
 * null), the family may not be locked for a payment (managed Android, Google policy), or the
 * customer's status takes no restriction (EMIs completed, released; command-rules STATUS_RULES).
 * `oldestUnpaidDueDate` is a calendar date YYYY-MM-DD.
 */
export const paidThroughFor = (facts: {
  status: number;
  deviceType: number;
  oldestUnpaidDueDate: string | null;
  graceDays: number | null;
}): Date | null => {
  if (facts.oldestUnpaidDueDate === null || facts.graceDays === null) return null;
  if (!isPaymentLockAllowed(facts.deviceType)) return null;
  if (statusRefusalOf(facts.status, 'paid_through_set')) return null;
  const lockDay = addDays(facts.oldestUnpaidDueDate, facts.graceDays + 1);
  return new Date(`${lockDay}T00:00:00${IST_OFFSET}`);
};

/**
 * When the phone locks itself for the paid-through date of the policy version it holds (device
 * protocol §12.5), ms since the epoch on the server's clock, or null when this version never
 * locks it: no date; a version issued at or after its own date (the server left the phone
 * unlocked past it on purpose, e.g. a retailer's unlock); or something the phone did offline at or
 * after the date (`offlineEventsAtMs`: an accepted offline code, or this self-lock itself), which
 * settles the date until a newer version. Unreadable instants count as no date.
 */
export const paidThroughLockAt = (
  held: { paidThrough?: string | null | undefined; issuedAt: string },
  offlineEventsAtMs: readonly number[] = [],
): number | null => {
  if (!held.paidThrough) return null;
  const lockAt = Date.parse(held.paidThrough);
  const issuedAt = Date.parse(held.issuedAt);
  if (Number.isNaN(lockAt) || Number.isNaN(issuedAt) || issuedAt >= lockAt) return null;
  if (offlineEventsAtMs.some((at) => at >= lockAt)) return null;
  return lockAt;
};

/**
 * What the phone's countdown shows (device protocol §12.5): the ms left before it locks itself
 * when that is within PAID_THROUGH_COUNTDOWN_MS of `nowMs` and still ahead, else null.
 */
export const paidThroughCountdown = (lockAtMs: number | null, nowMs: number): { msLeft: number } | null => {
  if (lockAtMs === null) return null;
  const msLeft = lockAtMs - nowMs;
  return msLeft > 0 && msLeft <= PAID_THROUGH_COUNTDOWN_MS ? { msLeft } : null;
};
