import { DPD_BUCKETS, isAtRisk, type TDpdBucket } from '@kisht/domain/collections/collections.rules';
import type { TCollectionsCustomer, TCollectionsSummary } from '@kisht/domain/collections/collections.schema';
import { formatCalendarDate } from '@kisht/domain/common/time';
import ExcelJS from 'exceljs';
import { rupees, toCsv } from '../../lib/csv';

/*
 * The collections view's downloads (issue 29): the open loans as CSV, or a workbook (exceljs)
 * with a sheet for the buckets, the shops, the roll rates and the loans. Dates as the spec shows
 * them (DD-MM-YYYY), money in rupees with two decimals, ratios as percentages.
 */

/** A bucket's label in exports: "Current", "1–30 days", …, "Over 90 days". */
export const bucketLabel = (key: TDpdBucket): string => {
  const bucket = DPD_BUCKETS.find((b) => b.key === key)!;
  if (bucket.maxDpd === 0) return 'Current';
  if (bucket.maxDpd === null) return `Over ${bucket.minDpd - 1} days`;
  return `${bucket.minDpd}–${bucket.maxDpd} days`;
};

/** Basis points as a percentage with two decimals ("12.50"), or '' without a ratio. */
const percent = (bps: number | null): string => (bps === null ? '' : (bps / 100).toFixed(2));

const LOAN_HEADER = [
  'Customer id',
  'Customer',
  'Mobile',
  'Shop',
  'Days past due',
  'Bucket',
  'Oldest due date',
  'Overdue (₹)',
  'Outstanding (₹)',
  'In PAR 30',
];

const loanRow = (loan: TCollectionsCustomer): (string | number)[] => {
  const bucket = DPD_BUCKETS.find(
    (b) => loan.dpd >= b.minDpd && (b.maxDpd === null || loan.dpd <= b.maxDpd),
  )!.key;
  return [
    loan.customerId,
    loan.customerName,
    loan.mobile,
    loan.shopName,
    loan.dpd,
    bucketLabel(bucket),
    loan.oldestDueDate ? formatCalendarDate(loan.oldestDueDate) : '',
    rupees(loan.overduePaise),
    rupees(loan.outstandingPaise),
    isAtRisk(bucket) ? 'Yes' : 'No',
  ];
};

/** The open loans as CSV (RFC 4180, formulas neutralised), most days past due first. */
export const collectionsCsv = (loans: readonly TCollectionsCustomer[]): string =>
  toCsv(LOAN_HEADER, loans.map(loanRow));

/** The workbook: Buckets (with PAR 30 and collection efficiency), Shops, Roll rates and Loans sheets. */
export const collectionsWorkbook = async (
  summary: TCollectionsSummary,
  loans: readonly TCollectionsCustomer[],
): Promise<Buffer> => {
  const book = new ExcelJS.Workbook();
  book.creator = 'Kisht';
  const bold = (sheet: ExcelJS.Worksheet) => {
    sheet.getRow(1).font = { bold: true };
  };

  const buckets = book.addWorksheet('Buckets');
  buckets.addRow([`As of ${formatCalendarDate(summary.asOf)}`]);
  buckets.addRow(['Bucket', 'Loans', 'Overdue (₹)', 'Outstanding (₹)']);
  buckets.getRow(2).font = { bold: true };
  for (const row of summary.buckets) {
    buckets.addRow([
      bucketLabel(row.bucket),
      row.loans,
      rupees(row.overduePaise),
      rupees(row.outstandingPaise),
    ]);
  }
  buckets.addRow([]);
  buckets.addRow(['PAR 30 (%)', percent(summary.par30.ratioBps)]);
  buckets.addRow(['PAR 30 outstanding (₹)', rupees(summary.par30.outstandingPaise)]);
  const { efficiency } = summary;
  buckets.addRow([
    `Collection efficiency ${formatCalendarDate(efficiency.from)} to ${formatCalendarDate(efficiency.to)} (%)`,
    percent(efficiency.ratioBps),
  ]);
  buckets.addRow(['Due in the period (₹)', rupees(efficiency.duePaise)]);
  buckets.addRow(['Collected towards it (₹)', rupees(efficiency.collectedPaise)]);

  const shops = book.addWorksheet('Shops');
  shops.addRow([
    'Shop',
    ...summary.buckets.map((row) => `${bucketLabel(row.bucket)} (loans)`),
    'Outstanding (₹)',
    'PAR 30 (%)',
  ]);
  bold(shops);
  for (const shop of summary.shops) {
    shops.addRow([
      shop.name,
      ...shop.buckets.map((row) => row.loans),
      rupees(shop.buckets.reduce((total, row) => total + row.outstandingPaise, 0)),
      percent(shop.par30.ratioBps),
    ]);
  }

  const rolls = book.addWorksheet('Roll rates');
  rolls.addRow(['From', 'To', 'Bucket', 'Loans', 'Rolled forward', 'Cured', 'Roll rate (%)']);
  bold(rolls);
  for (const roll of summary.rollRates) {
    rolls.addRow([
      formatCalendarDate(roll.fromDate),
      formatCalendarDate(roll.toDate),
      bucketLabel(roll.fromBucket),
      roll.loans,
      roll.rolledForward,
      roll.cured,
      percent(roll.rateBps),
    ]);
  }

  const sheet = book.addWorksheet('Loans');
  sheet.addRow(LOAN_HEADER);
  bold(sheet);
  for (const loan of loans) sheet.addRow(loanRow(loan));

  return Buffer.from(await book.xlsx.writeBuffer());
};
