import { ZCustomerDetails } from '@kisht/domain/customers/customers.schema';
import { paths } from '@kisht/domain/paths';
import { asc, eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { devices, products } from '../../db/schema';
import { createCustomerWithLoan } from '../../db/seed/factories';
import { DEMO_MINI_RETAILER_MOBILE, DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import { apiGet, apiPost } from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * customer_details and the lock access `read` flag (spec §6): a mini-retailer whose parent set it
 * to '0' still opens its customer, but sees no lock state and no command information (the command
 * history refuses it outright, 403 naming lock.read).
 */
let t: TestApp;
let retailer: string;
let mini: string;
let miniId: number;
let customerId: number;

beforeEach(async () => {
  t = await createTestApp();
  retailer = await t.login(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
  mini = await t.login(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE);
  const db = t.app.ctx.db;
  miniId = (
    await queryRows<{ id: number }>(
      db,
      sql`select id from users where mobile = ${DEMO_MINI_RETAILER_MOBILE} and user_type = 'miniretailer'`,
    )
  )[0]!.id;
  const [product] = await db
    .select()
    .from(products)
    .where(eq(products.orgId, DEMO_ORG_ID))
    .orderBy(asc(products.id))
    .limit(1);
  // An enrolled, locked phone of the mini-retailer's, an instalment overdue (a lock needs no reason).
  const made = await createCustomerWithLoan(db, {
    orgId: DEMO_ORG_ID,
    retailerId: miniId,
    product: product!,
    firstName: 'Lockread',
    lastName: 'Customer',
    mobile: '+919800033344',
    status: 1,
    isEnrolled: true,
    createdAt: new Date(Date.now() - 50 * 86_400_000),
  });
  customerId = made.customer.id;
  await db.update(devices).set({ reportedLocked: true }).where(eq(devices.id, made.device.id));
  // A command on its way, so there is command information to hide.
  expect((await apiPost(t, mini, paths.devices.lock, { customer_id: customerId })).status).toBe(200);
});
afterEach(async () => {
  await t.close();
});

const setLockRead = async (value: '0' | '1') => {
  const response = await apiPost(t, retailer, paths.retailers.update, {
    user_id: miniId,
    lockAccess: { read: value },
  });
  expect(response.status).toBe(200);
};

const detailsAs = async (token: string) => {
  const response = await apiGet(t, token, `${paths.customers.details}?customer_id=${customerId}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return ZCustomerDetails.parse(response.body.data);
};

describe('customer_details and lock access read (spec §6)', () => {
  it('shows the lock state and commands while read is on', async () => {
    const details = await detailsAs(mini);
    expect(details.lockStatus).toBe(1);
    expect(details.device.lockStatus).toBe(1);
    expect(details.device.pendingCommand?.name).toBe('lock');
    expect(details.device.lastCommand?.name).toBe('lock');
  });

  it('still answers with read off, the lock state and command information null', async () => {
    await setLockRead('0');
    const details = await detailsAs(mini);
    expect(details).toMatchObject({ id: customerId, firstName: 'Lockread', lockStatus: null });
    expect(details.device).toMatchObject({
      lockStatus: null,
      pendingCommand: null,
      lastCommand: null,
      pendingControls: {},
    });
    expect(details.emis.length).toBeGreaterThan(0);
    // The same flag refuses the command history outright.
    const history = await apiGet(t, mini, `${paths.devices.history}?customer_id=${customerId}`);
    expect(history.status).toBe(403);
    expect(history.body.message).toContain('lock.read');
    // The parent's own access is its own: it still sees the state of the same customer.
    expect((await detailsAs(retailer)).device.lockStatus).toBe(1);

    await setLockRead('1');
    expect((await detailsAs(mini)).device.lockStatus).toBe(1);
  });
});
