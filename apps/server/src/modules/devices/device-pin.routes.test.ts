import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeviceAgent } from '@kisht/device-agent/agent';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import {
  apiGet,
  apiPost,
  customerBody,
  customerIdNamed,
  enrolReferenceAgent,
  TEST_LOCK_REASON,
  waitUntil,
} from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

/** change_device_pinV1 end to end: route → sealed change_pin command → the real agent sets the PIN. */
let t: TestApp;
let retailer: string;
let stateDir: string;
let agents: DeviceAgent[];

// The file's helpers below act as the test's app and retailer (routeTest fixtures); the app listens,
// since the reference agents connect to it.
it.beforeEach(async ({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  stateDir = mkdtempSync(join(tmpdir(), 'kisht-pin-'));
  agents = [];
});
// Runs before the fixtures close the app.
it.afterEach(async () => {
  for (const agent of agents) await agent.stop();
  // Retried: an agent that was just stopped may still be finishing a write (ENOTEMPTY).
  rmSync(stateDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

const enrol = async () => {
  const enrolled = await enrolReferenceAgent(t, retailer, join(stateDir, `${agents.length}.json`));
  agents.push(enrolled.agent);
  return enrolled;
};
const bypassOtp = async (token = retailer) =>
  (await apiPost(t, token, paths.auth.sendOtpToUser, { purpose: 'BYPASS_CODE' })).body.data.devOtp as string;
const pinCommands = (customerId: number) =>
  queryRows<{ id: string; state: string; args: Record<string, unknown>; error: string | null }>(
    t.app.ctx.db,
    sql`select c.id, c.state, c.args, c.error from device_commands c join devices d on d.id = c.device_id
        where d.customer_id = ${customerId} and c.name = 'change_pin' order by c.created_at, c.id`,
  );
const countRows = async (table: 'device_commands' | 'audit_log') =>
  Number((await queryRows(t.app.ctx.db, sql`select count(*)::int as n from ${sql.identifier(table)}`))[0]!.n);

describe('change_device_pinV1', () => {
  it('sets the new PIN on the phone; the PIN is never stored or shown in clear', async () => {
    const { agent, customerId } = await enrol();
    const changed = await apiPost(t, retailer, paths.devices.changeDevicePin, {
      customer_id: customerId,
      pin: '482916',
      otp: await bypassOtp(),
      ...TEST_LOCK_REASON,
    });
    expect(changed.status).toBe(200);
    expect(changed.body.message).toBe('PIN change queued');
    expect(changed.body.data.name).toBe('change_pin');
    await waitUntil(async () => (await pinCommands(customerId))[0]?.state === 'done');
    expect(agent.checkDevicePin('482916')).toBe(true);
    expect(agent.checkDevicePin('482917')).toBe(false);

    const [row] = await pinCommands(customerId);
    expect(Object.keys(row!.args)).toEqual(['sealedPin']);
    expect(JSON.stringify(row!.args)).not.toContain('482916');
    const audit = await queryRows<{ details: unknown }>(
      t.app.ctx.db,
      sql`select details from audit_log where action = 'device.change_pin'`,
    );
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain('482916');
    const history = await apiGet(t, retailer, `${paths.devices.history}?customer_id=${customerId}`);
    expect(history.body.data[0]).toMatchObject({ name: 'change_pin', state: 'done', args: {} });
  });

  it('a newer PIN supersedes one still waiting for an offline phone; only the newest is applied', async () => {
    const { agent, customerId } = await enrol();
    await agent.stop();
    await apiPost(t, retailer, paths.devices.changeDevicePin, {
      customer_id: customerId,
      pin: '730215',
      otp: await bypassOtp(),
      ...TEST_LOCK_REASON,
    });
    await apiPost(t, retailer, paths.devices.changeDevicePin, {
      customer_id: customerId,
      pin: '5081',
      otp: await bypassOtp(),
      ...TEST_LOCK_REASON,
    });
    const [older, newer] = await pinCommands(customerId);
    expect(older).toMatchObject({ state: 'cancelled', error: 'superseded by a newer PIN' });
    await agent.start();
    await waitUntil(async () => (await pinCommands(customerId))[1]?.state === 'done');
    expect(newer!.state).not.toBe('cancelled');
    expect(agent.checkDevicePin('5081')).toBe(true);
    expect(agent.checkDevicePin('730215')).toBe(false);
  });

  it('refuses a bad PIN, a missing or wrong OTP, naming the field, and writes nothing', async () => {
    const priya = await customerIdNamed(t, retailer, 'Priya');
    const before = [await countRows('device_commands'), await countRows('audit_log')];
    for (const [body, field] of [
      [{ customer_id: priya, pin: '1234', otp: '123456' }, 'pin'],
      [{ customer_id: priya, pin: '12', otp: '123456' }, 'pin'],
      [{ customer_id: priya, pin: '4829' }, 'otp'],
      [{ customer_id: 'x', pin: '4829', otp: '123456' }, 'customer_id'],
    ] as const) {
      const refused = await apiPost(t, retailer, paths.devices.changeDevicePin, body);
      expect(refused.status).toBe(400);
      expect(refused.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    await bypassOtp();
    const wrongOtp = await apiPost(t, retailer, paths.devices.changeDevicePin, {
      customer_id: priya,
      pin: '4829',
      otp: '000000',
    });
    expect(wrongOtp.status).toBe(400);
    expect(wrongOtp.body.fields[0].field).toBe('otp');
    expect([await countRows('device_commands'), await countRows('audit_log')]).toEqual(before);
  });

  it('answers 404 for another organisation’s customer and 409 before enrolment', async ({
    otherRetailer: other,
  }) => {
    const kiran = await customerIdNamed(t, other, 'Kiran');
    const foreign = await apiPost(t, retailer, paths.devices.changeDevicePin, {
      customer_id: kiran,
      pin: '4829',
      otp: await bypassOtp(),
    });
    expect(foreign.status).toBe(404);
    const rahul = await customerIdNamed(t, retailer, 'Rahul');
    const notEnrolled = await apiPost(t, retailer, paths.devices.changeDevicePin, {
      customer_id: rahul,
      pin: '4829',
      otp: await bypassOtp(),
    });
    expect(notEnrolled.status).toBe(409);
    expect(notEnrolled.body.code).toBe('DEVICE_NOT_ENROLLED');
  });

  it('refuses a link-based phone (its PIN cannot be set remotely) before using the OTP', async () => {
    const productId = (await apiGet(t, retailer, `${paths.catalogue.products}?device_type=0`)).body.data[0]
      .id;
    const linkBased = await apiPost(
      t,
      retailer,
      paths.customers.create,
      customerBody(productId, { deviceType: 2, appType: 1 }),
    );
    expect(linkBased.status).toBe(200);
    const otp = await bypassOtp();
    const refused = await apiPost(t, retailer, paths.devices.changeDevicePin, {
      customer_id: linkBased.body.data.id,
      pin: '4829',
      otp,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('COMMAND_NOT_AVAILABLE');
    expect(refused.body.fields[0].field).toBe('customer_id');
    // The OTP was not spent: it still works for an enrolled Android phone.
    const { customerId } = await enrol();
    const changed = await apiPost(t, retailer, paths.devices.changeDevicePin, {
      customer_id: customerId,
      pin: '4829',
      otp,
      ...TEST_LOCK_REASON,
    });
    expect(changed.status).toBe(200);
  });
});
