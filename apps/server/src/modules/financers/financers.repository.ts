import type { TAuditAction } from '@kisht/domain/audit/audit-events';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { queryRows } from '../../db/client';
import { customers, devices, financers, products } from '../../db/schema';

/** The audit action of one try to hand a customer to the financer; counts tries and holds the lease. */
export const HANDOFF_ATTEMPT_ACTION = 'customer.financer_handoff_attempt' satisfies TAuditAction;

/** A customer with what the financer is sent: borrower, phone, loan, financer name and hand-off state. */
export const findHandoffCustomer = async (db: DbOrTx, orgId: number, customerId: number) => {
  const rows = await db
    .select({
      orgId: customers.orgId,
      customerId: customers.id,
      firstName: customers.firstName,
      lastName: customers.lastName,
      mobile: customers.mobile,
      email: customers.email,
      dateOfBirth: customers.dateOfBirth,
      address: customers.address,
      pricePaise: customers.pricePaise,
      downPaymentPaise: customers.downPaymentPaise,
      loanAmountPaise: customers.loanAmountPaise,
      tenureMonths: customers.tenureMonths,
      annualRateBps: customers.annualRateBps,
      emiPaise: customers.emiPaise,
      handoffStatus: customers.financerHandoffStatus,
      financerName: financers.name,
      imei1: devices.imei1,
      imei2: devices.imei2,
      productBrand: products.brand,
      productName: products.name,
    })
    .from(customers)
    .innerJoin(devices, eq(devices.customerId, customers.id))
    .innerJoin(products, eq(products.id, customers.productId))
    .leftJoin(financers, eq(financers.id, customers.financerId))
    .where(and(eq(customers.orgId, orgId), eq(customers.id, customerId)))
    .limit(1);
  return rows[0] ?? null;
};
export type THandoffCustomerRow = NonNullable<Awaited<ReturnType<typeof findHandoffCustomer>>>;

/**
 * Claims at most `limit` customers whose hand-off is pending or failed and due: never tried, or
 * the last try (HANDOFF_ATTEMPT_ACTION audit entry) at least min(maxDelaySeconds, baseDelaySeconds ×
 * 2^(tries − 1)) before `now`. Rows another process holds are skipped (FOR UPDATE SKIP LOCKED);
 * the caller records a try for each in the same transaction, which leases the row for at least
 * baseDelaySeconds. Answers each with the number of tries made before.
 */
export const claimDueHandoffs = (
  db: DbOrTx,
  options: { now: Date; limit: number; baseDelaySeconds: number; maxDelaySeconds: number },
) =>
  queryRows<{ orgId: number; customerId: number; attempts: number }>(
    db,
    sql`select c.org_id as "orgId", c.id as "customerId", t.attempts
        from customers c
        cross join lateral (
          select count(*)::int as attempts, max(a.created_at) as last_at
          from audit_log a
          where a.org_id = c.org_id and a.entity = 'customer' and a.entity_id = c.id::text
            and a.action = ${HANDOFF_ATTEMPT_ACTION}
        ) t
        where c.financer_handoff_status in ('pending', 'failed')
          and (t.last_at is null or t.last_at <= ${options.now.toISOString()}::timestamptz - make_interval(
            secs => least(${options.maxDelaySeconds}::float8,
              ${options.baseDelaySeconds}::float8 * power(2, greatest(t.attempts - 1, 0))::float8)))
        order by c.id
        limit ${options.limit}
        for update of c skip locked`,
  );

/**
 * The hand-off tries recorded so far for each of `customerIds`, read afresh (a new statement sees
 * what other transactions committed since the claim's snapshot).
 */
export const countAttempts = async (db: DbOrTx, customerIds: number[]): Promise<Map<number, number>> => {
  if (customerIds.length === 0) return new Map();
  const rows = await queryRows<{ customerId: number; attempts: number }>(
    db,
    sql`select c.id as "customerId",
          (select count(*)::int from audit_log a
            where a.org_id = c.org_id and a.entity = 'customer' and a.entity_id = c.id::text
              and a.action = ${HANDOFF_ATTEMPT_ACTION}) as attempts
        from customers c where c.id in (${sql.join(
          customerIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  );
  return new Map(rows.map((row) => [row.customerId, row.attempts]));
};

/** Locks one customer row for a hand-off now (waits for another holder); answers its state and tries. */
export const lockHandoff = async (db: DbOrTx, orgId: number, customerId: number) => {
  const [row] = await queryRows<{ status: string | null; attempts: number }>(
    db,
    sql`select c.financer_handoff_status as status,
          (select count(*)::int from audit_log a
            where a.org_id = c.org_id and a.entity = 'customer' and a.entity_id = c.id::text
              and a.action = ${HANDOFF_ATTEMPT_ACTION}) as attempts
        from customers c where c.org_id = ${orgId} and c.id = ${customerId}
        for update of c`,
  );
  return row ?? null;
};

/** Sets the hand-off pending (a customer whose status was never set). */
export const markHandoffPending = async (db: DbOrTx, orgId: number, customerId: number) => {
  await db
    .update(customers)
    .set({ financerHandoffStatus: 'pending' })
    .where(and(eq(customers.orgId, orgId), eq(customers.id, customerId)));
};

/** Stores the financer's reference and marks the hand-off done, unless it already is; answers whether it changed. */
export const markHandoffDone = async (
  db: DbOrTx,
  orgId: number,
  customerId: number,
  reference: string,
): Promise<boolean> => {
  const rows = await db
    .update(customers)
    .set({ financerHandoffStatus: 'done', financerReference: reference, updatedAt: new Date() })
    .where(
      and(
        eq(customers.orgId, orgId),
        eq(customers.id, customerId),
        inArray(customers.financerHandoffStatus, ['pending', 'failed']),
      ),
    )
    .returning({ id: customers.id });
  return rows.length > 0;
};

/** Marks a pending or failed hand-off failed (a done one stays done); answers whether it changed. */
export const markHandoffFailed = async (db: DbOrTx, orgId: number, customerId: number): Promise<boolean> => {
  const rows = await db
    .update(customers)
    .set({ financerHandoffStatus: 'failed' })
    .where(
      and(
        eq(customers.orgId, orgId),
        eq(customers.id, customerId),
        inArray(customers.financerHandoffStatus, ['pending', 'failed']),
      ),
    )
    .returning({ id: customers.id });
  return rows.length > 0;
};

/** How many hand-offs are pending or failed, over every organisation (for the log when none can be sent). */
export const countOpenHandoffs = async (db: DbOrTx): Promise<number> => {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from customers where financer_handoff_status in ('pending', 'failed')`,
  );
  return row?.n ?? 0;
};
