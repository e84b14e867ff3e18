import { ZKeyRequest } from '@kisht/domain/ledger/key-requests.schema';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import {
  DEMO_ADMIN_MOBILE,
  DEMO_MINI_RETAILER_MOBILE,
  DEMO_ORG_ID,
  DEMO_RETAILER_MOBILE,
  SECOND_ORG_ID,
} from '../../db/seed/seed';
import { apiGet, apiPost, apiPut } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { checkInvariants } from '../../test/ledger-invariants';
import { routeTest as it } from '../../test/route-test';

/**
 * Key requests and returns up the chain (issue 30): a mini-retailer asks its retailer at the
 * retailer's price, a retailer asks its organisation at the organisation's; the parent approves
 * (one ledger movement) or rejects (with why), once; unused keys go back up; another shop's or
 * organisation's request answers 404, a customer 403, bad input 400 naming the field; the ledger's
 * invariants hold after decisions raced in parallel.
 */

const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field);
const DPC = 0;

const balanceOf = async (t: TestApp, mobile: string, appType = DPC) => {
  const [row] = await queryRows<{ balance: number }>(
    t.app.ctx.db,
    sql`select coalesce(b.balance, 0)::int as balance from users u
        left join ledger_accounts a on a.user_id = u.id
        left join ledger_balances b on b.account_id = a.id and b.app_type = ${appType}
        where u.org_id = ${DEMO_ORG_ID} and u.mobile = ${mobile}`,
  );
  return row?.balance ?? 0;
};

const ask = async (t: TestApp, token: string, quantity: number, paymentReference?: string) => {
  const asked = await apiPost(t, token, paths.keyRequests.list, {
    appType: DPC,
    quantity,
    ...(paymentReference ? { paymentReference } : {}),
  });
  expect(asked.status, JSON.stringify(asked.body)).toBe(200);
  return ZKeyRequest.parse(asked.body.data);
};

describe('key requests up the chain', () => {
  it("a mini-retailer asks its retailer at the retailer's price; the retailer approves once and the keys move", async ({
    t,
    retailer,
    miniRetailer,
  }) => {
    const prices = await apiPut(t, retailer, paths.keyRequests.prices, {
      prices: [{ appType: DPC, unitPricePaise: 12_000 }],
    });
    expect(prices.status, JSON.stringify(prices.body)).toBe(200);
    const request = await ask(t, miniRetailer, 3, 'UPI-4411');
    expect(request).toMatchObject({
      status: 'pending',
      unitPricePaise: 12_000,
      totalPaise: 36_000,
      paymentReference: 'UPI-4411',
    });
    expect(request.parentName).not.toBeNull();
    const received = await apiGet(t, retailer, `${paths.keyRequests.list}?box=received`);
    expect(received.body.data.map((r: { id: number }) => r.id)).toEqual([request.id]);

    const [retailerBefore, miniBefore] = [
      await balanceOf(t, DEMO_RETAILER_MOBILE),
      await balanceOf(t, DEMO_MINI_RETAILER_MOBILE),
    ];
    const approved = await apiPost(t, retailer, paths.keyRequests.decide, {
      request_id: request.id,
      decision: 'approve',
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.status).toBe('approved');
    expect(await balanceOf(t, DEMO_RETAILER_MOBILE)).toBe(retailerBefore - 3);
    expect(await balanceOf(t, DEMO_MINI_RETAILER_MOBILE)).toBe(miniBefore + 3);
    const again = await apiPost(t, retailer, paths.keyRequests.decide, {
      request_id: request.id,
      decision: 'approve',
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('KEY_REQUEST_ALREADY_DECIDED');
    expect(await balanceOf(t, DEMO_MINI_RETAILER_MOBILE)).toBe(miniBefore + 3);
    const history = await apiGet(t, miniRetailer, paths.ledger.transactions);
    expect(history.body.data.items[0]).toMatchObject({ kind: 'transfer', direction: 'in', quantity: 3 });
    await checkInvariants(t.app.ctx.db);
  });

  it('a retailer asks its organisation; the admin approves (a top-up) or rejects with why', async ({
    t,
    retailer,
  }) => {
    const admin = await t.tokenFor(DEMO_ORG_ID, DEMO_ADMIN_MOBILE);
    const first = await ask(t, retailer, 5);
    expect(first.parentName).toBeNull();
    const before = await balanceOf(t, DEMO_RETAILER_MOBILE);
    const received = await apiGet(t, admin, `${paths.keyRequests.list}?box=received`);
    expect(received.body.data.map((r: { id: number }) => r.id)).toContain(first.id);
    expect(
      (await apiPost(t, admin, paths.keyRequests.decide, { request_id: first.id, decision: 'approve' }))
        .status,
    ).toBe(200);
    expect(await balanceOf(t, DEMO_RETAILER_MOBILE)).toBe(before + 5);

    const second = await ask(t, retailer, 2);
    const noReason = await apiPost(t, admin, paths.keyRequests.decide, {
      request_id: second.id,
      decision: 'reject',
    });
    expect(noReason.status).toBe(400);
    expect(fieldsOf(noReason.body)).toEqual(['note']);
    const rejected = await apiPost(t, admin, paths.keyRequests.decide, {
      request_id: second.id,
      decision: 'reject',
      note: 'Payment not received',
    });
    expect(rejected.body.data).toMatchObject({ status: 'rejected', decisionNote: 'Payment not received' });
    expect(await balanceOf(t, DEMO_RETAILER_MOBILE)).toBe(before + 5);
    await checkInvariants(t.app.ctx.db);
  });

  it('the requester withdraws a pending request; nobody else can, nor decide what is not theirs', async ({
    t,
    retailer,
    miniRetailer,
    otherRetailer,
    make,
  }) => {
    const request = await ask(t, miniRetailer, 1);
    // Another organisation's retailer, the retailer (not the requester) withdrawing, the mini deciding.
    expect(
      (
        await apiPost(t, otherRetailer, paths.keyRequests.decide, {
          request_id: request.id,
          decision: 'approve',
        })
      ).status,
    ).toBe(404);
    expect((await apiPost(t, retailer, paths.keyRequests.cancel, { request_id: request.id })).status).toBe(
      404,
    );
    expect(
      (
        await apiPost(t, miniRetailer, paths.keyRequests.decide, {
          request_id: request.id,
          decision: 'approve',
        })
      ).status,
    ).toBe(403);
    // The organisation admin decides retailers' requests, not a mini-retailer's (its retailer does).
    const admin = await t.tokenFor(DEMO_ORG_ID, DEMO_ADMIN_MOBILE);
    expect(
      (await apiPost(t, admin, paths.keyRequests.decide, { request_id: request.id, decision: 'approve' }))
        .status,
    ).toBe(404);
    expect((await apiGet(t, otherRetailer, `${paths.keyRequests.list}?box=received`)).body.data).toEqual([]);
    const customer = await make.userByMobile('+919811111102');
    const customerToken = await t.tokenFor(DEMO_ORG_ID, customer.mobile);
    expect(
      (await apiPost(t, customerToken, paths.keyRequests.list, { appType: DPC, quantity: 1 })).status,
    ).toBe(403);

    const withdrawn = await apiPost(t, miniRetailer, paths.keyRequests.cancel, { request_id: request.id });
    expect(withdrawn.body.data.status).toBe('cancelled');
    expect(
      (await apiPost(t, retailer, paths.keyRequests.decide, { request_id: request.id, decision: 'approve' }))
        .status,
    ).toBe(409);
    expect(SECOND_ORG_ID).not.toBe(DEMO_ORG_ID);
  });

  it('bad input names the field and writes nothing', async ({ t, miniRetailer, retailer }) => {
    const count = async () =>
      (await queryRows<{ n: number }>(t.app.ctx.db, sql`select count(*)::int as n from key_requests`))[0]!.n;
    const before = await count();
    for (const [body, field] of [
      [{ appType: DPC, quantity: 0 }, 'quantity'],
      [{ appType: DPC, quantity: 1.5 }, 'quantity'],
      [{ appType: 99, quantity: 1 }, 'appType'],
      [{ appType: DPC, quantity: 1, paymentReference: 'x'.repeat(81) }, 'paymentReference'],
    ] as const) {
      const refused = await apiPost(t, miniRetailer, paths.keyRequests.list, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(refused.body)).toEqual([field]);
    }
    expect(await count()).toBe(before);
    const badDecision = await apiPost(t, retailer, paths.keyRequests.decide, {
      request_id: 1,
      decision: 'maybe',
    });
    expect(fieldsOf(badDecision.body)).toEqual(['decision']);
  });
});

describe('returns up the chain', () => {
  it("a mini-retailer's keys go back to its retailer, a retailer's to its organisation; more than held is refused", async ({
    t,
    retailer,
    miniRetailer,
  }) => {
    const [retailerBefore, miniBefore] = [
      await balanceOf(t, DEMO_RETAILER_MOBILE),
      await balanceOf(t, DEMO_MINI_RETAILER_MOBILE),
    ];
    expect(miniBefore).toBeGreaterThan(0);
    const back = await apiPost(t, miniRetailer, paths.keyRequests.returnKeys, { appType: DPC, quantity: 1 });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.data).toMatchObject({ kind: 'transfer', direction: 'out', quantity: 1 });
    expect(await balanceOf(t, DEMO_MINI_RETAILER_MOBILE)).toBe(miniBefore - 1);
    expect(await balanceOf(t, DEMO_RETAILER_MOBILE)).toBe(retailerBefore + 1);

    const tooMany = await apiPost(t, miniRetailer, paths.keyRequests.returnKeys, {
      appType: DPC,
      quantity: miniBefore + 5,
    });
    expect(tooMany.status).toBe(409);
    expect(fieldsOf(tooMany.body)).toEqual(['quantity']);
    expect(await balanceOf(t, DEMO_MINI_RETAILER_MOBILE)).toBe(miniBefore - 1);

    const up = await apiPost(t, retailer, paths.keyRequests.returnKeys, {
      appType: DPC,
      quantity: 2,
      note: 'Season over',
    });
    expect(up.body.data).toMatchObject({ kind: 'return', direction: 'out', quantity: 2 });
    expect(await balanceOf(t, DEMO_RETAILER_MOBILE)).toBe(retailerBefore + 1 - 2);
    await checkInvariants(t.app.ctx.db);
  });
});

describe('the ledger under concurrent decisions', () => {
  it('two approvals of one request at once move the keys once; many at once never overdraw the retailer', async ({
    t,
    retailer,
    miniRetailer,
  }) => {
    const request = await ask(t, miniRetailer, 1);
    const decide = (id: number) =>
      apiPost(t, retailer, paths.keyRequests.decide, { request_id: id, decision: 'approve' });
    const both = await Promise.all([decide(request.id), decide(request.id)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const [moved] = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`select count(*)::int as n from ledger_movements where note = ${`Key request ${request.id}`}`,
    );
    expect(moved!.n).toBe(1);

    // More asked than the retailer holds, all approved at once: some succeed, the rest 409.
    const held = await balanceOf(t, DEMO_RETAILER_MOBILE);
    const each = Math.max(1, Math.ceil(held / 3));
    const many = [];
    for (let k = 0; k < 5; k += 1) many.push(await ask(t, miniRetailer, each));
    const answers = await Promise.all(many.map((r) => decide(r.id)));
    const approved = answers.filter((a) => a.status === 200).length;
    expect(approved).toBeGreaterThan(0);
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    expect(approved * each).toBeLessThanOrEqual(held);
    const left = await balanceOf(t, DEMO_RETAILER_MOBILE);
    expect(left).toBe(held - approved * each);
    await checkInvariants(t.app.ctx.db);
    // Drawn down to the low-keys threshold (5) or under, the retailer is told, once a day.
    const told = await apiGet(t, retailer, paths.notifications.list);
    const lowKeys = (told.body.data.items as { kind: string }[]).filter((n) => n.kind === 'keys_low');
    expect(lowKeys.length).toBe(left <= 5 ? 1 : 0);
  });
});
