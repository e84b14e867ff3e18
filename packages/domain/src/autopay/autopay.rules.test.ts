import { describe, expect, it } from 'vitest';
import {
  CHARGE_RETRY_RULE,
  chargesDue,
  defaultMandateMaxPaise,
  isChargeWindowOpen,
  MANDATE_EVENTS,
  MANDATE_STATES,
  MAX_MANDATE_PAISE,
  mandateExpiry,
  mandateTransition,
  type TChargeAttempt,
  type TMandateEvent,
  type TMandateState,
} from './autopay.rules';

const TODAY = '2026-12-05';
const instalment = (id: number, dueDate: string, amountPaise = 250_000, paidPaise = 0) => ({
  id,
  dueDate,
  amountPaise,
  paidPaise,
});
const active = { state: 'active' as const, maxAmountPaise: 300_000 };

describe('mandateTransition (the token events)', () => {
  it.each<[TMandateState, TMandateEvent, TMandateState | null]>([
    ['created', 'confirmed', 'active'],
    ['created', 'rejected', 'rejected'],
    ['created', 'cancelled', 'cancelled'],
    ['created', 'paused', null],
    ['active', 'paused', 'paused'],
    ['active', 'cancelled', 'cancelled'],
    ['active', 'expired', 'expired'],
    ['active', 'rejected', null],
    ['paused', 'resumed', 'active'],
    ['paused', 'cancelled', 'cancelled'],
    ['cancelled', 'confirmed', null],
    ['rejected', 'confirmed', null],
    ['expired', 'resumed', null],
  ])('%s + %s → %s', (from, event, to) => {
    expect(mandateTransition(from, event)).toBe(to);
  });

  it('lets nothing leave a final state', () => {
    for (const from of ['cancelled', 'rejected', 'expired'] as const)
      for (const event of MANDATE_EVENTS) expect(mandateTransition(from, event)).toBeNull();
    expect(MANDATE_STATES).toHaveLength(6);
  });
});

describe('chargesDue', () => {
  it.each<[string, Parameters<typeof chargesDue>[0], ReturnType<typeof chargesDue>]>([
    [
      'charges an unpaid instalment due today, for what it owes',
      { today: TODAY, mandate: active, instalments: [instalment(1, TODAY, 250_000, 50_000)], attempts: [] },
      [{ emiId: 1, attempt: 1, amountPaise: 200_000 }],
    ],
    [
      'charges one due tomorrow (CHARGE_LEAD_DAYS: the gateway debits a day after the pre-debit notice)',
      { today: TODAY, mandate: active, instalments: [instalment(1, '2026-12-06')], attempts: [] },
      [{ emiId: 1, attempt: 1, amountPaise: 250_000 }],
    ],
    [
      'not one due the day after tomorrow, or paid',
      {
        today: TODAY,
        mandate: active,
        instalments: [instalment(1, '2026-12-07'), instalment(2, TODAY, 250_000, 250_000)],
        attempts: [],
      },
      [],
    ],
    [
      'not an overdue one never charged (it predates the mandate: reminders collect it)',
      { today: TODAY, mandate: active, instalments: [instalment(1, '2026-12-01')], attempts: [] },
      [],
    ],
    [
      'nothing when the mandate is paused, cancelled or waiting',
      {
        today: TODAY,
        mandate: { ...active, state: 'paused' },
        instalments: [instalment(1, TODAY)],
        attempts: [],
      },
      [],
    ],
    [
      'not an instalment owing more than max_amount',
      {
        today: TODAY,
        mandate: { ...active, maxAmountPaise: 100_000 },
        instalments: [instalment(1, TODAY)],
        attempts: [],
      },
      [],
    ],
    [
      'not twice: an attempt pending or captured stops another',
      {
        today: TODAY,
        mandate: active,
        instalments: [instalment(1, TODAY), instalment(2, TODAY)],
        attempts: [
          { emiId: 1, attempt: 1, status: 'created', chargeDate: TODAY },
          { emiId: 2, attempt: 1, status: 'captured', chargeDate: TODAY },
        ],
      },
      [],
    ],
    [
      'retries a failed first attempt the next day, a second two days later',
      {
        today: TODAY,
        mandate: active,
        instalments: [instalment(1, '2026-12-04'), instalment(2, '2026-12-01')],
        attempts: [
          { emiId: 1, attempt: 1, status: 'failed', chargeDate: '2026-12-04' },
          { emiId: 2, attempt: 1, status: 'failed', chargeDate: '2026-12-01' },
          { emiId: 2, attempt: 2, status: 'failed', chargeDate: '2026-12-03' },
        ],
      },
      [
        { emiId: 1, attempt: 2, amountPaise: 250_000 },
        { emiId: 2, attempt: 3, amountPaise: 250_000 },
      ],
    ],
    [
      'waits out the gap, and stops after the last attempt',
      {
        today: TODAY,
        mandate: active,
        instalments: [instalment(1, '2026-12-04'), instalment(2, '2026-12-01')],
        attempts: [
          { emiId: 1, attempt: 1, status: 'failed', chargeDate: '2026-12-04' },
          { emiId: 1, attempt: 2, status: 'failed', chargeDate: '2026-12-05' },
          { emiId: 2, attempt: 1, status: 'failed', chargeDate: '2026-12-01' },
          { emiId: 2, attempt: 2, status: 'failed', chargeDate: '2026-12-02' },
          { emiId: 2, attempt: 3, status: 'failed', chargeDate: '2026-12-04' },
        ] satisfies TChargeAttempt[],
      },
      [],
    ],
  ])('%s', (_name, input, expected) => {
    expect(chargesDue(input)).toEqual(expected);
  });

  it('has one gap per retry in its rule', () => {
    expect(CHARGE_RETRY_RULE.retryAfterDays).toHaveLength(CHARGE_RETRY_RULE.maxAttempts - 1);
  });
});

describe('mandate terms', () => {
  it.each<[{ amountPaise: number; paidPaise: number }[], number | null]>([
    [
      [
        { amountPaise: 250_000, paidPaise: 0 },
        { amountPaise: 260_000, paidPaise: 0 },
      ],
      260_000,
    ],
    [
      [
        { amountPaise: 260_000, paidPaise: 260_000 },
        { amountPaise: 250_000, paidPaise: 10_000 },
      ],
      240_000,
    ],
    [[{ amountPaise: 50, paidPaise: 0 }], 100],
    [[{ amountPaise: 50_000_000, paidPaise: 0 }], MAX_MANDATE_PAISE],
    [[{ amountPaise: 100, paidPaise: 100 }], null],
    [[], null],
  ])('default max amount of %j is %s paise', (instalments, expected) => {
    expect(defaultMandateMaxPaise(instalments)).toBe(expected);
  });

  it('expires 30 days after the last due date, at the end of that +05:30 day', () => {
    expect(mandateExpiry('2026-12-31').toISOString()).toBe('2027-01-30T18:29:59.000Z');
  });

  it.each([
    ['2026-12-05T03:29:00Z', false],
    ['2026-12-05T03:30:00Z', true],
    ['2026-12-05T15:29:00Z', true],
    ['2026-12-05T15:30:00Z', false],
  ])('charge window at %s is %s (09:00–21:00 +05:30)', (at, expected) => {
    expect(isChargeWindowOpen(new Date(at))).toBe(expected);
  });
});
