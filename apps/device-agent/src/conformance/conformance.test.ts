import { offlineCodeKey, verifyOfflineCode } from '@kisht/domain/devices/offline-code';
import {
  PROTOCOL_VERSION,
  type TAckEvent,
  type TCommandMessage,
  ZCommandMessage,
} from '@kisht/domain/devices/protocol.schema';
import { connect, type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import {
  conformanceCheckNames,
  formatConformanceResults,
  runConformanceChecks,
  type TConformanceCheckResult,
  type TConformanceCredentials,
  type TDeviceAdapter,
} from './checks';
import { createDeviceAgentAdapter, type TDeviceAgentAdapter } from './device-agent-adapter';

const adapters: TDeviceAgentAdapter[] = [];
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.dispose()));
});

const statusOf = (results: TConformanceCheckResult[], prefix: string) =>
  results.find((result) => result.name.startsWith(prefix));

describe('the reference DeviceAgent', () => {
  it('passes every conformance check', async () => {
    const adapter = createDeviceAgentAdapter({ trackingIntervalMs: 100 });
    adapters.push(adapter);

    const results = await runConformanceChecks(adapter, { trackingReportWithinMs: 1000, settleMs: 200 });

    const report = formatConformanceResults(results);
    expect(
      results.filter((result) => result.status !== 'passed'),
      report,
    ).toEqual([]);
    expect(results.map((result) => result.name)).toEqual(conformanceCheckNames());
    // One check per catalogue entry, the invalid-args checks, and the protocol checks all ran.
    expect(results.length).toBeGreaterThan(35);
    expect(adapter.agent?.isUninstalled).toBe(true);
  }, 90_000);

  it('passes the core checks over MQTT over WebSocket too', async () => {
    const adapter = createDeviceAgentAdapter();
    adapters.push(adapter);

    const results = await runConformanceChecks(adapter, {
      transport: 'ws',
      includeUninstall: false,
      filter: (name) => /^(lock|apply-once|offline|restart|catalogue: location|events)/.test(name),
    });

    const ran = results.filter((result) => result.status !== 'skipped');
    expect(
      ran.every((result) => result.status === 'passed'),
      formatConformanceResults(ran),
    ).toBe(true);
    // lock, apply-once, offline, restart, catalogue: location, events and the four offline code checks.
    expect(ran.length).toBe(11);
  }, 60_000);
});

/** Ways the fake device below breaks the protocol. */
type TFlaw =
  | 'never-acks'
  | 'double-done'
  | 'applies-twice'
  | 'forgets-on-restart'
  | 'clean-session'
  | 'never-burns';

/**
 * A minimal device written straight on MQTT.js that handles lock and unlock (and acks every other
 * name done without doing anything), with one deliberate flaw. Only the 'never-burns' device takes
 * offline codes: it checks them properly and reports them, but keeps its challenge for ever.
 */
const createFlawedDevice = (flaw: TFlaw): TDeviceAdapter => {
  let credentials: TConformanceCredentials | undefined;
  let client: MqttClient | undefined;
  let isLocked = false;
  let applied = new Set<string>();

  const publish = (event: Record<string, unknown>) =>
    client?.publish(
      credentials!.evtTopic,
      JSON.stringify({ v: PROTOCOL_VERSION, ...event, state: { isLocked }, at: new Date().toISOString() }),
      { qos: 1 },
    );
  const ack = (commandId: string, status: TAckEvent['status']) => publish({ type: 'ack', commandId, status });

  const onCommand = (command: TCommandMessage) => {
    if (flaw === 'never-acks') return;
    if (applied.has(command.id) && flaw !== 'applies-twice') {
      ack(command.id, 'done');
      return;
    }
    ack(command.id, 'received');
    if (command.name === 'lock') isLocked = true;
    if (command.name === 'unlock') isLocked = false;
    applied.add(command.id);
    ack(command.id, 'done');
    if (flaw === 'double-done') ack(command.id, 'done');
  };

  const start = () => {
    const { deviceId, deviceSecret, mqttUrl, cmdTopic } = credentials!;
    client = connect(mqttUrl, {
      clientId: deviceId,
      username: deviceId,
      password: deviceSecret,
      clean: flaw === 'clean-session',
      reconnectPeriod: 200,
    });
    client.on('connect', async () => {
      await client?.subscribeAsync(cmdTopic, { qos: 1 });
      publish({ type: 'hello' });
    });
    client.on('message', (_topic, payload) => {
      const parsed = ZCommandMessage.safeParse(JSON.parse(payload.toString()));
      if (parsed.success) onCommand(parsed.data);
    });
  };

  const offlineHooks: Pick<TDeviceAdapter, 'offlineChallenge' | 'enterOfflineCode'> = {
    offlineChallenge: async () => '424242',
    enterOfflineCode: async (code, action) => {
      const isValid = await verifyOfflineCode({
        keyHex: await offlineCodeKey(credentials!.deviceSecret),
        deviceId: credentials!.deviceId,
        challenge: '424242',
        action,
        code,
        nowMs: Date.now(),
      });
      if (!isValid) return 'wrong';
      isLocked = action === 'lock';
      const at = new Date().toISOString();
      publish({
        type: 'report',
        kind: 'offline_lock',
        data: { action, challenge: '424242', at, source: 'offline_code' },
      });
      return 'accepted';
    },
  };

  return {
    ...(flaw === 'never-burns' ? offlineHooks : {}),
    start: async (given) => {
      credentials = given;
      start();
    },
    stop: async () => {
      await client?.endAsync();
      client = undefined;
    },
    restart: async () => {
      if (flaw === 'forgets-on-restart') {
        isLocked = false;
        applied = new Set();
      }
      start();
    },
  };
};

describe('the conformance suite catches a broken device', () => {
  const FAST = { timeoutMs: 1500, settleMs: 200, includeUninstall: false } as const;

  it('that never acks', async () => {
    const results = await runConformanceChecks(createFlawedDevice('never-acks'), {
      ...FAST,
      stopOnFailure: true,
    });

    expect(statusOf(results, 'connect:')?.status).toBe('passed');
    expect(statusOf(results, 'lock:')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/no final ack of lock/),
    });
    expect(results.slice(2).every((result) => result.status === 'skipped')).toBe(true);
  }, 30_000);

  it('that acks done twice', async () => {
    const results = await runConformanceChecks(createFlawedDevice('double-done'), {
      ...FAST,
      filter: (name) => name.startsWith('lock:') || name.startsWith('events:'),
    });

    expect(statusOf(results, 'lock:')).toMatchObject({
      status: 'failed',
      error: 'lock was acked [received, done, done], expected [received, done]',
    });
    expect(statusOf(results, 'events:')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/got 2 final acks for 1 deliveries/),
    });
  }, 30_000);

  it('that applies a re-delivered id again', async () => {
    const results = await runConformanceChecks(createFlawedDevice('applies-twice'), {
      ...FAST,
      filter: (name) => name.startsWith('apply-once:'),
    });

    expect(statusOf(results, 'apply-once:')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/applied again/),
    });
  }, 30_000);

  it('that forgets its state when it restarts', async () => {
    const results = await runConformanceChecks(createFlawedDevice('forgets-on-restart'), {
      ...FAST,
      filter: (name) => name.startsWith('restart:'),
    });

    expect(statusOf(results, 'restart:')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/hello reports isLocked false/),
    });
  }, 30_000);

  it('that connects with a clean session, and one that does not know the catalogue', async () => {
    const results = await runConformanceChecks(createFlawedDevice('clean-session'), {
      ...FAST,
      filter: (name) => name.startsWith('catalogue: camera_lock') || name.startsWith('catalogue: location'),
    });

    expect(statusOf(results, 'connect:')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/clean session on/),
    });
    // It acks done without reporting controls, and without a location result.
    expect(statusOf(results, 'catalogue: camera_lock')).toMatchObject({
      status: 'failed',
      error: 'after camera_lock the done ack reports camera_lock = undefined, not true',
    });
    expect(statusOf(results, 'catalogue: location')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/location result is not a location fix/),
    });
  }, 30_000);

  it('that never burns its offline challenge, and skips the offline code checks without the hooks', async () => {
    const isOfflineCodeCheck = (name: string) => name.startsWith('offline code:');
    const results = await runConformanceChecks(createFlawedDevice('never-burns'), {
      ...FAST,
      filter: isOfflineCodeCheck,
    });

    expect(statusOf(results, 'offline code: a valid code')?.status).toBe('passed');
    expect(statusOf(results, 'offline code: a used code')).toMatchObject({
      status: 'failed',
      error: 'the challenge 424242 was not replaced after its code was accepted',
    });
    expect(statusOf(results, 'offline code: wrong codes')).toMatchObject({
      status: 'failed',
      error: 'wrong code 5 was answered wrong, not challenge_changed',
    });

    const without = await runConformanceChecks(createFlawedDevice('double-done'), {
      ...FAST,
      filter: isOfflineCodeCheck,
    });
    expect(without.filter((result) => isOfflineCodeCheck(result.name))).toEqual(
      Array.from({ length: 4 }, () =>
        expect.objectContaining({
          status: 'skipped',
          error: 'the adapter has no offlineChallenge and enterOfflineCode',
        }),
      ),
    );
  }, 30_000);
});
