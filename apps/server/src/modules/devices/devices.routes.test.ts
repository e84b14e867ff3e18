import { createHash } from 'node:crypto';
import { decodeQrPng } from '@kisht/device-agent/qr';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import { apiGet, apiPost, customerBody, recordConsent, TEST_LOCK_REASON } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

const enrol = (payload: Record<string, unknown>) =>
  t.app
    .inject({ method: 'POST', url: paths.devices.enrol, payload })
    .then((r) => ({ status: r.statusCode, body: r.json() }));

/** Adds a customer and issues their QR; returns ids, IMEIs and the one-time token. */
const newCustomerWithToken = async () => {
  const productId = (await apiGet(t, retailer, `${paths.catalogue.products}?device_type=0`)).body.data[0].id;
  const body = customerBody(productId);
  const customer = (await apiPost(t, retailer, paths.customers.create, body)).body.data;
  await recordConsent(t, retailer, customer.id);
  const qr = (await apiGet(t, retailer, `${paths.customers.qrCode}?customer_id=${customer.id}`)).body.data;
  const token = JSON.parse(qr.payload)['android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE'][
    'in.kisht.ENROLMENT_TOKEN'
  ];
  return { customerId: customer.id as number, imei1: body.imei1, imei2: body.imei2, token: token as string };
};

const commandRows = async () =>
  queryRows<{ name: string; state: string }>(
    t.app.ctx.db,
    sql`select name, state from device_commands order by created_at, id`,
  );

describe('device enrolment', () => {
  it('enrols with the token and matching IMEIs (either order), making the customer installed', async () => {
    const c = await newCustomerWithToken();
    const response = await enrol({ token: c.token, imei1: c.imei2, imei2: c.imei1 });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      deviceId: expect.any(String),
      deviceSecret: expect.any(String),
      mqttUrl: expect.stringMatching(/^ws:\/\/.+\/mqtt$/),
      cmdTopic: `kisht/v1/d/${response.body.data.deviceId}/cmd`,
    });
    const details = await apiGet(t, retailer, `${paths.customers.details}?customer_id=${c.customerId}`);
    expect(details.body.data.status).toBe(1);
    expect(details.body.data.device.enrolledAt).not.toBeNull();

    expect(response.body.data.serverKey).toMatchObject({
      kid: expect.any(String),
      publicKey: expect.any(String),
    });
    // The lock screen names the retailer who financed the phone.
    expect(response.body.data.retailer).toMatchObject({ name: 'Ravi Mobiles', phone: DEMO_RETAILER_MOBILE });
  });

  it('answers a retry after a lost response with the same device and a new secret, within the window only', async ({
    make,
  }) => {
    const c = await newCustomerWithToken();
    const first = (await enrol({ token: c.token, imei1: c.imei1, imei2: c.imei2 })).body.data;

    const retry = await enrol({ token: c.token, imei1: c.imei2, imei2: c.imei1 });
    expect(retry.status).toBe(200);
    expect(retry.body.data).toMatchObject({
      deviceId: first.deviceId,
      cmdTopic: first.cmdTopic,
      serverKey: first.serverKey,
    });
    expect(retry.body.data.deviceSecret).not.toBe(first.deviceSecret);
    const [device] = await queryRows<{ secret_hash: string }>(
      t.app.ctx.db,
      sql`select secret_hash from devices where id = ${first.deviceId}`,
    );
    // Only the newest secret opens the broker: the lost one is revoked.
    expect(device!.secret_hash).toBe(createHash('sha256').update(retry.body.data.deviceSecret).digest('hex'));

    // Other IMEIs never get credentials, and once the window is over the token is spent.
    const stranger = await enrol({ token: c.token, imei1: c.imei1, imei2: '490154203237518' });
    expect([stranger.status, stranger.body.code]).toEqual([400, 'ENROLMENT_TOKEN_INVALID']);
    await make.deviceRow(c.customerId, { enrolmentExpiresAt: new Date(Date.now() - 1000) });
    const late = await enrol({ token: c.token, imei1: c.imei1, imei2: c.imei2 });
    expect([late.status, late.body.code]).toEqual([400, 'ENROLMENT_TOKEN_INVALID']);
    const audit = await queryRows<{ action: string }>(
      t.app.ctx.db,
      sql`select action from audit_log where entity_id = ${String(c.customerId)} and action like 'device.enrol%' order by id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['device.enrol', 'device.enrol_retry']);
  });

  it('gives the enrolment QR as a PNG of the provisioning JSON, scoped to the retailer', async ({
    otherRetailer: other,
  }) => {
    const productId = (await apiGet(t, retailer, `${paths.catalogue.products}?device_type=0`)).body.data[0]
      .id;
    const customer = (await apiPost(t, retailer, paths.customers.create, customerBody(productId))).body.data;
    await recordConsent(t, retailer, customer.id);
    const png = await t.app.inject({
      method: 'GET',
      url: `${paths.customers.qrCodePng}?customer_id=${customer.id}`,
      headers: { authorization: `Bearer ${retailer}` },
    });
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(Date.parse(String(png.headers['x-enrolment-expires-at']))).toBeGreaterThan(Date.now());
    // Read back as the reference agent reads a QR photo.
    const decoded = decodeQrPng(png.rawPayload);
    expect(JSON.parse(decoded)['android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE']).toMatchObject({
      'in.kisht.ENROLMENT_TOKEN': expect.any(String),
    });

    const foreign = await t.app.inject({
      method: 'GET',
      url: `${paths.customers.qrCodePng}?customer_id=${customer.id}`,
      headers: { authorization: `Bearer ${other}` },
    });
    expect(foreign.statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'GET',
      url: `${paths.customers.qrCodePng}?customer_id=abc`,
      headers: { authorization: `Bearer ${retailer}` },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields?.[0]?.field).toBe('customer_id');
  });

  it('refuses other IMEIs with 409 and leaves the customer inactive', async () => {
    const c = await newCustomerWithToken();
    const response = await enrol({ token: c.token, imei1: c.imei1, imei2: '490154203237518' });
    expect(response.status).toBe(409);
    expect(response.body.code).toBe('ENROLMENT_IMEI_MISMATCH');
    const details = await apiGet(t, retailer, `${paths.customers.details}?customer_id=${c.customerId}`);
    expect(details.body.data.status).toBe(0);
  });

  it.each([
    [{ imei1: 'x' }, 'imei1'],
    [{ token: 'short' }, 'token'],
    [{ imei2: undefined }, 'imei2'],
  ])('refuses %o naming %s', async (override, field) => {
    const c = await newCustomerWithToken();
    const response = await enrol({ token: c.token, imei1: c.imei1, imei2: c.imei2, ...override });
    expect(response.status).toBe(400);
    expect(response.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    const details = await apiGet(t, retailer, `${paths.customers.details}?customer_id=${c.customerId}`);
    expect(details.body.data.device.enrolledAt).toBeNull();
  });

  it('refuses an expired token', async ({ make }) => {
    const c = await newCustomerWithToken();
    await make.deviceRow(c.customerId, { enrolmentExpiresAt: new Date(Date.now() - 60_000) });
    expect((await enrol({ token: c.token, imei1: c.imei1, imei2: c.imei2 })).body.code).toBe(
      'ENROLMENT_TOKEN_INVALID',
    );
  });
});

describe('lock and unlock', () => {
  it('queues a command row, shows it pending, and supersedes a pending opposite', async () => {
    const c = await newCustomerWithToken();
    await enrol({ token: c.token, imei1: c.imei1, imei2: c.imei2 });

    const lock = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: c.customerId,
      ...TEST_LOCK_REASON,
    });
    expect(lock.status).toBe(200);
    expect(lock.body.data).toMatchObject({ name: 'lock', state: 'sent' }); // published to the broker's session
    const repeat = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: c.customerId,
      ...TEST_LOCK_REASON,
    });
    expect(repeat.body.data.id).toBe(lock.body.data.id); // no duplicate while one is pending

    const details = await apiGet(t, retailer, `${paths.customers.details}?customer_id=${c.customerId}`);
    expect(details.body.data.device.pendingCommand).toMatchObject({ id: lock.body.data.id, name: 'lock' });

    const unlock = await apiPost(t, retailer, paths.devices.unlock, { customer_id: c.customerId });
    expect(unlock.body.data.name).toBe('unlock');
    expect(await commandRows()).toEqual([
      { name: 'lock', state: 'cancelled' },
      { name: 'unlock', state: 'sent' },
    ]);
    const audit = await queryRows(
      t.app.ctx.db,
      sql`select action from audit_log where action like 'device.%' order by id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['device.enrol', 'device.lock', 'device.unlock']);
  });

  it('refuses a phone that has not enrolled', async () => {
    const c = await newCustomerWithToken();
    const response = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: c.customerId,
      ...TEST_LOCK_REASON,
    });
    expect(response.status).toBe(409);
    expect(response.body.code).toBe('DEVICE_NOT_ENROLLED');
    expect(await commandRows()).toEqual([]);
  });

  it('refuses bad input naming the field and another tenant with 404, writing nothing', async ({
    otherRetailer: other,
  }) => {
    const bad = await apiPost(t, retailer, paths.devices.lock, { customer_id: 'abc' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('customer_id');
    const foreign = (await apiGet(t, other, paths.customers.list)).body.data.items[0].id;
    const response = await apiPost(t, retailer, paths.devices.unlock, { customer_id: foreign });
    expect(response.status).toBe(404);
    expect(await commandRows()).toEqual([]);
  });

  it('answers 511 without a session', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: paths.devices.lock,
      payload: { customer_id: 1 },
    });
    expect(response.statusCode).toBe(511);
  });
});
