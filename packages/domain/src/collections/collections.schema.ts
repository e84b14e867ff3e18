import { z } from 'zod';
import { ZIsoDate, zPage } from '../common/envelope';
import { ZId, ZQueryId } from '../common/identifiers';
import { DPD_BUCKET_KEYS } from './collections.rules';

/** The longest period the collection efficiency is asked for, days. */
export const MAX_EFFICIENCY_PERIOD_DAYS = 366;

/** A real calendar date, YYYY-MM-DD (not 2026-02-31). */
const ZCalendarDate = ZIsoDate.refine((value) => {
  const date = new Date(`${value}T00:00:00Z`);
  // An impossible date (2026-13-45) is an Invalid Date, whose toISOString throws; 2026-02-31 is
  // 3 March, which the comparison refuses.
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}, 'Not a calendar date');

const ZPeriod = z
  .object({
    /** First day of the collection-efficiency period (+05:30); default the first of this month. */
    from: ZCalendarDate.optional(),
    /** Last day of the period, inclusive; default today. */
    to: ZCalendarDate.optional(),
    /** Only this shop: the actor or one of its mini-retailers (an admin: any of the organisation's). */
    retailer_id: ZQueryId.optional(),
  })
  .superRefine((query, ctx) => {
    if (!query.from || !query.to) return;
    if (query.from > query.to)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before from' });
    const days = (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000;
    if (days >= MAX_EFFICIENCY_PERIOD_DAYS) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `At most ${MAX_EFFICIENCY_PERIOD_DAYS} days after from`,
      });
    }
  });

/** GET collections summary query: the period of the collection efficiency and an optional shop. */
export const ZCollectionsQuery = ZPeriod;
export type TCollectionsQuery = z.input<typeof ZCollectionsQuery>;

/** A DPD bucket key (collections.rules DPD_BUCKETS). */
export const ZDpdBucket = z.enum(DPD_BUCKET_KEYS);

const ZBucketFigures = z.object({
  bucket: ZDpdBucket,
  loans: z.number().int(),
  /** Every unsettled rupee of the bucket's loans, due or not, paise. */
  outstandingPaise: z.number().int(),
  /** The part of it already due, paise. */
  overduePaise: z.number().int(),
});
export type TBucketFiguresItem = z.infer<typeof ZBucketFigures>;

const ZParFigures = z.object({
  loans: z.number().int(),
  outstandingPaise: z.number().int(),
  /** Share of all outstanding, basis points; null with nothing outstanding. */
  ratioBps: z.number().int().nullable(),
});

/** One shop's buckets and PAR 30. */
export const ZCollectionsShop = z.object({
  retailerId: ZId,
  name: z.string(),
  buckets: z.array(ZBucketFigures),
  par30: ZParFigures,
});

/** The collections view (issue 29): buckets, PAR 30, collection efficiency, roll rates, per shop. */
export const ZCollectionsSummary = z.object({
  /** The date the buckets are counted on, +05:30. */
  asOf: ZIsoDate,
  buckets: z.array(ZBucketFigures),
  par30: ZParFigures,
  efficiency: z.object({
    from: ZIsoDate,
    to: ZIsoDate,
    /** What fell due in the period, paise. */
    duePaise: z.number().int(),
    /** What was paid towards those instalments by the end of the period, paise (waivers not counted). */
    collectedPaise: z.number().int(),
    ratioBps: z.number().int().nullable(),
  }),
  rollRates: z.array(
    z.object({
      fromDate: ZIsoDate,
      toDate: ZIsoDate,
      fromBucket: ZDpdBucket,
      loans: z.number().int(),
      rolledForward: z.number().int(),
      cured: z.number().int(),
      rateBps: z.number().int().nullable(),
    }),
  ),
  shops: z.array(ZCollectionsShop),
});
export type TCollectionsSummary = z.infer<typeof ZCollectionsSummary>;

/** GET collections customers query: the loans of one bucket, most days past due first, a page at a time. */
export const ZCollectionsCustomersQuery = z.object({
  bucket: ZDpdBucket,
  retailer_id: ZQueryId.optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type TCollectionsCustomersQuery = z.input<typeof ZCollectionsCustomersQuery>;

/** One open loan of a bucket. */
export const ZCollectionsCustomer = z.object({
  customerId: ZId,
  customerName: z.string(),
  mobile: z.string(),
  retailerId: ZId,
  shopName: z.string(),
  dpd: z.number().int(),
  /** Due date of the oldest late instalment; null for a current loan. */
  oldestDueDate: ZIsoDate.nullable(),
  outstandingPaise: z.number().int(),
  overduePaise: z.number().int(),
});
export type TCollectionsCustomer = z.infer<typeof ZCollectionsCustomer>;

export const ZCollectionsCustomersPage = zPage(ZCollectionsCustomer);
export type TCollectionsCustomersPage = z.infer<typeof ZCollectionsCustomersPage>;

/** The export's formats: CSV (the loans) or an Excel workbook (buckets, shops, roll rates and loans). */
export const COLLECTIONS_EXPORT_FORMATS = ['csv', 'xlsx'] as const;

/** GET collections export query: the summary's, and the format. */
export const ZCollectionsExportQuery = z.object({
  format: z.enum(COLLECTIONS_EXPORT_FORMATS),
  from: ZCalendarDate.optional(),
  to: ZCalendarDate.optional(),
  retailer_id: ZQueryId.optional(),
});
export type TCollectionsExportQuery = z.input<typeof ZCollectionsExportQuery>;
