import { CustomerStatus, type TCustomerStatus } from '../common/enums';

/**
 * A customer's status (spec §4 codes; the spec shows no transitions, these are ours) as a
 * transition table, after the state machines of AOSP's DeviceLock controller: every status change
 * names an event, and a move the table does not have is an error. Payoff (`complete_loan`) and
 * release (`release`, `profile_removed`) are events the command gate acts on (issue 25).
 */
export const CUSTOMER_STATUS_EVENTS = [
  'enrol',
  'deactivate',
  'reactivate',
  'mature',
  'complete_loan',
  'release',
  'profile_removed',
  're_enrol',
] as const;
export type TCustomerStatusEvent = (typeof CUSTOMER_STATUS_EVENTS)[number];

/** One row of the table: the statuses an event applies to, and the status it leads to. */
export type TStatusTransition = { from: readonly TCustomerStatus[]; to: TCustomerStatus };

const { INACTIVE, INSTALL, DEACTIVATE, UNINSTALL, APPLE_REMOVED, EMI_COMPLETED, EMI_MATURING } =
  CustomerStatus;

/**
 * - `enrol`: the phone enrolled (inactive → install);
 * - `deactivate` / `reactivate`: by hand (install or maturing → deactivate → install);
 * - `mature`: the last EMI falls due within the organisation's window (install → maturing);
 * - `complete_loan`: the last EMI paid or waived (→ EMIs completed), from any status with a live loan;
 * - `release`: the phone left Kisht (uninstall confirmed, the link-based app removed, the phone
 *   deleted at Google) → uninstall;
 * - `profile_removed`: the iPhone's MDM profile was removed (CheckOut) → Apple removed;
 * - `re_enrol`: the shop re-enrols the customer's phone (wiped, replaced under warranty, lost: issue
 *   27): the old phone's credentials are revoked and the customer is inactive again, with consent
 *   and loan kept, until a phone enrols from the new QR. Not after release or the last EMI.
 */
export const CUSTOMER_STATUS_TRANSITIONS: Readonly<Record<TCustomerStatusEvent, TStatusTransition>> = {
  enrol: { from: [INACTIVE], to: INSTALL },
  deactivate: { from: [INSTALL, EMI_MATURING], to: DEACTIVATE },
  reactivate: { from: [DEACTIVATE], to: INSTALL },
  mature: { from: [INSTALL], to: EMI_MATURING },
  complete_loan: { from: [INACTIVE, INSTALL, DEACTIVATE, EMI_MATURING], to: EMI_COMPLETED },
  release: { from: [INSTALL, DEACTIVATE, EMI_COMPLETED, EMI_MATURING], to: UNINSTALL },
  profile_removed: { from: [INSTALL, DEACTIVATE, EMI_COMPLETED, EMI_MATURING], to: APPLE_REMOVED },
  re_enrol: { from: [INSTALL, DEACTIVATE, EMI_MATURING, APPLE_REMOVED], to: INACTIVE },
};

/** The events a retailer may apply by hand (change status on customer_details). */
export const MANUAL_STATUS_EVENTS: readonly TCustomerStatusEvent[] = ['deactivate', 'reactivate'];

/** A status change the table does not have. */
export class IllegalStatusTransition extends Error {
  constructor(
    readonly from: number,
    readonly event: TCustomerStatusEvent,
  ) {
    super(`a customer in status ${from} cannot take event ${event}`);
    this.name = 'IllegalStatusTransition';
  }
}

/** The status a customer in `from` moves to on `event`. Throws IllegalStatusTransition otherwise. */
export const statusAfter = (from: number, event: TCustomerStatusEvent): TCustomerStatus => {
  const transition = CUSTOMER_STATUS_TRANSITIONS[event];
  if (!transition.from.includes(from as TCustomerStatus)) throw new IllegalStatusTransition(from, event);
  return transition.to;
};

/** True when a customer in `from` may take `event` (see CUSTOMER_STATUS_TRANSITIONS). */
export const canTransitionStatus = (from: number, event: TCustomerStatusEvent): boolean =>
  CUSTOMER_STATUS_TRANSITIONS[event].from.includes(from as TCustomerStatus);

/** The manual event (MANUAL_STATUS_EVENTS) that moves `from` to `to`, or null when none does. */
export const manualEventFor = (from: number, to: number): TCustomerStatusEvent | null =>
  MANUAL_STATUS_EVENTS.find((event) => {
    const transition = CUSTOMER_STATUS_TRANSITIONS[event];
    return transition.to === to && transition.from.includes(from as TCustomerStatus);
  }) ?? null;

/** True when a retailer may move a customer from `from` to `to` by hand (a manual event does it). */
export const canChangeStatus = (from: number, to: number): boolean => manualEventFor(from, to) !== null;
