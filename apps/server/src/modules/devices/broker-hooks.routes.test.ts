import { createHash } from 'node:crypto';
import { cmdTopic, evtTopic } from '@kisht/domain/devices/protocol.schema';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { customerIdNamed } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

/** The external broker's HTTP auth hooks: devices by id and secret, their own topics only. */
const HOOK_SECRET = 'broker-hook-secret-0123456789';
const SERVER_LOGIN = { username: 'kisht-server', password: 'server-password-0123456789' };
const DEVICE_SECRET = 'a-device-secret-for-the-test';

let t: TestApp;
let aaravCustomer: number;
let aaravDevice: string;
let kiranDevice: string;

const deviceOf = async (customerId: number) =>
  (
    await queryRows<{ id: string }>(
      t.app.ctx.db,
      sql`select id from devices where customer_id = ${customerId}`,
    )
  )[0]!.id;

// The hooks are on, and the server has its own broker login (a superuser).
it.override('appOverrides', {
  BROKER_HOOK_SECRET: HOOK_SECRET,
  MQTT_USERNAME: SERVER_LOGIN.username,
  MQTT_PASSWORD: SERVER_LOGIN.password,
});

// The file's helpers below act as the test's app (routeTest fixtures); Aarav's phone gets a known secret.
it.beforeEach(async ({ t: app, retailer, otherRetailer, make }) => {
  t = app;
  aaravCustomer = await customerIdNamed(t, retailer, 'Aarav');
  aaravDevice = await deviceOf(aaravCustomer);
  kiranDevice = await deviceOf(await customerIdNamed(t, otherRetailer, 'Kiran'));
  await make.deviceRow(aaravCustomer, {
    secretHash: createHash('sha256').update(DEVICE_SECRET).digest('hex'),
  });
});

const hook = async (url: string, payload: Record<string, unknown>, secret: string | null = HOOK_SECRET) => {
  const response = await t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: secret ? { authorization: `Bearer ${secret}` } : {},
  });
  return { status: response.statusCode, body: response.json() };
};

describe('broker_auth', () => {
  it('lets an enrolled device in with its id and secret, and the server processes as superusers', async () => {
    const device = { clientid: aaravDevice, username: aaravDevice, password: DEVICE_SECRET };
    const allowed = await hook(paths.devices.brokerAuth, device);
    expect(allowed).toMatchObject({ status: 200, body: { result: 'allow', is_superuser: false } });
    // Its permissions come with the answer (EMQX ≥ 5.8 asks no ACL hook then), the ACL hook's rule:
    // its own cmd to subscribe, its own evt to publish, nothing else.
    const rules = allowed.body.acl as { permission: string; action: string; topic: string }[];
    expect(rules.at(-1)).toEqual({ permission: 'deny', action: 'all', topic: '#' });
    const granted = rules.filter((rule) => rule.permission === 'allow');
    expect(granted.map((rule) => rule.action).sort()).toEqual(['publish', 'subscribe']);
    for (const rule of granted) {
      const topic = rule.topic.replace(/^eq /, '');
      const asked = { clientid: aaravDevice, username: aaravDevice, topic, action: rule.action };
      expect((await hook(paths.devices.brokerAcl, asked)).body).toEqual({ result: 'allow' });
    }
    expect(
      (await hook(paths.devices.brokerAuth, { clientid: 'kisht-server-1', ...SERVER_LOGIN })).body,
    ).toEqual({ result: 'allow', is_superuser: true });
  });

  it('denies a wrong secret, another client id, a released phone, an unknown id and the server name with a wrong password', async ({
    make,
  }) => {
    const denied = [
      { clientid: aaravDevice, username: aaravDevice, password: 'wrong' },
      { clientid: kiranDevice, username: aaravDevice, password: DEVICE_SECRET },
      { clientid: 'not-a-device', username: 'not-a-device', password: DEVICE_SECRET },
      { clientid: 'kisht-server-1', username: SERVER_LOGIN.username, password: 'wrong-password-0123456789' },
      { clientid: aaravDevice },
    ];
    for (const body of denied)
      expect((await hook(paths.devices.brokerAuth, body)).body).toEqual({ result: 'deny' });
    // Released (credentials revoked at uninstall): denied from then on.
    await make.deviceRow(aaravCustomer, { secretHash: null });
    expect(
      (
        await hook(paths.devices.brokerAuth, {
          clientid: aaravDevice,
          username: aaravDevice,
          password: DEVICE_SECRET,
        })
      ).body,
    ).toEqual({ result: 'deny' });
  });

  it('answers only the broker (403 without its secret) and names a bad field (400)', async () => {
    const device = { clientid: aaravDevice, username: aaravDevice, password: DEVICE_SECRET };
    expect((await hook(paths.devices.brokerAuth, device, null)).status).toBe(403);
    expect((await hook(paths.devices.brokerAuth, device, 'not-the-secret-0123456789')).status).toBe(403);
    const bad = await hook(paths.devices.brokerAuth, { username: aaravDevice });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.map((f: { field: string }) => f.field)).toContain('clientid');
  });
});

describe('broker_acl', () => {
  it('lets a device subscribe to its own cmd topic and publish to its own evt topic, nothing else', async () => {
    const as = (topic: string, action: 'publish' | 'subscribe', clientid = aaravDevice) =>
      hook(paths.devices.brokerAcl, { clientid, username: clientid, topic, action });
    expect((await as(cmdTopic(aaravDevice), 'subscribe')).body).toEqual({ result: 'allow' });
    expect((await as(evtTopic(aaravDevice), 'publish')).body).toEqual({ result: 'allow' });
    for (const [topic, action] of [
      [cmdTopic(aaravDevice), 'publish'],
      [evtTopic(aaravDevice), 'subscribe'],
      [cmdTopic(kiranDevice), 'subscribe'],
      [evtTopic(kiranDevice), 'publish'],
      ['kisht/v1/d/+/evt', 'subscribe'],
      ['#', 'subscribe'],
    ] as const) {
      expect((await as(topic, action)).body).toEqual({ result: 'deny' });
    }
    expect(
      (
        await hook(paths.devices.brokerAcl, {
          clientid: 'kisht-server-1',
          username: SERVER_LOGIN.username,
          topic: '$share/kisht-server/kisht/v1/d/+/evt',
          action: 'subscribe',
        })
      ).body,
    ).toEqual({ result: 'allow' });
    const bad = await hook(paths.devices.brokerAcl, {
      clientid: aaravDevice,
      topic: evtTopic(aaravDevice),
      action: 'read',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.map((f: { field: string }) => f.field)).toContain('action');
  });
});

describe('broker hooks switched off', () => {
  // No BROKER_HOOK_SECRET: the hooks are not registered.
  it.override('appOverrides', {});

  it('answer 404 without BROKER_HOOK_SECRET', async ({ t: plain }) => {
    const response = await plain.app.inject({
      method: 'POST',
      url: paths.devices.brokerAuth,
      payload: { clientid: 'x', username: 'x', password: 'y' },
    });
    expect(response.statusCode).toBe(404);
  });
});
