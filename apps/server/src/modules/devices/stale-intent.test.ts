import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeviceAgent } from '@kisht/device-agent/agent';
import { cmdTopic } from '@kisht/domain/devices/protocol.schema';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import { apiGet, apiPost, enrolReferenceAgent, TEST_LOCK_REASON, waitUntil } from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * Issue 11 (device protocol v2): a lock that was superseded or cancelled while the phone was
 * offline never reaches it, although the broker's persistent session still holds its message;
 * and only the server can command the phone: an anonymous publish to its cmd topic, unsigned or
 * replayed, changes nothing. Over the embedded broker and over the machine's Mosquitto
 * (127.0.0.1:1883, anonymous, no ACLs: the worst case the issue names).
 */
const MOSQUITTO_URL = 'mqtt://127.0.0.1:1883';

const BROKERS = [
  { name: 'embedded broker', env: {} as Record<string, string> },
  {
    name: 'Mosquitto without ACLs',
    env: {
      MQTT_URL: MOSQUITTO_URL,
      MQTT_PUBLIC_URL: MOSQUITTO_URL,
      // This run's own group, so another run on the same broker does not take its events.
      MQTT_SHARED_GROUP: `kisht_stale_${randomBytes(5).toString('hex')}`,
    },
  },
];

describe.each(BROKERS)('stale and forged intents never reach the phone ($name)', ({ env }) => {
  let t: TestApp;
  let retailer: string;
  let stateDir: string;
  const agents: DeviceAgent[] = [];

  beforeEach(async () => {
    t = await createTestApp(env);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    retailer = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
    stateDir = mkdtempSync(join(tmpdir(), 'kisht-stale-'));
  });
  afterEach(async () => {
    for (const agent of agents.splice(0)) await agent.stop();
    await t.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  const details = async (customerId: number) =>
    (await apiGet(t, retailer, `${paths.customers.details}?customer_id=${customerId}`)).body.data;

  const commands = (customerId: number) =>
    queryRows<{ id: string; name: string; state: string }>(
      t.app.ctx.db,
      sql`select c.id, c.name, c.state from device_commands c join devices d on d.id = c.device_id
          where d.customer_id = ${customerId} order by c.created_at, c.id`,
    );

  /** An enrolled phone, connected once (its session exists at the broker), then switched off. */
  const offlinePhone = async () => {
    const statePath = join(stateDir, `phone-${agents.length}.json`);
    const { agent, customerId } = await enrolReferenceAgent(t, retailer, statePath);
    await waitUntil(async () => (await details(customerId)).device.isOnline);
    await agent.stop();
    await waitUntil(async () => !(await details(customerId)).device.isOnline);
    return { customerId, statePath };
  };

  /** Starts the phone again, recording every lock state it ever takes and every outcome. */
  const switchOn = async (statePath: string) => {
    const agent = await DeviceAgent.load({ statePath });
    agents.push(agent);
    const lockStates: boolean[] = [];
    const outcomes: string[] = [];
    agent.on('state', (state) => lockStates.push(state.isLocked));
    agent.on('command', (outcome) => outcomes.push(`${outcome.name}:${outcome.result}`));
    // Listen before starting: under load the sync can arrive in the same read as the hello's
    // acknowledgement, and be handled before start() resolves.
    const synced = new Promise<void>((resolve) => agent.once('synced', () => resolve()));
    await agent.start();
    await synced;
    return { agent, lockStates, outcomes };
  };

  it('offline phone; lock; unlock: it comes back unlocked and never applies the lock', async () => {
    const { customerId, statePath } = await offlinePhone();
    const lock = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: customerId,
      ...TEST_LOCK_REASON,
    });
    expect(lock.body.data.state).toBe('sent');
    const unlock = await apiPost(t, retailer, paths.devices.unlock, { customer_id: customerId });
    expect(unlock.status).toBe(200);

    const phone = await switchOn(statePath);
    await waitUntil(async () => (await commands(customerId)).at(-1)?.state === 'done');

    expect(phone.agent.isLocked).toBe(false);
    expect(phone.lockStates).not.toContain(true);
    expect(phone.outcomes).toEqual(['unlock:done']);
    expect(await commands(customerId)).toEqual([
      { id: lock.body.data.id, name: 'lock', state: 'cancelled' },
      { id: unlock.body.data.id, name: 'unlock', state: 'done' },
    ]);
    expect((await details(customerId)).lockStatus).toBe(0);
  });

  it('offline phone; lock; cancel: it comes back unlocked, the lock cancelled and no unlock queued', async () => {
    const { customerId, statePath } = await offlinePhone();
    const lock = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: customerId,
      ...TEST_LOCK_REASON,
    });
    const cancel = await apiPost(t, retailer, paths.devices.cancel, {
      customer_id: customerId,
      command_id: lock.body.data.id,
    });
    expect(cancel.status).toBe(200);

    const phone = await switchOn(statePath);
    // Give a stale message every chance to arrive and be (wrongly) applied.
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(phone.agent.isLocked).toBe(false);
    expect(phone.lockStates).not.toContain(true);
    expect(phone.outcomes).toEqual([]);
    expect(await commands(customerId)).toEqual([{ id: lock.body.data.id, name: 'lock', state: 'cancelled' }]);
    // The phone holds the policy that took the lock back.
    const [device] = await queryRows<{ policy_version: number; reported_policy_version: number }>(
      t.app.ctx.db,
      sql`select policy_version, reported_policy_version from devices where customer_id = ${customerId}`,
    );
    expect(phone.agent.state.policy?.version).toBe(Number(device!.policy_version));
    await waitUntil(async () => {
      const [row] = await queryRows<{ reported_policy_version: number }>(
        t.app.ctx.db,
        sql`select reported_policy_version from devices where customer_id = ${customerId}`,
      );
      return Number(row?.reported_policy_version) === Number(device!.policy_version);
    });
  });

  // The embedded broker lets no anonymous client in; the case is a broker without ACLs.
  it.runIf(Boolean(env.MQTT_URL))(
    'refuses a forged unsigned unlock and a replayed signed one published straight to its cmd topic',
    async () => {
      const { customerId, statePath } = await offlinePhone();
      const phone = await switchOn(statePath);
      const deviceId = phone.agent.deviceId;
      // Anyone on a broker without ACLs can read what the server sends the phone, and publish to it.
      const attacker = await mqtt.connectAsync(MOSQUITTO_URL, {
        clientId: `attacker-${randomUUID()}`,
        clean: true,
      });
      const captured: string[] = [];
      attacker.on('message', (_topic, payload) => captured.push(payload.toString()));
      await attacker.subscribeAsync(cmdTopic(deviceId), { qos: 1 });
      const refused: string[] = [];
      phone.agent.on('invalidMessage', ({ reason }) => refused.push(reason));

      await apiPost(t, retailer, paths.devices.unlock, { customer_id: customerId });
      await waitUntil(async () => (await commands(customerId)).every((c) => c.state === 'done'));
      await apiPost(t, retailer, paths.devices.lock, { customer_id: customerId, ...TEST_LOCK_REASON });
      await phone.agent.waitForLockState(true);
      await waitUntil(async () => (await commands(customerId)).every((c) => c.state === 'done'));

      // A v1 unsigned unlock, and the server's own signed unlock (an older policy version) replayed.
      await attacker.publishAsync(
        cmdTopic(deviceId),
        JSON.stringify({
          v: 1,
          id: randomUUID(),
          name: 'unlock',
          args: {},
          issuedAt: new Date().toISOString(),
        }),
        { qos: 1 },
      );
      const signedUnlock = captured.find((payload) => {
        const body = JSON.parse(JSON.parse(payload).body);
        return body.type === 'policy' && body.policy.locked === false;
      });
      expect(signedUnlock).toBeDefined();
      await attacker.publishAsync(cmdTopic(deviceId), signedUnlock!, { qos: 1 });
      await new Promise((resolve) => setTimeout(resolve, 500));
      await attacker.endAsync();

      expect(refused).toEqual([expect.stringMatching(/^not a signed message/)]);
      expect(phone.agent.isLocked).toBe(true);
      expect(phone.lockStates.at(-1)).toBe(true);
      expect((await details(customerId)).lockStatus).toBe(1);
    },
  );
});
