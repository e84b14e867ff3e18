import { and, asc, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { customers, devices, emis, products } from '../../db/schema';

/** Actor scope for customer queries: the organisation and the retailers whose customers are visible. */
export type CustomerScope = { orgId: number; retailerIds: number[] };

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

const listWhere = (scope: CustomerScope, filter: Pick<CustomerListFilter, 'search' | 'status'>): SQL => {
  const conditions: SQL[] = [inScope(scope)];
  if (filter.status !== undefined) conditions.push(eq(customers.status, filter.status));
  if (filter.search) {
    const digits = filter.search.replace(/\D/g, '');
    const pattern = `%${filter.search.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    const matches: SQL[] = [ilike(customers.firstName, pattern), ilike(customers.lastName, pattern)];
    if (digits.length >= 3) {
      matches.push(
        ilike(customers.mobile, `%${digits}%`),
        ilike(devices.imei1, `%${digits}%`),
        ilike(devices.imei2, `%${digits}%`),
      );
    }
    conditions.push(or(...matches)!);
  }
  return and(...conditions)!;
};

/** One page of customers in scope, newest first, with their device and product. */
export const listCustomers = async (db: DbOrTx, scope: CustomerScope, filter: CustomerListFilter) => {
  const where = listWhere(scope, filter);
  const [rows, totals] = await Promise.all([
    db
      .select(listColumns)
      .from(customers)
      .innerJoin(devices, eq(devices.customerId, customers.id))
      .innerJoin(products, eq(products.id, customers.productId))
      .where(where)
      .orderBy(desc(customers.createdAt), desc(customers.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db
      .select({ total: count() })
      .from(customers)
      .innerJoin(devices, eq(devices.customerId, customers.id))
      .where(where),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
};

/** Customer counts per status code in scope. */
export const countCustomersByStatus = (db: DbOrTx, scope: CustomerScope) =>
  db
    .select({ status: customers.status, total: count() })
    .from(customers)
    .where(inScope(scope))
    .groupBy(customers.status);

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

export const findEmis = (db: DbOrTx, customerId: number) =>
  db.select().from(emis).where(eq(emis.customerId, customerId)).orderBy(asc(emis.instalmentNo));

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
