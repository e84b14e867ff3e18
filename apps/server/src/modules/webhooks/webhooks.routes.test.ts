import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '@kisht/domain/paths';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS } from '@kisht/domain/webhooks/webhooks.rules';
import { ZWebhookDelivery, ZWebhookEndpointWithSecret } from '@kisht/domain/webhooks/webhooks.schema';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_ADMIN_MOBILE, DEMO_ORG_ID, SECOND_ORG_ID } from '../../db/seed/seed';
import { notificationsJob } from '../../jobs/notifications.job';
import { apiGet, apiPost, enrolReferenceAgent, TEST_LOCK_REASON, waitUntil } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';
import { completeUninstall, notifySimChange } from '../devices/device-lifecycle.service';
import {
  createEndpoint,
  deliverWebhooks,
  enqueueWebhookEvent,
  tellOverdueInstalments,
} from './webhooks.service';

/**
 * Outbound webhooks (issue 30): endpoints managed by the organisation admin only, messages signed
 * per the Standard Webhooks specification (checked with its reference library, `standardwebhooks`,
 * on a receiver on an ephemeral port), in order per device, retried on the schedule and the
 * endpoint disabled (admins notified) after the last attempt, resend, secret rotation.
 */

/** A lender's receiver: what it got (verified or not) and the answers it is told to give. */
type TReceived = { id: string; body: string; headers: Record<string, string> };
let receiver: Server;
let receiverUrl: string;
let received: TReceived[];
let answers: number[];

beforeEach(async () => {
  received = [];
  answers = [];
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
      );
      received.push({ id: headers['webhook-id'] ?? '', body, headers });
      response.statusCode = answers.shift() ?? 204;
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/kisht`;
});
afterEach(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field);
const silent = { warn: () => {}, error: () => {}, info: () => {} };
const deliver = (t: TestApp, now: Date) => deliverWebhooks({ db: t.app.ctx.db, log: silent }, now);

/** The demo organisation's admin adds an endpoint for `events`; answers it with its secret. */
const addEndpoint = async (t: TestApp, events: string[] = ['device.locked', 'device.unlocked']) => {
  const admin = await t.tokenFor(DEMO_ORG_ID, DEMO_ADMIN_MOBILE);
  const created = await apiPost(t, admin, paths.webhooks.endpoints, { url: receiverUrl, events });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { admin, ...ZWebhookEndpointWithSecret.parse(created.body.data) };
};

/**
 * Whether `secret` signed a message: its signature header holds the reference library's signature
 * of it (for messages sent as of a later instant, which `verify` refuses as too new).
 */
const isSignedBy = (secret: string, message: TReceived) =>
  message.headers['webhook-signature']!.split(' ').includes(
    new Webhook(secret).sign(
      message.id,
      new Date(Number(message.headers['webhook-timestamp']) * 1000),
      message.body,
    ),
  );

/** The receiver's messages verified with the reference library under `secret` (throws if one is not). */
const verifiedBodies = (secret: string) =>
  received.map(
    (message) => new Webhook(secret).verify(message.body, message.headers) as Record<string, unknown>,
  );

describe('webhook endpoints', () => {
  it('the organisation admin adds one (secret shown once, never listed); bad input names the field, writing nothing', async ({
    t,
  }) => {
    const { admin, endpoint, secret } = await addEndpoint(t);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(endpoint).toMatchObject({
      url: receiverUrl,
      status: 'enabled',
      events: ['device.locked', 'device.unlocked'],
    });
    const list = await apiGet(t, admin, paths.webhooks.endpoints);
    expect(list.body.data).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(secret);
    for (const [body, field] of [
      [{ url: 'ftp://x.example/a', events: ['device.locked'] }, 'url'],
      [{ url: 'not a url', events: ['device.locked'] }, 'url'],
      [{ url: receiverUrl, events: [] }, 'events'],
      [{ url: receiverUrl, events: ['device.exploded'] }, 'events.0'],
      [{ url: receiverUrl, events: ['device.locked', 'device.locked'] }, 'events'],
    ] as const) {
      const refused = await apiPost(t, admin, paths.webhooks.endpoints, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(refused.body)).toEqual([field]);
    }
    expect((await apiGet(t, admin, paths.webhooks.endpoints)).body.data).toHaveLength(1);
    // Production takes https only.
    await expect(
      createEndpoint(t.app.ctx.db, {
        actor: { userId: 1, orgId: DEMO_ORG_ID, userType: 'admin', sessionId: 's' },
        request: { url: receiverUrl, events: ['device.locked'] },
        isProduction: true,
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it("another organisation's admin gets 404, a retailer 403, for every endpoint route", async ({
    t,
    retailer,
    make,
  }) => {
    const { endpoint } = await addEndpoint(t);
    await make.user({
      mobile: '+919800000881',
      name: 'Other Admin',
      userType: 'admin',
      orgId: SECOND_ORG_ID,
    });
    const otherAdmin = await t.tokenFor(SECOND_ORG_ID, '+919800000881');
    expect((await apiGet(t, otherAdmin, paths.webhooks.endpoints)).body.data).toEqual([]);
    const remove = (token: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `${paths.webhooks.endpoints}?endpoint_id=${endpoint.id}`,
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await remove(otherAdmin)).statusCode).toBe(404);
    expect((await apiPost(t, otherAdmin, paths.webhooks.rotate, { endpoint_id: endpoint.id })).status).toBe(
      404,
    );
    expect((await apiPost(t, otherAdmin, paths.webhooks.enable, { endpoint_id: endpoint.id })).status).toBe(
      404,
    );
    expect(
      (await apiGet(t, otherAdmin, `${paths.webhooks.deliveries}?endpoint_id=${endpoint.id}`)).status,
    ).toBe(404);
    expect((await apiGet(t, retailer, paths.webhooks.endpoints)).status).toBe(403);
    expect((await apiPost(t, retailer, paths.webhooks.rotate, { endpoint_id: endpoint.id })).status).toBe(
      403,
    );
    expect((await remove(retailer)).statusCode).toBe(403);
    const [row] = await queryRows<{ deleted_at: string | null }>(
      t.app.ctx.db,
      sql`select deleted_at from webhook_endpoints where id = ${endpoint.id}`,
    );
    expect(row!.deleted_at).toBeNull();
  });
});

describe('delivering webhooks', () => {
  it('sends each event once, signed (Standard Webhooks, verified with its library), to the endpoints that take it', async ({
    t,
  }) => {
    const { admin, endpoint, secret } = await addEndpoint(t);
    const occurredAt = new Date('2026-11-29T10:00:00Z');
    await t.app.ctx.db.transaction(async (tx) => {
      expect(
        await enqueueWebhookEvent(tx, {
          orgId: DEMO_ORG_ID,
          type: 'device.locked',
          orderingKey: 'device:a',
          data: { customerId: 7, deviceId: 'a' },
          occurredAt,
        }),
      ).toBe(1);
      // An event the endpoint does not take, and another organisation's: no message.
      expect(
        await enqueueWebhookEvent(tx, {
          orgId: DEMO_ORG_ID,
          type: 'sim.changed',
          orderingKey: 'device:a',
          data: {},
        }),
      ).toBe(0);
      expect(
        await enqueueWebhookEvent(tx, {
          orgId: SECOND_ORG_ID,
          type: 'device.locked',
          orderingKey: 'device:b',
          data: {},
        }),
      ).toBe(0);
    });
    expect(await deliver(t, new Date(Date.now() + 1))).toBe(1);
    expect(await deliver(t, new Date(Date.now() + 1))).toBe(0);
    expect(received).toHaveLength(1);
    expect(verifiedBodies(secret)).toEqual([
      { type: 'device.locked', timestamp: occurredAt.toISOString(), data: { customerId: 7, deviceId: 'a' } },
    ]);
    expect(received[0]!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(() =>
      new Webhook(`whsec_${Buffer.from('x'.repeat(24)).toString('base64')}`).verify(
        received[0]!.body,
        received[0]!.headers,
      ),
    ).toThrow();
    const log = await apiGet(t, admin, `${paths.webhooks.deliveries}?endpoint_id=${endpoint.id}`);
    const [delivery] = ZWebhookDelivery.array().parse(log.body.data);
    expect(delivery).toMatchObject({
      id: received[0]!.id,
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 204,
    });
  });

  it('keeps one device in order: a later message waits while an earlier one is retried; another device does not', async ({
    t,
  }) => {
    const { secret } = await addEndpoint(t);
    const event = (orderingKey: string, n: number) =>
      enqueueWebhookEvent(t.app.ctx.db, {
        orgId: DEMO_ORG_ID,
        type: 'device.locked',
        orderingKey,
        data: { n },
      });
    await event('device:a', 1);
    await event('device:a', 2);
    await event('device:b', 3);
    answers = [500];
    // A millisecond on: the database stamps next_attempt_at in microseconds, so a message written in
    // the same millisecond as `new Date()` would be later than it and not yet due (seen once on
    // PostgreSQL: device b's message was left for the next run).
    const start = new Date(Date.now() + 1);
    // Device a's first fails (retried in 5 s), its second waits; device b's goes.
    await deliver(t, start);
    const seen = () => verifiedBodies(secret).map((body) => (body.data as { n: number }).n);
    expect(seen().sort()).toEqual([1, 3]);
    expect(await deliver(t, new Date(start.getTime() + 1_000))).toBe(0);
    await deliver(t, new Date(start.getTime() + WEBHOOK_RETRY_DELAYS_MS[0] + 1));
    await deliver(t, new Date(start.getTime() + WEBHOOK_RETRY_DELAYS_MS[0] + 2));
    const ofA = verifiedBodies(secret)
      .map((body) => (body.data as { n: number }).n)
      .filter((n) => n !== 3);
    expect(ofA).toEqual([1, 1, 2]);
  });

  it('retries on the schedule for over 24 h, then fails the message, disables the endpoint and tells the admins; enable and resend deliver it', async ({
    t,
  }) => {
    const { admin, endpoint } = await addEndpoint(t);
    await enqueueWebhookEvent(t.app.ctx.db, {
      orgId: DEMO_ORG_ID,
      type: 'device.unlocked',
      orderingKey: 'device:a',
      data: {},
    });
    answers = Array.from({ length: WEBHOOK_MAX_ATTEMPTS }, () => 503);
    // A millisecond on, as above: the message must be due at the first run.
    let now = new Date(Date.now() + 1);
    const first = now.getTime();
    await deliver(t, now);
    for (const delay of WEBHOOK_RETRY_DELAYS_MS) {
      now = new Date(now.getTime() + delay);
      expect(await deliver(t, new Date(now.getTime() - 1))).toBe(0);
      await deliver(t, now);
    }
    expect(received).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    expect(now.getTime() - first).toBeGreaterThan(24 * 3_600_000);
    const log = ZWebhookDelivery.array().parse(
      (await apiGet(t, admin, `${paths.webhooks.deliveries}?endpoint_id=${endpoint.id}`)).body.data,
    );
    expect(log[0]).toMatchObject({ status: 'failed', attempts: WEBHOOK_MAX_ATTEMPTS, lastStatusCode: 503 });
    const [listed] = (await apiGet(t, admin, paths.webhooks.endpoints)).body.data;
    expect(listed).toMatchObject({
      status: 'disabled',
      disabledReason: expect.stringContaining('failed 8 attempts'),
    });
    const notices = await queryRows<{ params: { url: string } }>(
      t.app.ctx.db,
      sql`select n.params from notifications n join users u on u.id = n.user_id
          where n.kind = 'webhook_disabled' and u.mobile = ${DEMO_ADMIN_MOBILE}`,
    );
    expect(notices.map((n) => n.params.url)).toEqual([receiverUrl]);

    // The admin fixes the receiver, enables the endpoint and resends the message.
    expect(
      (await apiPost(t, admin, paths.webhooks.enable, { endpoint_id: endpoint.id })).body.data.status,
    ).toBe('enabled');
    const resent = await apiPost(t, admin, paths.webhooks.resend, { message_id: log[0]!.id });
    expect(resent.body.data).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await deliver(t, new Date(now.getTime() + 1_000))).toBe(1);
    expect(received.at(-1)!.id).toBe(log[0]!.id);
    const other = await t.tokenFor(DEMO_ORG_ID, DEMO_ADMIN_MOBILE);
    expect(
      (await apiPost(t, other, paths.webhooks.resend, { message_id: 'msg_doesnotexist00' })).status,
    ).toBe(404);
    expect((await apiPost(t, other, paths.webhooks.resend, { message_id: 'nope' })).status).toBe(400);
  });

  it('after a rotation signs with both secrets for a day, so either verifies; a removed endpoint gets nothing', async ({
    t,
  }) => {
    const { admin, endpoint, secret: oldSecret } = await addEndpoint(t);
    const rotated = ZWebhookEndpointWithSecret.parse(
      (await apiPost(t, admin, paths.webhooks.rotate, { endpoint_id: endpoint.id })).body.data,
    );
    expect(rotated.secret).not.toBe(oldSecret);
    await enqueueWebhookEvent(t.app.ctx.db, {
      orgId: DEMO_ORG_ID,
      type: 'device.locked',
      orderingKey: 'k',
      data: {},
    });
    await deliver(t, new Date(Date.now() + 1));
    expect(received[0]!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifiedBodies(rotated.secret)).toHaveLength(1);
    expect(verifiedBodies(oldSecret)).toHaveLength(1);
    // A day later only the new secret signs.
    await enqueueWebhookEvent(t.app.ctx.db, {
      orgId: DEMO_ORG_ID,
      type: 'device.locked',
      orderingKey: 'k',
      data: {},
    });
    await deliver(t, new Date(Date.now() + 25 * 3_600_000));
    expect(received[1]!.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(isSignedBy(rotated.secret, received[1]!)).toBe(true);
    expect(isSignedBy(oldSecret, received[1]!)).toBe(false);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `${paths.webhooks.endpoints}?endpoint_id=${endpoint.id}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(removed.statusCode).toBe(200);
    expect(
      await enqueueWebhookEvent(t.app.ctx.db, {
        orgId: DEMO_ORG_ID,
        type: 'device.locked',
        orderingKey: 'k',
        data: {},
      }),
    ).toBe(0);
    expect((await apiGet(t, admin, paths.webhooks.endpoints)).body.data).toEqual([]);
  });
});

describe('the events the services write', () => {
  it('enrolment, a SIM change, the last payment and the release each write their event once, delivered in the loan’s order', async ({
    t,
    retailer,
  }) => {
    const { secret } = await addEndpoint(t, [
      'device.enrolled',
      'sim.changed',
      'loan.completed',
      'device.released',
    ]);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const stateDir = mkdtempSync(join(tmpdir(), 'kisht-webhooks-'));
    try {
      const { agent, customerId } = await enrolReferenceAgent(t, retailer, join(stateDir, 'agent.json'));
      await agent.stop();
      const [device] = await queryRows<Parameters<typeof completeUninstall>[1]['device']>(
        t.app.ctx.db,
        sql`select id, org_id as "orgId", customer_id as "customerId" from devices where customer_id = ${customerId}`,
      );
      const sim = (iccid: string) => [{ slot: 1, iccid, operator: 'Jio' }];
      await notifySimChange(t.app.ctx, {
        device: device!,
        before: sim('899100000000000001'),
        after: sim('899100000000000002'),
      });
      const emi = await apiGet(t, retailer, `${paths.emi.details}?customer_id=${customerId}`);
      const paid = await apiPost(t, retailer, paths.emi.pay, {
        customer_id: customerId,
        emi_ids: emi.body.data.instalments.map((i: { id: number }) => i.id),
        amountPaise: emi.body.data.totals.outstandingPaise,
        mode: 'cash',
      });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      await completeUninstall(t.app.ctx.db, {
        device: device!,
        command: { name: 'uninstall', createdBy: null } as Parameters<typeof completeUninstall>[1]['command'],
      });
      for (let run = 0; run < 4; run += 1) await deliver(t, new Date());
      const bodies = verifiedBodies(secret);
      // One loan's events in the order they happened (their ordering key is the customer).
      expect(bodies.map((b) => b.type)).toEqual([
        'device.enrolled',
        'sim.changed',
        'loan.completed',
        'device.released',
      ]);
      expect(bodies.every((b) => (b.data as { customerId: number }).customerId === customerId)).toBe(true);
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});

describe('the events of the hourly job', () => {
  it('device.offline once per offline spell, instalment.overdue once per instalment that fell overdue', async ({
    t,
    make,
  }) => {
    const { secret } = await addEndpoint(t, ['device.offline', 'instalment.overdue']);
    const db = t.app.ctx.db;
    // Everything seeded is told already (as the migration marks what was overdue when it shipped)
    // and online, so only this test's customer counts.
    await db.execute(sql`update emis set overdue_told_at = now() where paid_paise < amount_paise`);
    await db.execute(sql`update devices set is_online = false, last_seen_at = now()`);
    const { customer, device } = await make.customer({ status: 1, isEnrolled: true });
    await make.overdue(customer.id, { daysOverdue: 2 });
    await db.execute(
      sql`update devices set is_online = false, last_seen_at = now() - interval '4 days' where id = ${device.id}`,
    );
    const run = () => notificationsJob({ db }, 0, t.app.log).run();
    await run();
    await run();
    for (let k = 0; k < 3; k += 1) await deliver(t, new Date());
    const bodies = verifiedBodies(secret) as { type: string; data: Record<string, unknown> }[];
    expect(bodies.map((b) => b.type).sort()).toEqual(['device.offline', 'instalment.overdue']);
    const offline = bodies.find((b) => b.type === 'device.offline')!;
    expect(offline.data).toMatchObject({ customerId: customer.id, deviceId: device.id, offlineDays: 3 });
    const overdue = bodies.find((b) => b.type === 'instalment.overdue')!;
    expect(overdue.data).toMatchObject({ customerId: customer.id, instalmentNo: 1, paidPaise: 0 });
    expect(overdue.data.overduePaise).toBe(overdue.data.amountPaise);
    // Told once: the next runs find nothing more.
    expect(await tellOverdueInstalments(db)).toBe(0);
  });
});

describe('the events of the hot requests', () => {
  it('a lock and an unlock the phone applied, and a payment, write device.locked, device.unlocked and payment.recorded in order', async ({
    t,
    retailer,
  }) => {
    const { secret } = await addEndpoint(t, ['device.locked', 'device.unlocked', 'payment.recorded']);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const stateDir = mkdtempSync(join(tmpdir(), 'kisht-webhooks-'));
    try {
      const { agent, customerId } = await enrolReferenceAgent(t, retailer, join(stateDir, 'agent.json'));
      const messagesOf = async (type: string) =>
        (
          await queryRows<{ n: number }>(
            t.app.ctx.db,
            sql`select count(*)::int as n from webhook_messages where event_type = ${type}`,
          )
        )[0]!.n;
      const locked = await apiPost(t, retailer, paths.devices.lock, {
        customer_id: customerId,
        ...TEST_LOCK_REASON,
      });
      expect(locked.status, JSON.stringify(locked.body)).toBe(200);
      // Asked is not applied: nothing until the phone acknowledges it done.
      await waitUntil(async () => agent.isLocked);
      await waitUntil(async () => (await messagesOf('device.locked')) === 1);
      await apiPost(t, retailer, paths.devices.unlock, { customer_id: customerId });
      await waitUntil(async () => (await messagesOf('device.unlocked')) === 1);
      const emi = await apiGet(t, retailer, `${paths.emi.details}?customer_id=${customerId}`);
      await apiPost(t, retailer, paths.emi.pay, {
        customer_id: customerId,
        emi_ids: [emi.body.data.instalments[0].id],
        amountPaise: 50_000,
        mode: 'upi',
        reference: 'UPI-REF-1',
      });
      await agent.stop();
      for (let run = 0; run < 3; run += 1) await deliver(t, new Date());
      const bodies = verifiedBodies(secret);
      expect(bodies.map((b) => b.type)).toEqual(['device.locked', 'device.unlocked', 'payment.recorded']);
      expect(bodies[2]!.data).toMatchObject({
        customerId,
        amountPaise: 50_000,
        mode: 'upi',
        reference: 'UPI-REF-1',
      });
      expect(bodies[0]!.data).toMatchObject({ customerId, commandId: locked.body.data.id });
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('an organisation without endpoints writes no message and pays no statement for them', async ({
    t,
    retailer,
  }) => {
    const before = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`select count(*)::int as n from webhook_messages`,
    );
    const priya = (await apiGet(t, retailer, `${paths.customers.list}?search=Priya`)).body.data.items[0].id;
    const emi = await apiGet(t, retailer, `${paths.emi.details}?customer_id=${priya}`);
    const paid = await apiPost(t, retailer, paths.emi.pay, {
      customer_id: priya,
      emi_ids: [emi.body.data.instalments[0].id],
      amountPaise: 100,
      mode: 'cash',
    });
    expect(paid.status).toBe(200);
    const after = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`select count(*)::int as n from webhook_messages`,
    );
    expect(after[0]!.n).toBe(before[0]!.n);
  });
});
