import {
  dpdRangeOf,
  portfolioAtRisk,
  previousMonthEnds,
  ROLL_RATE_MONTHS,
  ratioBps,
  rollRates,
  sumBuckets,
  type TBucketRow,
} from '@kisht/domain/collections/collections.rules';
import type {
  TCollectionsCustomer,
  TCollectionsCustomersPage,
  TCollectionsSummary,
  ZCollectionsCustomersQuery,
  ZCollectionsQuery,
} from '@kisht/domain/collections/collections.schema';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { addDays, istDate, istWallClockToMs } from '@kisht/domain/common/time';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import type { CustomerScope } from '../scope/scope.service';
import { descendantIdsOf, scopedRetailerIds } from '../users/users.service';
import * as repo from './collections.repository';

/** The instant a +05:30 calendar date ends (00:00 +05:30 of the next day). */
const endOfIstDay = (isoDate: string): Date => new Date(istWallClockToMs(`${addDays(isoDate, 1)}T00:00`)!);

/** "Today" for the collections view: the +05:30 date and the instant (tests pass their own). */
export type TCollectionsClock = { today: string; now: Date };

const clockNow = (): TCollectionsClock => {
  const now = new Date();
  return { today: istDate(now), now };
};

const shopNotFound = () =>
  new AppError(AppErrorCode.NOT_FOUND, 'Retailer not found', [
    { field: 'retailer_id', message: 'Choose one of your retailers' },
  ]);

/**
 * Whose loans the actor's collections view counts: a retailer its own and its mini-retailers', a
 * mini-retailer its own, an organisation admin every shop's of the organisation, a distributor every
 * shop's of its subtree (issue 30); `retailerId`
 * narrows to one of those. Throws NOT_FOUND (field retailer_id) for any other shop, another
 * organisation's included, and FORBIDDEN for customers.
 */
export const collectionsScope = async (
  db: DbOrTx,
  actor: TActor,
  retailerId?: number | undefined,
): Promise<CustomerScope> => {
  if (actor.userType !== 'admin' && actor.userType !== 'distributor') {
    return { orgId: actor.orgId, retailerIds: await scopedRetailerIds(db, actor, retailerId) };
  }
  // A distributor's subtree holds its distributors too, who have no loans: they count nothing.
  const shops =
    actor.userType === 'admin' ? await repo.findShopIds(db, actor.orgId) : await descendantIdsOf(db, actor);
  if (retailerId === undefined) return { orgId: actor.orgId, retailerIds: shops };
  if (!shops.includes(retailerId)) throw shopNotFound();
  return { orgId: actor.orgId, retailerIds: [retailerId] };
};

/**
 * The collections view (issue 29) on today's +05:30 date: the scope's open loans by DPD bucket
 * (count, outstanding and overdue paise), PAR 30, collection efficiency for `from`–`to` (default
 * this month to today), roll rates month to month over the last ROLL_RATE_MONTHS months (the last
 * step ends today), and buckets and PAR 30 per shop. Scope errors as collectionsScope.
 */
export const getCollectionsSummary = async (
  db: DbOrTx,
  actor: TActor,
  query: z.output<typeof ZCollectionsQuery>,
  clock: TCollectionsClock = clockNow(),
): Promise<TCollectionsSummary> =>
  summaryOf(db, await collectionsScope(db, actor, query.retailer_id), query, clock);

const summaryOf = async (
  db: DbOrTx,
  scope: CustomerScope,
  query: z.output<typeof ZCollectionsQuery>,
  clock: TCollectionsClock,
): Promise<TCollectionsSummary> => {
  const from = query.from ?? `${clock.today.slice(0, 7)}-01`;
  const to = query.to ?? clock.today;
  if (from > to) {
    throw new AppError(AppErrorCode.VALIDATION_FAILED, 'The period ends before it starts', [
      { field: 'from', message: 'Must not be after to' },
    ]);
  }
  const monthEnds = previousMonthEnds(clock.today, ROLL_RATE_MONTHS);
  const snapshots = [
    ...monthEnds.map((date) => ({ date, end: endOfIstDay(date) })),
    { date: clock.today, end: clock.now },
  ];
  const [rows, sums, rolls] =
    scope.retailerIds.length === 0
      ? [[], { duePaise: 0, collectedPaise: 0 }, []]
      : await Promise.all([
          repo.sumBucketsByShop(db, scope, clock.today),
          repo.sumDueAndCollected(db, scope, { from, to, cutoff: endOfIstDay(to) }),
          repo.countRolls(db, scope, snapshots),
        ]);
  const buckets = sumBuckets(rows);
  const shops = [...new Map(rows.map((row) => [row.retailerId, row.name])).entries()]
    .map(([retailerId, name]) => {
      const own = sumBuckets(rows.filter((row: TBucketRow) => row.retailerId === retailerId));
      return { retailerId, name, buckets: own, par30: portfolioAtRisk(own) };
    })
    .sort((a, b) => b.par30.outstandingPaise - a.par30.outstandingPaise || a.retailerId - b.retailerId);
  return {
    asOf: clock.today,
    buckets,
    par30: portfolioAtRisk(buckets),
    efficiency: { from, to, ...sums, ratioBps: ratioBps(sums.collectedPaise, sums.duePaise) },
    rollRates: rollRates(
      snapshots
        .slice(1)
        .map((snapshot, index) => ({ fromDate: snapshots[index]!.date, toDate: snapshot.date })),
      rolls,
    ),
    shops,
  };
};

/**
 * The open loans of one DPD bucket on today's +05:30 date, most days past due first, a page at a
 * time (issue 29's drill-down). Scope errors as collectionsScope.
 */
export const listCollectionsCustomers = async (
  db: DbOrTx,
  actor: TActor,
  query: z.output<typeof ZCollectionsCustomersQuery>,
  clock: TCollectionsClock = clockNow(),
): Promise<TCollectionsCustomersPage> => {
  const scope = await collectionsScope(db, actor, query.retailer_id);
  const range = dpdRangeOf(query.bucket);
  const rows =
    scope.retailerIds.length === 0
      ? []
      : await repo.listLoansOfBucket(db, scope, {
          asOf: clock.today,
          ...range,
          limit: query.pageSize,
          offset: (query.page - 1) * query.pageSize,
        });
  return {
    items: rows.map(({ total: _total, ...item }) => item),
    total: rows[0]?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
};

/** Most loans one export lists. */
export const EXPORT_MAX_LOANS = 50_000;

/**
 * What an export holds: the summary and every open loan of the scope (up to EXPORT_MAX_LOANS),
 * most days past due first.
 */
export const getCollectionsExport = async (
  db: DbOrTx,
  actor: TActor,
  query: z.output<typeof ZCollectionsQuery>,
  clock: TCollectionsClock = clockNow(),
): Promise<{ summary: TCollectionsSummary; loans: TCollectionsCustomer[] }> => {
  const scope = await collectionsScope(db, actor, query.retailer_id);
  const [summary, loans] = await Promise.all([
    summaryOf(db, scope, query, clock),
    scope.retailerIds.length === 0
      ? []
      : repo.listLoansOfBucket(db, scope, {
          asOf: clock.today,
          minDpd: 0,
          maxDpd: null,
          limit: EXPORT_MAX_LOANS,
          offset: 0,
        }),
  ]);
  return { summary, loans: loans.map(({ total: _total, ...item }) => item) };
};
