import { AppType } from '@kisht/domain/common/enums';
import { ZKeyBalances } from '@kisht/domain/ledger/ledger.schema';
import { paths } from '@kisht/domain/paths';
import {
  ACTIVATION_CODE_PATTERN,
  type TPlan,
  ZPlan,
  ZPlanActivation,
  ZRedeemActivationResponse,
  ZSellablePlan,
  ZSellPlanResponseItem,
} from '@kisht/domain/plans/plans.schema';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { z } from 'zod';
import { queryRows } from '../../db/client';
import {
  DEMO_ADMIN_MOBILE,
  DEMO_CUSTOMER_MOBILE,
  DEMO_MINI_RETAILER_MOBILE,
  DEMO_ORG_ID,
  DEMO_PLANS,
  DEMO_RETAILER_MOBILE,
  SECOND_ORG_ID,
} from '../../db/seed/seed';
import { apiGet, apiPost, apiPut, freshImei } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

/** Protection plans (issue 14) through the HTTP routes: catalogue, admin edits, sales, redemption. */
let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field);
const plansOf = (body: { data: unknown }) => z.array(ZPlan).parse(body.data);
/** get_plans_antihacking / get_plans_familycare's answer, strictly as spec §3 names it. */
const sellableOf = (body: { data: unknown }) => z.array(ZSellablePlan.strict()).parse(body.data);

const userId = async (orgId: number, mobile: string, userType: string) =>
  (
    await queryRows<{ id: number }>(
      t.app.ctx.db,
      sql`select id from users where org_id = ${orgId} and mobile = ${mobile} and user_type = ${userType}`,
    )
  )[0]!.id;

const count = async (table: 'plans' | 'plan_activations' | 'plan_products') =>
  Number(
    (
      await queryRows<{ n: number }>(
        t.app.ctx.db,
        sql`select count(*)::int as n from ${sql.identifier(table)}`,
      )
    )[0]!.n,
  );

const balanceOf = async (token: string, appType: number) => {
  const answer = await apiGet(t, token, paths.ledger.balances);
  expect(answer.status).toBe(200);
  return ZKeyBalances.parse(answer.body.data).find((b) => b.appType === appType)?.balance ?? 0;
};

/** The demo organisation's plan of this name, as the admin sees it. */
const planNamed = async (token: string, name: string): Promise<TPlan> => {
  const found = plansOf((await apiGet(t, token, paths.plans.list)).body).find((p) => p.name === name);
  if (!found) throw new Error(`no plan ${name}`);
  return found;
};

/** The PUT body that edits a plan as it is. */
const editOf = ({ id, ...plan }: TPlan) => ({ plan_id: id, ...plan });

const productIds = async (token: string) =>
  ((await apiGet(t, token, paths.catalogue.products)).body.data as { id: number }[]).map((p) => p.id);

const otherOrgPlanId = async () =>
  (
    await queryRows<{ id: number }>(
      t.app.ctx.db,
      sql`select id from plans where org_id = ${SECOND_ORG_ID} order by id limit 1`,
    )
  )[0]!.id;

const sale = (planId: number, overrides: Record<string, unknown> = {}) => ({
  firstName: 'Anil',
  lastName: 'Kumar',
  email: 'anil@example.in',
  mobile: '9123400001',
  plan_id: planId,
  ...overrides,
});

describe('catalogue', () => {
  it('lists active plans to a retailer and inactive ones too to the admin, by app_type and product', async () => {
    const admin = await t.tokenFor(DEMO_ORG_ID, DEMO_ADMIN_MOBILE);
    const all = plansOf((await apiGet(t, retailer, paths.plans.list)).body);
    expect(all.map((p) => p.name).sort()).toEqual(DEMO_PLANS.map((p) => p.name).sort());
    expect(all.every((p) => p.isActive)).toBe(true);

    const family = await planNamed(admin, 'Family Care');
    const saved = await apiPut(t, admin, paths.plans.list, { ...editOf(family), isActive: false });
    expect(saved.status).toBe(200);
    expect(plansOf((await apiGet(t, retailer, paths.plans.list)).body).map((p) => p.name)).not.toContain(
      'Family Care',
    );
    expect(
      plansOf((await apiGet(t, admin, paths.plans.list)).body).find((p) => p.id === family.id),
    ).toMatchObject({
      isActive: false,
    });
    expect(sellableOf((await apiGet(t, retailer, paths.plans.familycare)).body).map((p) => p.name)).toEqual([
      'Family Care Plus',
    ]);
    expect(sellableOf((await apiGet(t, admin, paths.plans.familycare)).body)).toHaveLength(2);
    expect((await apiGet(t, retailer, `${paths.plans.readById}?plan_id=${family.id}`)).status).toBe(404);
    expect((await apiGet(t, admin, `${paths.plans.readById}?plan_id=${family.id}`)).status).toBe(200);

    // Spec §3 names an anti-hacking plan's fields: id, name, app_type.
    const antihacking = sellableOf((await apiGet(t, retailer, paths.plans.antihacking)).body);
    expect(Object.keys(antihacking[0]!)).toEqual(expect.arrayContaining(['id', 'name', 'app_type']));
    expect(antihacking.map((p) => p.app_type)).toEqual([
      AppType.ANTI_HACKING,
      AppType.ANTI_HACKING_PRO,
      AppType.ANTI_HACKING_PREMIUM,
    ]);
    const byType = plansOf((await apiGet(t, retailer, `${paths.plans.list}?app_type=5`)).body);
    expect(byType.map((p) => p.name)).toEqual(['Extended Warranty 1 year', 'Extended Warranty 2 years']);

    // A plan limited to one product is offered for that product only.
    const [first, second] = await productIds(admin);
    const pro = await planNamed(admin, 'Anti-Hacking Pro');
    expect((await apiPut(t, admin, paths.plans.list, { ...editOf(pro), productIds: [first] })).status).toBe(
      200,
    );
    const forFirst = plansOf((await apiGet(t, retailer, `${paths.plans.list}?product_id=${first}`)).body);
    const forSecond = plansOf((await apiGet(t, retailer, `${paths.plans.list}?product_id=${second}`)).body);
    expect(forFirst.map((p) => p.id)).toContain(pro.id);
    expect(forSecond.map((p) => p.id)).not.toContain(pro.id);
    expect(forSecond.length).toBe(forFirst.length - 1);
  });

  it("answers 404 for another organisation's plan or product, 400 naming a bad query, 403 to a customer", async ({
    otherRetailer: second,
  }) => {
    const answer = await apiGet(t, retailer, `${paths.plans.readById}?plan_id=${await otherOrgPlanId()}`);
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe('PLAN_NOT_FOUND');
    const [theirProduct] = await productIds(second);
    const foreignProduct = await apiGet(t, retailer, `${paths.plans.list}?product_id=${theirProduct}`);
    expect(foreignProduct.status).toBe(404);
    expect(fieldsOf(foreignProduct.body)).toContain('product_id');
    for (const [query, field] of [
      ['?app_type=3', 'app_type'],
      ['?product_id=abc', 'product_id'],
    ] as const) {
      const bad = await apiGet(t, retailer, `${paths.plans.list}${query}`);
      expect(bad.status, query).toBe(400);
      expect(fieldsOf(bad.body)).toContain(field);
    }
    const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    for (const url of [paths.plans.list, paths.plans.antihacking, paths.plans.familycare])
      expect((await apiGet(t, customer, url)).status, url).toBe(403);
  });
});

describe('admin edits (PUT plans)', () => {
  it('creates a plan with products, then edits it, audited', async () => {
    const admin = await t.tokenFor(DEMO_ORG_ID, DEMO_ADMIN_MOBILE);
    const [first, second] = await productIds(admin);
    const created = await apiPut(t, admin, paths.plans.list, {
      name: 'Screen Guard',
      appType: AppType.EXTENDED_WARRANTY,
      pricePaise: 12_345,
      durationMonths: 6,
      description: 'Six months',
      productIds: [second, first],
    });
    expect(created.status).toBe(200);
    const plan = ZPlan.parse(created.body.data);
    expect(plan).toMatchObject({
      name: 'Screen Guard',
      pricePaise: 12_345,
      durationMonths: 6,
      isActive: true,
      productIds: [first, second].sort((a, b) => a! - b!),
    });

    const edited = await apiPut(t, admin, paths.plans.list, {
      ...editOf(plan),
      name: 'Screen Guard 1y',
      pricePaise: 19_900,
      durationMonths: 12,
      productIds: [],
    });
    expect(edited.status).toBe(200);
    expect(ZPlan.parse(edited.body.data)).toMatchObject({
      id: plan.id,
      name: 'Screen Guard 1y',
      pricePaise: 19_900,
      durationMonths: 12,
      productIds: [],
    });
    // Edited in place, not added again.
    const listed = plansOf((await apiGet(t, admin, paths.plans.list)).body);
    expect(listed.filter((p) => p.name.startsWith('Screen Guard')).map((p) => p.id)).toEqual([plan.id]);
    const read = await apiGet(t, retailer, `${paths.plans.readById}?plan_id=${plan.id}`);
    expect(ZPlan.parse(read.body.data).name).toBe('Screen Guard 1y');
    const audits = await queryRows<{ action: string; entity_id: string }>(
      t.app.ctx.db,
      sql`select action, entity_id from audit_log where entity = 'plan' order by id`,
    );
    expect(audits).toEqual([
      { action: 'plan.create', entity_id: String(plan.id) },
      { action: 'plan.update', entity_id: String(plan.id) },
    ]);
  });

  it("refuses bad input (400 naming the field, nothing written), another organisation's ids (404) and a retailer (403)", async ({
    otherRetailer: second,
  }) => {
    const admin = await t.tokenFor(DEMO_ORG_ID, DEMO_ADMIN_MOBILE);
    const base = { name: 'X', appType: AppType.ANTI_THEFT, pricePaise: 100, durationMonths: 12 };
    const before = [await count('plans'), await count('plan_products')];
    for (const [patch, field] of [
      [{ name: '  ' }, 'name'],
      [{ appType: 0 }, 'appType'],
      [{ pricePaise: 10.5 }, 'pricePaise'],
      [{ pricePaise: -1 }, 'pricePaise'],
      [{ durationMonths: 0 }, 'durationMonths'],
      [{ durationMonths: 121 }, 'durationMonths'],
      [{ productIds: ['x'] }, 'productIds.0'],
    ] as const) {
      const answer = await apiPut(t, admin, paths.plans.list, { ...base, ...patch });
      expect(answer.status, JSON.stringify(patch)).toBe(400);
      expect(fieldsOf(answer.body)).toContain(field);
    }
    const [theirProduct] = await productIds(second);
    const foreignProduct = await apiPut(t, admin, paths.plans.list, { ...base, productIds: [theirProduct] });
    expect(foreignProduct.status).toBe(404);
    expect(fieldsOf(foreignProduct.body)).toContain('productIds');
    const foreignPlan = await apiPut(t, admin, paths.plans.list, {
      ...base,
      plan_id: await otherOrgPlanId(),
    });
    expect(foreignPlan.status).toBe(404);
    expect(foreignPlan.body.code).toBe('PLAN_NOT_FOUND');
    expect((await apiPut(t, retailer, paths.plans.list, base)).status).toBe(403);
    expect([await count('plans'), await count('plan_products')]).toEqual(before);
    // The other organisation's plan is untouched.
    const theirs = await queryRows<{ name: string }>(
      t.app.ctx.db,
      sql`select name from plans where id = ${await otherOrgPlanId()}`,
    );
    expect(theirs[0]!.name).toBe(DEMO_PLANS[0]!.name);
  });
});

describe('sell', () => {
  it('issues an XXXX-XXXX-XXXX code for one key of the plan’s app_type', async () => {
    const plan = await planNamed(retailer, 'Anti-Hacking Pro');
    const before = await balanceOf(retailer, AppType.ANTI_HACKING_PRO);
    const answer = await apiPost(t, retailer, paths.plans.sell, sale(plan.id, { app_type: plan.appType }));
    expect(answer.status).toBe(200);
    const [item] = z.array(ZSellPlanResponseItem).parse(answer.body.data);
    expect(item!.antihacking_code).toMatch(ACTIVATION_CODE_PATTERN);
    expect(item!.activation).toMatchObject({
      planId: plan.id,
      planName: 'Anti-Hacking Pro',
      appType: AppType.ANTI_HACKING_PRO,
      mobile: '+919123400001',
      pricePaise: plan.pricePaise,
      status: 'issued',
      code: item!.antihacking_code,
    });
    expect(await balanceOf(retailer, AppType.ANTI_HACKING_PRO)).toBe(before - 1);
    expect(await balanceOf(retailer, AppType.ANTI_HACKING)).toBe(20);
  });

  it('answers NO_KEYS (409) to a seller without keys, writing nothing', async ({ make }) => {
    await make.user({ mobile: '+919700000001', name: 'Empty', keys: {} });
    const empty = await t.tokenFor(DEMO_ORG_ID, '+919700000001');
    const plan = await planNamed(empty, 'Anti-Hacking');
    const activations = await count('plan_activations');
    const answer = await apiPost(t, empty, paths.plans.sell, sale(plan.id));
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('NO_KEYS');
    expect(await count('plan_activations')).toBe(activations);
    expect(await balanceOf(empty, AppType.ANTI_HACKING)).toBe(0);
  });

  it("refuses another organisation's plan and customer (404), a wrong app_type, a warranty without IMEI and bad input (400)", async () => {
    const activations = await count('plan_activations');
    const before = await balanceOf(retailer, AppType.EXTENDED_WARRANTY);
    const foreignPlan = await apiPost(t, retailer, paths.plans.sell, sale(await otherOrgPlanId()));
    expect(foreignPlan.status).toBe(404);
    expect(fieldsOf(foreignPlan.body)).toContain('plan_id');

    const antiHacking = await planNamed(retailer, 'Anti-Hacking');
    const mismatch = await apiPost(t, retailer, paths.plans.sell, sale(antiHacking.id, { app_type: 12 }));
    expect(mismatch.status).toBe(400);
    expect(fieldsOf(mismatch.body)).toEqual(['app_type']);

    const warranty = await planNamed(retailer, 'Extended Warranty 1 year');
    const noImei = await apiPost(t, retailer, paths.plans.sell, sale(warranty.id));
    expect(noImei.status).toBe(400);
    expect(fieldsOf(noImei.body)).toEqual(['imei']);

    const theirCustomer = (
      await queryRows<{ id: number }>(
        t.app.ctx.db,
        sql`select id from customers where org_id = ${SECOND_ORG_ID} order by id limit 1`,
      )
    )[0]!.id;
    const foreignCustomer = await apiPost(
      t,
      retailer,
      paths.plans.sell,
      sale(antiHacking.id, { customer_id: theirCustomer }),
    );
    expect(foreignCustomer.status).toBe(404);

    for (const [patch, field] of [
      [{ mobile: '12345' }, 'mobile'],
      [{ firstName: '' }, 'firstName'],
      [{ email: 'not-an-email' }, 'email'],
      [{ imei: '123456789012345' }, 'imei'],
      [{ plan_id: 'x' }, 'plan_id'],
    ] as const) {
      const answer = await apiPost(t, retailer, paths.plans.sell, sale(warranty.id, patch));
      expect(answer.status, JSON.stringify(patch)).toBe(400);
      expect(fieldsOf(answer.body)).toContain(field);
    }
    expect(await count('plan_activations')).toBe(activations);
    expect(await balanceOf(retailer, AppType.EXTENDED_WARRANTY)).toBe(before);

    // With an IMEI the warranty sells, for its term.
    const withImei = await apiPost(t, retailer, paths.plans.sell, sale(warranty.id, { imei: freshImei() }));
    expect(withImei.status).toBe(200);
    const { activation } = ZSellPlanResponseItem.parse(withImei.body.data[0]);
    expect(activation.startsOn).not.toBeNull();
    expect(activation.endsOn! > activation.startsOn!).toBe(true);
  });
});

describe('activations', () => {
  it("shows a mini-retailer's sale to its parent but not to a sibling; a customer sees those bought with their mobile", async ({
    miniRetailer: mini,
    make,
  }) => {
    const parentId = await userId(DEMO_ORG_ID, DEMO_RETAILER_MOBILE, 'retailer');
    await make.user({
      mobile: '+919700000002',
      name: 'Sibling Mini',
      userType: 'miniretailer',
      parentId,
    });
    const sibling = await t.tokenFor(DEMO_ORG_ID, '+919700000002');
    const plan = await planNamed(mini, 'Family Care');
    // The seed gives the mini-retailer device policy controller keys only: its parent passes one on.
    expect((await apiPost(t, mini, paths.plans.sell, sale(plan.id))).body.code).toBe('NO_KEYS');
    const miniId = await userId(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE, 'miniretailer');
    const given = await apiPost(t, retailer, paths.ledger.transfer, {
      userId: miniId,
      appType: AppType.FAMILY_CARE,
      quantity: 1,
      direction: 'to_child',
    });
    expect(given.status).toBe(200);
    const sold = await apiPost(t, mini, paths.plans.sell, sale(plan.id, { mobile: DEMO_CUSTOMER_MOBILE }));
    expect(sold.status).toBe(200);
    const code = sold.body.data[0].antihacking_code as string;
    const mine = await apiPost(t, retailer, paths.plans.sell, sale(plan.id));
    expect(mine.status).toBe(200);

    const codesOf = async (token: string, query = '') => {
      const answer = await apiGet(t, token, `${paths.plans.activations}${query}`);
      expect(answer.status).toBe(200);
      return z
        .array(ZPlanActivation)
        .parse(answer.body.data)
        .map((a) => a.code);
    };
    expect(await codesOf(retailer)).toEqual([mine.body.data[0].antihacking_code, code]);
    expect(await codesOf(mini)).toEqual([code]);
    expect(await codesOf(sibling)).toEqual([]);
    expect(await codesOf(retailer, '?app_type=8,12,13')).toEqual([]);
    expect(await codesOf(retailer, '?app_type=7')).toHaveLength(2);
    const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    expect(await codesOf(customer)).toEqual([code]);

    const bad = await apiGet(t, retailer, `${paths.plans.activations}?app_type=8,3`);
    expect(bad.status).toBe(400);
    // The second app type (3, Apple) is no plan's.
    expect(fieldsOf(bad.body)).toEqual(['app_type.1']);
  });
});

describe('redeem (public)', () => {
  it('redeems once per phone: same phone same answer, another phone 409, unknown code 404', async () => {
    const plan = await planNamed(retailer, 'Anti-Hacking');
    const sold = await apiPost(t, retailer, paths.plans.sell, sale(plan.id));
    const code = sold.body.data[0].antihacking_code as string;
    const redeem = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: paths.plans.redeem, payload: { orgId: DEMO_ORG_ID, ...payload } });

    const imei = freshImei();
    // Lower case, without dashes.
    const first = await redeem({ code: code.replace(/-/g, '').toLowerCase(), imei, model: 'Pixel 8' });
    expect(first.statusCode).toBe(200);
    const answer = ZRedeemActivationResponse.parse(first.json().data);
    expect(answer).toMatchObject({ planName: 'Anti-Hacking', appType: AppType.ANTI_HACKING });
    const again = await redeem({ code, imei });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(first.json().data);
    const other = await redeem({ code, imei: freshImei() });
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe('ACTIVATION_ALREADY_REDEEMED');

    const unknown = await redeem({ code: '0000-0000-0000', imei });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Code not found');
    // The code is of organisation 41, not 46.
    expect((await redeem({ code, imei, orgId: SECOND_ORG_ID })).statusCode).toBe(404);
    const bad = await redeem({ code: 'abc' });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad.json())).toContain('code');

    const activations = await apiGet(t, retailer, paths.plans.activations);
    expect(z.array(ZPlanActivation).parse(activations.body.data)[0]).toMatchObject({ status: 'redeemed' });
  });
});
