import { formatRupees } from '@kisht/domain/common/format';
import type { TAgentStateFile } from './state';

/**
 * What the simulated phone's lock screen shows while it is locked (device protocol §9.2), as the
 * library and `kisht-agent status` expose it. Emergency calls are always allowed: the policy's
 * lockScreen promises it (emergencyCalls is always true), and this phone never blocks them.
 */
export type TLockScreenView = {
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

/** Paise as rupees with two decimals and Indian digit grouping (₹1,23,456.50): the domain's formatter. */
export const rupees = formatRupees;

/**
 * The lock screen of a phone in `state`, or null while it is unlocked. Takes the newest policy's
 * lockScreen (the server sets it with every lock: retailer, amount overdue, how to pay) and falls
 * back to what enrolment and the last EMI alert said, for a server that sends none.
 */
export const lockScreenOf = (state: TAgentStateFile): TLockScreenView | null => {
  if (!state.isLocked) return null;
  const fromPolicy = state.policy?.policy.lockScreen ?? null;
  const retailer = state.credentials.retailer;
  const alertOverdue = state.lastAlert?.overduePaise;
  const view = {
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
  const lines = [
    'This phone is locked for an unpaid EMI.',
    view.retailerName
      ? `Call ${view.retailerName}${view.retailerPhone ? ` on ${view.retailerPhone}` : ''}.`
      : null,
    view.overduePaise ? `Overdue: ${rupees(view.overduePaise)}` : null,
    view.howToPay ? `How to pay: ${oneLine(view.howToPay)}` : null,
    `Offline code challenge: ${view.offlineChallenge}`,
    'Emergency calls: allowed',
  ].filter((line): line is string => line !== null);
  return { ...view, lines };
};

/** A multi-line text on one line, its lines joined with " / ". */
export const oneLine = (text: string): string =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' / ');
