import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeviceAgent } from '@kisht/device-agent/agent';
import { CONTROL_FEATURES, MESSAGE_FEATURES } from '@kisht/domain/common/enums';
import { COMMAND_CATALOGUE } from '@kisht/domain/devices/command-catalogue';
import { deviceControlPath, paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import { apiGet, apiPost, enrolReferenceAgent, TEST_LOCK_REASON, waitUntil } from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * The real reference agent against the real server and its embedded broker over WebSocket at
 * /mqtt (design §5): enrolment, lock/unlock with acknowledgements, offline delivery, apply-once.
 */
let t: TestApp;
let retailer: string;
let stateDir: string;
let agents: DeviceAgent[];

beforeEach(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  retailer = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
  stateDir = mkdtempSync(join(tmpdir(), 'kisht-agent-'));
  agents = [];
});
afterEach(async () => {
  for (const agent of agents) await agent.stop();
  await t.close();
  // Retried: an agent that was just stopped may still be finishing a write (ENOTEMPTY).
  rmSync(stateDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

const details = async (customerId: number) =>
  (await apiGet(t, retailer, `${paths.customers.details}?customer_id=${customerId}`)).body.data;

/** Adds a customer, fetches their QR through the API and enrols and starts an agent with it. */
const enrolAgent = async () => {
  const statePath = join(stateDir, `phone-${agents.length}.json`);
  const { agent, customerId } = await enrolReferenceAgent(t, retailer, statePath);
  agents.push(agent);
  return { agent, customerId, statePath };
};

const commandStates = (customerId: number) =>
  queryRows<{ name: string; state: string; delivery_attempts: number }>(
    t.app.ctx.db,
    sql`select c.name, c.state, c.delivery_attempts from device_commands c join devices d on d.id = c.device_id
        where d.customer_id = ${customerId} order by c.created_at, c.id`,
  );

describe('device channel with the reference agent', () => {
  it('enrols over the QR, then locks and unlocks with acknowledgements', async () => {
    const { agent, customerId } = await enrolAgent();
    expect((await details(customerId)).status).toBe(1);
    await waitUntil(async () => (await details(customerId)).device.isOnline);

    const lock = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: customerId,
      ...TEST_LOCK_REASON,
    });
    expect(lock.status).toBe(200);
    await agent.waitForLockState(true);
    // The lock's policy carried the lock screen: the retailer, nothing overdue, emergency calls.
    expect(agent.lockScreen).toMatchObject({
      retailerName: 'Ravi Mobiles',
      retailerPhone: DEMO_RETAILER_MOBILE,
      overduePaise: 0,
      emergencyCalls: 'allowed',
    });
    expect(agent.lockScreen?.lines).toContain('Emergency calls: allowed');
    await waitUntil(async () => (await details(customerId)).device.pendingCommand === null);
    const locked = await details(customerId);
    expect(locked.lockStatus).toBe(1);
    expect(locked.device.lockStatus).toBe(1);
    expect(locked.device.lastCommand).toMatchObject({ id: lock.body.data.id, name: 'lock', state: 'done' });

    await apiPost(t, retailer, paths.devices.unlock, { customer_id: customerId });
    await agent.waitForLockState(false);
    await waitUntil(async () => (await details(customerId)).lockStatus === 0);
    await waitUntil(async () => (await commandStates(customerId)).every((c) => c.state === 'done'));
    expect((await commandStates(customerId)).map((c) => c.name)).toEqual(['lock', 'unlock']);
  });

  it('delivers a lock queued while the phone was off once it comes back, applied once', async () => {
    const { agent, customerId, statePath } = await enrolAgent();
    await agent.stop();
    await waitUntil(async () => !(await details(customerId)).device.isOnline);

    const lock = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: customerId,
      ...TEST_LOCK_REASON,
    });
    expect(lock.body.data.state).toBe('sent');
    const pending = await details(customerId);
    expect(pending.device.pendingCommand).toMatchObject({ name: 'lock' });
    expect(pending.lockStatus).toBe(0);

    const again = await DeviceAgent.load({ statePath });
    agents.push(again);
    const outcomes: string[] = [];
    again.on('command', (outcome) => outcomes.push(`${outcome.name}:${outcome.result}`));
    await again.start();
    await again.waitForLockState(true);
    await waitUntil(async () => (await details(customerId)).lockStatus === 1);
    await waitUntil(async () => (await commandStates(customerId))[0]?.state === 'done');
    // The broker's persistent session delivers it, and hello may re-send it: applied exactly once.
    expect(outcomes.filter((o) => o === 'lock:done')).toHaveLength(1);
    expect(outcomes.every((o) => o.startsWith('lock:'))).toBe(true);
  });

  it('re-sends pending commands on hello when the broker lost the session', async () => {
    const { agent, customerId, statePath } = await enrolAgent();
    await agent.stop();
    // A lock that never reached the broker (e.g. the publish failed): its row still queued, its
    // policy version written.
    const device = (await details(customerId)).device;
    await t.app.ctx.db.execute(
      sql`insert into device_commands (id, org_id, device_id, name, state) values ('019a0000-0000-7000-8000-000000000001', ${DEMO_ORG_ID}, ${device.id}, 'lock', 'queued')`,
    );
    await t.app.ctx.db.execute(
      sql`update devices set desired_locked = true, policy_version = policy_version + 1 where id = ${device.id}`,
    );
    const again = await DeviceAgent.load({ statePath });
    agents.push(again);
    await again.start();
    await again.waitForLockState(true);
    await waitUntil(async () => (await commandStates(customerId))[0]?.state === 'done');
  });

  it('shows an EMI reminder (send_emialert): the agent applies emi_alert and acks done, lock unchanged', async () => {
    const { agent, customerId } = await enrolAgent();
    const sent = await apiPost(t, retailer, paths.emi.sendAlert, {
      customer_id: customerId,
      message: 'Due soon',
    });
    expect(sent.status).toBe(200);
    await waitUntil(async () =>
      (await commandStates(customerId)).some((c) => c.name === 'emi_alert' && c.state === 'done'),
    );
    expect(agent.isLocked).toBe(false);
  });

  it('runs every control command of the catalogue end to end and shows the reported state', async () => {
    // An allowed list naming every feature offers all of them (spec §6: the list replaces the defaults).
    await queryRows(
      t.app.ctx.db,
      sql`update organizations set settings = settings || ${JSON.stringify({ allowedControls: CONTROL_FEATURES })}::jsonb
          where id = ${DEMO_ORG_ID}`,
    );
    const { customerId } = await enrolAgent();
    await waitUntil(async () => (await details(customerId)).device.isOnline);
    const argsOf: Record<string, Record<string, unknown>> = {
      wallpaper: { text: 'EMI due on 5th' },
      lost_mode: { message: 'This phone is financed by Ravi Mobiles', phone: '+919876543210' },
      antitheft_lost_mode: { message: 'Stolen phone. Call the owner', phone: '+919876543210' },
      app_lock: { packages: ['com.whatsapp'] },
      app_hide_unhide: { packages: ['com.android.chrome'] },
    };
    const send = async (feature: string, body: Record<string, unknown>) => {
      const response = await apiPost(t, retailer, deviceControlPath(feature), {
        customer_id: customerId,
        ...body,
      });
      expect(response.status, `${feature}: ${JSON.stringify(response.body)}`).toBe(200);
      const id = response.body.data.id as string;
      await waitUntil(async () => {
        const [row] = await queryRows<{ state: string }>(
          t.app.ctx.db,
          sql`select state from device_commands where id = ${id}`,
        );
        return row!.state === 'done';
      });
    };
    const toggles = COMMAND_CATALOGUE.filter((c) => c.kind === 'toggle' && c.feature !== 'lock');
    for (const spec of toggles) {
      // The lost modes leave only a lock screen: with nothing overdue they need a reason (issue 12).
      await send(spec.feature, { enable: true, args: argsOf[spec.feature], ...TEST_LOCK_REASON });
      expect((await details(customerId)).device.controls[spec.feature], spec.feature).toBe(true);
      await send(spec.feature, { enable: false });
      expect((await details(customerId)).device.controls[spec.feature], spec.feature).toBe(false);
    }
    const actions = COMMAND_CATALOGUE.filter(
      // emi_alert, uninstall and the issue 16 message features have their own routes and tests.
      (c) => c.kind === 'action' && !['emi_alert', 'uninstall', ...MESSAGE_FEATURES].includes(c.feature),
    );
    for (const spec of actions) await send(spec.feature, {});
    const summary = (await details(customerId)).device;
    expect(summary.lastLocation).toMatchObject({
      latitude: expect.any(String),
      longitude: expect.any(String),
    });
    expect(summary.sims.length).toBeGreaterThan(0);
    const history = (await apiGet(t, retailer, `${paths.devices.history}?customer_id=${customerId}`)).body
      .data;
    expect(history.every((c: { state: string }) => c.state === 'done')).toBe(true);
    expect(history.find((c: { name: string }) => c.name === 'location').result).toMatchObject({
      latitude: expect.any(String),
    });
  });

  it('records the first location report after a SIM change made offline and tracking turned on as the phone reconnects (issue 27 scenario)', async () => {
    const { agent, customerId } = await enrolAgent();
    await waitUntil(async () => (await details(customerId)).device.sims !== null);
    await agent.stop();
    await agent.setSims([
      { slot: 1, iccid: '8991000900000000456', operator: 'Jio' },
      { slot: 2, iccid: null, operator: null },
    ]);
    const reports: string[] = [];
    agent.on('report', (report: { kind: string }) => reports.push(report.kind));
    // Tracking turned on while the phone reconnects: its command goes in the hello's sync.
    void agent.start();
    const tracking = await apiPost(t, retailer, deviceControlPath('tracking'), {
      customer_id: customerId,
      enable: true,
    });
    expect(tracking.status).toBe(200);
    await waitUntil(async () => reports.includes('location'));
    await waitUntil(async () => {
      const rows = await queryRows<{ n: number }>(
        t.app.ctx.db,
        sql`select count(*)::int as n from locations l join devices d on d.id = l.device_id
            where d.customer_id = ${customerId} and l.source = 'tracking'`,
      );
      return rows[0]!.n === 1;
    }, 5_000);
  });

  it('records a SIM change the phone reports and tells the retailer by SMS', async () => {
    const { agent, customerId } = await enrolAgent();
    await waitUntil(async () => (await details(customerId)).device.sims !== null);
    await agent.setSims([
      { slot: 1, iccid: '8991000900000000123', operator: 'Airtel' },
      { slot: 2, iccid: null, operator: null },
    ]);
    await waitUntil(
      async () =>
        (await apiGet(t, retailer, `${paths.customers.simChangeDetails}?customer_id=${customerId}`)).body.data
          .length === 1,
    );
    const [change] = (
      await apiGet(t, retailer, `${paths.customers.simChangeDetails}?customer_id=${customerId}`)
    ).body.data;
    expect(change.after[0]).toMatchObject({ operator: 'Airtel' });
    const page = (await apiGet(t, retailer, paths.devices.simChanges)).body.data;
    expect(page.items[0].customerId).toBe(customerId);
    await waitUntil(async () =>
      t.sms.some((m) => m.text.includes('SIM changed') && m.to === DEMO_RETAILER_MOBILE),
    );
  });

  it('releases a phone after an UNINSTALL OTP: the customer moves to uninstall and the phone cannot reconnect', async () => {
    const { agent, customerId } = await enrolAgent();
    await waitUntil(async () => (await details(customerId)).device.isOnline);
    const otp = (await apiPost(t, retailer, paths.auth.sendOtpToUser, { purpose: 'UNINSTALL' })).body.data
      .devOtp;
    const wrong = await apiPost(t, retailer, paths.devices.uninstall, {
      customer_id: customerId,
      otp: '000000' === otp ? '111111' : '000000',
    });
    expect(wrong.status).toBe(400);
    const released = await apiPost(t, retailer, paths.devices.uninstall, { customer_id: customerId, otp });
    expect(released.status).toBe(200);
    await waitUntil(async () => (await details(customerId)).status === 3);
    const [device] = await queryRows<{ secret_hash: string | null }>(
      t.app.ctx.db,
      sql`select secret_hash from devices where customer_id = ${customerId}`,
    );
    expect(device!.secret_hash).toBeNull();
    await agent.stop();
  });

  it('gives the phone its organisation’s offline limit at enrolment', async () => {
    await queryRows(
      t.app.ctx.db,
      sql`update organizations set settings = settings || '{"offlineLockAfterHours":48}'::jsonb where id = ${DEMO_ORG_ID}`,
    );
    const { agent } = await enrolAgent();
    expect(agent.offlineLockAfterMs).toBe(48 * 3_600_000);
  });

  it('refuses a device that presents a wrong secret', async () => {
    const { agent, statePath } = await enrolAgent();
    await agent.stop();
    const { readFileSync, writeFileSync } = await import('node:fs');
    const state = JSON.parse(readFileSync(statePath, 'utf8'));
    state.credentials.deviceSecret = 'not-the-secret';
    writeFileSync(statePath, JSON.stringify(state));
    const impostor = await DeviceAgent.load({ statePath });
    agents.push(impostor);
    await expect(impostor.start()).rejects.toThrow();
  });
});
