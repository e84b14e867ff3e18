import { describe, expect, it } from 'vitest';
import {
  bucketOfDpd,
  DPD_BUCKET_KEYS,
  daysPastDue,
  isAtRisk,
  portfolioAtRisk,
  previousMonthEnds,
  ratioBps,
  rollRates,
  sumBuckets,
} from './collections.rules';

describe('collections rules (issue 29)', () => {
  it('puts each DPD in one bucket, at the edges too', () => {
    expect([0, 1, 30, 31, 60, 61, 90, 91, 400].map(bucketOfDpd)).toEqual([
      'current',
      '1_30',
      '1_30',
      '31_60',
      '31_60',
      '61_90',
      '61_90',
      '90_plus',
      '90_plus',
    ]);
    expect(DPD_BUCKET_KEYS.filter(isAtRisk)).toEqual(['31_60', '61_90', '90_plus']);
  });

  it('counts days past due from the oldest late due date, 0 when none', () => {
    expect(daysPastDue(null, '2026-11-29')).toBe(0);
    expect(daysPastDue('2026-11-29', '2026-11-29')).toBe(0);
    expect(daysPastDue('2026-08-20', '2026-11-29')).toBe(101);
    expect(daysPastDue('2024-02-28', '2024-03-01')).toBe(2); // a leap year
  });

  it('gives ratios in basis points rounded down, and none of nothing', () => {
    expect(ratioBps(960_000, 1_360_000)).toBe(7058);
    expect(ratioBps(2, 3)).toBe(6666);
    expect(ratioBps(0, 5)).toBe(0);
    expect(ratioBps(5, 0)).toBeNull();
  });

  it('sums rows into the five buckets in order, and PAR 30 from them', () => {
    const buckets = sumBuckets([
      { retailerId: 1, bucket: '90_plus', loans: 1, outstandingPaise: 500, overduePaise: 400 },
      { retailerId: 2, bucket: '90_plus', loans: 2, outstandingPaise: 100, overduePaise: 100 },
      { retailerId: 1, bucket: 'current', loans: 3, outstandingPaise: 400, overduePaise: 0 },
    ]);
    expect(buckets.map((row) => [row.bucket, row.loans, row.outstandingPaise])).toEqual([
      ['current', 3, 400],
      ['1_30', 0, 0],
      ['31_60', 0, 0],
      ['61_90', 0, 0],
      ['90_plus', 3, 600],
    ]);
    expect(portfolioAtRisk(buckets)).toEqual({ loans: 3, outstandingPaise: 600, ratioBps: 6000 });
    expect(portfolioAtRisk(sumBuckets([]))).toEqual({ loans: 0, outstandingPaise: 0, ratioBps: null });
  });

  it('names the month ends before a date, across a year', () => {
    expect(previousMonthEnds('2026-02-10', 3)).toEqual(['2025-11-30', '2025-12-31', '2026-01-31']);
    expect(previousMonthEnds('2024-03-31', 1)).toEqual(['2024-02-29']);
  });

  it('counts roll forward and cure per starting bucket, never the last', () => {
    const step = { fromDate: '2026-09-30', toDate: '2026-10-31' };
    const rates = rollRates(
      [step],
      [
        { ...step, fromBucket: '1_30', to: '31_60', loans: 2 },
        { ...step, fromBucket: '1_30', to: '1_30', loans: 5 },
        { ...step, fromBucket: '1_30', to: 'closed', loans: 1 },
        { ...step, fromBucket: '1_30', to: 'current', loans: 2 },
        { ...step, fromBucket: '90_plus', to: '90_plus', loans: 9 },
      ],
    );
    expect(rates.map((rate) => rate.fromBucket)).toEqual(['current', '1_30', '31_60', '61_90']);
    expect(rates[1]).toEqual({
      ...step,
      fromBucket: '1_30',
      loans: 10,
      rolledForward: 2,
      cured: 3,
      rateBps: 2000,
    });
    expect(rates[0]).toMatchObject({ loans: 0, rateBps: null });
  });
});
