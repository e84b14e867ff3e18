import { ZKeyRequest } from '@kisht/domain/ledger/key-requests.schema';
import { ZNetwork } from '@kisht/domain/network/network.schema';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import {
  DEMO_ADMIN_MOBILE,
  DEMO_CUSTOMER_MOBILE,
  DEMO_DISTRIBUTOR_MOBILE,
  DEMO_NETWORK_RETAILER_MOBILE,
  DEMO_ORG_ID,
  DEMO_RETAILER_MOBILE,
  DEMO_SUPER_DISTRIBUTOR_MOBILE,
  SECOND_ORG_ID,
  SECOND_RETAILER_MOBILE,
} from '../../db/seed/seed';
import { apiGet, apiPost, apiPut } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { checkInvariants } from '../../test/ledger-invariants';
import { routeTest as it } from '../../test/route-test';

/**
 * The distribution network (issue 30): super-distributor → distributor → retailer in the demo
 * organisation (seeded). Each level joins under its parent, who decides; each sees its own subtree
 * (the network view, key balances, collections, join and key requests) and nothing else: a node of
 * a sibling branch or another organisation answers 404, a shop or customer 403, bad input 400
 * naming the field with nothing written. Keys flow down by request and approval and back up by
 * return, with the ledger's invariants holding after decisions raced.
 */

const DPC = 0;
const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field);

const tokens = async (t: TestApp) => ({
  superDistributor: await t.tokenFor(DEMO_ORG_ID, DEMO_SUPER_DISTRIBUTOR_MOBILE),
  distributor: await t.tokenFor(DEMO_ORG_ID, DEMO_DISTRIBUTOR_MOBILE),
  networkRetailer: await t.tokenFor(DEMO_ORG_ID, DEMO_NETWORK_RETAILER_MOBILE),
  admin: await t.tokenFor(DEMO_ORG_ID, DEMO_ADMIN_MOBILE),
});

const idOf = async (t: TestApp, mobile: string, orgId = DEMO_ORG_ID) => {
  const [row] = await queryRows<{ id: number }>(
    t.app.ctx.db,
    sql`select id from users where org_id = ${orgId} and mobile = ${mobile} and user_type <> 'customer'`,
  );
  return row!.id;
};

const balanceOf = async (t: TestApp, mobile: string) => {
  const [row] = await queryRows<{ balance: number }>(
    t.app.ctx.db,
    sql`select coalesce(b.balance, 0)::int as balance from users u
        left join ledger_accounts a on a.user_id = u.id
        left join ledger_balances b on b.account_id = a.id and b.app_type = ${DPC}
        where u.org_id = ${DEMO_ORG_ID} and u.mobile = ${mobile} and u.user_type <> 'customer'`,
  );
  return row?.balance ?? 0;
};

const countRows = async (t: TestApp, table: 'signup_requests' | 'users' | 'key_requests') => {
  const [row] = await queryRows<{ n: number }>(
    t.app.ctx.db,
    sql`select count(*)::int as n from ${sql.raw(table)}`,
  );
  return row!.n;
};

let address = 0;
const askToJoin = async (t: TestApp, body: Record<string, unknown>) => {
  address += 1;
  const response = await t.app.inject({
    method: 'POST',
    url: paths.users.signupRequest,
    payload: { orgId: DEMO_ORG_ID, name: 'Joiner', shopName: 'Joiner Shop', city: 'Pune', ...body },
    remoteAddress: `10.30.0.${address % 250}`,
  });
  return { status: response.statusCode, body: response.json() };
};

const pendingFor = async (t: TestApp, token: string) => {
  const listed = await apiGet(t, token, `${paths.admin.signupRequests}?status=pending`);
  expect(listed.status, JSON.stringify(listed.body)).toBe(200);
  return listed.body.data as Array<{ id: number; mobile: string; role: string }>;
};

describe('joining under a parent', () => {
  it('a distributor joins under the super-distributor, who alone decides; a retailer under the distributor', async ({
    t,
  }) => {
    const who = await tokens(t);
    const superId = await idOf(t, DEMO_SUPER_DISTRIBUTOR_MOBILE);
    const asked = await askToJoin(t, {
      mobile: '9822003301',
      role: 'distributor',
      parentMobile: DEMO_SUPER_DISTRIBUTOR_MOBILE.slice(3),
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);

    // Only the parent sees it: not the organisation admin, not the distributor of another branch.
    const seen = await pendingFor(t, who.superDistributor);
    expect(seen.map((r) => [r.mobile, r.role])).toEqual([['+919822003301', 'distributor']]);
    expect(await pendingFor(t, who.admin)).toEqual([]);
    expect(await pendingFor(t, who.distributor)).toEqual([]);
    const byOther = await apiPost(t, who.distributor, paths.admin.decideSignup, {
      id: seen[0]!.id,
      decision: 'approve',
    });
    expect(byOther.status).toBe(404);
    const byAdmin = await apiPost(t, who.admin, paths.admin.decideSignup, {
      id: seen[0]!.id,
      decision: 'approve',
    });
    expect(byAdmin.status).toBe(404);
    const byShop = await apiGet(t, who.networkRetailer, paths.admin.signupRequests);
    expect(byShop.status).toBe(403);

    const approved = await apiPost(t, who.superDistributor, paths.admin.decideSignup, {
      id: seen[0]!.id,
      decision: 'approve',
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const [made] = await queryRows<{ user_type: string; parent_id: number }>(
      t.app.ctx.db,
      sql`select user_type, parent_id from users where mobile = '+919822003301'`,
    );
    expect(made).toEqual({ user_type: 'distributor', parent_id: superId });

    // A retailer joins under the level-2 distributor, who approves; the retailer then logs in.
    const distributorId = await idOf(t, DEMO_DISTRIBUTOR_MOBILE);
    const shop = await askToJoin(t, { mobile: '9822003302', parentMobile: DEMO_DISTRIBUTOR_MOBILE });
    expect(shop.status, JSON.stringify(shop.body)).toBe(200);
    const [request] = await pendingFor(t, who.distributor);
    expect(request).toMatchObject({ mobile: '+919822003302', role: 'retailer' });
    const decided = await apiPost(t, who.distributor, paths.admin.decideSignup, {
      id: request!.id,
      decision: 'approve',
    });
    expect(decided.status).toBe(200);
    const token = await t.login(DEMO_ORG_ID, '+919822003302');
    const me = await apiGet(t, token, paths.keyRequests.list);
    expect(me.status).toBe(200);
    expect(await idOf(t, '+919822003302')).toBeGreaterThan(0);
    const [retailerRow] = await queryRows<{ parent_id: number }>(
      t.app.ctx.db,
      sql`select parent_id from users where mobile = '+919822003302' and user_type = 'retailer'`,
    );
    expect(retailerRow!.parent_id).toBe(distributorId);
  });

  it('refuses a distributor past the configured levels and an unknown parent, naming the field; writes nothing', async ({
    t,
  }) => {
    const who = await tokens(t);
    const before = await countRows(t, 'signup_requests');
    // Two levels by default: the level-2 distributor can have no distributor below it.
    const tooDeep = await askToJoin(t, {
      mobile: '9822003303',
      role: 'distributor',
      parentMobile: DEMO_DISTRIBUTOR_MOBILE,
    });
    expect(tooDeep.status).toBe(409);
    expect(tooDeep.body.code).toBe('ROLE_NOT_ALLOWED');
    expect(fieldsOf(tooDeep.body)).toEqual(['role']);
    // A retailer's mobile is not a distributor's.
    const notParent = await askToJoin(t, { mobile: '9822003304', parentMobile: DEMO_RETAILER_MOBILE });
    expect(notParent.status).toBe(404);
    expect(fieldsOf(notParent.body)).toEqual(['parentMobile']);
    // Another organisation's mobile neither.
    const otherOrg = await askToJoin(t, { mobile: '9822003305', parentMobile: SECOND_RETAILER_MOBILE });
    expect(otherOrg.status).toBe(404);
    const badRole = await askToJoin(t, { mobile: '9822003306', role: 'admin' });
    expect(badRole.status).toBe(400);
    expect(fieldsOf(badRole.body)).toEqual(['role']);
    const badParent = await askToJoin(t, { mobile: '9822003307', parentMobile: '12' });
    expect(badParent.status).toBe(400);
    expect(fieldsOf(badParent.body)).toEqual(['parentMobile']);
    expect(await countRows(t, 'signup_requests')).toBe(before);

    // The admin allows a third level: now the level-2 distributor may have one below it.
    const levels = await apiPut(t, who.admin, paths.network.settings, { distributorLevels: 3 });
    expect(levels.status, JSON.stringify(levels.body)).toBe(200);
    expect(levels.body.data).toEqual({ distributorLevels: 3 });
    const deeper = await askToJoin(t, {
      mobile: '9822003303',
      role: 'distributor',
      parentMobile: DEMO_DISTRIBUTOR_MOBILE,
    });
    expect(deeper.status, JSON.stringify(deeper.body)).toBe(200);
    const [audit] = await queryRows<{ details: unknown }>(
      t.app.ctx.db,
      sql`select details from audit_log where action = 'org.network_settings'`,
    );
    expect(audit!.details).toEqual({ before: 2, after: 3 });
  });
});

describe('the network view', () => {
  it('each parent sees its own subtree, one level at a time, with key stock colours', async ({ t }) => {
    const who = await tokens(t);
    const distributorId = await idOf(t, DEMO_DISTRIBUTOR_MOBILE);
    const ravi = await idOf(t, DEMO_RETAILER_MOBILE);

    const top = await apiGet(t, who.superDistributor, paths.network.list);
    expect(top.status, JSON.stringify(top.body)).toBe(200);
    const network = ZNetwork.parse(top.body.data);
    expect(network.parent).toBeNull();
    expect(network.distributorLevels).toBe(2);
    expect(network.children.map((n) => [n.id, n.userType, n.level, n.childCount])).toEqual([
      [distributorId, 'distributor', 2, 1],
    ]);
    expect(network.children[0]!.keys).toEqual([{ appType: DPC, balance: 12, level: 'ok' }]);

    const below = ZNetwork.parse(
      (await apiGet(t, who.superDistributor, `${paths.network.list}?parent_id=${distributorId}`)).body.data,
    );
    expect(below.parent?.id).toBe(distributorId);
    expect(below.children.map((n) => [n.shopName, n.userType, n.level, n.keys])).toEqual([
      ['Sai Mobile Point', 'retailer', null, []],
    ]);

    // The organisation admin sees the top of the whole organisation.
    const org = ZNetwork.parse((await apiGet(t, who.admin, paths.network.list)).body.data);
    const topNodes = org.children.map((n) => [n.name, n.userType, n.level]);
    expect(topNodes).toContainEqual(['Shree Telecom', 'distributor', 1]);
    expect(topNodes).toContainEqual(['Ravi Mobiles', 'retailer', null]);
    expect(org.children.every((n) => n.userType !== 'miniretailer')).toBe(true);

    // Outside the subtree: a sibling branch's node, another organisation's, none.
    const otherOrgNode = await idOf(t, SECOND_RETAILER_MOBILE, SECOND_ORG_ID);
    for (const [token, id] of [
      [who.distributor, ravi],
      [who.superDistributor, ravi],
      [who.distributor, await idOf(t, DEMO_SUPER_DISTRIBUTOR_MOBILE)],
      [who.superDistributor, otherOrgNode],
      [who.admin, otherOrgNode],
      [who.admin, 999_999],
    ] as const) {
      const answer = await apiGet(t, token, `${paths.network.list}?parent_id=${id}`);
      expect(answer.status, `${id}`).toBe(404);
      expect(fieldsOf(answer.body)).toEqual(['parent_id']);
      expect(JSON.stringify(answer.body)).not.toContain('Ravi');
    }
    // Shops and customers have no network view; bad input names the field.
    expect(
      (await apiGet(t, await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE), paths.network.list)).status,
    ).toBe(403);
    expect(
      (await apiGet(t, await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE), paths.network.list)).status,
    ).toBe(403);
    const bad = await apiGet(t, who.admin, `${paths.network.list}?parent_id=abc`);
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual(['parent_id']);
  });

  it('only the organisation admin sets the levels, within 0 to 5; bad input writes nothing', async ({
    t,
  }) => {
    const who = await tokens(t);
    const byDistributor = await apiPut(t, who.superDistributor, paths.network.settings, {
      distributorLevels: 3,
    });
    expect(byDistributor.status).toBe(403);
    const tooMany = await apiPut(t, who.admin, paths.network.settings, { distributorLevels: 9 });
    expect(tooMany.status).toBe(400);
    expect(fieldsOf(tooMany.body)).toEqual(['distributorLevels']);
    const [settings] = await queryRows<{ levels: unknown }>(
      t.app.ctx.db,
      sql`select settings->'distributorLevels' as levels from organizations where id = ${DEMO_ORG_ID}`,
    );
    expect(settings!.levels).toBeNull();
  });

  it("a distributor reads its subtree's key balances and collections, not a sibling branch's", async ({
    t,
  }) => {
    const who = await tokens(t);
    const sai = await idOf(t, DEMO_NETWORK_RETAILER_MOBILE);
    const ravi = await idOf(t, DEMO_RETAILER_MOBILE);
    const own = await apiGet(t, who.superDistributor, `${paths.ledger.balances}?user_id=${sai}`);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    const sibling = await apiGet(t, who.superDistributor, `${paths.ledger.balances}?user_id=${ravi}`);
    expect(sibling.status).toBe(404);

    const collections = await apiGet(t, who.superDistributor, paths.collections.summary);
    expect(collections.status, JSON.stringify(collections.body)).toBe(200);
    expect(JSON.stringify(collections.body.data)).not.toContain('Ravi');
    const ravisLoans = await apiGet(
      t,
      who.superDistributor,
      `${paths.collections.summary}?retailer_id=${ravi}`,
    );
    expect(ravisLoans.status).toBe(404);
    // Customers and phones are the shops': a distributor commands none.
    const customers = await apiGet(t, who.superDistributor, paths.customers.list);
    expect(customers.status).toBe(403);
  });
});

describe('keys down the network', () => {
  const ask = async (t: TestApp, token: string, quantity: number) => {
    const asked = await apiPost(t, token, paths.keyRequests.list, { appType: DPC, quantity });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    return ZKeyRequest.parse(asked.body.data);
  };

  it('each node asks its parent at its price; only that parent decides; returns go back to it', async ({
    t,
  }) => {
    const who = await tokens(t);
    const prices = await apiPut(t, who.distributor, paths.keyRequests.prices, {
      prices: [{ appType: DPC, unitPricePaise: 9_000 }],
    });
    expect(prices.status, JSON.stringify(prices.body)).toBe(200);

    const request = await ask(t, who.networkRetailer, 3);
    expect(request).toMatchObject({ parentName: 'Andheri Mobile Distributors', unitPricePaise: 9_000 });
    for (const token of [who.superDistributor, who.admin]) {
      const received = await apiGet(t, token, `${paths.keyRequests.list}?box=received`);
      expect(received.body.data).toEqual([]);
      const decided = await apiPost(t, token, paths.keyRequests.decide, {
        request_id: request.id,
        decision: 'approve',
      });
      expect(decided.status).toBe(404);
    }
    const approved = await apiPost(t, who.distributor, paths.keyRequests.decide, {
      request_id: request.id,
      decision: 'approve',
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(await balanceOf(t, DEMO_NETWORK_RETAILER_MOBILE)).toBe(3);
    expect(await balanceOf(t, DEMO_DISTRIBUTOR_MOBILE)).toBe(9);

    const returned = await apiPost(t, who.networkRetailer, paths.keyRequests.returnKeys, {
      appType: DPC,
      quantity: 1,
    });
    expect(returned.status, JSON.stringify(returned.body)).toBe(200);
    expect(await balanceOf(t, DEMO_NETWORK_RETAILER_MOBILE)).toBe(2);
    expect(await balanceOf(t, DEMO_DISTRIBUTOR_MOBILE)).toBe(10);

    // The distributor asks the super-distributor (a transfer), who asks the organisation (a top-up).
    const up = await ask(t, who.distributor, 5);
    expect(up.parentName).toBe('Shree Telecom Distributors');
    expect(
      (
        await apiPost(t, who.superDistributor, paths.keyRequests.decide, {
          request_id: up.id,
          decision: 'approve',
        })
      ).status,
    ).toBe(200);
    expect(await balanceOf(t, DEMO_SUPER_DISTRIBUTOR_MOBILE)).toBe(35);
    const top = await ask(t, who.superDistributor, 10);
    expect(top.parentName).toBeNull();
    expect(
      (await apiPost(t, who.admin, paths.keyRequests.decide, { request_id: top.id, decision: 'approve' }))
        .status,
    ).toBe(200);
    expect(await balanceOf(t, DEMO_SUPER_DISTRIBUTOR_MOBILE)).toBe(45);
    const back = await apiPost(t, who.superDistributor, paths.keyRequests.returnKeys, {
      appType: DPC,
      quantity: 45,
    });
    expect(back.status).toBe(200);
    expect(await balanceOf(t, DEMO_SUPER_DISTRIBUTOR_MOBILE)).toBe(0);
    await checkInvariants(t.app.ctx.db);
  });

  it('approvals raced against a distributor with too few keys never overdraw it; the ledger stays whole', async ({
    t,
  }) => {
    const who = await tokens(t);
    // Five requests of 3 against the distributor's 12: four can be met.
    const requests = [];
    for (let i = 0; i < 5; i += 1) requests.push(await ask(t, who.networkRetailer, 3));
    const decide = (id: number) =>
      apiPost(t, who.distributor, paths.keyRequests.decide, { request_id: id, decision: 'approve' });
    const answers = await Promise.all([...requests, requests[0]!].map((r) => decide(r.id)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 409, 409]);
    expect(await balanceOf(t, DEMO_DISTRIBUTOR_MOBILE)).toBe(0);
    expect(await balanceOf(t, DEMO_NETWORK_RETAILER_MOBILE)).toBe(12);
    await checkInvariants(t.app.ctx.db);
    // Drawn down under the low-keys threshold, the distributor is told once, and its node is red.
    const told = await apiGet(t, who.distributor, paths.notifications.list);
    expect(told.status).toBe(200);
    expect((told.body.data.items as { kind: string }[]).filter((n) => n.kind === 'keys_low')).toHaveLength(1);
    const seen = ZNetwork.parse((await apiGet(t, who.superDistributor, paths.network.list)).body.data);
    expect(seen.children[0]!.keys).toEqual([{ appType: DPC, balance: 0, level: 'low' }]);
  });
});
