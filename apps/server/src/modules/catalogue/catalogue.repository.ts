import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { financers, products } from '../../db/schema';

/** The organisation's products, by brand then name; of one platform when `platform` is given. */
export const listProducts = (db: DbOrTx, orgId: number, platform?: 'android' | 'ios') =>
  db
    .select()
    .from(products)
    .where(
      and(eq(products.orgId, orgId), platform === undefined ? undefined : eq(products.platform, platform)),
    )
    .orderBy(asc(products.brand), asc(products.name));

/** The organisation's brands, A to Z, with how many products each has. */
export const listBrands = (db: DbOrTx, orgId: number) =>
  db
    .select({ name: products.brand, productCount: sql<number>`count(*)::int` })
    .from(products)
    .where(eq(products.orgId, orgId))
    .groupBy(products.brand)
    .orderBy(asc(products.brand));

export const findProduct = async (db: DbOrTx, orgId: number, id: number) => {
  const rows = await db
    .select()
    .from(products)
    .where(and(eq(products.orgId, orgId), eq(products.id, id)))
    .limit(1);
  return rows[0] ?? null;
};

export const listFinancers = (db: DbOrTx, orgId: number) =>
  db
    .select({ id: financers.id, name: financers.name })
    .from(financers)
    .where(eq(financers.orgId, orgId))
    .orderBy(asc(financers.name));

export const findFinancer = async (db: DbOrTx, orgId: number, id: number) => {
  const rows = await db
    .select()
    .from(financers)
    .where(and(eq(financers.orgId, orgId), eq(financers.id, id)))
    .limit(1);
  return rows[0] ?? null;
};
