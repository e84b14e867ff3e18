import { and, asc, count, desc, eq, gte, inArray, lt, lte, sql, sum } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import {
  customers,
  devices,
  emis,
  orgCounters,
  paymentAllocations,
  payments,
  products,
  users,
} from '../../db/schema';
import type { CustomerScope } from '../scope/scope.service';

const inScope = (scope: CustomerScope) =>
  and(eq(customers.orgId, scope.orgId), inArray(customers.retailerId, scope.retailerIds))!;
const unpaid = sql`${emis.paidPaise} < ${emis.amountPaise}`;

export type EmiRow = typeof emis.$inferSelect;

export const findEmisOfCustomer = (db: DbOrTx, customerId: number) =>
  db.select().from(emis).where(eq(emis.customerId, customerId)).orderBy(asc(emis.instalmentNo));

/** The chosen instalments of a customer (or all of them), locked for update (a payment changes them). */
export const lockEmis = (db: DbOrTx, customerId: number, emiIds: number[] | 'all') =>
  db
    .select()
    .from(emis)
    .where(
      emiIds === 'all'
        ? eq(emis.customerId, customerId)
        : and(eq(emis.customerId, customerId), inArray(emis.id, emiIds)),
    )
    .orderBy(asc(emis.instalmentNo))
    .for('update');

/** How many of a customer's instalments are not fully paid. */
export const countUnpaidOfCustomer = async (db: DbOrTx, customerId: number): Promise<number> => {
  const [row] = await db
    .select({ n: count() })
    .from(emis)
    .where(and(eq(emis.customerId, customerId), unpaid));
  return row?.n ?? 0;
};

/**
 * Applies a payment's allocations to its customer's instalments (paid += amount), writes the
 * allocations, and answers how many of the customer's instalments are still unpaid after it and
 * how many it settled (paid in full), in one statement (issue 26). Instalments must be the customer's, each once.
 */
export const applyAllocations = async (
  db: DbOrTx,
  options: { paymentId: number; customerId: number; allocations: { emiId: number; amountPaise: number }[] },
): Promise<{ unpaid: number; settled: number }> => {
  const { allocations } = options;
  const [row] = await queryRows<{ unpaid: number; settled: number }>(
    db,
    sql`with v as (
          select * from unnest(${sql.param(allocations.map((a) => a.emiId))}::int[],
                               ${sql.param(allocations.map((a) => a.amountPaise))}::bigint[]) as v (emi_id, amount)
        ),
        paid as (
          update emis e set paid_paise = e.paid_paise + v.amount from v
          where e.id = v.emi_id and e.customer_id = ${options.customerId}
          returning e.id, e.paid_paise, e.amount_paise
        ),
        allocated as (
          insert into payment_allocations (payment_id, emi_id, amount_paise)
          select ${options.paymentId}, v.emi_id, v.amount from v
        )
        select ((select count(*) from emis e where e.customer_id = ${options.customerId}
                   and e.id <> all(${sql.param(allocations.map((a) => a.emiId))}::int[])
                   and e.paid_paise < e.amount_paise)
              + (select count(*) from paid p where p.paid_paise < p.amount_paise))::int as unpaid,
               (select count(*) from paid p where p.paid_paise >= p.amount_paise)::int as settled`,
  );
  return { unpaid: row?.unpaid ?? 0, settled: row?.settled ?? 0 };
};

/** org_counters name of the organisation's running receipt number. */
const RECEIPT_COUNTER = 'receipt';

/**
 * Takes the organisation's next receipt number (org_counters 'receipt': the last number handed out,
 * so the first is 1). The counter row stays locked until the transaction ends, so concurrent
 * payments of one organisation get distinct numbers, and a payment rolled back gives its number back.
 */
export const takeReceiptSeq = async (db: DbOrTx, orgId: number): Promise<number> => {
  const [row] = await db
    .insert(orgCounters)
    .values({ orgId, name: RECEIPT_COUNTER, value: 1 })
    .onConflictDoUpdate({
      target: [orgCounters.orgId, orgCounters.name],
      set: { value: sql`${sql.identifier('org_counters')}.${sql.identifier('value')} + 1` },
    })
    .returning({ value: orgCounters.value });
  return row!.value;
};

/**
 * Inserts a payment. With an idempotency key, a payment of the organisation already holding the key
 * (payments_org_idempotency_uq; a concurrent one is waited for) makes this insert nothing and
 * answer null.
 */
export const insertPayment = async (db: DbOrTx, row: typeof payments.$inferInsert) => {
  const [inserted] = await db
    .insert(payments)
    .values(row)
    .onConflictDoNothing({
      target: [payments.orgId, payments.idempotencyKey],
      where: sql`idempotency_key is not null`,
    })
    .returning();
  return inserted ?? null;
};

/** The organisation's payment recorded with an idempotency key, or null. */
export const findPaymentByIdempotencyKey = async (db: DbOrTx, orgId: number, idempotencyKey: string) => {
  const rows = await db
    .select({
      id: payments.id,
      customerId: payments.customerId,
      idempotencyFingerprint: payments.idempotencyFingerprint,
    })
    .from(payments)
    .where(and(eq(payments.orgId, orgId), eq(payments.idempotencyKey, idempotencyKey)))
    .limit(1);
  return rows[0] ?? null;
};

/**
 * Payments of a customer, newest first, with who recorded them and their allocations (by
 * instalment number), in one statement (issue 26).
 */
export const findPaymentsOfCustomer = async (db: DbOrTx, customerId: number) => {
  const rows = await db
    .select({
      payment: payments,
      recordedByName: users.name,
      allocations: sql<{ payment_id: number; amount_paise: number; instalment_no: number }[]>`(
        select coalesce(jsonb_agg(jsonb_build_object('payment_id', a.payment_id,
                 'amount_paise', a.amount_paise, 'instalment_no', e.instalment_no)
               order by e.instalment_no), '[]'::jsonb)
        from ${paymentAllocations} a join ${emis} e on e.id = a.emi_id
        where a.payment_id = ${payments.id})`,
    })
    .from(payments)
    .leftJoin(users, eq(users.id, payments.recordedBy))
    .where(eq(payments.customerId, customerId))
    .orderBy(desc(payments.receivedAt), desc(payments.id));
  return rows.map((r) => ({
    payment: r.payment,
    recordedByName: r.recordedByName,
    allocations: r.allocations.map((a) => ({
      paymentId: a.payment_id,
      amountPaise: Number(a.amount_paise),
      instalmentNo: a.instalment_no,
    })),
  }));
};

export type UpcomingRange = { from?: string; to?: string; before?: string };

const rangeWhere = (range: UpcomingRange) =>
  and(
    unpaid,
    range.from ? gte(emis.dueDate, range.from) : undefined,
    range.to ? lte(emis.dueDate, range.to) : undefined,
    range.before ? lt(emis.dueDate, range.before) : undefined,
  );

/** Unpaid instalments of the scope in a due-date range, earliest due first. */
export const listUnpaidEmis = async (
  db: DbOrTx,
  scope: CustomerScope,
  range: UpcomingRange,
  page: { limit: number; offset: number },
) => {
  const where = and(inScope(scope), rangeWhere(range));
  const [rows, totals] = await Promise.all([
    db
      .select({
        emi: emis,
        firstName: customers.firstName,
        lastName: customers.lastName,
        mobile: customers.mobile,
      })
      .from(emis)
      .innerJoin(customers, eq(customers.id, emis.customerId))
      .where(where)
      .orderBy(asc(emis.dueDate), asc(emis.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(emis).innerJoin(customers, eq(customers.id, emis.customerId)).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
};

export const countUnpaidEmis = async (
  db: DbOrTx,
  scope: CustomerScope,
  range: UpcomingRange,
): Promise<number> => {
  const [row] = await db
    .select({ n: count() })
    .from(emis)
    .innerJoin(customers, eq(customers.id, emis.customerId))
    .where(and(inScope(scope), rangeWhere(range)));
  return row?.n ?? 0;
};

/** Sum of amount − paid over the scope's unpaid instalments, optionally only those due before a date. */
export const sumOutstanding = async (
  db: DbOrTx,
  scope: CustomerScope,
  dueBefore?: string,
): Promise<number> => {
  const [row] = await db
    .select({ total: sum(sql`${emis.amountPaise} - ${emis.paidPaise}`) })
    .from(emis)
    .innerJoin(customers, eq(customers.id, emis.customerId))
    .where(and(inScope(scope), unpaid, dueBefore ? lt(emis.dueDate, dueBefore) : undefined));
  return Number(row?.total ?? 0);
};

/** Sum of payments received from the scope's customers, optionally since an instant. */
export const sumCollected = async (db: DbOrTx, scope: CustomerScope, since?: Date): Promise<number> => {
  const [row] = await db
    .select({ total: sum(payments.amountPaise) })
    .from(payments)
    .innerJoin(customers, eq(customers.id, payments.customerId))
    .where(and(inScope(scope), since ? gte(payments.receivedAt, since) : undefined));
  return Number(row?.total ?? 0);
};

/** Loans of a customer user: customers of the organisation with their mobile, with retailer and device. */
export const findLoansOfMobile = (db: DbOrTx, orgId: number, mobile: string) =>
  db
    .select({
      customerId: customers.id,
      productId: customers.productId,
      emiPin: customers.emiPin,
      retailerName: users.name,
      retailerUpiId: users.upiId,
      retailerUpiPayeeName: users.upiPayeeName,
      retailerPaymentQrMediaId: users.paymentQrMediaId,
      reportedLocked: devices.reportedLocked,
      productBrand: products.brand,
      productName: products.name,
    })
    .from(customers)
    .innerJoin(users, eq(users.id, customers.retailerId))
    .innerJoin(devices, eq(devices.customerId, customers.id))
    .innerJoin(products, eq(products.id, customers.productId))
    .where(and(eq(customers.orgId, orgId), eq(customers.mobile, mobile)))
    .orderBy(desc(customers.createdAt));

/** Replaces a customer's whole schedule (only before any payment). */
export const replaceSchedule = async (
  db: DbOrTx,
  owner: { orgId: number; customerId: number },
  schedule: {
    instalmentNo: number;
    dueDate: string;
    amountPaise: number;
    principalPaise: number;
    interestPaise: number;
  }[],
) => {
  await db.delete(emis).where(eq(emis.customerId, owner.customerId));
  await db.insert(emis).values(
    schedule.map((i) => ({
      orgId: owner.orgId,
      customerId: owner.customerId,
      instalmentNo: i.instalmentNo,
      dueDate: i.dueDate,
      amountPaise: i.amountPaise,
      principalPaise: i.principalPaise,
      interestPaise: i.interestPaise,
    })),
  );
};

export const updateLoanTerms = async (
  db: DbOrTx,
  customerId: number,
  values: Partial<typeof customers.$inferInsert>,
) => {
  await db
    .update(customers)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(customers.id, customerId));
};

/** One instalment of a customer, locked for update, or null. */
export const lockEmi = async (db: DbOrTx, customerId: number, emiId: number) => {
  const rows = await db
    .select()
    .from(emis)
    .where(and(eq(emis.customerId, customerId), eq(emis.id, emiId)))
    .for('update');
  return rows[0] ?? null;
};

/** Levies a penalty: it joins the instalment's amount and is kept apart in penalty_paise. */
export const addPenalty = async (db: DbOrTx, emiId: number, penaltyPaise: number) => {
  await db
    .update(emis)
    .set({
      amountPaise: sql`${emis.amountPaise} + ${penaltyPaise}`,
      penaltyPaise: sql`${emis.penaltyPaise} + ${penaltyPaise}`,
    })
    .where(eq(emis.id, emiId));
};

/** Waives an amount: it counts as paid (so the instalment clears) and is kept apart in waived_paise. */
export const addWaiver = async (db: DbOrTx, emiId: number, waivedPaise: number) => {
  await db
    .update(emis)
    .set({
      paidPaise: sql`${emis.paidPaise} + ${waivedPaise}`,
      waivedPaise: sql`${emis.waivedPaise} + ${waivedPaise}`,
    })
    .where(eq(emis.id, emiId));
};

export const findEmiPin = async (db: DbOrTx, customerId: number) => {
  const rows = await db
    .select({ emiPin: customers.emiPin, updatedAt: customers.emiPinUpdatedAt })
    .from(customers)
    .where(eq(customers.id, customerId))
    .limit(1);
  return rows[0] ?? null;
};

/**
 * Sets a customer's EMI PIN unless another customer of the organisation holds it. Returns false on
 * that collision (the caller draws again), true when set.
 */
export const trySetEmiPin = async (
  db: DbOrTx,
  owner: { orgId: number; customerId: number },
  emiPin: string,
): Promise<boolean> => {
  const holders = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.orgId, owner.orgId), eq(customers.emiPin, emiPin)))
    .limit(1);
  if (holders.length > 0) return false;
  await db
    .update(customers)
    .set({ emiPin, emiPinUpdatedAt: new Date() })
    .where(eq(customers.id, owner.customerId));
  return true;
};
