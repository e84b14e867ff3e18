import { instalmentStatus, outstandingPaise } from '../emi/emi.rules';
import type { TDeviceSummary } from './devices.schema';
import type { TLockReasonCategory } from './lock-reasons';
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
 * The lock screen a lock carries (device protocol §9.2 ZLockScreen) from what the server knows at
 * the lock: why (the lock's reason category; null leaves it out), the retailer (name cut to 120
 * characters), what is overdue (paise) and the organisation's how-to-pay text (null: none).
 * `emergencyCalls` is always true.
 */
export const lockScreenFor = (facts: {
  reason: TLockReasonCategory | null;
  retailerName: string;
  retailerPhone: string;
  overduePaise: number;
  howToPay: string | null;
}): TLockScreen => ({
  ...(facts.reason ? { reason: facts.reason } : {}),
  retailerName: facts.retailerName.slice(0, 120),
  retailerPhone: facts.retailerPhone,
  overduePaise: Math.max(0, facts.overduePaise),
  howToPay: facts.howToPay,
  emergencyCalls: true,
});
