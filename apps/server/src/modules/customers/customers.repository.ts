import { type TAuditAction, ZCustomerStatusAuditEvent } from '@kisht/domain/audit/audit-events';
import { PUSH_REFUSAL_REASONS } from '@kisht/domain/customers/customers.schema';
import { and, count, desc, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { type DbOrTx, queryRows } from '../../db/client';
import { rowsFromJson } from '../../db/json-rows';
import { auditLog, customerCounts, customers, devices, emis, media, products, users } from '../../db/schema';
import type { TStoredPushRefusal } from '../push/push-refusal.service';
import type { CustomerScope } from '../scope/scope.service';

/** The customers of the actor's scope (scope.service scopeOf), as a condition. */
const inScope = (scope: CustomerScope): SQL =>
  and(eq(customers.orgId, scope.orgId), inArray(customers.retailerId, scope.retailerIds))!;

const listColumns = {
  id: customers.id,
  firstName: customers.firstName,
  lastName: customers.lastName,
  mobile: customers.mobile,
  status: customers.status,
  createdAt: customers.createdAt,
  imei1: devices.imei1,
  reportedLocked: devices.reportedLocked,
  productName: products.name,
  productBrand: products.brand,
};

export type CustomerListFilter = {
  search?: string | undefined;
  status?: number | undefined;
  limit: number;
  offset: number;
};

/** Most IMEI matches a search turns into customer ids. */
const MAX_IMEI_MATCHES = 5_000;

/**
 * How many trailing digits of a digit search the trigram indexes are asked for. Mobiles and IMEIs
 * share their leading digits (the +91 and the operator's series; the IMEI's type allocation code, the
 * same for every phone of a model), so the trigrams of a whole number are in nearly every row and the
 * index reads all of their lists; the trailing digits (subscriber number, serial, check digit) are
 * what tells numbers apart. The index finds the rows holding the tail, then `strpos` keeps those
 * holding the whole search: the same rows as `ilike '%digits%'`.
 */
const DIGIT_INDEX_TAIL = 6;

/** `column` contains `digits` (digits only, so no case or escaping), found through its trigram index. */
const containsDigits = (column: SQL, digits: string): SQL => {
  const tail = digits.slice(-DIGIT_INDEX_TAIL);
  return tail === digits
    ? sql`${column} like ${`%${digits}%`}`
    : sql`(${column} like ${`%${tail}%`} and strpos(${column}, ${digits}) > 0)`;
};

/** A list search as the list filters on it: digits (3 or more, spaces, + and - dropped) or a name. */
type ListSearch = { kind: 'digits'; digits: string } | { kind: 'name'; pattern: string } | undefined;

const parseSearch = (raw: string | undefined): ListSearch => {
  const search = raw?.trim();
  if (!search) return undefined;
  const digits = search.replace(/[\s+-]/g, '');
  if (/^\d{3,}$/.test(digits)) return { kind: 'digits', digits };
  return { kind: 'name', pattern: `%${search.replace(/[%_\\]/g, (c) => `\\${c}`)}%` };
};

/**
 * The list filter on customers alone (no joins), so the count and the page of ids can use the
 * customers indexes: status, and a "contains" search (trigram indexes) on names, or — for a search
 * of 3+ digits — on the mobile and on either IMEI (matched on devices first, then by id), and for
 * exactly 6 digits on the EMI PIN too.
 */
const listWhere = async (
  db: DbOrTx,
  scope: CustomerScope,
  filter: { search: ListSearch; status?: number | undefined },
): Promise<SQL> => {
  const conditions: SQL[] = [inScope(scope)];
  if (filter.status !== undefined) conditions.push(eq(customers.status, filter.status));
  const { search } = filter;
  if (search?.kind === 'digits') {
    const { digits } = search;
    const imeiMatches = await db
      .select({ id: devices.customerId })
      .from(devices)
      .where(
        and(
          eq(devices.orgId, scope.orgId),
          or(containsDigits(sql`${devices.imei1}`, digits), containsDigits(sql`${devices.imei2}`, digits)),
        ),
      )
      .limit(MAX_IMEI_MATCHES);
    const byImei = imeiMatches.map((r) => r.id);
    // A 6-digit search may be a loan's EMI PIN (customer_emi_pin).
    const mobile = /^\d{6}$/.test(digits)
      ? or(containsDigits(sql`${customers.mobile}`, digits), eq(customers.emiPin, digits))!
      : containsDigits(sql`${customers.mobile}`, digits);
    conditions.push(byImei.length > 0 ? or(mobile, inArray(customers.id, byImei))! : mobile);
  } else if (search?.kind === 'name') {
    conditions.push(
      or(ilike(customers.firstName, search.pattern), ilike(customers.lastName, search.pattern))!,
    );
  }
  return and(...conditions)!;
};

/**
 * How many customers the list filter matches. Without a search, or with a name search, from the
 * counts the triggers keep (customer_counts): a name search sums the first names and the last names
 * matching it and, when both kinds match, takes off the customers matching by both (counted on
 * customers), so it reads one row per distinct name rather than one per customer. A digit search
 * counts its (few) customers.
 */
const countListed = async (
  db: DbOrTx,
  scope: CustomerScope,
  filter: { search: ListSearch; status?: number | undefined },
  where: SQL,
): Promise<number> => {
  if (filter.search?.kind === 'digits') {
    const [row] = await db.select({ total: count() }).from(customers).where(where);
    return row?.total ?? 0;
  }
  const counted = (kinds: number[], pattern?: string) =>
    db
      .select({ kind: customerCounts.kind, total: sql<string | number>`sum(${customerCounts.total})` })
      .from(customerCounts)
      .where(
        and(
          eq(customerCounts.orgId, scope.orgId),
          inArray(customerCounts.kind, kinds),
          inArray(customerCounts.retailerId, scope.retailerIds),
          filter.status === undefined ? undefined : eq(customerCounts.status, filter.status),
          pattern === undefined ? undefined : ilike(customerCounts.name, pattern),
        ),
      )
      .groupBy(customerCounts.kind);
  const { search } = filter;
  if (search === undefined) return Number((await counted([0]))[0]?.total ?? 0);
  const byKind = await counted([1, 2], search.pattern);
  const byFirst = Number(byKind.find((r) => r.kind === 1)?.total ?? 0);
  const byLast = Number(byKind.find((r) => r.kind === 2)?.total ?? 0);
  if (byFirst === 0 || byLast === 0) return byFirst + byLast;
  // Customers matching by both names were counted twice.
  const [both] = await db
    .select({ total: count() })
    .from(customers)
    .where(and(where, ilike(customers.firstName, search.pattern), ilike(customers.lastName, search.pattern)));
  return byFirst + byLast - (both?.total ?? 0);
};

/**
 * One page of customers in scope, newest first, with their device and product. The page's ids are
 * found on customers alone (index on org, created_at, id), then joined, and the total comes from
 * kept counts (countListed), so a page costs about the same with 100 or 100,000 customers.
 */
export const listCustomers = async (db: DbOrTx, scope: CustomerScope, filter: CustomerListFilter) => {
  const listFilter = { search: parseSearch(filter.search), status: filter.status };
  const where = await listWhere(db, scope, listFilter);
  // The page's ids first (the filter and the order on customers alone, cut to the page), then
  // their columns, in one statement (issue 26): a deferred join.
  const page = db
    .select({ id: customers.id })
    .from(customers)
    .where(where)
    .orderBy(desc(customers.createdAt), desc(customers.id))
    .limit(filter.limit)
    .offset(filter.offset)
    .as('page');
  const [rows, total] = await Promise.all([
    db
      .select(listColumns)
      .from(page)
      .innerJoin(customers, eq(customers.id, page.id))
      .innerJoin(devices, eq(devices.customerId, customers.id))
      .innerJoin(products, eq(products.id, customers.productId))
      .orderBy(desc(customers.createdAt), desc(customers.id)),
    countListed(db, scope, listFilter, where),
  ]);
  return { rows, total };
};

/** Customer counts per status code in scope. */
export const countCustomersByStatus = (db: DbOrTx, scope: CustomerScope) =>
  db
    .select({ status: customers.status, total: count() })
    .from(customers)
    .where(inScope(scope))
    .groupBy(customers.status);

/** Devices of the organisation already holding any of these IMEIs. */
export const findDevicesByImeis = (db: DbOrTx, orgId: number, imeis: string[]) =>
  db
    .select({ imei1: devices.imei1, imei2: devices.imei2 })
    .from(devices)
    .where(and(eq(devices.orgId, orgId), or(inArray(devices.imei1, imeis), inArray(devices.imei2, imeis))));

export const insertCustomer = async (db: DbOrTx, row: typeof customers.$inferInsert) => {
  const [inserted] = await db.insert(customers).values(row).returning({ id: customers.id });
  return inserted!.id;
};

export const insertDevice = async (db: DbOrTx, row: typeof devices.$inferInsert) => {
  await db.insert(devices).values(row);
};

export const insertEmis = async (db: DbOrTx, rows: (typeof emis.$inferInsert)[]) => {
  if (rows.length > 0) await db.insert(emis).values(rows);
};

export const updateCustomerStatus = async (db: DbOrTx, orgId: number, customerId: number, status: number) => {
  await db
    .update(customers)
    .set({ status, updatedAt: new Date() })
    .where(and(eq(customers.orgId, orgId), eq(customers.id, customerId)));
};

export const findCustomerStatus = async (
  db: DbOrTx,
  orgId: number,
  customerId: number,
): Promise<number | null> => {
  const rows = await db
    .select({ status: customers.status })
    .from(customers)
    .where(and(eq(customers.orgId, orgId), eq(customers.id, customerId)))
    .limit(1);
  return rows[0]?.status ?? null;
};

/**
 * What the status history reads of a `customer.status` entry (its member's fields): from, to and
 * the reason; entries written before the event was recorded have these too.
 */
const ZStatusChangeRead = z
  .object(ZCustomerStatusAuditEvent.shape.details.shape)
  .pick({ from: true, to: true, reason: true });

/**
 * Status-change audit entries of a customer (`customer.status`), newest first, with the actor's
 * name; an entry whose details are not of that shape is left out.
 */
export const findStatusChanges = async (db: DbOrTx, orgId: number, customerId: number) => {
  const rows = await db
    .select({ createdAt: auditLog.createdAt, details: auditLog.details, actorName: users.name })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorUserId))
    .where(
      and(
        eq(auditLog.orgId, orgId),
        eq(auditLog.entity, 'customer'),
        eq(auditLog.entityId, String(customerId)),
        eq(auditLog.action, 'customer.status' satisfies TAuditAction),
      ),
    )
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id));
  return rows.flatMap(({ details, ...row }) => {
    const read = ZStatusChangeRead.safeParse(details);
    return read.success ? [{ ...row, details: read.data }] : [];
  });
};

/** Default days before the last due date at which a loan counts as maturing (spec §4 status 6). */
export const DEFAULT_MATURING_WINDOW_DAYS = 30;

/**
 * Moves installed customers whose last unpaid loan is due within their organisation's maturing
 * window (settings.maturingWindowDays, default 30) to EMIs maturing (6). Idempotent, so any number
 * of server processes may run it. Returns the customers it moved.
 */
export const updateMaturingLoans = async (
  db: DbOrTx,
  today: string,
  move: { from: readonly number[]; to: number },
) => {
  const result = await db.execute(sql`
    update customers c set status = ${move.to}, updated_at = now()
    from organizations o
    where o.id = c.org_id
      and c.status = any(${sql.param([...move.from])}::int[])
      and exists (select 1 from emis e where e.customer_id = c.id and e.paid_paise < e.amount_paise)
      and (select max(e.due_date) from emis e where e.customer_id = c.id)
          <= (${today}::date + coalesce((o.settings->>'maturingWindowDays')::int, ${DEFAULT_MATURING_WINDOW_DAYS}))
    returning c.id as "customerId", c.org_id as "orgId"`);
  return (result as unknown as { rows: { customerId: number; orgId: number }[] }).rows;
};

/** Devices of the organisation other than `exceptDeviceId` holding any of the IMEIs. */
export const findOtherDevicesByImeis = (db: DbOrTx, orgId: number, imeis: string[], exceptDeviceId: string) =>
  db
    .select({ imei1: devices.imei1, imei2: devices.imei2 })
    .from(devices)
    .where(
      and(
        eq(devices.orgId, orgId),
        ne(devices.id, exceptDeviceId),
        or(inArray(devices.imei1, imeis), inArray(devices.imei2, imeis)),
      ),
    );

export const updateDeviceIdentity = async (
  db: DbOrTx,
  deviceId: string,
  values: { imei1: string; imei2: string; serialNumber: string | null },
) => {
  await db.update(devices).set(values).where(eq(devices.id, deviceId));
};

/** The audit action push-refusal.service's recordPushRefusal writes (issue 27), and what is read of it. */
const PUSH_TOKEN_REFUSED = 'device.push_token_refused' satisfies TAuditAction;
const ZStoredPushRefusal = z.object({
  reason: z.enum(PUSH_REFUSAL_REASONS),
  at: z.string(),
  tokenFingerprint: z.string(),
});

/**
 * A customer's instalments (by number), the path of their newest live profile photo (or null) and
 * their device's newest push-token refusal (the `device.push_token_refused` audit entry of issue
 * 27: reason, when (ISO 8601 UTC) and the token's fingerprint; or null), in one statement (issue
 * 26: customer_details reads them together, within its budget of 4 statements).
 */
export const findDetailsExtras = async (
  db: DbOrTx,
  target: { orgId: number; customerId: number; deviceId: string },
): Promise<{
  emis: (typeof emis.$inferSelect)[];
  photoPath: string | null;
  pushRefusal: TStoredPushRefusal | null;
}> => {
  const { orgId, customerId, deviceId } = target;
  const [row] = await queryRows<{ photo: string | null; schedule: unknown; push_refusal: unknown }>(
    db,
    sql`select
          (select m.path from ${media} m
            where m.customer_id = ${customerId} and m.kind = 'customer_profile' and m.deleted_at is null
            order by m.created_at desc, m.id desc limit 1) as photo,
          (select coalesce(jsonb_agg(to_jsonb(e) order by e.instalment_no), '[]'::jsonb)
             from ${emis} e where e.customer_id = ${customerId}) as schedule,
          (select jsonb_build_object(
                    'reason', a.details->>'reason',
                    'at', to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                    'tokenFingerprint', a.details->>'tokenFingerprint')
             from ${auditLog} a
            where a.org_id = ${orgId} and a.entity = 'customer' and a.entity_id = ${String(customerId)}
              and a.action = ${PUSH_TOKEN_REFUSED} and a.details->>'deviceId' = ${deviceId}
            order by a.created_at desc, a.id desc limit 1) as push_refusal`,
  );
  return {
    emis: rowsFromJson(emis, row?.schedule),
    photoPath: row?.photo ?? null,
    pushRefusal: row?.push_refusal ? ZStoredPushRefusal.parse(row.push_refusal) : null,
  };
};
