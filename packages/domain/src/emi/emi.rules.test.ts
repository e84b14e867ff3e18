import { describe, expect, it } from 'vitest';
import { AppError } from '../common/errors';
import {
  addMonthsToDate,
  allocatePayment,
  borrowerDue,
  buildEmiSchedule,
  daysOverdue,
  emiAmountExact,
  instalmentStatus,
  penaltyDuePaise,
  receiptNumber,
} from './emi.rules';

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('emiAmountExact (published EMI tables)', () => {
  it.each([
    // principal ₹, rate % a year, months, EMI ₹ as bank calculators print it
    [100_000, 10.5, 12, 8814.86],
    [100_000, 12, 12, 8884.88],
    [500_000, 9, 60, 10379.18],
    [200_000, 8.5, 24, 9091.13],
    [12_000, 0, 12, 1000],
  ])('₹%s at %s percent a year over %s months → ₹%s a month', (rupees, ratePct, months, emiRupees) => {
    const emiPaise = Math.round(emiAmountExact(rupees * 100, Math.round(ratePct * 100), months));
    expect(emiPaise).toBe(Math.round(emiRupees * 100));
  });
});

describe('buildEmiSchedule', () => {
  it.each([
    [10_000_000, 1050, 12],
    [1_499_900, 1400, 6],
    [1_000_001, 0, 7],
    [99, 2400, 12],
    [5_000_000, 1800, 120],
    [1, 0, 1],
  ])(
    'principal %d paise at %d bps over %d months sums exactly',
    (principalPaise, annualRateBps, tenureMonths) => {
      const schedule = buildEmiSchedule({
        principalPaise,
        annualRateBps,
        tenureMonths,
        firstDueDate: '2026-01-31',
      });
      expect(schedule).toHaveLength(tenureMonths);
      expect(sum(schedule.map((i) => i.principalPaise))).toBe(principalPaise);
      expect(sum(schedule.map((i) => i.amountPaise))).toBe(
        principalPaise + sum(schedule.map((i) => i.interestPaise)),
      );
      expect(schedule.at(-1)!.balancePaise).toBe(0);
      for (const i of schedule) {
        expect(Number.isInteger(i.amountPaise)).toBe(true);
        expect(i.principalPaise).toBeGreaterThanOrEqual(0);
      }
    },
  );

  it('gives equal instalments except the last for ₹1,00,000 at 10.5% over 12 months', () => {
    const schedule = buildEmiSchedule({
      principalPaise: 10_000_000,
      annualRateBps: 1050,
      tenureMonths: 12,
      firstDueDate: '2026-01-15',
    });
    expect(schedule.slice(0, 11).every((i) => i.amountPaise === 881_486)).toBe(true);
    expect(Math.abs(schedule[11]!.amountPaise - 881_486)).toBeLessThanOrEqual(5);
    expect(schedule[0]!.interestPaise).toBe(87_500); // 1,00,000 × 10.5% / 12
    expect(schedule.map((i) => i.dueDate).slice(0, 3)).toEqual(['2026-01-15', '2026-02-15', '2026-03-15']);
  });

  it.each([
    [{ principalPaise: 0 }, 'loanAmountPaise'],
    [{ principalPaise: 10.5 }, 'loanAmountPaise'],
    [{ annualRateBps: -1 }, 'annualRateBps'],
    [{ tenureMonths: 0 }, 'tenureMonths'],
    [{ tenureMonths: 121 }, 'tenureMonths'],
  ])('rejects %o naming %s', (override, field) => {
    const run = () =>
      buildEmiSchedule({
        principalPaise: 100_000,
        annualRateBps: 1000,
        tenureMonths: 12,
        firstDueDate: '2026-01-01',
        ...override,
      });
    expect(run).toThrow(AppError);
    try {
      run();
    } catch (error) {
      expect((error as AppError).fields?.[0]?.field).toBe(field);
    }
  });
});

describe('addMonthsToDate', () => {
  it.each([
    ['2026-01-31', 1, '2026-02-28'],
    ['2028-01-31', 1, '2028-02-29'],
    ['2026-11-15', 2, '2027-01-15'],
    ['2026-03-31', 0, '2026-03-31'],
  ])('%s + %d → %s', (date, months, expected) => {
    expect(addMonthsToDate(date, months)).toBe(expected);
  });
});

describe('flat-rate schedule', () => {
  it('charges principal × rate × months / 12 and spreads it evenly', () => {
    // ₹12,000 at 12% flat over 12 months: interest ₹1,440, EMI ₹1,120.
    const schedule = buildEmiSchedule({
      principalPaise: 1_200_000,
      annualRateBps: 1200,
      tenureMonths: 12,
      firstDueDate: '2026-01-05',
      method: 'flat',
    });
    expect(schedule.every((i) => i.amountPaise === 112_000)).toBe(true);
    expect(sum(schedule.map((i) => i.interestPaise))).toBe(144_000);
  });

  it.each([
    [1_000_001, 1399, 7],
    [99, 2400, 12],
    [1_499_900, 0, 6],
  ])('principal %d at %d bps over %d months sums exactly', (principalPaise, annualRateBps, tenureMonths) => {
    const schedule = buildEmiSchedule({
      principalPaise,
      annualRateBps,
      tenureMonths,
      firstDueDate: '2026-01-01',
      method: 'flat',
    });
    const totalInterest = Math.round((principalPaise * annualRateBps * tenureMonths) / 10_000 / 12);
    expect(sum(schedule.map((i) => i.principalPaise))).toBe(principalPaise);
    expect(sum(schedule.map((i) => i.interestPaise))).toBe(totalInterest);
    expect(schedule.at(-1)!.balancePaise).toBe(0);
  });
});

describe('instalmentStatus', () => {
  it.each([
    [{ dueDate: '2026-05-10', amountPaise: 100, paidPaise: 100 }, '2026-06-01', 'paid'],
    [{ dueDate: '2026-05-10', amountPaise: 100, paidPaise: 60 }, '2026-05-11', 'overdue'],
    [{ dueDate: '2026-05-10', amountPaise: 100, paidPaise: 0 }, '2026-05-10', 'due_today'],
    [{ dueDate: '2026-05-10', amountPaise: 100, paidPaise: 0 }, '2026-05-09', 'upcoming'],
  ] as const)('%o on %s is %s', (instalment, today, expected) => {
    expect(instalmentStatus(instalment, today)).toBe(expected);
  });
});

describe('allocatePayment', () => {
  const instalments = [
    { id: 12, instalmentNo: 2, amountPaise: 1000, paidPaise: 0 },
    { id: 11, instalmentNo: 1, amountPaise: 1000, paidPaise: 400 },
    { id: 13, instalmentNo: 3, amountPaise: 1000, paidPaise: 0 },
  ];

  it.each([
    [600, [{ instalmentId: 11, amountPaise: 600 }]],
    [
      1000,
      [
        { instalmentId: 11, amountPaise: 600 },
        { instalmentId: 12, amountPaise: 400 },
      ],
    ],
    [
      2600,
      [
        { instalmentId: 11, amountPaise: 600 },
        { instalmentId: 12, amountPaise: 1000 },
        { instalmentId: 13, amountPaise: 1000 },
      ],
    ],
  ])('pays %d paise earliest first', (amount, expected) => {
    expect(allocatePayment(instalments, amount)).toEqual(expected);
  });

  it.each([[0], [-5], [10.5], [2601]])('refuses %d paise naming amountPaise', (amount) => {
    expect(() => allocatePayment(instalments, amount)).toThrow(AppError);
    try {
      allocatePayment(instalments, amount);
    } catch (error) {
      expect((error as AppError).fields?.[0]?.field).toBe('amountPaise');
    }
  });
});

describe('penaltyDuePaise (send_penalty rule)', () => {
  const flat = { kind: 'flat' as const, flatPaise: 20_000, percentBps: 0, graceDays: 3 };
  const percent = { kind: 'percent' as const, flatPaise: 0, percentBps: 200, graceDays: 0 };
  const due = { dueDate: '2026-11-01', amountPaise: 881_486, paidPaise: 0, penaltyPaise: 0 };
  it.each([
    ['within the grace days', flat, due, '2026-11-04', 0],
    ['the day after the grace days', flat, due, '2026-11-05', 20_000],
    ['on the due date', percent, due, '2026-11-01', 0],
    ['2% of ₹8,814.86, rounded to the paisa', percent, due, '2026-11-02', 17_630],
    ['a paid instalment', flat, { ...due, paidPaise: 881_486 }, '2026-12-01', 0],
    ['a partly paid instalment', flat, { ...due, paidPaise: 1 }, '2026-12-01', 20_000],
    ['one already penalised', flat, { ...due, amountPaise: 901_486, penaltyPaise: 20_000 }, '2026-12-01', 0],
    ['penalties off', { ...flat, kind: 'none' as const }, due, '2026-12-01', 0],
  ])('%s', (_label, rule, instalment, today, expected) => {
    expect(penaltyDuePaise(instalment, rule, today)).toBe(expected);
  });
});

describe('daysOverdue', () => {
  const due = { dueDate: '2026-02-28', amountPaise: 881_486, paidPaise: 0 };
  it.each([
    ['before the due date', due, '2026-02-27', 0],
    ['on the due date', due, '2026-02-28', 0],
    ['the day after', due, '2026-03-01', 1],
    ['20 days after, across a month end', due, '2026-03-20', 20],
    ['a year after', due, '2027-02-28', 365],
    ['a paid instalment, however late', { ...due, paidPaise: 881_486 }, '2026-03-20', 0],
    ['a partly paid one', { ...due, paidPaise: 1 }, '2026-03-20', 20],
  ])('%s', (_label, instalment, today, expected) => {
    expect(daysOverdue(instalment, today)).toBe(expected);
  });
});

describe("borrowerDue (the customer's own view)", () => {
  const flat = { kind: 'flat' as const, flatPaise: 20_000, percentBps: 0, graceDays: 3 };
  const due = { dueDate: '2026-11-01', amountPaise: 881_486, paidPaise: 0, penaltyPaise: 0 };
  it.each([
    ['not yet due', due, '2026-10-20', { daysOverdue: 0, lateFeePaise: 0, totalDuePaise: 881_486 }],
    [
      'overdue within the grace days',
      due,
      '2026-11-03',
      { daysOverdue: 2, lateFeePaise: 0, totalDuePaise: 881_486 },
    ],
    [
      '20 days overdue: the late fee the rule adds is owed too',
      due,
      '2026-11-21',
      { daysOverdue: 20, lateFeePaise: 20_000, totalDuePaise: 901_486 },
    ],
    [
      'a levied late fee is already in what is outstanding',
      { ...due, amountPaise: 901_486, penaltyPaise: 20_000, paidPaise: 1_486 },
      '2026-11-21',
      { daysOverdue: 20, lateFeePaise: 20_000, totalDuePaise: 900_000 },
    ],
    [
      'paid, late fee and all',
      { ...due, amountPaise: 901_486, penaltyPaise: 20_000, paidPaise: 901_486 },
      '2026-11-21',
      { daysOverdue: 0, lateFeePaise: 20_000, totalDuePaise: 0 },
    ],
  ])('%s', (_label, instalment, today, expected) => {
    expect(borrowerDue(instalment, flat, today)).toEqual(expected);
  });
});

describe('receiptNumber', () => {
  it.each([
    [41, 1, 'KR-41-000001'],
    [46, 123, 'KR-46-000123'],
    [7, 999_999, 'KR-7-999999'],
    [7, 1_000_000, 'KR-7-1000000'],
  ])('organisation %d, number %d → %s', (orgId, n, expected) => {
    expect(receiptNumber(orgId, n)).toBe(expected);
  });
});
