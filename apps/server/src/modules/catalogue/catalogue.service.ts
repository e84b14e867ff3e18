import { productPlatformOf, type TBrand, type TProduct } from '@kisht/domain/catalogue/catalogue.schema';
import type { TFinancer } from '@kisht/domain/catalogue/csc.schema';
import type { DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import * as repo from './catalogue.repository';

const toProduct = (row: Awaited<ReturnType<typeof repo.listProducts>>[number]): TProduct => ({
  id: row.id,
  brand: row.brand,
  name: row.name,
  pricePaise: row.pricePaise,
  platform: row.platform,
});

/**
 * The actor's organisation's catalogue, by brand then model; with `deviceType` (spec §1 device
 * family) only the phones a customer of that family may have (productPlatformOf).
 */
export const listProducts = async (db: DbOrTx, actor: TActor, deviceType?: number): Promise<TProduct[]> =>
  (
    await repo.listProducts(
      db,
      actor.orgId,
      deviceType === undefined ? undefined : productPlatformOf(deviceType),
    )
  ).map(toProduct);

/** The brands of the actor's organisation's catalogue, A to Z, with their model counts (spec §7 brands). */
export const listBrands = (db: DbOrTx, actor: TActor): Promise<TBrand[]> => repo.listBrands(db, actor.orgId);

/** One product of the actor's organisation, or null (another organisation's id included). */
export const findProduct = async (db: DbOrTx, actor: TActor, id: number): Promise<TProduct | null> => {
  const row = await repo.findProduct(db, actor.orgId, id);
  return row ? toProduct(row) : null;
};

/** The organisation's financers (financer_list). */
export const listFinancers = (db: DbOrTx, actor: TActor): Promise<TFinancer[]> =>
  repo.listFinancers(db, actor.orgId);

/** One financer of the actor's organisation, or null. */
export const findFinancer = async (db: DbOrTx, actor: TActor, id: number): Promise<TFinancer | null> => {
  const row = await repo.findFinancer(db, actor.orgId, id);
  return row ? { id: row.id, name: row.name } : null;
};
