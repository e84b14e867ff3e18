/*
 * Collections (issue 29): how late a loan is and what that says about the portfolio. Industry
 * terms (RBI's SMA classification and microfinance practice): days past due (DPD), DPD buckets,
 * portfolio at risk (PAR 30), collection efficiency and roll rates. Money is integer paise; ratios
 * are basis points (1% = 100 bps), rounded down, so 33.33% is 3,333.
 *
 * A loan is open while one of its instalments is not settled (paid or waived in full). Its DPD on
 * a date D is the number of days from the due date of its oldest instalment that is unsettled and
 * due before D to D; with none such it is 0 (current). An instalment due on D itself is not late.
 */

/** The DPD buckets in order, each with its inclusive DPD range (`maxDpd` null: no upper bound). */
export const DPD_BUCKETS = [
  { key: 'current', minDpd: 0, maxDpd: 0 },
  { key: '1_30', minDpd: 1, maxDpd: 30 },
  { key: '31_60', minDpd: 31, maxDpd: 60 },
  { key: '61_90', minDpd: 61, maxDpd: 90 },
  { key: '90_plus', minDpd: 91, maxDpd: null },
] as const;

/** A DPD bucket's key: current, 1_30, 31_60, 61_90 or 90_plus. */
export type TDpdBucket = (typeof DPD_BUCKETS)[number]['key'];

/** The bucket keys in order, for schemas and lists. */
export const DPD_BUCKET_KEYS = DPD_BUCKETS.map((bucket) => bucket.key) as [TDpdBucket, ...TDpdBucket[]];

/** Portfolio at risk counts loans more than this many days past due (PAR 30). */
export const PAR_DAYS = 30;

/** How many month-on-month roll-rate steps the collections view shows. */
export const ROLL_RATE_MONTHS = 6;

const MS_PER_DAY = 86_400_000;

/** Days from `oldestDueDate` to `onDate` (both YYYY-MM-DD), or 0 when there is no late instalment. */
export const daysPastDue = (oldestDueDate: string | null, onDate: string): number => {
  if (oldestDueDate === null) return 0;
  const days = (Date.parse(`${onDate}T00:00:00Z`) - Date.parse(`${oldestDueDate}T00:00:00Z`)) / MS_PER_DAY;
  return Math.max(0, Math.round(days));
};

/** The bucket of a DPD (a whole number ≥ 0). */
export const bucketOfDpd = (dpd: number): TDpdBucket =>
  DPD_BUCKETS.find((bucket) => dpd >= bucket.minDpd && (bucket.maxDpd === null || dpd <= bucket.maxDpd))!.key;

/** The DPD range of a bucket. */
export const dpdRangeOf = (key: TDpdBucket): { minDpd: number; maxDpd: number | null } =>
  DPD_BUCKETS.find((bucket) => bucket.key === key)!;

/** Whether loans of a bucket count in PAR 30 (every day of the bucket is past PAR_DAYS). */
export const isAtRisk = (key: TDpdBucket): boolean => dpdRangeOf(key).minDpd > PAR_DAYS;

/** `part ÷ whole` in basis points, rounded down; null when the whole is 0 (no ratio to speak of). */
export const ratioBps = (part: number, whole: number): number | null =>
  whole === 0 ? null : Math.floor((part * 10_000) / whole);

/** One bucket's loans and money: outstanding is every unsettled rupee, overdue the part already due. */
export type TBucketFigures = { loans: number; outstandingPaise: number; overduePaise: number };

/** Loans of a bucket as the database counts them, per shop (retailer). */
export type TBucketRow = TBucketFigures & { retailerId: number; bucket: TDpdBucket };

/** The five buckets in order, each with the sum of its rows (zeros where none). */
export const sumBuckets = (rows: readonly TBucketRow[]): Array<TBucketFigures & { bucket: TDpdBucket }> =>
  DPD_BUCKET_KEYS.map((bucket) => {
    const mine = rows.filter((row) => row.bucket === bucket);
    return {
      bucket,
      loans: mine.reduce((total, row) => total + row.loans, 0),
      outstandingPaise: mine.reduce((total, row) => total + row.outstandingPaise, 0),
      overduePaise: mine.reduce((total, row) => total + row.overduePaise, 0),
    };
  });

/**
 * PAR 30: the outstanding of loans more than 30 days past due, and its share of all outstanding in
 * basis points (null with nothing outstanding).
 */
export const portfolioAtRisk = (
  buckets: ReadonlyArray<TBucketFigures & { bucket: TDpdBucket }>,
): { outstandingPaise: number; loans: number; ratioBps: number | null } => {
  const atRisk = buckets.filter((row) => isAtRisk(row.bucket));
  const outstandingPaise = atRisk.reduce((total, row) => total + row.outstandingPaise, 0);
  const all = buckets.reduce((total, row) => total + row.outstandingPaise, 0);
  return {
    outstandingPaise,
    loans: atRisk.reduce((total, row) => total + row.loans, 0),
    ratioBps: ratioBps(outstandingPaise, all),
  };
};

/** Where a loan open at one month's end stood at the next: a bucket, or `closed` (settled). */
export type TRollTarget = TDpdBucket | 'closed';

/** How many loans moved from one bucket at `fromDate` to a target at `toDate`, as the database counts. */
export type TRollRow = {
  fromDate: string;
  toDate: string;
  fromBucket: TDpdBucket;
  to: TRollTarget;
  loans: number;
};

/** One step of the roll rates for one starting bucket. */
export type TRollRate = {
  fromDate: string;
  toDate: string;
  fromBucket: TDpdBucket;
  /** Loans in the bucket at fromDate. */
  loans: number;
  /** Of those, how many were in a later (worse) bucket at toDate. */
  rolledForward: number;
  /** Of those, how many were settled or in an earlier bucket at toDate. */
  cured: number;
  /** rolledForward ÷ loans, basis points (null with no loans). */
  rateBps: number | null;
};

const bucketIndex = (key: TDpdBucket) => DPD_BUCKET_KEYS.indexOf(key);

/**
 * Roll rates: for each step (fromDate → toDate, in the order of `steps`) and each bucket but the
 * last (which cannot roll further), how many of its loans rolled into a worse bucket and how many
 * were cured (settled or into a better bucket).
 */
export const rollRates = (
  steps: ReadonlyArray<{ fromDate: string; toDate: string }>,
  rows: readonly TRollRow[],
): TRollRate[] =>
  steps.flatMap((step) =>
    DPD_BUCKET_KEYS.slice(0, -1).map((fromBucket) => {
      const mine = rows.filter(
        (row) =>
          row.fromDate === step.fromDate && row.toDate === step.toDate && row.fromBucket === fromBucket,
      );
      const count = (keep: (row: TRollRow) => boolean) =>
        mine.filter(keep).reduce((total, row) => total + row.loans, 0);
      const loans = count(() => true);
      const rolledForward = count(
        (row) => row.to !== 'closed' && bucketIndex(row.to) > bucketIndex(fromBucket),
      );
      const cured = count((row) => row.to === 'closed' || bucketIndex(row.to) < bucketIndex(fromBucket));
      return { ...step, fromBucket, loans, rolledForward, cured, rateBps: ratioBps(rolledForward, loans) };
    }),
  );

/** The last day (YYYY-MM-DD) of each of the `count` months before the month of `onDate`, oldest first. */
export const previousMonthEnds = (onDate: string, count: number): string[] => {
  const [year, month] = onDate.split('-').map(Number) as [number, number];
  return Array.from({ length: count }, (_, index) => {
    // Day 0 of a month is the last day of the one before.
    const end = new Date(Date.UTC(year, month - 1 - (count - 1 - index), 0));
    return end.toISOString().slice(0, 10);
  });
};
