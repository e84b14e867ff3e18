import { ZBrand } from '@kisht/domain/catalogue/catalogue.schema';
import { paths } from '@kisht/domain/paths';
import { describe, expect } from 'vitest';
import { z } from 'zod';
import { DEMO_PRODUCTS } from '../../db/seed/seed';
import { apiGet } from '../../test/fixtures';
import { routeTest as it } from '../../test/route-test';

/** Spec §7 catalogue: the brands of an organisation's phones. */

/** The brands of `products` with their model counts, as the route should answer them. */
const brandsOf = (products: { brand: string }[]) =>
  [...new Set(products.map((p) => p.brand))]
    .sort()
    .map((name) => ({ name, productCount: products.filter((p) => p.brand === name).length }));

describe('brands', () => {
  it("lists the organisation's brands A to Z with their model counts, and another organisation's its own", async ({
    t,
    retailer,
    otherRetailer,
  }) => {
    const demo = await apiGet(t, retailer, paths.catalogue.brands);
    expect(demo.status).toBe(200);
    expect(z.array(ZBrand).parse(demo.body.data)).toEqual(brandsOf(DEMO_PRODUCTS));
    expect(demo.body.data.find((b: { name: string }) => b.name === 'Samsung')).toEqual({
      name: 'Samsung',
      productCount: 2,
    });
    // Organisation 46 sells the first three models only: the demo organisation's other brands stay out.
    const second = await apiGet(t, otherRetailer, paths.catalogue.brands);
    expect(second.body.data).toEqual(brandsOf(DEMO_PRODUCTS.slice(0, 3)));
  });

  it('answers 511 without a session', async ({ t }) => {
    expect((await t.app.inject({ method: 'GET', url: paths.catalogue.brands })).statusCode).toBe(511);
  });
});
