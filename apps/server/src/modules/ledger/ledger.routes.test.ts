import { AppType } from '@kisht/domain/common/enums';
import { DATE_FORMAT } from '@kisht/domain/common/time';
import {
  ZAdminRetailer,
  ZKeyBalances,
  ZLedgerMovement,
  ZTransactionPage,
} from '@kisht/domain/ledger/ledger.schema';
import { paths } from '@kisht/domain/paths';
import dayjs from 'dayjs';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { createUser } from '../../db/seed/factories';
import {
  DEMO_ADMIN_MOBILE,
  DEMO_MINI_RETAILER_KEYS,
  DEMO_MINI_RETAILER_MOBILE,
  DEMO_ORG_ID,
  DEMO_RETAILER_KEYS,
  DEMO_RETAILER_MOBILE,
  SECOND_ORG_ID,
  SECOND_RETAILER_MOBILE,
} from '../../db/seed/seed';
import { apiGet, apiPost, customerBody, recordConsent } from '../../test/fixtures';
import { bearer, type TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';
import { RESERVATION_RETURN_GRACE_MS, releaseLapsedReservations } from './ledger.service';

/** Keys, balance and transactions (issue 13) through the HTTP routes. */
let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field);

const userId = async (orgId: number, mobile: string, userType: string) =>
  (
    await queryRows<{ id: number }>(
      t.app.ctx.db,
      sql`select id from users where org_id = ${orgId} and mobile = ${mobile} and user_type = ${userType}`,
    )
  )[0]!.id;

const balanceOf = async (token: string, appType: number, query = '') => {
  const answer = await apiGet(t, token, `${paths.ledger.balances}${query}`);
  expect(answer.status).toBe(200);
  return ZKeyBalances.parse(answer.body.data).find((b) => b.appType === appType)?.balance ?? 0;
};

const auditActions = async (action: string) =>
  queryRows<{ entity_id: string; details: Record<string, unknown> }>(
    t.app.ctx.db,
    sql`select entity_id, details from audit_log where action = ${action} order by id`,
  );

/** The demo retailer's DPC keys after the seed: 50, less 5 given to the mini-retailer and 3 enrolled phones. */
const DEMO_DPC_BALANCE = DEMO_RETAILER_KEYS[AppType.DEVICE_POLICY_CONTROLLER]! - DEMO_MINI_RETAILER_KEYS - 3;

/** A fresh retailer of the demo organisation holding `keys` DPC keys, logged in. */
const freshRetailer = async (mobile: string, keys: number) => {
  await createUser(t.app.ctx.db, {
    orgId: DEMO_ORG_ID,
    mobile,
    name: 'Fresh Mobiles',
    keys: keys > 0 ? { [AppType.DEVICE_POLICY_CONTROLLER]: keys } : {},
  });
  return t.tokenFor(DEMO_ORG_ID, mobile);
};

const firstProductId = async (token: string) =>
  (await apiGet(t, token, `${paths.catalogue.products}?device_type=0`)).body.data[0].id as number;

describe('balances', () => {
  it("shows the retailer's keys per app_type, and its mini-retailer's with user_id", async ({
    miniRetailer: mini,
  }) => {
    const answer = await apiGet(t, retailer, paths.ledger.balances);
    expect(answer.status).toBe(200);
    const balances = ZKeyBalances.parse(answer.body.data);
    expect(balances.find((b) => b.appType === AppType.DEVICE_POLICY_CONTROLLER)?.balance).toBe(
      DEMO_DPC_BALANCE,
    );
    expect(balances.find((b) => b.appType === AppType.ANTI_THEFT)?.balance).toBe(20);
    expect(balances.map((b) => b.appType)).toEqual([...balances.map((b) => b.appType)].sort((a, b) => a - b));

    const miniId = await userId(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE, 'miniretailer');
    expect(await balanceOf(retailer, 0, `?user_id=${miniId}`)).toBe(DEMO_MINI_RETAILER_KEYS);
    expect(await balanceOf(mini, 0)).toBe(DEMO_MINI_RETAILER_KEYS);
  });

  it("answers 404 for anyone else's user_id and 400 naming a bad one", async ({ miniRetailer: mini }) => {
    const retailerId = await userId(DEMO_ORG_ID, DEMO_RETAILER_MOBILE, 'retailer');
    const otherOrg = await userId(SECOND_ORG_ID, SECOND_RETAILER_MOBILE, 'retailer');
    // A mini-retailer cannot look at its parent, nor a retailer at another organisation's.
    expect((await apiGet(t, mini, `${paths.ledger.balances}?user_id=${retailerId}`)).status).toBe(404);
    expect((await apiGet(t, retailer, `${paths.ledger.balances}?user_id=${otherOrg}`)).status).toBe(404);
    const bad = await apiGet(t, retailer, `${paths.ledger.balances}?user_id=abc`);
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toContain('user_id');
  });
});

describe('transfer', () => {
  it('moves keys to a mini-retailer and back, audited, and refuses more than the source holds', async () => {
    const miniId = await userId(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE, 'miniretailer');
    const given = await apiPost(t, retailer, paths.ledger.transfer, {
      userId: miniId,
      appType: 0,
      quantity: 3,
      direction: 'to_child',
    });
    expect(given.status).toBe(200);
    expect(ZLedgerMovement.parse(given.body.data)).toMatchObject({
      kind: 'transfer',
      quantity: 3,
      direction: 'out',
      counterpartyName: 'Ravi Mobiles – Andheri',
    });
    expect(await balanceOf(retailer, 0)).toBe(DEMO_DPC_BALANCE - 3);
    expect(await balanceOf(retailer, 0, `?user_id=${miniId}`)).toBe(DEMO_MINI_RETAILER_KEYS + 3);

    const taken = await apiPost(t, retailer, paths.ledger.transfer, {
      userId: miniId,
      appType: 0,
      quantity: 2,
      direction: 'from_child',
    });
    expect(taken.body.data).toMatchObject({ direction: 'in', quantity: 2 });
    expect(await balanceOf(retailer, 0)).toBe(DEMO_DPC_BALANCE - 1);

    const tooMany = await apiPost(t, retailer, paths.ledger.transfer, {
      userId: miniId,
      appType: 0,
      quantity: 500,
      direction: 'from_child',
    });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.code).toBe('INSUFFICIENT_KEYS');
    expect(fieldsOf(tooMany.body)).toEqual(['quantity']);
    expect(tooMany.body.message).toContain(
      `has ${DEMO_MINI_RETAILER_KEYS + 1} Device policy controller keys`,
    );
    // Nothing moved.
    expect(await balanceOf(retailer, 0, `?user_id=${miniId}`)).toBe(DEMO_MINI_RETAILER_KEYS + 1);

    const audits = await auditActions('ledger.transfer');
    // The seed's transfer, then these two.
    expect(audits.slice(-2).map((a) => [a.entity_id, a.details.direction, a.details.quantity])).toEqual([
      [String(miniId), 'to_child', 3],
      [String(miniId), 'from_child', 2],
    ]);
  });

  it("refuses bad input (400 naming the field), another retailer's user (404) and a mini-retailer (403)", async ({
    otherRetailer: second,
    miniRetailer: mini,
  }) => {
    const miniId = await userId(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE, 'miniretailer');
    const base = { userId: miniId, appType: 0, quantity: 1, direction: 'to_child' };
    for (const [patch, field] of [
      [{ quantity: 0 }, 'quantity'],
      [{ quantity: 1.5 }, 'quantity'],
      [{ direction: 'sideways' }, 'direction'],
      [{ appType: 3 }, 'appType'],
      [{ userId: 'x' }, 'userId'],
    ] as const) {
      const answer = await apiPost(t, retailer, paths.ledger.transfer, { ...base, ...patch });
      expect(answer.status, JSON.stringify(patch)).toBe(400);
      expect(fieldsOf(answer.body)).toContain(field);
    }
    const otherOrg = await userId(SECOND_ORG_ID, SECOND_RETAILER_MOBILE, 'retailer');
    const retailerId = await userId(DEMO_ORG_ID, DEMO_RETAILER_MOBILE, 'retailer');
    for (const [token, target] of [
      [retailer, otherOrg],
      [retailer, retailerId],
      [second, miniId],
    ] as const) {
      const answer = await apiPost(t, token, paths.ledger.transfer, { ...base, userId: target });
      expect(answer.status).toBe(404);
    }
    expect((await apiPost(t, mini, paths.ledger.transfer, { ...base, userId: retailerId })).status).toBe(403);
    expect(await balanceOf(retailer, 0)).toBe(DEMO_DPC_BALANCE);
  });
});

describe('transactions (top_up_history)', () => {
  it('lists the movements of the account newest first, filtered by type and +05:30 days, paged by cursor', async () => {
    const page = await apiGet(t, retailer, paths.ledger.transactions);
    expect(page.status).toBe(200);
    const first = ZTransactionPage.parse(page.body.data);
    // The seed: top-ups of every app type in DEMO_RETAILER_KEYS, a transfer of 5 to the
    // mini-retailer, 3 keys reserved by QRs (their spending, at enrolment, leaves the reserved
    // account, not the retailer's).
    expect(first.items.map((m) => m.kind).sort()).toEqual(
      [
        ...Array(Object.keys(DEMO_RETAILER_KEYS).length).fill('top_up'),
        'transfer',
        'reserve',
        'reserve',
        'reserve',
      ].sort(),
    );
    expect(first.nextCursor).toBeNull();
    const ids = first.items.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const used = first.items.find((m) => m.kind === 'reserve')!;
    expect(used).toMatchObject({ direction: 'out', quantity: 1, counterpartyName: null });
    expect(used.customerName).toMatch(/^(Aarav Sharma|Priya Patel|Sneha Iyer)$/);
    expect(first.items.find((m) => m.kind === 'transfer')).toMatchObject({
      direction: 'out',
      counterpartyName: 'Ravi Mobiles – Andheri',
    });

    const onlyTransfers = await apiGet(t, retailer, `${paths.ledger.transactions}?type=transfer`);
    expect(onlyTransfers.body.data.items.map((m: { kind: string }) => m.kind)).toEqual(['transfer']);

    const today = dayjs().utcOffset(330).format('YYYY-MM-DD');
    const tomorrow = dayjs().utcOffset(330).add(1, 'day').format('YYYY-MM-DD');
    const yesterday = dayjs().utcOffset(330).subtract(1, 'day').format('YYYY-MM-DD');
    expect(
      (await apiGet(t, retailer, `${paths.ledger.transactions}?from=${today}&to=${today}`)).body.data.items,
    ).toHaveLength(first.items.length);
    expect(
      (await apiGet(t, retailer, `${paths.ledger.transactions}?from=${tomorrow}`)).body.data.items,
    ).toEqual([]);
    expect(
      (await apiGet(t, retailer, `${paths.ledger.transactions}?to=${yesterday}`)).body.data.items,
    ).toEqual([]);

    // 35 more transfers: two pages of 30 and the rest, no movement twice.
    const miniId = await userId(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE, 'miniretailer');
    for (let i = 0; i < 35; i += 1)
      await apiPost(t, retailer, paths.ledger.transfer, {
        userId: miniId,
        appType: 4,
        quantity: 1,
        direction: i % 2 ? 'from_child' : 'to_child',
      });
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const answer = await apiGet(
        t,
        retailer,
        `${paths.ledger.transactions}${cursor ? `?cursor=${cursor}` : ''}`,
      );
      const pageData = ZTransactionPage.parse(answer.body.data);
      seen.push(...pageData.items.map((m) => m.id));
      cursor = pageData.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(first.items.length + 35);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));

    // The mini-retailer's own history, as its parent sees it with user_id.
    const ofMini = await apiGet(t, retailer, `${paths.ledger.transactions}?user_id=${miniId}&type=transfer`);
    // The last transfer (the 35th) went to the mini-retailer.
    expect(ofMini.body.data.items[0]).toMatchObject({ counterpartyName: 'Ravi Mobiles', direction: 'in' });
    expect(ofMini.body.data.items).toHaveLength(30);
  });

  it('answers 400 naming a bad filter and 404 for another user', async ({ otherRetailer: second }) => {
    for (const [query, field] of [
      ['from=2026-02-30', 'from'],
      ['from=15-01-2026', 'from'],
      ['from=2026-03-02&to=2026-03-01', 'to'],
      ['type=gift', 'type'],
      ['cursor=abc', 'cursor'],
      ['user_id=-1', 'user_id'],
    ]) {
      const answer = await apiGet(t, retailer, `${paths.ledger.transactions}?${query}`);
      expect(answer.status, query).toBe(400);
      expect(fieldsOf(answer.body)).toContain(field);
    }
    const retailerId = await userId(DEMO_ORG_ID, DEMO_RETAILER_MOBILE, 'retailer');
    expect((await apiGet(t, second, `${paths.ledger.transactions}?user_id=${retailerId}`)).status).toBe(404);
    expect((await apiGet(t, second, `${paths.ledger.transactionsCsv}?user_id=${retailerId}`)).status).toBe(
      404,
    );
  });

  it('downloads the history as CSV with +05:30 dates and signed quantities', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `${paths.ledger.transactionsCsv}?type=transfer`,
      headers: bearer(retailer),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const lines = response.body.trim().split('\n');
    expect(lines[0]).toBe('Date,Type,App type,Keys,Counterparty,Customer id,Customer,Note');
    expect(lines).toHaveLength(2);
    const cells = lines[1]!.split(',');
    expect(
      dayjs(cells[0], `${DATE_FORMAT} hh:mm A`, true).isValid() ||
        /^\d{2}-\d{2}-\d{4} \d{2}:\d{2} [AP]M$/.test(cells[0]!),
    ).toBe(true);
    expect(cells.slice(1, 5)).toEqual([
      'Transfer',
      'Device policy controller',
      String(-DEMO_MINI_RETAILER_KEYS),
      'Ravi Mobiles – Andheri',
    ]);
  });
});

describe('admin', () => {
  it('lets the organisation admin log in, find a retailer and credit keys to it, audited', async () => {
    const admin = await t.tokenFor(DEMO_ORG_ID, DEMO_ADMIN_MOBILE);
    const found = await apiGet(t, admin, `${paths.admin.retailers}?search=ravi`);
    expect(found.status).toBe(200);
    const retailers = found.body.data.map((r: unknown) => ZAdminRetailer.parse(r));
    expect(retailers.map((r: { mobile: string }) => r.mobile)).toEqual([DEMO_RETAILER_MOBILE]);

    const credited = await apiPost(t, admin, paths.admin.creditKeys, {
      retailerId: retailers[0].id,
      appType: 0,
      quantity: 10,
      note: 'Diwali offer',
    });
    expect(credited.status).toBe(200);
    expect(ZLedgerMovement.parse(credited.body.data)).toMatchObject({
      kind: 'top_up',
      direction: 'in',
      quantity: 10,
      note: 'Diwali offer',
    });
    expect(await balanceOf(retailer, 0)).toBe(DEMO_DPC_BALANCE + 10);
    expect((await auditActions('ledger.credit')).map((a) => [a.entity_id, a.details.quantity])).toEqual([
      [String(retailers[0].id), 10],
    ]);
    // The admin sees no customers: retailer routes refuse it.
    expect((await apiGet(t, admin, paths.customers.list)).status).toBe(403);
  });

  it("refuses bad input (400), others' and mini-retailers' ids (404), and anyone but an admin (403)", async () => {
    const admin = await t.tokenFor(DEMO_ORG_ID, DEMO_ADMIN_MOBILE);
    const retailerId = await userId(DEMO_ORG_ID, DEMO_RETAILER_MOBILE, 'retailer');
    const base = { retailerId, appType: 0, quantity: 1 };
    for (const [patch, field] of [
      [{ quantity: -1 }, 'quantity'],
      [{ appType: 99 }, 'appType'],
      [{ note: 'x'.repeat(201) }, 'note'],
      [{ retailerId: 0 }, 'retailerId'],
    ] as const) {
      const answer = await apiPost(t, admin, paths.admin.creditKeys, { ...base, ...patch });
      expect(answer.status).toBe(400);
      expect(fieldsOf(answer.body)).toContain(field);
    }
    const otherOrg = await userId(SECOND_ORG_ID, SECOND_RETAILER_MOBILE, 'retailer');
    const miniId = await userId(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE, 'miniretailer');
    for (const target of [otherOrg, miniId]) {
      const answer = await apiPost(t, admin, paths.admin.creditKeys, { ...base, retailerId: target });
      expect(answer.status).toBe(404);
      expect(fieldsOf(answer.body)).toEqual(['retailerId']);
    }
    expect((await apiPost(t, retailer, paths.admin.creditKeys, base)).status).toBe(403);
    expect((await apiGet(t, retailer, paths.admin.retailers)).status).toBe(403);
    const longSearch = await apiGet(t, admin, `${paths.admin.retailers}?search=${'x'.repeat(61)}`);
    expect(longSearch.status).toBe(400);
    expect(fieldsOf(longSearch.body)).toContain('search');
    expect(await auditActions('ledger.credit')).toEqual([]);
    expect(await balanceOf(retailer, 0)).toBe(DEMO_DPC_BALANCE);
  });
});

describe('a key per enrolment', () => {
  it('refuses a customer without a key of the app type (409 NO_KEYS naming it), writing nothing', async () => {
    const broke = await freshRetailer('+919700001001', 0);
    const productId = await firstProductId(broke);
    const before = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`select count(*)::int as n from customers`,
    );
    const answer = await apiPost(t, broke, paths.customers.create, customerBody(productId));
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('NO_KEYS');
    expect(answer.body.message).toBe('No Device policy controller keys left. Buy keys or ask your retailer.');
    const after = await queryRows<{ n: number }>(t.app.ctx.db, sql`select count(*)::int as n from customers`);
    expect(after[0]!.n).toBe(before[0]!.n);
    // Keys of another type do not help: one key of the device policy controller, none link-based.
    const dpcOnly = await freshRetailer('+919700001009', 1);
    const anti = await apiPost(
      t,
      dpcOnly,
      paths.customers.create,
      customerBody(productId, { deviceType: 2, appType: 6 }),
    );
    expect(anti.status).toBe(409);
    expect(anti.body.message).toBe('No Old link-based keys left. Buy keys or ask your retailer.');
  });

  it('reserves one key when the QR is made; a re-issue is free; without keys the QR is refused and no token written', async () => {
    const token = await freshRetailer('+919700001002', 1);
    const productId = await firstProductId(token);
    const ids: number[] = [];
    // Two customers may be added with one key: the key is reserved by the QR.
    for (let i = 0; i < 2; i += 1) {
      const created = await apiPost(t, token, paths.customers.create, customerBody(productId));
      expect(created.status).toBe(200);
      ids.push(created.body.data.id);
      await recordConsent(t, token, created.body.data.id);
    }
    const qr = (id: number) => apiGet(t, token, `${paths.customers.qrCode}?customer_id=${id}`);
    expect((await qr(ids[0]!)).status).toBe(200);
    expect(await balanceOf(token, 0)).toBe(0);
    expect((await qr(ids[0]!)).status).toBe(200);
    const refused = await qr(ids[1]!);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('NO_KEYS');
    const png = await t.app.inject({
      method: 'GET',
      url: `${paths.customers.qrCodePng}?customer_id=${ids[1]}`,
      headers: bearer(token),
    });
    expect(png.statusCode).toBe(409);
    const tokens = await queryRows<{ customer_id: number; has_token: boolean }>(
      t.app.ctx.db,
      sql`select customer_id, enrolment_token_hash is not null as has_token from devices where customer_id in (${ids[0]}, ${ids[1]}) order by customer_id`,
    );
    expect(tokens.map((row) => row.has_token)).toEqual([true, false]);
    const reservations = await apiGet(t, token, `${paths.ledger.transactions}?type=reserve`);
    expect(reservations.body.data.items).toHaveLength(1);
    expect(reservations.body.data.items[0]).toMatchObject({
      customerId: ids[0],
      quantity: 1,
      direction: 'out',
    });
  });

  it('reserves the last key once when two QRs are made at once (race)', async () => {
    const token = await freshRetailer('+919700001003', 1);
    const productId = await firstProductId(token);
    const ids: number[] = [];
    for (let i = 0; i < 2; i += 1) {
      const created = await apiPost(t, token, paths.customers.create, customerBody(productId));
      ids.push(created.body.data.id);
      await recordConsent(t, token, created.body.data.id);
    }
    const answers = await Promise.all(
      ids.map((id) =>
        t.app.inject({
          method: 'GET',
          url: `${paths.customers.qrCode}?customer_id=${id}`,
          headers: bearer(token),
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().code).toBe('NO_KEYS');
    expect(await balanceOf(token, 0)).toBe(0);
    const reservations = await apiGet(t, token, `${paths.ledger.transactions}?type=reserve`);
    expect(reservations.body.data.items).toHaveLength(1);
  });

  it('spends the reserved key when the phone enrols, and returns it when the QR lapses unused', async ({
    make,
  }) => {
    const token = await freshRetailer('+919700001004', 2);
    const productId = await firstProductId(token);
    const added = async () => {
      const body = customerBody(productId);
      const id = (await apiPost(t, token, paths.customers.create, body)).body.data.id as number;
      await recordConsent(t, token, id);
      return { id, body };
    };
    const enrolmentTokenOf = async (id: number) => {
      const qr = await apiGet(t, token, `${paths.customers.qrCode}?customer_id=${id}`);
      expect(qr.status).toBe(200);
      return JSON.parse(qr.body.data.payload)['android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE'][
        'in.kisht.ENROLMENT_TOKEN'
      ] as string;
    };
    const kindsOf = async () =>
      (await apiGet(t, token, paths.ledger.transactions)).body.data.items.map(
        (m: { kind: string }) => m.kind,
      );
    const systemKeys = async (kind: string) =>
      (
        await queryRows<{ n: number }>(
          t.app.ctx.db,
          sql`select coalesce(sum(e.delta), 0)::int as n from ledger_entries e
            join ledger_accounts a on a.id = e.account_id
            where a.org_id = ${DEMO_ORG_ID} and a.kind = ${kind}`,
        )
      )[0]!.n;
    const reservedBefore = await systemKeys('reserved');
    const consumedBefore = await systemKeys('consumption');

    // A QR nobody scans: its key is held, and comes back once the token has lapsed.
    const unscanned = await added();
    await enrolmentTokenOf(unscanned.id);
    expect(await balanceOf(token, 0)).toBe(1);
    expect(await systemKeys('reserved')).toBe(reservedBefore + 1);
    // Still valid: nothing returns.
    expect(await releaseLapsedReservations(t.app.ctx.db)).toBe(0);
    await make.deviceRow(unscanned.id, { enrolmentExpiresAt: new Date(Date.now() - 60_000) });
    // Within the grace after expiry an enrolment in flight still wins.
    expect(await releaseLapsedReservations(t.app.ctx.db)).toBe(0);
    expect(
      await releaseLapsedReservations(t.app.ctx.db, new Date(Date.now() + RESERVATION_RETURN_GRACE_MS)),
    ).toBe(1);
    expect(await balanceOf(token, 0)).toBe(2);
    expect(await systemKeys('reserved')).toBe(reservedBefore);
    expect(await kindsOf()).toEqual(['release', 'reserve', 'top_up']);
    // Returned once: a second run finds nothing.
    expect(
      await releaseLapsedReservations(t.app.ctx.db, new Date(Date.now() + RESERVATION_RETURN_GRACE_MS)),
    ).toBe(0);
    expect(
      (await auditActions('ledger.key_release')).filter((a) => a.entity_id === String(unscanned.id)),
    ).toHaveLength(1);

    // A new QR for that customer reserves again; its phone enrols and spends it.
    const enrolled = await added();
    const enrolmentToken = await enrolmentTokenOf(enrolled.id);
    expect(await balanceOf(token, 0)).toBe(1);
    const enrol = await t.app.inject({
      method: 'POST',
      url: paths.devices.enrol,
      payload: { token: enrolmentToken, imei1: enrolled.body.imei1, imei2: enrolled.body.imei2 },
    });
    expect(enrol.statusCode).toBe(200);
    expect(await systemKeys('reserved')).toBe(reservedBefore);
    expect(await systemKeys('consumption')).toBe(consumedBefore + 1);
    expect(await balanceOf(token, 0)).toBe(1);
    const [use] = (await auditActions('ledger.key_use')).filter((a) => a.entity_id === String(enrolled.id));
    expect(use!.details).toMatchObject({
      appType: 0,
      imei: enrolled.body.imei1,
      reserveMovementId: expect.any(Number),
    });
    // An enrolled phone's key never comes back, even long after its token's retry window.
    expect(await releaseLapsedReservations(t.app.ctx.db, new Date(Date.now() + 86_400_000))).toBe(0);
    expect(await balanceOf(token, 0)).toBe(1);
    expect(await kindsOf()).toEqual(['reserve', 'release', 'reserve', 'top_up']);
  });
});
