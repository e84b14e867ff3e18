import {
  DPD_BUCKETS,
  type TDpdBucket,
  type TRollRow,
  type TRollTarget,
} from '@kisht/domain/collections/collections.rules';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { users } from '../../db/schema';
import type { CustomerScope } from '../scope/scope.service';

/*
 * The collections view's queries (issue 29). Each answers in one statement with a few rows (per
 * bucket, per shop, per roll step), whatever the size of the portfolio; the rules (what is late,
 * the buckets) are the domain's (collections.rules), turned into SQL here.
 */

/** The scope's customers, as a condition on `customers c`. */
const scopeOf = (scope: CustomerScope): SQL =>
  sql`c.org_id = ${scope.orgId} and c.retailer_id in (${sql.join(
    scope.retailerIds.map((id) => sql`${id}`),
    sql`, `,
  )})`;

/**
 * The DPD bucket of a day count, as SQL: the domain's DPD_BUCKETS as a CASE. Their bounds and keys
 * are constants of ours, written into the statement as literals, so the same expression can be
 * grouped by.
 */
const bucketOf = (dpd: SQL): SQL => {
  const bounded = DPD_BUCKETS.filter((bucket) => bucket.maxDpd !== null);
  const last = DPD_BUCKETS[DPD_BUCKETS.length - 1]!;
  return sql`case ${sql.join(
    bounded.map(
      (bucket) => sql`when ${dpd} <= ${sql.raw(String(bucket.maxDpd))} then ${sql.raw(`'${bucket.key}'`)}`,
    ),
    sql` `,
  )} else ${sql.raw(`'${last.key}'`)} end`;
};

/**
 * One row per open loan of the scope on `asOf` (YYYY-MM-DD, +05:30): its shop, the due date of its
 * oldest unsettled instalment due before asOf (null: current), what is unsettled and what of that
 * is due, paise; `dpd` the days from that due date to asOf.
 */
const openLoans = (scope: CustomerScope, asOf: string): SQL => sql`
  select c.id as customer_id, c.retailer_id,
    min(e.due_date) filter (where e.due_date < ${asOf}::date) as oldest_due,
    coalesce(${asOf}::date - min(e.due_date) filter (where e.due_date < ${asOf}::date), 0) as dpd,
    sum(e.amount_paise - e.paid_paise) as outstanding,
    coalesce(sum(e.amount_paise - e.paid_paise) filter (where e.due_date < ${asOf}::date), 0) as overdue
  from emis e join customers c on c.id = e.customer_id
  where ${scopeOf(scope)} and e.paid_paise < e.amount_paise
  group by c.id, c.retailer_id`;

/** Loans and money per shop and DPD bucket on `asOf`, with the shop's name. */
export const sumBucketsByShop = async (db: DbOrTx, scope: CustomerScope, asOf: string) => {
  const rows = await queryRows<{
    retailer_id: number;
    name: string;
    bucket: TDpdBucket;
    loans: number;
    outstanding: string;
    overdue: string;
  }>(
    db,
    sql`with loan as (${openLoans(scope, asOf)})
      select l.retailer_id, coalesce(u.shop_name, u.name) as name, ${bucketOf(sql`l.dpd`)} as bucket, count(*)::int as loans,
        sum(l.outstanding)::text as outstanding, sum(l.overdue)::text as overdue
      from loan l join users u on u.id = l.retailer_id
      group by 1, 2, 3`,
  );
  return rows.map((row) => ({
    retailerId: Number(row.retailer_id),
    name: row.name,
    bucket: row.bucket,
    loans: Number(row.loans),
    outstandingPaise: Number(row.outstanding),
    overduePaise: Number(row.overdue),
  }));
};

/** One page of the open loans whose DPD on `asOf` is within [minDpd, maxDpd], most late first. */
export const listLoansOfBucket = async (
  db: DbOrTx,
  scope: CustomerScope,
  options: { asOf: string; minDpd: number; maxDpd: number | null; limit: number; offset: number },
) => {
  const rows = await queryRows<{
    customer_id: number;
    first_name: string;
    last_name: string;
    mobile: string;
    retailer_id: number;
    shop_name: string;
    dpd: number;
    oldest_due: string | null;
    outstanding: string;
    overdue: string;
    total: number;
  }>(
    db,
    sql`with loan as (${openLoans(scope, options.asOf)})
      select l.customer_id, c.first_name, c.last_name, c.mobile, l.retailer_id, coalesce(u.shop_name, u.name) as shop_name,
        l.dpd, l.oldest_due::text as oldest_due, l.outstanding::text as outstanding,
        l.overdue::text as overdue, count(*) over ()::int as total
      from loan l join customers c on c.id = l.customer_id join users u on u.id = l.retailer_id
      where l.dpd >= ${options.minDpd} ${options.maxDpd === null ? sql`` : sql`and l.dpd <= ${options.maxDpd}`}
      order by l.dpd desc, l.customer_id
      limit ${options.limit} offset ${options.offset}`,
  );
  return rows.map((row) => ({
    customerId: Number(row.customer_id),
    customerName: `${row.first_name} ${row.last_name}`.trim(),
    mobile: row.mobile,
    retailerId: Number(row.retailer_id),
    shopName: row.shop_name,
    dpd: Number(row.dpd),
    oldestDueDate: row.oldest_due,
    outstandingPaise: Number(row.outstanding),
    overduePaise: Number(row.overdue),
    total: Number(row.total),
  }));
};

/**
 * Collection efficiency's two sums for instalments due from `from` to `to` (inclusive): what fell
 * due, and what was paid towards them before `cutoff` (the end of `to`, +05:30). Paid by then is
 * what is paid now (waivers left out) less what payments received since brought.
 */
export const sumDueAndCollected = async (
  db: DbOrTx,
  scope: CustomerScope,
  period: { from: string; to: string; cutoff: Date },
) => {
  const [row] = await queryRows<{ due: string; collected: string }>(
    db,
    sql`with due as (
        select e.id, e.amount_paise, e.paid_paise - e.waived_paise as paid_now
        from emis e join customers c on c.id = e.customer_id
        where ${scopeOf(scope)} and e.due_date between ${period.from}::date and ${period.to}::date),
      later as (
        select a.emi_id, sum(a.amount_paise) as paid_after
        from payment_allocations a join payments p on p.id = a.payment_id
        where a.emi_id in (select id from due) and p.received_at >= ${period.cutoff.toISOString()}::timestamptz
        group by a.emi_id)
      select coalesce(sum(d.amount_paise), 0)::text as due,
        coalesce(sum(greatest(d.paid_now - coalesce(l.paid_after, 0), 0)), 0)::text as collected
      from due d left join later l on l.emi_id = d.id`,
  );
  return { duePaise: Number(row?.due ?? 0), collectedPaise: Number(row?.collected ?? 0) };
};

/**
 * Where each loan stood at each of `snapshots` (a date and its end, +05:30, oldest first), counted
 * per step between consecutive snapshots: from which bucket to which (or `closed`). A loan's state
 * at a snapshot is rebuilt from today's: an instalment's settled amount then is what is settled now
 * less what payments received after the snapshot's end brought. Penalties and waivers count as
 * they stand now. Only loans open now or paid into since the first snapshot are looked at.
 */
export const countRolls = async (
  db: DbOrTx,
  scope: CustomerScope,
  snapshots: ReadonlyArray<{ date: string; end: Date }>,
): Promise<TRollRow[]> => {
  if (snapshots.length < 2) return [];
  const dates = sql.join(
    snapshots.map((snapshot) => sql`(${snapshot.date}::date, ${snapshot.end.toISOString()}::timestamptz)`),
    sql`, `,
  );
  const rows = await queryRows<{
    from_date: string;
    to_date: string;
    from_bucket: TDpdBucket;
    to: TRollTarget;
    loans: number;
  }>(
    db,
    sql`with snap as (
        select s.d, s.cutoff, row_number() over (order by s.d) as i from (values ${dates}) as s(d, cutoff)),
      active as (
        select e.customer_id from emis e join customers c on c.id = e.customer_id
        where ${scopeOf(scope)} and e.paid_paise < e.amount_paise
        union
        select p.customer_id from payments p join customers c on c.id = p.customer_id
        where ${scopeOf(scope)} and p.received_at >= (select min(cutoff) from snap)),
      le as (
        select e.id, e.customer_id, e.due_date, e.amount_paise, e.paid_paise, c.created_at
        from emis e join customers c on c.id = e.customer_id
        where e.customer_id in (select customer_id from active)),
      later as (
        select s.i, a.emi_id, sum(a.amount_paise) as paid_after
        from snap s join payments p on p.received_at >= s.cutoff
        join payment_allocations a on a.payment_id = p.id
        where p.customer_id in (select customer_id from active)
        group by s.i, a.emi_id),
      state as (
        select s.i, s.d, le.customer_id,
          bool_or(le.amount_paise > le.paid_paise - coalesce(l.paid_after, 0)) as open,
          min(le.due_date) filter (
            where le.due_date < s.d and le.amount_paise > le.paid_paise - coalesce(l.paid_after, 0)
          ) as oldest_due
        from snap s join le on le.created_at < s.cutoff
        left join later l on l.i = s.i and l.emi_id = le.id
        group by s.i, s.d, le.customer_id),
      placed as (
        select i, customer_id, ${bucketOf(sql`coalesce(d - oldest_due, 0)`)} as bucket
        from state where open)
      select f.d::text as from_date, t.d::text as to_date, p.bucket as from_bucket,
        coalesce(n.bucket, 'closed') as "to", count(*)::int as loans
      from placed p join snap f on f.i = p.i join snap t on t.i = p.i + 1
      left join placed n on n.i = p.i + 1 and n.customer_id = p.customer_id
      group by 1, 2, 3, 4`,
  );
  return rows.map((row) => ({
    fromDate: row.from_date,
    toDate: row.to_date,
    fromBucket: row.from_bucket,
    to: row.to,
    loans: Number(row.loans),
  }));
};

/** The ids of the organisation's shops (retailers and mini-retailers), for an admin's scope. */
export const findShopIds = async (db: DbOrTx, orgId: number): Promise<number[]> =>
  (
    await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.orgId, orgId), inArray(users.userType, ['retailer', 'miniretailer'])))
  ).map((row) => row.id);
