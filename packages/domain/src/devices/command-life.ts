import { PENDING_COMMAND_STATES, type TCommandState } from '../common/enums';

/**
 * A command's life (design §5, device protocol §7) as a transition table, after the state machines
 * of AOSP's DeviceLock controller: `queued → sent → received → done | failed`, or `cancelled` or
 * `expired` while pending. The phone's `dropped` acknowledgement (a command past its notAfter or
 * cancelled before it ran) ends a command `expired`, with why in its error. Every change of a
 * command row's state names one of these events; the repository moves a row only from the event's
 * `from` states (so duplicate or out-of-order acks never move a command backwards), and
 * transitionOf throws for a move the table does not have.
 */
export const COMMAND_EVENTS = [
  'publish',
  'ack_received',
  'ack_done',
  'ack_failed',
  'ack_dropped',
  'ran_before_cancel',
  'cancel',
  'supersede',
  'refuse_when_due',
  'expire',
  'release',
] as const;
export type TCommandEvent = (typeof COMMAND_EVENTS)[number];

/** One row of the table: the states an event may move a command from, and the state it moves it to. */
export type TCommandTransition = { from: readonly TCommandState[]; to: TCommandState };

const PENDING = PENDING_COMMAND_STATES;

/**
 * The transition table:
 * - `publish`: the outbox sent a queued command (a re-send of a sent or received one changes no state);
 * - `ack_received` / `ack_done` / `ack_failed` / `ack_dropped`: the phone's acknowledgements, only
 *   for what was sent (a forged ack of a queued command moves nothing);
 * - `ran_before_cancel`: the phone ran a command whose cancel it had not yet received;
 * - `cancel` (a person), `supersede` (a newer opposite command), `refuse_when_due` (a scheduled
 *   command the rules refuse when it comes due), `release` (the phone left Kisht or was paid off):
 *   a pending command ends cancelled;
 * - `expire`: the organisation's command expiry or the command's notAfter passed.
 */
export const COMMAND_TRANSITIONS: Readonly<Record<TCommandEvent, TCommandTransition>> = {
  publish: { from: ['queued'], to: 'sent' },
  ack_received: { from: ['sent'], to: 'received' },
  ack_done: { from: ['sent', 'received'], to: 'done' },
  ack_failed: { from: ['sent', 'received'], to: 'failed' },
  ack_dropped: { from: ['sent', 'received'], to: 'expired' },
  ran_before_cancel: { from: ['cancelled'], to: 'done' },
  cancel: { from: PENDING, to: 'cancelled' },
  supersede: { from: PENDING, to: 'cancelled' },
  refuse_when_due: { from: ['queued'], to: 'cancelled' },
  expire: { from: PENDING, to: 'expired' },
  release: { from: PENDING, to: 'cancelled' },
};

/** A move the command transition table does not have. */
export class IllegalCommandTransition extends Error {
  constructor(
    readonly from: string,
    readonly event: TCommandEvent,
  ) {
    super(`a command in state ${from} cannot take event ${event}`);
    this.name = 'IllegalCommandTransition';
  }
}

/** The state a command in `from` moves to on `event`. Throws IllegalCommandTransition otherwise. */
export const transitionOf = (from: string, event: TCommandEvent): TCommandState => {
  const transition = COMMAND_TRANSITIONS[event];
  if (!transition.from.includes(from as TCommandState)) throw new IllegalCommandTransition(from, event);
  return transition.to;
};

/** True when a command in `from` may take `event` (see COMMAND_TRANSITIONS). */
export const canTransition = (from: string, event: TCommandEvent): boolean =>
  COMMAND_TRANSITIONS[event].from.includes(from as TCommandState);
