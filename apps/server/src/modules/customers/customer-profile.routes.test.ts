import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { apiGet, apiPost, customerBody } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

let t: TestApp;
let retailer: string;
let productId: number;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(async ({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
  productId = (await apiGet(t, retailer, `${paths.catalogue.products}?device_type=0`)).body.data[0].id;
});

const customers = async () =>
  Number((await queryRows(t.app.ctx.db, sql`select count(*)::int as n from customers`))[0]!.n);
const financersOf = async (token: string) =>
  (await apiPost(t, token, paths.catalogue.financers, {})).body.data;
const ADDRESS = {
  line1: '12, Linking Road',
  countryCode: 'IN',
  stateCode: 'MH',
  city: 'Mumbai',
  pincode: '400050',
};

describe('add customer: profile and loan options', () => {
  it('stores date of birth, address, financer, flat interest, processing fee and an Apple serial', async () => {
    const financer = (await financersOf(retailer))[1];
    const iphone = (await apiGet(t, retailer, `${paths.catalogue.products}?device_type=3`)).body.data[0].id;
    const created = await apiPost(
      t,
      retailer,
      paths.customers.create,
      customerBody(iphone, {
        dateOfBirth: '1994-08-15',
        address: ADDRESS,
        financerId: financer.id,
        interestMethod: 'flat',
        annualRateBps: 1200,
        tenureMonths: 12,
        loanAmountPaise: 1_200_000,
        processingFeePaise: 49_900,
        deviceType: 3,
        appType: 2,
        serialNumber: 'F2LXK0ABCD12',
      }),
    );
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      dateOfBirth: '1994-08-15',
      address: ADDRESS,
      financerName: financer.name,
      serialNumber: 'F2LXK0ABCD12',
      deviceType: 3,
      loan: { interestMethod: 'flat', processingFeePaise: 49_900, emiPaise: 112_000 },
    });
  });

  it.each([
    [{ deviceType: 3 }, 'serialNumber'],
    [{ dateOfBirth: '2999-01-01' }, 'dateOfBirth'],
    [{ address: { ...ADDRESS, pincode: '4000' } }, 'address.pincode'],
    [{ address: { ...ADDRESS, countryCode: 'India' } }, 'address.countryCode'],
    [{ interestMethod: 'compound' }, 'interestMethod'],
    [{ processingFeePaise: -1 }, 'processingFeePaise'],
  ])('refuses %o naming %s and writes nothing', async (override, field) => {
    const before = await customers();
    const response = await apiPost(t, retailer, paths.customers.create, customerBody(productId, override));
    expect(response.status).toBe(400);
    expect(response.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect(await customers()).toBe(before);
  });

  it('refuses a city outside the chosen state, and another organisation’s financer', async ({
    otherRetailer: other,
  }) => {
    const before = await customers();
    const wrongCity = await apiPost(
      t,
      retailer,
      paths.customers.create,
      customerBody(productId, { address: { ...ADDRESS, city: 'Chennai' } }),
    );
    expect(wrongCity.status).toBe(400);
    expect(wrongCity.body.fields[0].field).toBe('address.city');
    const foreignFinancer = (await financersOf(other))[0];
    const response = await apiPost(
      t,
      retailer,
      paths.customers.create,
      customerBody(productId, { financerId: foreignFinancer.id }),
    );
    expect(response.status).toBe(404);
    expect(response.body.fields[0].field).toBe('financerId');
    expect(await customers()).toBe(before);
  });
});

describe('financer list and places', () => {
  it('lists only the organisation’s financers', async ({ otherRetailer: other }) => {
    expect((await financersOf(retailer)).map((f: { name: string }) => f.name)).toHaveLength(4);
    expect(await financersOf(other)).toHaveLength(2);
    const anonymous = await t.app.inject({ method: 'POST', url: paths.catalogue.financers });
    expect(anonymous.statusCode).toBe(511);
  });

  it('serves countries, states and cities, and names a bad country code', async () => {
    const countries = (await apiGet(t, retailer, paths.catalogue.countries)).body.data;
    expect(countries).toContainEqual({ code: 'IN', name: 'India', phoneCode: '91' });
    const states = (await apiGet(t, retailer, `${paths.catalogue.states}?country=IN`)).body.data;
    expect(states).toContainEqual({ code: 'MH', name: 'Maharashtra' });
    const cities = (await apiGet(t, retailer, `${paths.catalogue.cities}?country=IN&state=MH`)).body.data;
    expect(cities).toContainEqual({ name: 'Pune' });
    const bad = await apiGet(t, retailer, `${paths.catalogue.states}?country=india`);
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('country');
  });
});
