import { addDays, IST_OFFSET_MINUTES, istDate } from '../common/time';

/**
 * UPI AutoPay (recurring mandate) rules, issue 29: pure, no I/O. Money is integer paise, instants
 * UTC, calendar dates `YYYY-MM-DD` on the +05:30 clock. Sources are cited in docs/autopay.md.
 */

/**
 * Where a mandate stands. `created`: the authorisation (QR / intent) was sent, the customer has not
 * approved it yet; `active`: the gateway confirmed the token (Razorpay `token.confirmed`);
 * `paused`: the customer paused it in their UPI app (`token.paused`); `cancelled`: revoked by the
 * customer in their app (`token.cancelled`) or by Kisht; `rejected`: the registration failed
 * (`token.rejected`); `expired`: past its expire_at.
 */
export const MANDATE_STATES = ['created', 'active', 'paused', 'cancelled', 'rejected', 'expired'] as const;
export type TMandateState = (typeof MANDATE_STATES)[number];

/** What moves a mandate: the gateway's token events, and a cancellation through Kisht. */
export const MANDATE_EVENTS = ['confirmed', 'rejected', 'paused', 'resumed', 'cancelled', 'expired'] as const;
export type TMandateEvent = (typeof MANDATE_EVENTS)[number];

/** The states a mandate leaves no more. */
export const FINAL_MANDATE_STATES: readonly TMandateState[] = ['cancelled', 'rejected', 'expired'];

/**
 * The mandate transition table: from a state, an event leads to the state given; an event not
 * listed is illegal from that state (mandateTransition answers null).
 */
export const MANDATE_TRANSITIONS: Readonly<
  Record<TMandateState, Partial<Record<TMandateEvent, TMandateState>>>
> = {
  created: { confirmed: 'active', rejected: 'rejected', cancelled: 'cancelled', expired: 'expired' },
  active: { paused: 'paused', cancelled: 'cancelled', expired: 'expired', confirmed: 'active' },
  paused: { resumed: 'active', confirmed: 'active', cancelled: 'cancelled', expired: 'expired' },
  cancelled: {},
  rejected: {},
  expired: {},
};

/** The state `event` moves a mandate in `from` to, or null when the table has no such move. */
export const mandateTransition = (from: TMandateState, event: TMandateEvent): TMandateState | null =>
  MANDATE_TRANSITIONS[from][event] ?? null;

/** Whether a mandate in this state is still to be shown as the customer's mandate (not final). */
export const isLiveMandate = (state: TMandateState): boolean => !FINAL_MANDATE_STATES.includes(state);

/**
 * The mandate's frequency at the gateway. Razorpay's UPI recurring payments take `as_presented`
 * or `monthly`; `as_presented` lets a schedule with any due dates (weekly plans, a moved date) be
 * charged. Source: Razorpay "Create an Authorisation Transaction" (UPI), supported frequency.
 */
export const AUTOPAY_FREQUENCY = 'as_presented' as const;

/** The smallest amount the gateway charges, paise (₹1; Razorpay orders take amount ≥ 100). */
export const MIN_CHARGE_PAISE = 100;

/**
 * The largest mandate a customer can approve without authenticating each debit, paise. NPCI lets
 * a UPI AutoPay debit up to ₹15,000 go without an additional factor (₹1,00,000 for loan repayment
 * and other listed categories); Razorpay's subsequent-payments page repeats it. Kisht caps the
 * mandate at ₹1,00,000 (device loans are loan repayments).
 */
export const MAX_MANDATE_PAISE = 10_000_000;

/** How long a mandate is asked for beyond the last instalment's due date, days. */
export const MANDATE_EXPIRY_MARGIN_DAYS = 30;

/**
 * The mandate's default max_amount: the largest amount still owed on one unpaid instalment
 * (penalties included), at least MIN_CHARGE_PAISE, at most MAX_MANDATE_PAISE. Answers null when
 * nothing is owed (no mandate to set up).
 */
export const defaultMandateMaxPaise = (
  instalments: readonly { amountPaise: number; paidPaise: number }[],
): number | null => {
  const owed = instalments.map((i) => Math.max(0, i.amountPaise - i.paidPaise)).filter((p) => p > 0);
  if (owed.length === 0) return null;
  return Math.min(MAX_MANDATE_PAISE, Math.max(MIN_CHARGE_PAISE, ...owed));
};

/**
 * The mandate's expire_at: 23:59:59 +05:30 on the last instalment's due date plus
 * MANDATE_EXPIRY_MARGIN_DAYS (room for retries of the last one). `lastDueDate` is `YYYY-MM-DD`.
 */
export const mandateExpiry = (lastDueDate: string): Date => {
  const day = addDays(lastDueDate, MANDATE_EXPIRY_MARGIN_DAYS);
  return new Date(Date.parse(`${day}T23:59:59Z`) - IST_OFFSET_MINUTES * 60_000);
};

/**
 * When on a day a charge may be created: from 09:00 +05:30 (as the reminders' quiet hours end, so
 * the pre-debit notification and the debit a day later come in the morning) until 21:00 +05:30. Debits are executed by NPCI outside its peak
 * windows in any case; the gateway holds a charge created in one.
 */
export const CHARGE_WINDOW = { startHour: 9, endHour: 21 } as const;

/** Whether `now` falls in the charge window of its +05:30 day. */
export const isChargeWindowOpen = (now: Date): boolean => {
  const hour = new Date(now.getTime() + IST_OFFSET_MINUTES * 60_000).getUTCHours();
  return hour >= CHARGE_WINDOW.startHour && hour < CHARGE_WINDOW.endHour;
};

/**
 * The retry rule of a failed charge, as data. After attempt n fails (the gateway's
 * `payment.failed`, after its own retries of that debit), attempt n+1 is created
 * `retryAfterDays[n-1]` days after the day attempt n was created, in the charge window, and only
 * once the earlier attempt's outcome is known (Razorpay: do not create another subsequent payment
 * until you have the status of the previous one). At most `maxAttempts` per instalment; after the
 * last one the instalment simply stays unpaid and the reminder ladder goes on.
 * Sources: NPCI UPI AutoPay execution rules as Razorpay documents them (a pre-debit notification
 * 24 h before each debit, the debit in the 25th hour, the gateway's retries when it sends the
 * notification itself); the count of three attempts and the gaps are Kisht's choice within them.
 */
export const CHARGE_RETRY_RULE = {
  maxAttempts: 3,
  retryAfterDays: [1, 2],
  source:
    'Razorpay UPI recurring payments, "Create Subsequent Payments" (pre-debit notification 24 h before, debit in the 25th hour, one subsequent payment at a time); attempt count: Kisht',
} as const;

/** A charge attempt already made for an instalment. */
export type TChargeAttempt = {
  emiId: number;
  attempt: number;
  status: 'created' | 'captured' | 'failed';
  /** The +05:30 day the attempt was created, YYYY-MM-DD. */
  chargeDate: string;
};

/** An instalment as the charge rule reads it. */
export type TChargeableInstalment = {
  id: number;
  dueDate: string;
  amountPaise: number;
  paidPaise: number;
};

/** A charge to create: the instalment, the attempt number (1 = first) and the amount, paise. */
export type TChargeToCreate = { emiId: number; attempt: number; amountPaise: number };

/**
 * How many days before its due date an instalment's first charge is created, so that the money
 * moves on the due date: the gateway sends the customer the pre-debit notification NPCI requires
 * and attempts the debit in the 25th hour after it (Razorpay, "Create Subsequent Payments"). A
 * charge missed then (the job down, a mandate approved that day) is created on the due date itself.
 */
export const CHARGE_LEAD_DAYS = 1;

/**
 * The charges to create on `today` (+05:30 `YYYY-MM-DD`) for one customer: none unless the mandate
 * is `active`. The first attempt for each unpaid instalment due within CHARGE_LEAD_DAYS of today
 * (not one already overdue: it predates the mandate or the job); a next attempt for one whose
 * latest attempt failed, when CHARGE_RETRY_RULE allows it today. Never while an attempt is pending
 * ('created') or after one was captured. The amount is what the instalment still owes; an
 * instalment owing more than the mandate's max amount, or less than MIN_CHARGE_PAISE, is skipped
 * (the reminders and the shop collect it).
 */
export const chargesDue = (input: {
  today: string;
  mandate: { state: TMandateState; maxAmountPaise: number };
  instalments: readonly TChargeableInstalment[];
  attempts: readonly TChargeAttempt[];
}): TChargeToCreate[] => {
  if (input.mandate.state !== 'active') return [];
  const due: TChargeToCreate[] = [];
  for (const instalment of input.instalments) {
    const owed = Math.max(0, instalment.amountPaise - instalment.paidPaise);
    if (owed < MIN_CHARGE_PAISE || owed > input.mandate.maxAmountPaise) continue;
    if (instalment.dueDate > addDays(input.today, CHARGE_LEAD_DAYS)) continue;
    const tried = input.attempts
      .filter((a) => a.emiId === instalment.id)
      .sort((a, b) => a.attempt - b.attempt);
    const latest = tried.at(-1);
    if (!latest) {
      if (instalment.dueDate >= input.today)
        due.push({ emiId: instalment.id, attempt: 1, amountPaise: owed });
      continue;
    }
    if (latest.status !== 'failed' || latest.attempt >= CHARGE_RETRY_RULE.maxAttempts) continue;
    const gap = CHARGE_RETRY_RULE.retryAfterDays[latest.attempt - 1] ?? 1;
    if (input.today >= addDays(latest.chargeDate, gap))
      due.push({ emiId: instalment.id, attempt: latest.attempt + 1, amountPaise: owed });
  }
  return due;
};

/** Today's +05:30 calendar date of `now` (re-exported for the job). */
export const chargeDay = (now: Date): string => istDate(now);
