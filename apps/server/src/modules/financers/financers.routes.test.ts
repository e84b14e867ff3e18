import { HDB_FINANCER_NAME } from '@kisht/domain/catalogue/financer-handoff.schema';
import { ZCustomerDetails } from '@kisht/domain/customers/customers.schema';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import type { TConfig } from '../../config';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID } from '../../db/seed/seed';
import { apiGet, apiPost, customerBody } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';
import { startFakeHdb, type TFakeHdb } from './fake-hdb';
import { createFinancerGateway, HANDOFF_RETRY_AFTER_SECONDS, handOffDueCustomers } from './financers.service';
import { createHdbGateway } from './hdb.adapter';

/** Financer hand-off (create-customer-hdb): HDB customers are created with HDB through the adapter. */
let t: TestApp;
let hdb: TFakeHdb;
let retailer: string;
let productId: number;
let financers: { id: number; name: string }[];

// Each test's app talks to its own fake HDB, started before the app and closed after it.
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's needs from this pattern, and it needs none.
it.override('appOverrides', async ({}, { onCleanup }) => {
  const fake = await startFakeHdb();
  hdb = fake;
  onCleanup(() => fake.close());
  return { HDB_API_URL: fake.apiUrl, HDB_API_KEY: fake.apiKey };
});
// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(async ({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
  productId = (await apiGet(t, retailer, `${paths.catalogue.products}?device_type=0`)).body.data[0].id;
  financers = (await apiPost(t, retailer, paths.catalogue.financers, {})).body.data;
});

const hdbId = () => financers.find((f) => f.name === HDB_FINANCER_NAME)!.id;
const otherFinancerId = () => financers.find((f) => f.name !== HDB_FINANCER_NAME)!.id;

/** The job as the app runs it, with quick retries inside one try. */
const runJob = (now?: Date) =>
  handOffDueCustomers({
    db: t.app.ctx.db,
    gateway: createHdbGateway({ apiUrl: hdb.apiUrl, apiKey: hdb.apiKey, retryMinTimeoutMs: 5 }),
    ...(now ? { now } : {}),
  });

const createCustomer = async (financerId: number, overrides: Record<string, unknown> = {}) => {
  const created = await apiPost(
    t,
    retailer,
    paths.customers.create,
    customerBody(productId, { financerId, mobile: `9${String(Date.now()).slice(-9)}`, ...overrides }),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return ZCustomerDetails.parse(created.body.data);
};

const details = async (customerId: number) =>
  ZCustomerDetails.parse(
    (await apiGet(t, retailer, `${paths.customers.details}?customer_id=${customerId}`)).body.data,
  );

const handoffRow = async (customerId: number) =>
  (
    await queryRows<{ status: string | null; reference: string | null }>(
      t.app.ctx.db,
      sql`select financer_handoff_status as status, financer_reference as reference from customers where id = ${customerId}`,
    )
  )[0]!;

describe('HDB hand-off', () => {
  it('marks a new HDB customer pending, and the job stores the reference HDB gives', async () => {
    const created = await createCustomer(hdbId(), { loanAmountPaise: 1_500_000 });
    expect(created.financerHandoffStatus).toBe('pending');
    expect(created.financerReference).toBeNull();

    expect(await runJob()).toEqual({ done: 1, failed: 0, waiting: 0 });
    const after = await details(created.id);
    expect(after.financerHandoffStatus).toBe('done');
    expect(after.financerReference).toMatch(/^HDB[0-9A-Z]+$/);
    // What HDB got: the fake checked the API key, the fields, the IMEIs and money in paise.
    expect(hdb.accepted).toHaveLength(1);
    expect(hdb.accepted[0]).toMatchObject({
      partnerCustomerId: `${DEMO_ORG_ID}-${created.id}`,
      device: { imei1: created.imei1, imei2: created.imei2 },
      loan: { loanAmountPaise: 1_500_000, pricePaise: 1_799_900, downPaymentPaise: 299_900 },
    });
    // Nothing is sent again once done.
    expect(await runJob(new Date(Date.now() + 86_400_000))).toEqual({ done: 0, failed: 0, waiting: 0 });
    expect(hdb.accepted).toHaveLength(1);
  });

  it('leaves other financers alone', async () => {
    const created = await createCustomer(otherFinancerId());
    expect(created.financerHandoffStatus).toBeNull();
    expect(await runJob()).toEqual({ done: 0, failed: 0, waiting: 0 });
    expect(hdb.requestCount).toBe(0);
  });

  it('marks the hand-off failed while HDB is down, waits, then the job retries it to done', async () => {
    const created = await createCustomer(hdbId());
    hdb.isAvailable = false;
    expect(await runJob()).toEqual({ done: 0, failed: 1, waiting: 0 });
    expect(await handoffRow(created.id)).toEqual({ status: 'failed', reference: null });
    expect((await details(created.id)).financerHandoffStatus).toBe('failed');
    const triesWhileDown = hdb.requestCount;
    expect(triesWhileDown).toBe(3); // one try of the job = the first call and two p-retry retries

    hdb.isAvailable = true;
    // Back-off: not tried again at once.
    expect(await runJob()).toEqual({ done: 0, failed: 0, waiting: 0 });
    expect(hdb.requestCount).toBe(triesWhileDown);
    // After the wait it is.
    const later = new Date(Date.now() + (HANDOFF_RETRY_AFTER_SECONDS + 1) * 1000);
    expect(await runJob(later)).toEqual({ done: 1, failed: 0, waiting: 0 });
    const row = await handoffRow(created.id);
    expect(row.status).toBe('done');
    expect(row.reference).toMatch(/^HDB/);
    const audit = await queryRows<{ action: string; outcome: string | null }>(
      t.app.ctx.db,
      sql`select action, details->>'outcome' as outcome from audit_log
          where entity = 'customer' and entity_id = ${String(created.id)} and action like 'customer.financer_handoff%'
          order by id`,
    );
    expect(audit).toEqual([
      { action: 'customer.financer_handoff_attempt', outcome: null },
      { action: 'customer.financer_handoff', outcome: 'failed' },
      { action: 'customer.financer_handoff_attempt', outcome: null },
      { action: 'customer.financer_handoff', outcome: 'done' },
    ]);
  });

  it('sends two overlapping job runs’ customers once each', async () => {
    await createCustomer(hdbId());
    await createCustomer(hdbId());
    const [first, second] = await Promise.all([runJob(), runJob()]);
    expect(first!.done + second!.done).toBe(2);
    expect(hdb.accepted).toHaveLength(2);
  });
});

describe('create-customer-hdb route', () => {
  it('hands the customer off now and answers the details with the reference', async () => {
    const created = await createCustomer(hdbId());
    const response = await apiPost(t, retailer, paths.customers.createHdb, { customer_id: created.id });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const body = ZCustomerDetails.parse(response.body.data);
    expect(body.financerHandoffStatus).toBe('done');
    expect(body.financerReference).toMatch(/^HDB/);
    // Again: answered from what is stored, not sent twice.
    const again = await apiPost(t, retailer, paths.customers.createHdb, { customer_id: created.id });
    expect(again.body.data.financerReference).toBe(body.financerReference);
    expect(hdb.requestCount).toBe(1);
  });

  it('answers 503 FINANCER_UNAVAILABLE while HDB is down, leaving the hand-off failed for the job', async () => {
    const created = await createCustomer(hdbId());
    hdb.isAvailable = false;
    const response = await apiPost(t, retailer, paths.customers.createHdb, { customer_id: created.id });
    expect(response.status).toBe(503);
    expect(response.body.code).toBe('FINANCER_UNAVAILABLE');
    expect((await handoffRow(created.id)).status).toBe('failed');
  });

  it('refuses a customer of another financer with 409, sending nothing', async () => {
    const created = await createCustomer(otherFinancerId());
    const response = await apiPost(t, retailer, paths.customers.createHdb, { customer_id: created.id });
    expect(response.status).toBe(409);
    expect(response.body.code).toBe('FINANCER_HANDOFF_NOT_APPLICABLE');
    expect(response.body.message).toMatch(/not HDB/);
    expect(hdb.requestCount).toBe(0);
    expect(await handoffRow(created.id)).toEqual({ status: null, reference: null });
  });

  it("answers 404 for another organisation's HDB customer, sending nothing", async ({
    otherRetailer: other,
  }) => {
    const created = await createCustomer(hdbId());
    const response = await apiPost(t, other, paths.customers.createHdb, { customer_id: created.id });
    expect(response.status).toBe(404);
    expect(hdb.requestCount).toBe(0);
    expect(await handoffRow(created.id)).toEqual({ status: 'pending', reference: null });
  });

  it.each([[{}], [{ customer_id: 'abc' }], [{ customer_id: -1 }], [{ customer_id: 1.5 }]])(
    'refuses %j with 400 naming customer_id',
    async (body) => {
      const response = await apiPost(t, retailer, paths.customers.createHdb, body);
      expect(response.status).toBe(400);
      expect(response.body.fields.map((f: { field: string }) => f.field)).toEqual(['customer_id']);
      expect(hdb.requestCount).toBe(0);
    },
  );
});

describe('HDB gateway from config', () => {
  // No HDB_API_URL here: the app picks its gateway from the rest of the config.
  it.override('appOverrides', {});

  it('without HDB_API_URL outside production hands off to an in-process fake HDB', async () => {
    const created = await createCustomer(hdbId(), { mobile: '9123400001' });
    const response = await apiPost(t, retailer, paths.customers.createHdb, { customer_id: created.id });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data.financerReference).toMatch(/^HDB/);
  });

  it('without HDB_API_URL in production has no gateway: hand-offs stay pending and are reported', async () => {
    const warnings: unknown[] = [];
    const log = { info: () => {}, warn: (...args: unknown[]) => void warnings.push(args) };
    const { gateway } = createFinancerGateway({ NODE_ENV: 'production' } as TConfig, log);
    expect(gateway).toBeNull();
    await createCustomer(hdbId());
    expect(await handOffDueCustomers({ db: t.app.ctx.db, gateway, log })).toEqual({
      done: 0,
      failed: 0,
      waiting: 1,
    });
    expect(warnings).toHaveLength(2);
  });
});
