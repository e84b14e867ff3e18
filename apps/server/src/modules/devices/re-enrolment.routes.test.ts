import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeviceAgent } from '@kisht/device-agent/agent';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE, SECOND_ORG_ID, SECOND_RETAILER_MOBILE } from '../../db/seed/seed';
import {
  apiGet,
  apiPost,
  customerBody,
  enrolReferenceAgent,
  freshImei,
  recordConsent,
  TEST_LOCK_REASON,
  waitUntil,
} from '../../test/fixtures';
import { bearer, createTestApp, type TestApp } from '../../test/harness';

/**
 * Re-enrolment (issue 27): a wiped, replaced or lost phone is taken out by the shop, the old phone
 * can no longer reach Kisht, and a phone enrols again from a new QR with the consent and the loan
 * kept.
 */
let t: TestApp;
let retailer: string;
let stateDir: string;
let agents: DeviceAgent[];

beforeEach(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  retailer = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
  stateDir = mkdtempSync(join(tmpdir(), 'kisht-re-enrol-'));
  agents = [];
});
afterEach(async () => {
  for (const agent of agents) await agent.stop();
  await t.close();
  rmSync(stateDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

const details = async (customerId: number) =>
  (await apiGet(t, retailer, `${paths.customers.details}?customer_id=${customerId}`)).body.data;

/** An enrolled, connected reference agent of a new customer. */
const enrolledAgent = async () => {
  const { agent, customerId } = await enrolReferenceAgent(
    t,
    retailer,
    join(stateDir, `old-${agents.length}.json`),
  );
  agents.push(agent);
  await waitUntil(async () => (await details(customerId)).device.isOnline);
  return { agent, customerId };
};

/** A phone enrolling from the customer's current QR with these IMEIs. */
const enrolFromQr = async (customerId: number, imeis: { imei1: string; imei2: string }) => {
  // Over HTTP, so the QR names the server's real address.
  const address = t.app.server.address() as AddressInfo;
  const response = await fetch(
    `http://127.0.0.1:${address.port}${paths.customers.qrCode}?customer_id=${customerId}`,
    { headers: bearer(retailer) },
  );
  const qr = (await response.json()) as { data: { payload: string } };
  expect(response.status, JSON.stringify(qr)).toBe(200);
  return DeviceAgent.enrol({
    qr: qr.data.payload,
    ...imeis,
    statePath: join(stateDir, `new-${customerId}-${imeis.imei1}.json`),
  });
};

const keyUses = async () =>
  (
    await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`select count(*)::int as n from ledger_movements where kind = 'key_use' and org_id = ${DEMO_ORG_ID}`,
    )
  )[0]!.n;

/** What must not change when a re-enrolment is refused: the device row and the customer's status. */
const snapshot = async (customerId: number) =>
  queryRows(
    t.app.ctx.db,
    sql`select c.status, d.secret_hash, d.enrolled_at, d.imei1, d.imei2,
               (select count(*)::int from device_commands x where x.device_id = d.id and x.state = 'cancelled') as cancelled
        from customers c join devices d on d.customer_id = c.id where c.id = ${customerId}`,
  );

describe('re-enrolling a phone (issue 27)', () => {
  it('takes out a wiped phone: the old one is released and refused, the same phone enrols again with no new key', async () => {
    const { agent, customerId } = await enrolledAgent();
    const imeis = { imei1: agent.state.credentials.imei1, imei2: agent.state.credentials.imei2 };
    const [{ emis }] = (await queryRows<{ emis: number }>(
      t.app.ctx.db,
      sql`select count(*)::int as emis from emis where customer_id = ${customerId}`,
    )) as [{ emis: number }];
    // A command waiting when the phone goes: it is cancelled, never to reach a phone.
    await apiPost(t, retailer, paths.devices.lock, { customer_id: customerId, ...TEST_LOCK_REASON });
    const keysBefore = await keyUses();

    const answer = await apiPost(t, retailer, paths.devices.reEnrol, {
      customer_id: customerId,
      reason: 'factory_reset',
      note: 'Customer reset the phone at a service centre',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toMatchObject({ customerId, status: 0, wasReleaseSent: true });

    // The old phone got a signed release and is cut off; its secret is refused from now on.
    await waitUntil(async () => agent.state.uninstalled === true);
    await waitUntil(async () => !(await details(customerId)).device.isOnline);
    const summary = await details(customerId);
    expect(summary.status).toBe(0);
    const [device] = await queryRows<{ secret_hash: string | null; enrolled_at: Date | null }>(
      t.app.ctx.db,
      sql`select secret_hash, enrolled_at from devices where customer_id = ${customerId}`,
    );
    expect(device).toEqual({ secret_hash: null, enrolled_at: null });
    const states = await queryRows<{ state: string; error: string | null }>(
      t.app.ctx.db,
      sql`select c.state, c.error from device_commands c join devices d on d.id = c.device_id
          where d.customer_id = ${customerId} and c.state not in ('done')`,
    );
    expect(states.length).toBeGreaterThan(0);
    expect(states.every((row) => row.state === 'cancelled' || row.state === 'expired')).toBe(true);

    // The reason is in the status history.
    const [history] = await queryRows<{ details: { event: string; reason: string } }>(
      t.app.ctx.db,
      sql`select details from audit_log where action = 'customer.status' and entity_id = ${String(customerId)}
          order by id desc limit 1`,
    );
    expect(history!.details.event).toBe('re_enrol');
    expect(history!.details.reason).toContain('reset to factory settings');
    expect(history!.details.reason).toContain('service centre');

    // The consent and the loan stand: the new QR needs no new consent, the EMIs are all there.
    const phone = await enrolFromQr(customerId, imeis);
    agents.push(phone);
    await phone.start();
    await waitUntil(async () => (await details(customerId)).status === 1);
    expect(await keyUses()).toBe(keysBefore);
    const [{ emis: emisAfter }] = (await queryRows<{ emis: number }>(
      t.app.ctx.db,
      sql`select count(*)::int as emis from emis where customer_id = ${customerId}`,
    )) as [{ emis: number }];
    expect(emisAfter).toBe(emis);
    // The new phone is reached: a lock gets to it.
    await apiPost(t, retailer, paths.devices.lock, { customer_id: customerId, ...TEST_LOCK_REASON });
    await phone.waitForLockState(true);
  });

  it('takes out a replaced phone: the new IMEIs are recorded, the old phone cannot enrol from the QR, the new one can', async () => {
    const { agent, customerId } = await enrolledAgent();
    const old = { imei1: agent.state.credentials.imei1, imei2: agent.state.credentials.imei2 };
    await agent.stop();
    const replacement = { imei1: freshImei(), imei2: freshImei() };
    const keysBefore = await keyUses();
    const answer = await apiPost(t, retailer, paths.devices.reEnrol, {
      customer_id: customerId,
      reason: 'replaced_under_warranty',
      ...replacement,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    // An offline phone is not told; its secret is refused when it comes back.
    expect(answer.body.data.wasReleaseSent).toBe(false);
    await expect(agent.start()).rejects.toThrow();
    await expect(enrolFromQr(customerId, old)).rejects.toThrow(/IMEI/);
    const phone = await enrolFromQr(customerId, replacement);
    agents.push(phone);
    await phone.start();
    await waitUntil(async () => (await details(customerId)).status === 1);
    // Another phone costs a key, as any new IMEI does.
    expect(await keyUses()).toBe(keysBefore + 1);
  });

  it('answers 400 naming the field for bad input, and writes nothing', async () => {
    const { customerId } = await enrolledAgent();
    const before = await snapshot(customerId);
    const cases: [Record<string, unknown>, string][] = [
      [{ customer_id: customerId }, 'reason'],
      [{ customer_id: customerId, reason: 'dropped_in_water' }, 'reason'],
      [{ customer_id: customerId, reason: 'other' }, 'note'],
      [{ customer_id: customerId, reason: 'lost_or_stolen', imei1: freshImei() }, 'imei2'],
      [{ customer_id: customerId, reason: 'lost_or_stolen', imei1: '12345', imei2: freshImei() }, 'imei1'],
      [{ reason: 'factory_reset' }, 'customer_id'],
    ];
    expect(cases.length).toBeGreaterThan(0);
    for (const [body, field] of cases) {
      const answer = await apiPost(t, retailer, paths.devices.reEnrol, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    expect(await snapshot(customerId)).toEqual(before);
  });

  it("answers 404 for another organisation's customer, 409 for a customer not enrolled or an IMEI in use, and writes nothing", async () => {
    const { customerId } = await enrolledAgent();
    const before = await snapshot(customerId);
    const other = await t.tokenFor(SECOND_ORG_ID, SECOND_RETAILER_MOBILE);
    const foreign = await apiPost(t, other, paths.devices.reEnrol, {
      customer_id: customerId,
      reason: 'factory_reset',
    });
    expect(foreign.status).toBe(404);

    // An IMEI another customer's phone holds.
    const productId = (await apiGet(t, retailer, `${paths.catalogue.products}?device_type=0`)).body.data[0]
      .id as number;
    const neighbour = customerBody(productId);
    const created = await apiPost(t, retailer, paths.customers.create, neighbour);
    expect(created.status).toBe(200);
    const taken = await apiPost(t, retailer, paths.devices.reEnrol, {
      customer_id: customerId,
      reason: 'lost_or_stolen',
      imei1: neighbour.imei1,
      imei2: freshImei(),
    });
    expect(taken.status).toBe(409);
    expect(taken.body.fields.map((f: { field: string }) => f.field)).toEqual(['imei1']);
    expect(await snapshot(customerId)).toEqual(before);

    // A customer whose phone never enrolled has nothing to take out: the QR is what they need.
    await recordConsent(t, retailer, created.body.data.id);
    const inactive = await apiPost(t, retailer, paths.devices.reEnrol, {
      customer_id: created.body.data.id,
      reason: 'factory_reset',
    });
    expect(inactive.status).toBe(409);
    expect(inactive.body.code).toBe('STATUS_CHANGE_NOT_ALLOWED');
  });

  it('documents the route in the OpenAPI document', async () => {
    const address = t.app.server.address() as AddressInfo;
    const document = (await (
      await fetch(`http://127.0.0.1:${address.port}/docs/json`, { headers: bearer(retailer) })
    ).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toContain(paths.devices.reEnrol);
  });
});
