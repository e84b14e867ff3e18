import { CustomerStatus } from '../common/enums';
import { instalmentStatus, outstandingPaise } from '../emi/emi.rules';
import type { TDeviceSummary } from './devices.schema';
import type { TLockScreen } from './protocol.schema';

/** What the UI shows for a device's lock: reported state plus the pending command (design §5). */
export type TLockDisplay = 'locked' | 'unlocked' | 'locking' | 'unlocking';

/**
 * Derives the lock display from the reported lock status and the newest pending command: a pending
 * lock shows 'locking', a pending unlock 'unlocking', otherwise the reported state.
 */
export const deriveLockDisplay = (
  device: Pick<TDeviceSummary, 'lockStatus' | 'pendingCommand'>,
): TLockDisplay => {
  if (device.pendingCommand?.name === 'lock') return 'locking';
  if (device.pendingCommand?.name === 'unlock') return 'unlocking';
  return device.lockStatus === 1 ? 'locked' : 'unlocked';
};

/** Fewest characters of the reason a lock needs when nothing is overdue (after trimming). */
export const LOCK_REASON_MIN = 5;
/** Most characters of a lock's reason. */
export const LOCK_REASON_MAX = 300;

/**
 * Commands after which the borrower can use only a lock screen: `lock` and the two lost modes.
 * Each is subject to lockRuleFor (never a paid-up phone without a reason, never a completed loan).
 */
export const PHONE_LOCKING_COMMANDS: readonly string[] = ['lock', 'lost_mode_on', 'antitheft_lost_mode_on'];

/** True when command `name` leaves the borrower only a lock screen (see PHONE_LOCKING_COMMANDS). */
export const isPhoneLockingCommand = (name: string): boolean => PHONE_LOCKING_COMMANDS.includes(name);

/** An instalment as the lock rule reads it: due date (`YYYY-MM-DD`, +05:30) and paise owed and paid. */
export type TLockRuleInstalment = { dueDate: string; amountPaise: number; paidPaise: number };

/**
 * What is overdue on `today` (`YYYY-MM-DD`, +05:30): the unpaid part of every instalment due
 * before that day (instalmentStatus 'overdue'), paise.
 */
export const overduePaiseOf = (instalments: readonly TLockRuleInstalment[], today: string): number =>
  instalments
    .filter((instalment) => instalmentStatus(instalment, today) === 'overdue')
    .reduce((total, instalment) => total + outstandingPaise(instalment), 0);

/**
 * Whether a customer's phone may be locked now, and what a lock needs (issue 12: never lock a phone
 * that is paid up). `refused`: the loan is completed (status 5, EMIs completed), so nothing locks the
 * phone; `needs_reason`: nothing is overdue, so a person may lock it only with a reason, which is
 * audited; `overdue`: an instalment is overdue (`overduePaise`), no reason needed. Pure; the server
 * checks it before writing a lock, and customer_details offers the lock by it.
 */
export type TLockRule =
  | { kind: 'refused'; why: 'loan_completed' }
  | { kind: 'needs_reason' }
  | { kind: 'overdue'; overduePaise: number };

/** The lock rule (TLockRule) for a customer of `status` with these instalments on `today` (+05:30). */
export const lockRuleFor = (
  loan: { status: number; instalments: readonly TLockRuleInstalment[] },
  today: string,
): TLockRule => {
  if (loan.status === CustomerStatus.EMI_COMPLETED) return { kind: 'refused', why: 'loan_completed' };
  const overduePaise = overduePaiseOf(loan.instalments, today);
  return overduePaise > 0 ? { kind: 'overdue', overduePaise } : { kind: 'needs_reason' };
};

/**
 * The lock screen a lock carries (device protocol §9.2 ZLockScreen) from what the server knows at
 * the lock: the retailer (name cut to 120 characters), what is overdue (paise) and the
 * organisation's how-to-pay text (null: none). `emergencyCalls` is always true.
 */
export const lockScreenFor = (facts: {
  retailerName: string;
  retailerPhone: string;
  overduePaise: number;
  howToPay: string | null;
}): TLockScreen => ({
  retailerName: facts.retailerName.slice(0, 120),
  retailerPhone: facts.retailerPhone,
  overduePaise: Math.max(0, facts.overduePaise),
  howToPay: facts.howToPay,
  emergencyCalls: true,
});
