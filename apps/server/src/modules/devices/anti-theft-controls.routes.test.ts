import { AppType } from '@kisht/domain/common/enums';
import { ZCustomerDetails } from '@kisht/domain/customers/customers.schema';
import { deviceControlPath, paths } from '@kisht/domain/paths';
import { describe, expect } from 'vitest';
import { apiGet, apiPost } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it, type TTestFactories } from '../../test/route-test';

/**
 * Anti-theft customers (app_type 4, 9) get anti-theft lost mode and uninstall_antitheft through the
 * device channel by default (issue 14); a plain device-lock customer does not, without the
 * organisation's allowed list naming them (spec §6).
 */
let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

/** An enrolled, unlocked customer of the demo retailer with this app_type. */
const enrolledCustomer = async (make: TTestFactories, appType: number, firstName: string) => {
  const { customer } = await make.customer({ firstName, status: 1, isEnrolled: true });
  await make.customerRow(customer.id, { appType });
  return customer.id;
};

/** Lost mode of a customer with nothing overdue: the borrower safeguard asks for a reason. */
const LOST_MODE = {
  enable: true,
  args: {},
  reason_category: 'fraud_or_theft',
  reason: 'The customer reported the phone stolen',
};

describe('anti-theft controls by app_type', () => {
  it('offers and sends them for a device policy controller + anti-theft customer', async ({ make }) => {
    const id = await enrolledCustomer(make, AppType.DEVICE_POLICY_CONTROLLER_ANTI_THEFT, 'Antitheftnine');
    const shown = ZCustomerDetails.parse(
      (await apiGet(t, retailer, `${paths.customers.details}?customer_id=${id}`)).body.data,
    );
    expect(shown.device.availability.controls).toContain('antitheft_lost_mode');
    expect(shown.device.availability.actions).toContain('uninstall_antitheft');
    const lost = await apiPost(t, retailer, deviceControlPath('antitheft_lost_mode'), {
      customer_id: id,
      ...LOST_MODE,
    });
    expect(lost.status, JSON.stringify(lost.body)).toBe(200);
    expect(lost.body.data).toMatchObject({ name: 'antitheft_lost_mode_on' });
    const uninstall = await apiPost(t, retailer, deviceControlPath('uninstall_antitheft'), {
      customer_id: id,
    });
    expect(uninstall.status).toBe(200);
    expect(uninstall.body.data).toMatchObject({ name: 'uninstall_antitheft' });
  });

  it('refuses them for a device-lock-only customer with 409 COMMAND_NOT_AVAILABLE', async ({ make }) => {
    const id = await enrolledCustomer(make, AppType.DEVICE_POLICY_CONTROLLER, 'Lockonlyzero');
    const shown = ZCustomerDetails.parse(
      (await apiGet(t, retailer, `${paths.customers.details}?customer_id=${id}`)).body.data,
    );
    expect(shown.device.availability.controls).not.toContain('antitheft_lost_mode');
    const lost = await apiPost(t, retailer, deviceControlPath('antitheft_lost_mode'), {
      customer_id: id,
      ...LOST_MODE,
    });
    expect(lost.status).toBe(409);
    expect(lost.body.code).toBe('COMMAND_NOT_AVAILABLE');
  });
});
