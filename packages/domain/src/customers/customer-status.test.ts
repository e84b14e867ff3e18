import { describe, expect, it } from 'vitest';
import { CUSTOMER_STATUS_CODES } from '../common/enums';
import {
  CUSTOMER_STATUS_EVENTS,
  CUSTOMER_STATUS_TRANSITIONS,
  canChangeStatus,
  IllegalStatusTransition,
  manualEventFor,
  statusAfter,
} from './customer-status';

describe('customer status transitions (spec §4 codes; issue 25)', () => {
  it.each([
    [0, 'enrol', 1],
    [1, 'deactivate', 2],
    [6, 'deactivate', 2],
    [2, 'reactivate', 1],
    [1, 'mature', 6],
    [0, 'complete_loan', 5],
    [1, 'complete_loan', 5],
    [2, 'complete_loan', 5],
    [6, 'complete_loan', 5],
    [1, 'release', 3],
    [5, 'release', 3],
    [6, 'release', 3],
    [1, 'profile_removed', 4],
    [5, 'profile_removed', 4],
  ] as const)('%i --%s--> %i', (from, event, to) => {
    expect(statusAfter(from, event)).toBe(to);
  });

  it.each([
    [1, 'enrol'], // enrolled once
    [5, 'complete_loan'], // paid off once
    [5, 'mature'],
    [3, 'reactivate'], // a released phone never comes back by hand
    [3, 'release'],
    [4, 'release'],
    [0, 'release'], // no phone to release
    [5, 'deactivate'],
    [2, 'mature'],
  ] as const)('%i --%s--> is illegal', (from, event) => {
    expect(() => statusAfter(from, event)).toThrow(IllegalStatusTransition);
  });

  it('names a known status for every event, and every target is a spec §4 code', () => {
    expect(CUSTOMER_STATUS_EVENTS.length).toBeGreaterThan(0);
    for (const event of CUSTOMER_STATUS_EVENTS) {
      const { from, to } = CUSTOMER_STATUS_TRANSITIONS[event];
      expect(from.length).toBeGreaterThan(0);
      expect([...from, to].every((status) => CUSTOMER_STATUS_CODES.includes(status))).toBe(true);
    }
  });

  it.each([
    [1, 2, true],
    [2, 1, true],
    [6, 2, true],
    [0, 1, false], // enrolment does this
    [1, 3, false], // uninstall needs the UNINSTALL OTP
    [1, 5, false], // follows the payments
    [5, 1, false],
    [2, 2, false],
  ])('by hand %i → %i: %s', (from, to, expected) => {
    expect(canChangeStatus(from, to)).toBe(expected);
    expect(manualEventFor(from, to) !== null).toBe(expected);
  });
});
