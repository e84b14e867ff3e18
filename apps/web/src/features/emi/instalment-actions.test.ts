import { describe, expect, it } from 'vitest';
import { createInstalment } from './emi-fixtures';
import { hasUnpaidPenalty, instalmentActions } from './instalment-actions';

describe('instalmentActions', () => {
  it.each([
    ['an unpaid instalment', {}, ['waive']],
    ['a paid one', { paidPaise: 881_486 }, []],
    ['one with a penalty due', { status: 'overdue', penaltyDuePaise: 50_000 }, ['levyPenalty', 'waive']],
    [
      'one with an unpaid penalty',
      { amountPaise: 931_486, penaltyPaise: 50_000, status: 'overdue' },
      ['waivePenalty', 'waive'],
    ],
    [
      'one whose penalty was waived',
      { amountPaise: 931_486, penaltyPaise: 50_000, paidPaise: 50_000, waivedPaise: 50_000 },
      ['waive'],
    ],
    ['one paid off with its penalty', { amountPaise: 931_486, penaltyPaise: 50_000, paidPaise: 931_486 }, []],
    ['one waived in full', { paidPaise: 881_486, waivedPaise: 881_486 }, []],
  ] as const)('offers the right actions on %s', (_name, overrides, expected) => {
    expect(instalmentActions(createInstalment(overrides))).toEqual(expected);
  });

  it('has an unpaid penalty only while some of the instalment is owed', () => {
    expect(hasUnpaidPenalty(createInstalment({ amountPaise: 931_486, penaltyPaise: 50_000 }))).toBe(true);
    expect(hasUnpaidPenalty(createInstalment({ penaltyPaise: 0 }))).toBe(false);
  });
});
