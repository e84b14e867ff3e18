import { formatAddress } from '@kisht/domain/customers/customers.rules';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect, vi } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_CUSTOMER_MOBILE, DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import { apiGet, apiPost, customerBody, recordConsent } from '../../test/fixtures';
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

const count = async (table: string) =>
  Number((await queryRows(t.app.ctx.db, sql.raw(`select count(*)::int as n from ${table}`)))[0]!.n);

/** The first customer the second organisation's retailer (`other`, their token) lists. */
const secondOrgCustomerId = async (other: string) =>
  (await apiGet(t, other, paths.customers.list)).body.data.items[0].id as number;

describe('add customer', () => {
  it('creates an inactive customer, the device and an exact EMI schedule', async () => {
    const created = await apiPost(t, retailer, paths.customers.create, customerBody(productId));
    expect(created.status).toBe(200);
    const customer = created.body.data;
    expect(customer).toMatchObject({
      status: 0,
      mobile: '+919123456780',
      lockStatus: 0,
      device: { enrolledAt: null },
    });
    expect(customer.emis).toHaveLength(6);
    const principal = customer.emis.reduce(
      (sum: number, e: { principalPaise: number }) => sum + e.principalPaise,
      0,
    );
    expect(principal).toBe(1_500_000);
    expect(customer.loan.emiPaise).toBe(customer.emis[0].amountPaise);

    const list = await apiGet(t, retailer, `${paths.customers.list}?search=Meera`);
    expect(list.body.data.items.map((c: { id: number }) => c.id)).toEqual([customer.id]);
  });

  it.each([
    [{ imei1: '490154203237517' }, 'imei1'],
    [{ imei2: '12345' }, 'imei2'],
    [{ mobile: '5123456789' }, 'mobile'],
    [{ firstName: '' }, 'firstName'],
    [{ lastName: undefined }, 'lastName'],
    [{ tenureMonths: 0 }, 'tenureMonths'],
    [{ loanAmountPaise: 10.5 }, 'loanAmountPaise'],
    [{ downPaymentPaise: 9_999_999 }, 'downPaymentPaise'],
    [{ email: 'not-an-email' }, 'email'],
  ])('refuses %o naming %s and writes nothing', async (override, field) => {
    const before = [await count('customers'), await count('devices'), await count('emis')];
    const response = await apiPost(t, retailer, paths.customers.create, customerBody(productId, override));
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
    expect(response.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect([await count('customers'), await count('devices'), await count('emis')]).toEqual(before);
  });

  it('refuses the same IMEI twice, a loan above price − down payment, and a duplicate IMEI pair', async () => {
    const first = customerBody(productId);
    expect((await apiPost(t, retailer, paths.customers.create, first)).status).toBe(200);
    const before = await count('customers');

    const reused = await apiPost(
      t,
      retailer,
      paths.customers.create,
      customerBody(productId, { imei2: first.imei1 }),
    );
    expect(reused.status).toBe(409);
    expect(reused.body).toMatchObject({ code: 'IMEI_IN_USE', fields: [{ field: 'imei2' }] });

    const tooMuch = await apiPost(
      t,
      retailer,
      paths.customers.create,
      customerBody(productId, { loanAmountPaise: 1_600_000 }),
    );
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.fields[0].field).toBe('loanAmountPaise');

    const same = customerBody(productId);
    const pair = await apiPost(t, retailer, paths.customers.create, { ...same, imei2: same.imei1 });
    expect(pair.status).toBe(400);
    expect(pair.body.fields[0].field).toBe('imei2');
    expect(await count('customers')).toBe(before);
  });

  it.each([
    ['2026-12-31T18:29:59Z', '2027-01-31'], // 31-12-2026 11:59 PM in India
    ['2026-12-31T18:30:00Z', '2027-02-01'], // 01-01-2027 12:00 AM in India, still 31 December in UTC
  ])(
    "starts the schedule a month after India's date (+05:30) when no first due date is given, at %s",
    async (now, firstDue) => {
      vi.useFakeTimers({ toFake: ['Date'], now: new Date(now) });
      try {
        // A session opened at the faked date, so it is valid then.
        const token = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
        const created = await apiPost(
          t,
          token,
          paths.customers.create,
          customerBody(productId, { firstDueDate: undefined }),
        );
        expect(created.status).toBe(200);
        expect(created.body.data.emis[0].dueDate).toBe(firstDue);
      } finally {
        vi.useRealTimers();
      }
    },
  );

  it("refuses another organisation's product with 404 and writes nothing", async ({
    otherRetailer: other,
  }) => {
    const foreignProduct = (await apiGet(t, other, `${paths.catalogue.products}?device_type=0`)).body.data[0]
      .id;
    const before = await count('customers');
    const response = await apiPost(t, retailer, paths.customers.create, customerBody(foreignProduct));
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'PRODUCT_NOT_FOUND', fields: [{ field: 'productId' }] });
    expect(await count('customers')).toBe(before);
  });

  it("offers and takes only phones of the customer's device family (issue 28): 400 naming productId otherwise", async () => {
    const list = async (query: string) =>
      (await apiGet(t, retailer, `${paths.catalogue.products}${query}`)).body.data as {
        id: number;
        brand: string;
        platform: string;
      }[];
    const all = await list('');
    const android = await list('?device_type=0');
    const apple = await list('?device_type=3');
    expect(apple.length).toBeGreaterThan(0);
    expect(android.length).toBeGreaterThan(0);
    expect(apple.every((p) => p.platform === 'ios' && p.brand === 'Apple')).toBe(true);
    expect(android.every((p) => p.platform === 'android' && p.brand !== 'Apple')).toBe(true);
    expect(android.length + apple.length).toBe(all.length);
    expect((await apiGet(t, retailer, `${paths.catalogue.products}?device_type=9`)).status).toBe(400);

    const before = await count('customers');
    const iphoneForAndroid = await apiPost(t, retailer, paths.customers.create, customerBody(apple[0]!.id));
    expect(iphoneForAndroid.status).toBe(400);
    expect(iphoneForAndroid.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: [{ field: 'productId' }],
    });
    const androidForApple = await apiPost(
      t,
      retailer,
      paths.customers.create,
      customerBody(android[0]!.id, { deviceType: 3, appType: 2, serialNumber: 'F2LXK9ABCD99' }),
    );
    expect(androidForApple.status).toBe(400);
    expect(androidForApple.body.fields).toEqual([
      { field: 'productId', message: 'Choose an iPhone for an Apple customer' },
    ]);
    expect(await count('customers')).toBe(before);
  });
});

describe('customer list, details and dashboard', () => {
  it('lists only the actor’s customers with paging, search and status filter', async () => {
    const all = await apiGet(t, retailer, paths.customers.list);
    expect(all.body.data.total).toBe(4);
    expect(all.body.data.items.every((c: { mobile: string }) => c.mobile !== '+919822222201')).toBe(true);

    const page = await apiGet(t, retailer, `${paths.customers.list}?page=2&pageSize=3`);
    expect(page.body.data.items).toHaveLength(1);

    const installed = await apiGet(t, retailer, `${paths.customers.list}?status=install`);
    expect(installed.body.data.items.map((c: { status: number }) => c.status)).toEqual([1, 1]);
    const locked = installed.body.data.items.find((c: { firstName: string }) => c.firstName === 'Priya');
    expect(locked.lockStatus).toBe(1);

    const byMobile = await apiGet(t, retailer, `${paths.customers.list}?search=11111103`);
    expect(byMobile.body.data.items.map((c: { firstName: string }) => c.firstName)).toEqual(['Rahul']);
  });

  it('refuses a bad status filter and page naming the field', async () => {
    const status = await apiGet(t, retailer, `${paths.customers.list}?status=locked`);
    expect(status.status).toBe(400);
    expect(status.body.fields[0].field).toBe('status');
    const page = await apiGet(t, retailer, `${paths.customers.list}?page=0`);
    expect(page.body.fields[0].field).toBe('page');
  });

  it('shows details of own customers and 404 for another organisation’s or a missing id', async ({
    otherRetailer,
  }) => {
    const own = (await apiGet(t, retailer, paths.customers.list)).body.data.items[0];
    const details = await apiGet(t, retailer, `${paths.customers.details}?customer_id=${own.id}`);
    expect(details.status).toBe(200);
    expect(details.body.data.emis.length).toBeGreaterThan(0);

    const foreign = await secondOrgCustomerId(otherRetailer);
    expect((await apiGet(t, retailer, `${paths.customers.details}?customer_id=${foreign}`)).status).toBe(404);
    expect((await apiGet(t, retailer, `${paths.customers.details}?customer_id=999999`)).status).toBe(404);
    const bad = await apiGet(t, retailer, `${paths.customers.details}?customer_id=abc`);
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('customer_id');
  });

  it('scopes mini-retailers to their own customers; their retailer sees them too', async ({
    miniRetailer: mini,
  }) => {
    expect((await apiGet(t, mini, paths.customers.list)).body.data.total).toBe(0);
    const retailerCustomer = (await apiGet(t, retailer, paths.customers.list)).body.data.items[0].id;
    expect((await apiGet(t, mini, `${paths.customers.details}?customer_id=${retailerCustomer}`)).status).toBe(
      404,
    );

    const created = await apiPost(t, mini, paths.customers.create, customerBody(productId));
    expect(created.status).toBe(200);
    const seen = await apiGet(t, retailer, `${paths.customers.details}?customer_id=${created.body.data.id}`);
    expect(seen.status).toBe(200);
  });

  it('counts customers by status for the dashboard', async ({ otherRetailer: other }) => {
    const before = (await apiGet(t, retailer, paths.stats.dashboard)).body.data;
    expect(before).toMatchObject({
      total: 4,
      countsByStatus: { inactive: 1, install: 2, emi_completed: 1, deactive: 0 },
    });
    await apiPost(t, retailer, paths.customers.create, customerBody(productId));
    const after = (await apiGet(t, retailer, paths.stats.dashboard)).body.data;
    expect(after.countsByStatus.inactive).toBe(2);
    expect((await apiGet(t, other, paths.stats.dashboard)).body.data.total).toBe(2);
  });

  it('lists the organisation’s catalogue only', async () => {
    const products = (await apiGet(t, retailer, paths.catalogue.products)).body.data;
    expect(products).toHaveLength(10);
    expect(products[0]).toMatchObject({ brand: expect.any(String), pricePaise: expect.any(Number) });
  });
});

describe('enrolment QR', () => {
  it('issues Android provisioning JSON with a one-time token for an inactive customer', async () => {
    const created = (await apiPost(t, retailer, paths.customers.create, customerBody(productId))).body.data;
    await recordConsent(t, retailer, created.id);
    const qr = await apiGet(t, retailer, `${paths.customers.qrCode}?customer_id=${created.id}`);
    expect(qr.status).toBe(200);
    const payload = JSON.parse(qr.body.data.payload);
    expect(payload['android.app.extra.PROVISIONING_DEVICE_ADMIN_COMPONENT_NAME']).toContain('/');
    expect(payload['android.app.extra.PROVISIONING_DEVICE_ADMIN_SIGNATURE_CHECKSUM']).toMatch(
      /^[A-Za-z0-9_-]+$/,
    );
    const extras = payload['android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE'];
    expect(extras['in.kisht.ENROLMENT_TOKEN']).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(extras['in.kisht.SERVER_URL']).toMatch(/^http/);
  });

  it('refuses a QR for an installed customer and for another tenant', async ({ otherRetailer }) => {
    const installed = (await apiGet(t, retailer, `${paths.customers.list}?status=install`)).body.data.items[0]
      .id;
    expect((await apiGet(t, retailer, `${paths.customers.qrCode}?customer_id=${installed}`)).status).toBe(
      409,
    );
    const foreign = await secondOrgCustomerId(otherRetailer);
    expect((await apiGet(t, retailer, `${paths.customers.qrCode}?customer_id=${foreign}`)).status).toBe(404);
  });
});

describe('loan defaults for add_customer', () => {
  it("starts the loan at the organisation's rate: 14% for organisation 41, 0 where none is set", async ({
    otherRetailer: other,
    miniRetailer: mini,
  }) => {
    const defaults = await apiGet(t, retailer, paths.customers.loanDefaults);
    expect(defaults.status).toBe(200);
    expect(defaults.body.data).toEqual({ annualRateBps: 1400 });
    expect((await apiGet(t, other, paths.customers.loanDefaults)).body.data).toEqual({ annualRateBps: 0 });
    expect((await apiGet(t, mini, paths.customers.loanDefaults)).body.data).toEqual({ annualRateBps: 1400 });
  });

  it('is for retailers: a customer user gets 403', async () => {
    const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    expect((await apiGet(t, customer, paths.customers.loanDefaults)).status).toBe(403);
  });
});

describe('address on customer_details', () => {
  it('names the state and country in full, from the same data the address form chose them from', async () => {
    const address = {
      line1: '12 MG Road',
      countryCode: 'IN',
      stateCode: 'MH',
      city: 'Mumbai',
      pincode: '400001',
    };
    const created = await apiPost(t, retailer, paths.customers.create, customerBody(productId, { address }));
    expect(created.status).toBe(200);
    const details = await apiGet(
      t,
      retailer,
      `${paths.customers.details}?customer_id=${created.body.data.id}`,
    );
    expect(details.body.data.address).toEqual({ ...address, stateName: 'Maharashtra', countryName: 'India' });
    expect(formatAddress(details.body.data.address)).toBe('12 MG Road, Mumbai, Maharashtra 400001, India');
  });
});
