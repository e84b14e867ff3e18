import { ZCustomerDetails } from '@kisht/domain/customers/customers.schema';
import { paths } from '@kisht/domain/paths';
import { describe, expect } from 'vitest';
import { DEMO_MINI_RETAILER_MOBILE } from '../../db/seed/seed';
import { apiGet, apiPost } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

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

// The file's helpers below act as the test's app and users (routeTest fixtures).
it.beforeEach(async ({ t: app, retailer: token, miniRetailer, make }) => {
  t = app;
  retailer = token;
  mini = miniRetailer;
  miniId = (await make.userByMobile(DEMO_MINI_RETAILER_MOBILE)).id;
  // An enrolled, locked phone of the mini-retailer's, an instalment overdue (a lock needs no reason).
  const made = await make.customer({
    retailerId: miniId,
    firstName: 'Lockread',
    lastName: 'Customer',
    mobile: '+919800033344',
    status: 1,
    isEnrolled: true,
    createdAt: new Date(Date.now() - 50 * 86_400_000),
  });
  customerId = made.customer.id;
  await make.deviceRow(customerId, { reportedLocked: true });
  // A command on its way, so there is command information to hide.
  expect((await apiPost(t, mini, paths.devices.lock, { customer_id: customerId })).status).toBe(200);
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
