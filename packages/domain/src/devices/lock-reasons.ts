import { formatRupees } from '../common/format';

/**
 * Why a phone is restricted (issue 25, design §5): a category chosen from this list, never free
 * text matched by a pattern. `overdue_emi` is the one payment category; the others are not about
 * money. A restriction of a customer with nothing overdue needs a category that is not a payment;
 * the managed-Android family (Google's permissible-usage rule) never takes a payment category.
 */
export const LOCK_REASON_CATEGORIES = [
  'overdue_emi',
  'customer_request',
  'fraud_or_theft',
  'device_misuse',
  'other',
] as const;
export type TLockReasonCategory = (typeof LOCK_REASON_CATEGORIES)[number];

/** What each category means to the rules: whether it is a payment, and whether it needs a note. */
export type TLockReasonRule = {
  /** A restriction for money owed: refused with nothing overdue and on managed Android. */
  isPayment: boolean;
  /** The category says too little by itself: the person must write a note (LOCK_REASON_MIN+). */
  needsNote: boolean;
};

/** The rules of every category (see TLockReasonRule), as data. */
export const LOCK_REASON_RULES: Readonly<Record<TLockReasonCategory, TLockReasonRule>> = {
  overdue_emi: { isPayment: true, needsNote: false },
  customer_request: { isPayment: false, needsNote: false },
  fraud_or_theft: { isPayment: false, needsNote: false },
  device_misuse: { isPayment: false, needsNote: false },
  other: { isPayment: false, needsNote: true },
};

/** True when `category` is a payment reason (overdue EMI). */
export const isPaymentReason = (category: TLockReasonCategory): boolean =>
  LOCK_REASON_RULES[category].isPayment;

/** Fewest characters of a lock reason's note (after trimming), when one is written. */
export const LOCK_REASON_MIN = 5;
/** Most characters of a lock reason's note. */
export const LOCK_REASON_MAX = 300;

/**
 * Why a phone is restricted, as stored with the command and its audit entry: the category and the
 * person's note (trimmed; null when none was written).
 */
export type TLockReason = { category: TLockReasonCategory; note: string | null };

/**
 * The first line of a locked phone's screen, by reason category (device protocol §9.2): the
 * customer reads why the phone is locked. English; the phone shows it as sent.
 */
export const LOCK_SCREEN_HEADLINES: Readonly<Record<TLockReasonCategory, string>> = {
  overdue_emi: 'This phone is locked because an EMI is overdue.',
  customer_request: 'This phone is locked at your request.',
  fraud_or_theft: 'This phone is locked: it was reported stolen or is under a fraud check.',
  device_misuse: 'This phone is locked because the device was misused.',
  other: 'This phone is locked by your retailer.',
};

/** The headline of a lock screen that names no category (an older server's policy). */
export const LOCK_SCREEN_HEADLINE_UNKNOWN = 'This phone is locked by your retailer.';

/**
 * The lines a locked phone shows (device protocol §9.2), from its policy's lock screen: why (the
 * category's headline), whom to call, and only when something is overdue how much and how to pay;
 * always that emergency calls work. `extra` lines (the offline challenge) go before the last line.
 */
export const lockScreenLines = (
  screen: {
    reason?: TLockReasonCategory | undefined;
    retailerName: string | null;
    retailerPhone: string | null;
    overduePaise: number | null;
    howToPay: string | null;
  },
  extra: readonly string[] = [],
): string[] => {
  const isOwing = (screen.overduePaise ?? 0) > 0;
  return [
    screen.reason ? LOCK_SCREEN_HEADLINES[screen.reason] : LOCK_SCREEN_HEADLINE_UNKNOWN,
    screen.retailerName
      ? `Call ${screen.retailerName}${screen.retailerPhone ? ` on ${screen.retailerPhone}` : ''}.`
      : null,
    isOwing ? `Overdue: ${formatRupees(screen.overduePaise!)}` : null,
    isOwing && screen.howToPay ? `How to pay: ${oneLine(screen.howToPay)}` : null,
    ...extra,
    'Emergency calls: allowed',
  ].filter((line): line is string => line !== null);
};

/** The text a lost mode shows (Apple's EnableLostMode Message, the agent's lost-mode screen), from its reason. */
export const lostModeMessage = (
  category: TLockReasonCategory | null,
  retailer: { name: string; phone: string } | null,
): string =>
  [
    category ? LOCK_SCREEN_HEADLINES[category] : LOCK_SCREEN_HEADLINE_UNKNOWN,
    retailer ? `Call ${retailer.name} on ${retailer.phone}.` : null,
  ]
    .filter(Boolean)
    .join(' ')
    .slice(0, 160);

/** A multi-line text on one line, its lines joined with " / ". */
export const oneLine = (text: string): string =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' / ');
