import { BULK_EXCLUDED_STATUSES } from '@kisht/domain/customers/customers.rules';
import { and, asc, eq, inArray, notInArray, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { customers, devices, emis, products } from '../../db/schema';

/** Actor scope for customer queries: the organisation and the retailers whose customers are visible. */
export type CustomerScope = { orgId: number; retailerIds: number[] };

/** The customers of a scope (organisation and visible retailers), as a condition. */
export const inScope = (scope: CustomerScope): SQL =>
  and(eq(customers.orgId, scope.orgId), inArray(customers.retailerId, scope.retailerIds))!;

/** One customer in scope with device and product, or null (other tenants' ids included). */
export const findCustomer = async (db: DbOrTx, scope: CustomerScope, id: number) => {
  const rows = await db
    .select({ customer: customers, device: devices, product: products })
    .from(customers)
    .innerJoin(devices, eq(devices.customerId, customers.id))
    .innerJoin(products, eq(products.id, customers.productId))
    .where(and(inScope(scope), eq(customers.id, id)))
    .limit(1);
  return rows[0] ?? null;
};

/**
 * Customers in scope with their devices for a bulk command: the chosen ids (any status), or those
 * with an enrolled phone ('all_enrolled'), or those with an unpaid instalment due before `today`
 * ('overdue'). The filters leave out the statuses of BULK_EXCLUDED_STATUSES (uninstalled,
 * Apple-removed, EMIs completed). Ordered by customer id.
 */
export const findBulkTargets = (
  db: DbOrTx,
  scope: CustomerScope,
  selection: { customerIds: number[] } | { filter: 'all_enrolled' | 'overdue'; today: string },
) => {
  const conditions: SQL[] = [inScope(scope)];
  if ('customerIds' in selection) conditions.push(inArray(customers.id, selection.customerIds));
  else {
    conditions.push(
      sql`${devices.enrolledAt} is not null`,
      notInArray(customers.status, BULK_EXCLUDED_STATUSES),
    );
    if (selection.filter === 'overdue') {
      conditions.push(
        sql`exists (select 1 from ${emis} where ${emis.customerId} = ${customers.id}
              and ${emis.paidPaise} < ${emis.amountPaise} and ${emis.dueDate} < ${selection.today})`,
      );
    }
  }
  return db
    .select({ customer: customers, device: devices })
    .from(customers)
    .innerJoin(devices, eq(devices.customerId, customers.id))
    .where(and(...conditions))
    .orderBy(asc(customers.id));
};

/** Whether a customer record of the organisation has this mobile (a customer user's own loan). */
export const isCustomerOfMobile = async (
  db: DbOrTx,
  options: { orgId: number; customerId: number; mobile: string },
): Promise<boolean> => {
  const rows = await db
    .select({ id: customers.id })
    .from(customers)
    .where(
      and(
        eq(customers.orgId, options.orgId),
        eq(customers.id, options.customerId),
        eq(customers.mobile, options.mobile),
      ),
    )
    .limit(1);
  return rows.length > 0;
};
