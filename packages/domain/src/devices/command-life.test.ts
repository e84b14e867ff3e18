import { describe, expect, it } from 'vitest';
import { COMMAND_STATES } from '../common/enums';
import {
  COMMAND_EVENTS,
  COMMAND_TRANSITIONS,
  canTransition,
  IllegalCommandTransition,
  transitionOf,
} from './command-life';

describe("a command's life (design §5, issue 25)", () => {
  it.each([
    ['queued', 'publish', 'sent'],
    ['sent', 'ack_received', 'received'],
    ['sent', 'ack_done', 'done'],
    ['received', 'ack_done', 'done'],
    ['received', 'ack_failed', 'failed'],
    ['sent', 'ack_dropped', 'expired'],
    ['cancelled', 'ran_before_cancel', 'done'],
    ['queued', 'cancel', 'cancelled'],
    ['received', 'supersede', 'cancelled'],
    ['queued', 'refuse_when_due', 'cancelled'],
    ['sent', 'expire', 'expired'],
    ['received', 'release', 'cancelled'],
  ] as const)('%s --%s--> %s', (from, event, to) => {
    expect(transitionOf(from, event)).toBe(to);
    expect(canTransition(from, event)).toBe(true);
  });

  it.each([
    ['queued', 'ack_done'], // a forged ack of a command never sent
    ['queued', 'ack_received'],
    ['done', 'cancel'], // final states stay final
    ['failed', 'ack_done'],
    ['expired', 'expire'],
    ['cancelled', 'cancel'],
    ['received', 'ack_received'], // never backwards
    ['sent', 'refuse_when_due'], // only a scheduled (queued) command is refused when due
    ['done', 'publish'],
  ] as const)('%s --%s--> is illegal', (from, event) => {
    expect(() => transitionOf(from, event)).toThrow(IllegalCommandTransition);
    expect(canTransition(from, event)).toBe(false);
  });

  it('moves only between the design §5 states', () => {
    expect(COMMAND_EVENTS.length).toBeGreaterThan(0);
    for (const event of COMMAND_EVENTS) {
      const { from, to } = COMMAND_TRANSITIONS[event];
      expect(from.length).toBeGreaterThan(0);
      expect([...from, to].every((state) => COMMAND_STATES.includes(state))).toBe(true);
    }
  });
});
