import { lockScreenLines, type TLockReasonCategory } from '@kisht/domain/devices/lock-reasons';
import type { TAgentStateFile } from './state';

/**
 * What the simulated phone's lock screen shows while it is locked (device protocol §9.2), as the
 * library and `kisht-agent status` expose it. Emergency calls are always allowed: the policy's
 * lockScreen promises it (emergencyCalls is always true), and this phone never blocks them.
 */
export type TLockScreenView = {
  /** Why the phone is locked (the policy's reason category, issue 25); null from an older server. */
  reason: TLockReasonCategory | null;
  /** Whom to call and pay: the policy's lock screen, else the retailer of the enrol answer; null if neither. */
  retailerName: string | null;
  retailerPhone: string | null;
  /** What was overdue at the lock (policy), else the newest EMI alert's overduePaise; null if neither. */
  overduePaise: number | null;
  /** How to pay: the policy's text, else "UPI <id>" from the enrol answer; null if neither. */
  howToPay: string | null;
  /** The offline-code challenge the screen shows (device protocol §12.1). */
  offlineChallenge: string;
  /** Always 'allowed': a locked phone always lets the user call 112. */
  emergencyCalls: 'allowed';
  /** The screen as text, one line each, in the order the phone shows them. */
  lines: string[];
};

/**
 * The lock screen of a phone in `state`, or null while it is unlocked. Takes the newest policy's
 * lockScreen (the server sets it with every lock: why, retailer, amount overdue, how to pay) and
 * falls back to what enrolment and the last EMI alert said, for a server that sends none. The
 * lines follow the reason category (lock-reasons lockScreenLines): its headline first, the amount
 * overdue and how to pay only when something is overdue, emergency calls always.
 */
export const lockScreenOf = (state: TAgentStateFile): TLockScreenView | null => {
  if (!state.isLocked) return null;
  const fromPolicy = state.policy?.policy.lockScreen ?? null;
  const retailer = state.credentials.retailer;
  const alertOverdue = state.lastAlert?.overduePaise;
  const view = {
    reason: fromPolicy?.reason ?? null,
    retailerName: fromPolicy?.retailerName ?? retailer?.name ?? null,
    retailerPhone: fromPolicy?.retailerPhone ?? retailer?.phone ?? null,
    overduePaise: fromPolicy
      ? fromPolicy.overduePaise
      : typeof alertOverdue === 'number'
        ? alertOverdue
        : null,
    howToPay: fromPolicy ? fromPolicy.howToPay : retailer?.upiId ? `UPI ${retailer.upiId}` : null,
    offlineChallenge: state.offlineChallenge,
    emergencyCalls: 'allowed' as const,
  };
  const lines = lockScreenLines({ ...view, reason: view.reason ?? undefined }, [
    `Offline code challenge: ${view.offlineChallenge}`,
  ]);
  return { ...view, lines };
};
