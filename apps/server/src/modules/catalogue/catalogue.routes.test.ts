import { ZBrand } from '@kisht/domain/catalogue/catalogue.schema';
import { paths } from '@kisht/domain/paths';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DEMO_ORG_ID,
  DEMO_PRODUCTS,
  DEMO_RETAILER_MOBILE,
  SECOND_ORG_ID,
  SECOND_RETAILER_MOBILE,
} from '../../db/seed/seed';
import { apiGet } from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';

/** Spec §7 catalogue: the brands of an organisation's phones. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The brands of `products` with their model counts, as the route should answer them. */
const brandsOf = (products: { brand: string }[]) =>
  [...new Set(products.map((p) => p.brand))]
    .sort()
    .map((name) => ({ name, productCount: products.filter((p) => p.brand === name).length }));

describe('brands', () => {
  it("lists the organisation's brands A to Z with their model counts, and another organisation's its own", async () => {
    const demo = await apiGet(t, await t.login(DEMO_ORG_ID, DEMO_RETAILER_MOBILE), paths.catalogue.brands);
    expect(demo.status).toBe(200);
    expect(z.array(ZBrand).parse(demo.body.data)).toEqual(brandsOf(DEMO_PRODUCTS));
    expect(demo.body.data.find((b: { name: string }) => b.name === 'Samsung')).toEqual({
      name: 'Samsung',
      productCount: 2,
    });
    // Organisation 46 sells the first three models only: the demo organisation's other brands stay out.
    const second = await apiGet(
      t,
      await t.login(SECOND_ORG_ID, SECOND_RETAILER_MOBILE),
      paths.catalogue.brands,
    );
    expect(second.body.data).toEqual(brandsOf(DEMO_PRODUCTS.slice(0, 3)));
  });

  it('answers 511 without a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: paths.catalogue.brands })).statusCode).toBe(511);
  });
});
