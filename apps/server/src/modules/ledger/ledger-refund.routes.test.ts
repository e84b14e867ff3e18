import { AppType } from '@kisht/domain/common/enums';
import { ZLedgerMovement } from '@kisht/domain/ledger/ledger.schema';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { createUser } from '../../db/seed/factories';
import { DEMO_ADMIN_MOBILE, DEMO_CUSTOMER_MOBILE, DEMO_ORG_ID } from '../../db/seed/seed';
import { apiGet, apiPost, customerBody, recordConsent } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';
import { releaseLapsedReservations } from './ledger.service';

/** Refunds of enrolment keys (issue 13 "refunds") through the HTTP routes. */
let t: TestApp;

// The file's helpers below act as the test's app (routeTest fixtures).
it.beforeEach(({ t: app }) => {
  t = app;
});

const DPC = AppType.DEVICE_POLICY_CONTROLLER;

/** A fresh retailer of the demo organisation holding `keys` DPC keys, logged in. */
const freshRetailer = async (mobile: string, keys: number) => {
  await createUser(t.app.ctx.db, {
    orgId: DEMO_ORG_ID,
    mobile,
    name: 'Refund Mobiles',
    keys: keys > 0 ? { [DPC]: keys } : {},
  });
  return t.tokenFor(DEMO_ORG_ID, mobile);
};

const balanceOf = async (token: string) => {
  const answer = await apiGet(t, token, paths.ledger.balances);
  expect(answer.status).toBe(200);
  return (
    (answer.body.data as { appType: number; balance: number }[]).find((b) => b.appType === DPC)?.balance ?? 0
  );
};

/** Adds a customer with consent; returns its id and IMEIs. */
const newCustomer = async (token: string) => {
  const productId = (await apiGet(t, token, `${paths.catalogue.products}?device_type=0`)).body.data[0]
    .id as number;
  const body = customerBody(productId);
  const created = await apiPost(t, token, paths.customers.create, body);
  expect(created.status).toBe(200);
  await recordConsent(t, token, created.body.data.id);
  return { id: created.body.data.id as number, imei1: body.imei1 as string, imei2: body.imei2 as string };
};

/** Issues the customer's QR; returns its one-time enrolment token. */
const issueQr = async (token: string, customerId: number) => {
  const qr = await apiGet(t, token, `${paths.customers.qrCode}?customer_id=${customerId}`);
  expect(qr.status).toBe(200);
  return JSON.parse(qr.body.data.payload)['android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE'][
    'in.kisht.ENROLMENT_TOKEN'
  ] as string;
};

const enrol = (payload: Record<string, unknown>) =>
  t.app
    .inject({ method: 'POST', url: paths.devices.enrol, payload })
    .then((r) => ({ status: r.statusCode, body: r.json() }));

const refund = (token: string, payload: Record<string, unknown>) =>
  apiPost(t, token, paths.ledger.refundKey, payload);

/** What a refund writes: refund movements, refunded key uses and refund audits. */
const refundWrites = async () =>
  (
    await queryRows<{ refunds: number; refunded: number; audits: number }>(
      t.app.ctx.db,
      sql`select
        (select count(*)::int from ledger_movements where kind = 'refund') as refunds,
        (select count(*)::int from ledger_movements where kind = 'key_use' and refunded_at is not null) as refunded,
        (select count(*)::int from audit_log where action = 'ledger.refund') as audits`,
    )
  )[0]!;

describe('refund of an enrolment key', () => {
  it('gives the key back, voids the QR, shows the refund in the history; a new QR charges again', async () => {
    const token = await freshRetailer('+919700002001', 1);
    const c = await newCustomer(token);
    const qrToken = await issueQr(token, c.id);
    expect(await balanceOf(token)).toBe(0);

    const answer = await refund(token, { customer_id: c.id, note: 'Customer changed their mind' });
    expect(answer.status).toBe(200);
    expect(ZLedgerMovement.parse(answer.body.data)).toMatchObject({
      kind: 'refund',
      appType: DPC,
      quantity: 1,
      direction: 'in',
      customerId: c.id,
      note: 'Customer changed their mind',
    });
    expect(await balanceOf(token)).toBe(1);
    const history = await apiGet(t, token, `${paths.ledger.transactions}?type=refund`);
    expect(history.body.data.items).toHaveLength(1);
    expect(history.body.data.items[0]).toMatchObject({ kind: 'refund', customerId: c.id, direction: 'in' });
    const audits = await queryRows<{ entity_id: string }>(
      t.app.ctx.db,
      sql`select entity_id from audit_log where action = 'ledger.refund'`,
    );
    expect(audits.map((a) => a.entity_id)).toEqual([String(c.id)]);

    // The reservation is settled by the refund: the lapsed-QR job gives nothing back twice.
    expect(await releaseLapsedReservations(t.app.ctx.db, new Date(Date.now() + 86_400_000))).toBe(0);
    expect(await balanceOf(token)).toBe(1);

    // The QR already shown no longer enrols a phone.
    const stale = await enrol({ token: qrToken, imei1: c.imei1, imei2: c.imei2 });
    expect(stale.body.code).toBe('ENROLMENT_TOKEN_INVALID');

    // A new QR for the same phone costs a key again, and that one enrols.
    const fresh = await issueQr(token, c.id);
    expect(await balanceOf(token)).toBe(0);
    const reservations = await apiGet(t, token, `${paths.ledger.transactions}?type=reserve`);
    expect(reservations.body.data.items).toHaveLength(2);
    expect((await enrol({ token: fresh, imei1: c.imei1, imei2: c.imei2 })).status).toBe(200);
  });

  it('refuses a second refund (409) writing nothing', async () => {
    const token = await freshRetailer('+919700002002', 1);
    const c = await newCustomer(token);
    await issueQr(token, c.id);
    expect((await refund(token, { customer_id: c.id })).status).toBe(200);
    const before = await refundWrites();
    const again = await refund(token, { customer_id: c.id });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('NOTHING_TO_WAIVE');
    expect(again.body.message).toBe('No key was spent for this customer');
    expect(await refundWrites()).toEqual(before);
    expect(await balanceOf(token)).toBe(1);
    // Nor can a customer whose QR was never made get a key.
    const never = await newCustomer(token);
    expect((await refund(token, { customer_id: never.id })).status).toBe(409);
    expect(await balanceOf(token)).toBe(1);
  });

  it('refuses an enrolled customer (409 ALREADY_ENROLLED) writing nothing', async () => {
    const token = await freshRetailer('+919700002003', 1);
    const c = await newCustomer(token);
    const qrToken = await issueQr(token, c.id);
    expect((await enrol({ token: qrToken, imei1: c.imei1, imei2: c.imei2 })).status).toBe(200);
    const answer = await refund(token, { customer_id: c.id });
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('ALREADY_ENROLLED');
    expect(await refundWrites()).toEqual({ refunds: 0, refunded: 0, audits: 0 });
    expect(await balanceOf(token)).toBe(0);
  });

  it("refuses bad input (400 naming customer_id), another tenant's customer (404), a customer and an admin (403)", async ({
    otherRetailer: other,
  }) => {
    const token = await freshRetailer('+919700002004', 1);
    const c = await newCustomer(token);
    await issueQr(token, c.id);
    for (const body of [
      {},
      { customer_id: 'x' },
      { customer_id: -1 },
      { customer_id: c.id, note: 'n'.repeat(201) },
    ]) {
      const bad = await refund(token, body);
      expect(bad.status).toBe(400);
      const fields = (bad.body.fields ?? []).map((f: { field: string }) => f.field);
      expect(fields).toContain('note' in body ? 'note' : 'customer_id');
    }
    const foreign = await refund(other, { customer_id: c.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('CUSTOMER_NOT_FOUND');
    // Another retailer of the same organisation does not see the customer either.
    const neighbour = await freshRetailer('+919700002005', 0);
    expect((await refund(neighbour, { customer_id: c.id })).status).toBe(404);
    for (const mobile of [DEMO_CUSTOMER_MOBILE, DEMO_ADMIN_MOBILE]) {
      const denied = await refund(await t.tokenFor(DEMO_ORG_ID, mobile), { customer_id: c.id });
      expect(denied.status).toBe(403);
    }
    expect(await refundWrites()).toEqual({ refunds: 0, refunded: 0, audits: 0 });
    expect(await balanceOf(token)).toBe(0);
  });
});
