import { AppType } from '@kisht/domain/common/enums';
import { paths } from '@kisht/domain/paths';
import { antiTheftDisplay } from '@kisht/domain/plans/anti-theft.rules';
import { ZPlan, ZPlanActivation, ZSellPlanResponseItem } from '@kisht/domain/plans/plans.schema';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { z } from 'zod';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID, SECOND_ORG_ID } from '../../db/seed/seed';
import { apiGet, apiPost } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

/**
 * The anti-theft screen's list (issue 14): anti-theft sales (app_types 4 and 9) with the linked
 * customer's status, from which the screen shows Enabled or Disabled (spec §4).
 */
let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

const customerIdOf = async (orgId: number, mobile: string) =>
  (
    await queryRows<{ id: number }>(
      t.app.ctx.db,
      sql`select id from customers where org_id = ${orgId} and mobile = ${mobile}`,
    )
  )[0]!.id;

const antiTheftPlans = async () => {
  const lists = await Promise.all(
    [AppType.ANTI_THEFT, AppType.DEVICE_POLICY_CONTROLLER_ANTI_THEFT].map(
      async (appType) => (await apiGet(t, retailer, `${paths.plans.list}?app_type=${appType}`)).body.data,
    ),
  );
  return lists.flatMap((list) => z.array(ZPlan).parse(list));
};

const listAntiTheft = async (query = 'app_type=4,9') => {
  const answer = await apiGet(t, retailer, `${paths.plans.activations}?${query}`);
  return { status: answer.status, body: answer.body };
};

describe('anti-theft sales list', () => {
  it("carries each sale's customer status: installed → Enabled, inactive → Disabled, stand-alone by its code", async ({
    make,
  }) => {
    const [antiTheft, dpcAntiTheft] = await antiTheftPlans();
    expect(antiTheft!.appType).toBe(AppType.ANTI_THEFT);
    expect(dpcAntiTheft!.appType).toBe(AppType.DEVICE_POLICY_CONTROLLER_ANTI_THEFT);
    const installed = await customerIdOf(DEMO_ORG_ID, '+919811111101'); // Aarav, status 1
    const inactive = await customerIdOf(DEMO_ORG_ID, '+919811111103'); // Rahul, status 0
    const sell = async (planId: number, body: Record<string, unknown>) => {
      const answer = await apiPost(t, retailer, paths.plans.sell, { plan_id: planId, ...body });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return ZSellPlanResponseItem.parse(answer.body.data[0]).activation;
    };
    const buyer = { firstName: 'Aarav', lastName: 'Sharma', mobile: '9811111101' };
    const toInstalled = await sell(dpcAntiTheft!.id, { ...buyer, customer_id: installed });
    const toInactive = await sell(antiTheft!.id, { ...buyer, firstName: 'Rahul', customer_id: inactive });
    const standAlone = await sell(antiTheft!.id, { firstName: 'Meena', mobile: '9123400077' });
    // An anti-hacking sale is not on the anti-theft list.
    const antiHacking = z
      .array(ZPlan)
      .parse((await apiGet(t, retailer, `${paths.plans.list}?app_type=8`)).body.data)[0]!;
    await sell(antiHacking.id, { firstName: 'Other', mobile: '9123400078' });

    const answer = await listAntiTheft();
    expect(answer.status).toBe(200);
    const rows = z.array(ZPlanActivation).parse(answer.body.data);
    expect(rows.map((row) => row.id)).toEqual([standAlone.id, toInactive.id, toInstalled.id]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(toInstalled.id)).toMatchObject({ customerId: installed, customerStatus: 1, appType: 9 });
    expect(byId.get(toInactive.id)).toMatchObject({ customerId: inactive, customerStatus: 0, appType: 4 });
    expect(byId.get(standAlone.id)).toMatchObject({
      customerId: null,
      customerStatus: null,
      status: 'issued',
    });
    expect(rows.map(antiTheftDisplay)).toEqual(['disabled', 'disabled', 'enabled']);

    // The customer's status is read at list time: once Rahul's phone enrols, his sale shows Enabled.
    await make.customerRow(inactive, { status: 1 });
    const after = z.array(ZPlanActivation).parse((await listAntiTheft()).body.data);
    expect(antiTheftDisplay(after.find((row) => row.id === toInactive.id)!)).toBe('enabled');
  });

  it("refuses a bad app_type (400 naming it) and another organisation's customer (404)", async () => {
    const bad = await listAntiTheft('app_type=4,x');
    expect(bad.status).toBe(400);
    expect((bad.body.fields as { field: string }[]).map((f) => f.field)).toContain('app_type');
    const theirs = await customerIdOf(SECOND_ORG_ID, '+919822222201');
    const foreign = await listAntiTheft(`app_type=4,9&customer_id=${theirs}`);
    expect(foreign.status).toBe(404);
  });
});
