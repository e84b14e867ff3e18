import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  OFFLINE_CODE_MAX_WRONG_TRIES,
  offlineCodeFor,
  offlineCodeKey,
  offlineCodeSlot,
  type TOfflineCodeAction,
} from '@kisht/domain/devices/offline-code';
import {
  cmdTopic,
  evtTopic,
  type TAckEvent,
  type TReportEvent,
  type TSimSlot,
  ZLocationFix,
} from '@kisht/domain/devices/protocol.schema';
import { paths } from '@kisht/domain/paths';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AGENT_VERSION,
  DeviceAgent,
  DeviceUninstalledError,
  EnrolmentError,
  type TCommandOutcome,
} from './agent';
import { ServerSimulator } from './server-simulator';
import { readStateFile, type TOfflineEvent } from './state';
import {
  createCommandMessage,
  createProvisioningPayload,
  startEnrolServer,
  startTestBroker,
  type TEnrolServer,
  TEST_ENROLMENT_TOKEN,
  TEST_IMEI_1,
  TEST_IMEI_2,
  type TTestBroker,
  waitFor,
} from './test-support';

let dir: string;
let statePath: string;
let broker: TTestBroker;
let enrolServer: TEnrolServer;
const agents: DeviceAgent[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kisht-agent-'));
  statePath = join(dir, 'device.json');
  broker = await startTestBroker();
  enrolServer = await startEnrolServer(broker);
});

afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.stop()));
  await enrolServer.close();
  await broker.close();
  await rm(dir, { recursive: true, force: true });
});

const qrText = (token = TEST_ENROLMENT_TOKEN) =>
  JSON.stringify(createProvisioningPayload({ token, serverUrl: enrolServer.url }));

/** Enrols a device against the test servers and tracks it for cleanup. */
const enrol = async () => {
  const agent = await DeviceAgent.enrol({ qr: qrText(), imei1: TEST_IMEI_1, imei2: TEST_IMEI_2, statePath });
  agents.push(agent);
  return agent;
};

/** Loads a device from the state file and tracks it for cleanup. */
const load = async (options: { trackingIntervalMs?: number; offlineLockAfterMs?: number | null } = {}) => {
  const agent = await DeviceAgent.load({ statePath, ...options });
  agents.push(agent);
  return agent;
};

const eventsOf = (deviceId: string) => broker.events.filter((entry) => entry.deviceId === deviceId);
const hellosOf = (deviceId: string) =>
  eventsOf(deviceId).flatMap((entry) =>
    entry.event.type === 'hello' ? [{ ...entry, event: entry.event }] : [],
  );
const acksOf = (deviceId: string, commandId: string): TAckEvent[] =>
  eventsOf(deviceId).flatMap(({ event }) =>
    event.type === 'ack' && event.commandId === commandId ? [event] : [],
  );

const reportsOf = (deviceId: string, kind: TReportEvent['kind']): TReportEvent[] =>
  eventsOf(deviceId).flatMap(({ event }) => (event.type === 'report' && event.kind === kind ? [event] : []));

/** Publishes a command and resolves with the agent's outcome for it (done, failed or duplicate). */
const send = async (agent: DeviceAgent, name: string, args: Record<string, unknown> = {}, id?: string) => {
  const message = createCommandMessage({ name, args, ...(id ? { id } : {}) });
  const outcome = new Promise<TCommandOutcome>((resolve) => {
    const onCommand = (candidate: TCommandOutcome) => {
      if (candidate.id !== message.id) return;
      agent.off('command', onCommand);
      resolve(candidate);
    };
    agent.on('command', onCommand);
  });
  await broker.publishCommand(agent.deviceId, message);
  return { id: message.id, outcome: await outcome };
};

/** Waits for the final (done or failed) ack of a command and returns it. */
const finalAckOf = (deviceId: string, commandId: string) =>
  waitFor(() => acksOf(deviceId, commandId).find((ack) => ack.status !== 'received'), {
    what: `final ack of ${commandId}`,
  });

/** Resolves with the next 'command' outcome the agent reports. */
const nextOutcome = (agent: DeviceAgent) =>
  new Promise<TCommandOutcome>((resolve) => agent.once('command', resolve));

describe('DeviceAgent.enrol', () => {
  it('calls the enrol endpoint with the QR token and IMEIs and saves the credentials', async () => {
    const agent = await enrol();

    expect(enrolServer.requests).toEqual([
      { token: TEST_ENROLMENT_TOKEN, imei1: TEST_IMEI_1, imei2: TEST_IMEI_2 },
    ]);
    const saved = await readStateFile(statePath);
    expect(saved.credentials).toMatchObject({
      deviceId: agent.deviceId,
      deviceSecret: broker.devices.get(agent.deviceId),
      mqttUrl: broker.url,
      cmdTopic: cmdTopic(agent.deviceId),
      evtTopic: evtTopic(agent.deviceId),
      serverUrl: enrolServer.url,
      imei1: TEST_IMEI_1,
      imei2: TEST_IMEI_2,
    });
    expect(saved.isLocked).toBe(false);
    expect(saved.appliedCommandIds).toEqual([]);
    // The file holds the device secret: owner-only.
    expect((await stat(statePath)).mode & 0o777).toBe(0o600);
  });

  it("surfaces the server's message and code when the token is refused", async () => {
    const attempt = DeviceAgent.enrol({
      qr: qrText('another-token-that-is-unknown'),
      imei1: TEST_IMEI_1,
      imei2: TEST_IMEI_2,
      statePath,
    });

    await expect(attempt).rejects.toThrow(EnrolmentError);
    await expect(attempt).rejects.toMatchObject({
      code: 'ENROLMENT_TOKEN_INVALID',
      status: 400,
      message: expect.stringContaining('This enrolment QR is no longer valid'),
    });
    await expect(stat(statePath)).rejects.toThrow(/ENOENT/);
  });

  it('refuses an invalid IMEI before calling the server', async () => {
    const attempt = DeviceAgent.enrol({
      qr: qrText(),
      imei1: '490154203237519',
      imei2: TEST_IMEI_2,
      statePath,
    });

    await expect(attempt).rejects.toThrow(/imei1: IMEI must be 15 digits with a valid check digit/);
    expect(enrolServer.requests).toEqual([]);
  });

  it('refuses to overwrite an existing enrolment unless asked to', async () => {
    await enrol();
    const again = () =>
      DeviceAgent.enrol({ qr: qrText(), imei1: TEST_IMEI_1, imei2: TEST_IMEI_2, statePath });

    await expect(again()).rejects.toThrow(/already enrolled/);
    const replaced = await DeviceAgent.enrol({
      qr: qrText(),
      imei1: TEST_IMEI_1,
      imei2: TEST_IMEI_2,
      statePath,
      canOverwrite: true,
    });
    expect((await readStateFile(statePath)).credentials.deviceId).toBe(replaced.deviceId);
  });

  it('reports a server it cannot reach', async () => {
    const url = enrolServer.url;
    await enrolServer.close();
    const attempt = DeviceAgent.enrol({
      qr: JSON.stringify(createProvisioningPayload({ serverUrl: url })),
      imei1: TEST_IMEI_1,
      imei2: TEST_IMEI_2,
      statePath,
      retries: 1,
    });

    await expect(attempt).rejects.toMatchObject({
      code: 'NETWORK',
      message: expect.stringContaining('cannot reach'),
    });
  });

  it('enrols again with the same token when the first answer is lost on the way', async () => {
    // The server enrols the phone on the first call, but the connection dies before its answer.
    let calls = 0;
    const flaky = createHttpServer((request, response) => {
      calls += 1;
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', async () => {
        const answer = await fetch(`${enrolServer.url}${paths.devices.enrol}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: Buffer.concat(chunks),
        });
        if (calls === 1) {
          request.socket.destroy();
          return;
        }
        response.writeHead(answer.status, { 'content-type': 'application/json' });
        response.end(await answer.text());
      });
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = flaky.address() as AddressInfo;
      const agent = await DeviceAgent.enrol({
        qr: JSON.stringify(createProvisioningPayload({ serverUrl: `http://127.0.0.1:${port}` })),
        imei1: TEST_IMEI_1,
        imei2: TEST_IMEI_2,
        statePath,
      });
      expect(calls).toBe(2);
      // The server had the first call too: the retry carries the same token.
      expect(enrolServer.requests.map((request) => request.token)).toEqual([
        TEST_ENROLMENT_TOKEN,
        TEST_ENROLMENT_TOKEN,
      ]);
      expect(agent.state.credentials.serverKey).toEqual(broker.server.serverKey);
    } finally {
      flaky.closeAllConnections();
      await new Promise<void>((resolve) => flaky.close(() => resolve()));
    }
  });
});

describe('DeviceAgent session', () => {
  it('says hello with its state when it connects', async () => {
    const agent = await enrol();

    await agent.start();

    expect(agent.isConnected).toBe(true);
    const [hello] = hellosOf(agent.deviceId);
    expect(hello?.event).toMatchObject({ v: 2, type: 'hello', state: { isLocked: false } });
  });

  it('starts and checks in when the sync is read before the broker acknowledges the hello', async () => {
    const agent = await enrol();
    broker.syncBeforeHelloAck = true;
    const synced = new Promise((resolve) => agent.once('synced', resolve));

    await agent.start();

    await synced;
    expect(agent.isConnected).toBe(true);
    await waitFor(() => (hellosOf(agent.deviceId).length === 1 ? true : undefined), { what: 'the hello' });
  });

  it('says hello again while no sync comes, each wait twice as long, and settles once a sync comes', async () => {
    const enrolled = await enrol();
    await enrolled.stop();
    const agent = await DeviceAgent.load({ statePath, syncWaitMs: 100 });
    agents.push(agent);
    broker.server.pauseSyncs(); // a server too busy to answer
    const refusals: string[] = [];
    agent.on('invalidMessage', ({ reason }) => refusals.push(reason));

    await agent.start();
    await waitFor(() => (hellosOf(agent.deviceId).length >= 4 ? true : undefined), { what: 'four hellos' });

    const times = hellosOf(agent.deviceId).map(({ event }) => Date.parse(event.at));
    const gaps = times.slice(1, 4).map((at, i) => at - times[i]!);
    // 100, 200, 400 ms (a timer never fires early by more than a millisecond); without the doubling
    // every gap would be 100 ms, and a server slower than that would never be answered in time.
    expect(gaps[0]).toBeGreaterThanOrEqual(99);
    expect(gaps[1]).toBeGreaterThanOrEqual(199);
    expect(gaps[2]).toBeGreaterThanOrEqual(399);
    const synced = new Promise((resolve) => agent.once('synced', resolve));
    await broker.server.resumeSyncs();
    await synced;
    expect(refusals).toEqual([]);
    const hellos = hellosOf(agent.deviceId).length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hellosOf(agent.deviceId)).toHaveLength(hellos); // synced: no more hellos
  });

  it('says hello again after the broker drops the connection', async () => {
    const agent = await enrol();
    await agent.start();
    const events: string[] = [];
    for (const name of ['disconnected', 'reconnecting', 'connected', 'hello'] as const) {
      agent.on(name, () => events.push(name));
    }
    const helloAgain = new Promise((resolve) => agent.once('hello', resolve));

    broker.dropConnection(agent.deviceId);

    await helloAgain;
    expect(events).toEqual(['disconnected', 'reconnecting', 'connected', 'hello']);
    await waitFor(() => (hellosOf(agent.deviceId).length === 2 ? true : undefined), { what: 'second hello' });
  });

  it('locks on a lock command: acks received, saves, then acks done with the new state', async () => {
    const agent = await enrol();
    await agent.start();
    const lock = createCommandMessage({ name: 'lock' });
    // What the state file said at the moment the broker got the done ack.
    let savedWhenDone: unknown;
    broker.broker.on('publish', (packet) => {
      if (packet.topic !== evtTopic(agent.deviceId)) return;
      const event = JSON.parse(packet.payload.toString());
      if (event.status === 'done') savedWhenDone = JSON.parse(readFileSync(statePath, 'utf8')).isLocked;
    });

    await broker.publishCommand(agent.deviceId, lock);
    await agent.waitForLockState(true);

    const acks = await waitFor(() => {
      const found = acksOf(agent.deviceId, lock.id);
      return found.length === 2 ? found : undefined;
    });
    expect(acks.map((ack) => [ack.status, ack.state.isLocked])).toEqual([
      ['received', false],
      ['done', true],
    ]);
    expect(savedWhenDone).toBe(true);
    const saved = await readStateFile(statePath);
    expect(saved.isLocked).toBe(true);
    expect(saved.policy?.version).toBe(1);
  });

  it('shows the lock screen the lock carried: retailer, amount overdue, how to pay, emergency calls allowed', async () => {
    const agent = await enrol();
    await agent.start();
    expect(agent.lockScreen).toBeNull(); // unlocked: no lock screen
    broker.server.lockScreen = {
      reason: 'overdue_emi',
      retailerName: 'Ravi Mobiles',
      retailerPhone: '+919876543210',
      overduePaise: 208_000,
      howToPay: 'Pay by UPI to ravimobiles@okaxis\nor at Shop 4, Andheri West',
      emergencyCalls: true,
    };
    await broker.publishCommand(agent.deviceId, createCommandMessage({ name: 'lock' }));
    await agent.waitForLockState(true);

    expect(agent.lockScreen).toMatchObject({
      reason: 'overdue_emi',
      retailerName: 'Ravi Mobiles',
      retailerPhone: '+919876543210',
      overduePaise: 208_000,
      howToPay: 'Pay by UPI to ravimobiles@okaxis\nor at Shop 4, Andheri West',
      offlineChallenge: agent.offlineChallenge,
      emergencyCalls: 'allowed',
    });
    expect(agent.lockScreen?.lines).toEqual([
      'This phone is locked because an EMI is overdue.',
      'Call Ravi Mobiles on +919876543210.',
      'Overdue: ₹2,080.00',
      'How to pay: Pay by UPI to ravimobiles@okaxis / or at Shop 4, Andheri West',
      `Offline code challenge: ${agent.offlineChallenge}`,
      'Emergency calls: allowed',
    ]);
    // Kept across a restart, from the policy the phone saved.
    await agent.stop();
    const again = await load();
    expect(again.lockScreen?.howToPay).toBe('Pay by UPI to ravimobiles@okaxis\nor at Shop 4, Andheri West');
  });

  it('shows why a lock with nothing overdue was made, and no amount or how to pay (issue 25)', async () => {
    const agent = await enrol();
    await agent.start();
    broker.server.lockScreen = {
      reason: 'customer_request',
      retailerName: 'Ravi Mobiles',
      retailerPhone: '+919876543210',
      overduePaise: 0,
      howToPay: 'Pay by UPI to ravimobiles@okaxis',
      emergencyCalls: true,
    };
    await broker.publishCommand(agent.deviceId, createCommandMessage({ name: 'lock' }));
    await agent.waitForLockState(true);
    expect(agent.lockScreen?.lines).toEqual([
      'This phone is locked at your request.',
      'Call Ravi Mobiles on +919876543210.',
      `Offline code challenge: ${agent.offlineChallenge}`,
      'Emergency calls: allowed',
    ]);
    expect(agent.lockScreen?.lines.join(' ')).not.toMatch(/EMI|overdue|pay/i);
  });

  it('unlocks on an unlock command', async () => {
    const agent = await enrol();
    await agent.start();

    await broker.publishCommand(agent.deviceId, createCommandMessage({ name: 'lock' }));
    await agent.waitForLockState(true);
    await broker.publishCommand(agent.deviceId, createCommandMessage({ name: 'unlock' }));
    await agent.waitForLockState(false);

    expect((await readStateFile(statePath)).isLocked).toBe(false);
  });

  it('applies a policy version once: the same version re-acks its command, an older one changes nothing', async () => {
    const agent = await enrol();
    await agent.start();
    const lock = createCommandMessage({ name: 'lock' });
    const unlock = createCommandMessage({ name: 'unlock' });
    const policies = new Map<number, string>();
    broker.broker.on('publish', (packet) => {
      if (packet.topic !== cmdTopic(agent.deviceId)) return;
      const body = JSON.parse(JSON.parse(packet.payload.toString()).body);
      if (body.type === 'policy') policies.set(body.version, packet.payload.toString());
    });

    await broker.publishCommand(agent.deviceId, lock);
    await agent.waitForLockState(true);
    await broker.publishCommand(agent.deviceId, unlock);
    await agent.waitForLockState(false);
    await waitFor(() => (acksOf(agent.deviceId, unlock.id).length === 2 ? true : undefined));
    // Version 2 again (the server did not hear the done ack): its unlock is acked done again.
    const again = nextOutcome(agent);
    await broker.publishCommand(agent.deviceId, policies.get(2)!);

    expect(await again).toMatchObject({ id: unlock.id, result: 'duplicate', state: { isLocked: false } });
    await waitFor(() => (acksOf(agent.deviceId, unlock.id).length === 3 ? true : undefined));
    // The lock's signed version 1, replayed: an older version, so nothing happens and nothing is acked.
    const acksBefore = eventsOf(agent.deviceId).length;
    await broker.publishCommand(agent.deviceId, policies.get(1)!);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(agent.isLocked).toBe(false);
    expect(eventsOf(agent.deviceId)).toHaveLength(acksBefore);
    expect(acksOf(agent.deviceId, lock.id).map((ack) => ack.status)).toEqual(['received', 'done']);
    expect((await readStateFile(statePath)).policy).toMatchObject({ version: 2, policy: { locked: false } });
  });

  it('applies a one-shot command id once: a redelivery is re-acked done and changes nothing', async () => {
    const agent = await enrol();
    await agent.start();
    const reboot = createCommandMessage({ name: 'reboot' });

    await broker.publishCommand(agent.deviceId, reboot);
    await waitFor(() => (agent.state.bootCount === 1 ? true : undefined), { what: 'reboot' });
    const redelivered = nextOutcome(agent);
    await broker.publishCommand(agent.deviceId, reboot);

    expect(await redelivered).toMatchObject({ id: reboot.id, result: 'duplicate' });
    expect(agent.state.bootCount).toBe(1);
    const acks = await waitFor(() => {
      const found = acksOf(agent.deviceId, reboot.id);
      return found.length === 3 ? found : undefined;
    });
    expect(acks.map((ack) => ack.status)).toEqual(['received', 'done', 'done']);
  });

  it('acks failed for a command it does not know', async () => {
    const agent = await enrol();
    await agent.start();
    const unknown = createCommandMessage({ name: 'self_destruct' });
    const outcome = nextOutcome(agent);

    await broker.publishCommand(agent.deviceId, unknown);

    expect(await outcome).toMatchObject({ result: 'failed', error: 'unsupported command' });
    const acks = await waitFor(() => {
      const found = acksOf(agent.deviceId, unknown.id);
      return found.length === 2 ? found : undefined;
    });
    expect(acks.map((ack) => [ack.status, ack.error])).toEqual([
      ['received', undefined],
      ['failed', 'unsupported command'],
    ]);
  });

  it('refuses unsigned, forged and misdirected messages and keeps working', async () => {
    const agent = await enrol();
    await agent.start();
    const invalid: string[] = [];
    agent.on('invalidMessage', ({ reason }) => invalid.push(reason));
    const policy = {
      type: 'policy' as const,
      deviceId: agent.deviceId,
      ...broker.server.policyOf(agent.deviceId),
    };
    const unlocked = { ...policy, version: 50, policy: { locked: true, controls: {} }, commands: [] };
    const signed = JSON.parse(broker.server.sign(unlocked)) as { body: string; sig: string };
    const otherKey = new ServerSimulator(async () => undefined);

    await broker.publishCommand(agent.deviceId, 'not json');
    // The v1 format: an unsigned command.
    await broker.publishCommand(
      agent.deviceId,
      JSON.stringify({ v: 1, id: randomUUID(), name: 'lock', args: {} }),
    );
    // Signed, but the body was changed after signing.
    await broker.publishCommand(
      agent.deviceId,
      JSON.stringify({
        ...JSON.parse(broker.server.sign(unlocked)),
        body: signed.body.replace('"version":50', '"version":51'),
      }),
    );
    // Signed with another organisation's key, under our key id.
    await broker.publishCommand(
      agent.deviceId,
      JSON.stringify({ ...JSON.parse(otherKey.sign(unlocked)), kid: broker.server.key.kid }),
    );
    // Signed for another device.
    await broker.publishCommand(agent.deviceId, broker.server.sign({ ...unlocked, deviceId: randomUUID() }));
    await broker.publishCommand(agent.deviceId, createCommandMessage({ name: 'lock' }));
    await agent.waitForLockState(true);

    expect(invalid).toEqual([
      'not a signed message: not JSON',
      'not a signed message: v, kid, sig, body',
      'bad signature: the signature does not match the body',
      'bad signature: the signature does not match the body',
      expect.stringMatching(/^for another device: /),
    ]);
    expect(agent.state.policy?.version).toBe(1);
    const acks = () => eventsOf(agent.deviceId).filter(({ event }) => event.type === 'ack');
    await waitFor(() => (acks().length >= 2 ? true : undefined), { what: 'acks of the valid command' });
    expect(acks()).toHaveLength(2);
  });

  it('gets a lock published while it was stopped when it starts again from the state file', async () => {
    const first = await enrol();
    await first.start();
    await first.stop();
    const lock = createCommandMessage({ name: 'lock' });

    // QoS 1 to the persistent session of a disconnected device: the broker keeps it.
    await broker.publishCommand(first.deviceId, lock);
    const second = await load();
    await second.start();
    await second.waitForLockState(true);

    expect((await readStateFile(statePath)).isLocked).toBe(true);
    await waitFor(() =>
      acksOf(second.deviceId, lock.id).some((ack) => ack.status === 'done') ? true : undefined,
    );
  });

  it('keeps its state and applied ids across a restart', async () => {
    const first = await enrol();
    await first.start();
    const lock = createCommandMessage({ name: 'lock' });
    await broker.publishCommand(first.deviceId, lock);
    await first.waitForLockState(true);
    await first.stop();

    const second = await load();
    expect(second.isLocked).toBe(true);
    expect(second.state.policy?.version).toBe(1);
    await second.start();
    expect(hellosOf(second.deviceId).at(-1)?.event.state).toMatchObject({ isLocked: true, policyVersion: 1 });

    // Should the server send the same version again, nothing is applied twice.
    const policies: unknown[] = [];
    second.on('policy', (policy) => policies.push(policy));
    await broker.server.publishPolicy(second.deviceId);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(policies).toEqual([]);
    expect(second.isLocked).toBe(true);
  });

  it('works over MQTT over WebSocket at /mqtt, as the API server serves it', async () => {
    await enrolServer.close();
    await broker.close();
    broker = await startTestBroker({ transport: 'ws' });
    enrolServer = await startEnrolServer(broker);
    const agent = await enrol();
    expect(agent.state.credentials.mqttUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/mqtt$/);

    await agent.start();
    await broker.publishCommand(agent.deviceId, createCommandMessage({ name: 'lock' }));
    await agent.waitForLockState(true);

    expect(hellosOf(agent.deviceId)).toHaveLength(1);
  });

  it('refuses to start when the broker rejects its secret', async () => {
    const agent = await enrol();
    broker.devices.set(agent.deviceId, 'a different secret');

    let reconnects = 0;
    agent.on('reconnecting', () => {
      reconnects += 1;
    });

    await expect(agent.start()).rejects.toThrow(/broker refused device/);
    // Retrying with the same secret cannot help: it gives up instead of retrying every second.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(reconnects).toBe(0);
  });
});

describe('DeviceAgent commands of the catalogue', () => {
  it('says hello with its full state: lock, controls, SIMs and agent version', async () => {
    const agent = await enrol();

    await agent.start();

    const hello = hellosOf(agent.deviceId)[0]?.event;
    expect(hello?.state).toEqual({
      isLocked: false,
      policyVersion: 0,
      agentVersion: AGENT_VERSION,
      controls: { lock: false },
      sims: agent.state.sims,
    });
    expect(agent.state.sims).toHaveLength(2);
  });

  it('turns a toggle on and off, reporting controls in the done ack and saving them', async () => {
    const agent = await enrol();
    await agent.start();

    const on = await send(agent, 'camera_lock');
    expect(on.outcome).toMatchObject({ result: 'done', state: { controls: { camera_lock: true } } });
    expect((await finalAckOf(agent.deviceId, on.id)).state.controls).toEqual({
      lock: false,
      camera_lock: true,
    });
    expect((await readStateFile(statePath)).controls).toEqual({ camera_lock: true });

    const off = await send(agent, 'camera_unlock');
    expect((await finalAckOf(agent.deviceId, off.id)).state.controls).toMatchObject({ camera_lock: false });
    await send(agent, 'SIMTRACKINGON');
    await send(agent, 'lock');
    expect(agent.reportedState.controls).toEqual({
      lock: true,
      camera_lock: false,
      sim_tracking_online: true,
    });
  });

  it('keeps the wallpaper, lost mode and app lists in its state until the off command', async () => {
    const agent = await enrol();
    await agent.start();

    await send(agent, 'set_wallpaper', {
      text: 'EMI due on 5 March',
      imageUrl: 'https://cdn.example.com/w.png',
    });
    await send(agent, 'lost_mode_on', { message: 'Financed phone: call us', phone: '+919876543210' });
    await send(agent, 'antitheft_lost_mode_on', { message: 'Please return' });
    await send(agent, 'app_lock', { packages: ['com.whatsapp', 'com.whatsapp', 'com.instagram.android'] });
    await send(agent, 'app_hide', { packages: ['com.android.chrome'] });

    expect(agent.state).toMatchObject({
      wallpaper: { text: 'EMI due on 5 March', imageUrl: 'https://cdn.example.com/w.png' },
      lostMode: { message: 'Financed phone: call us', phone: '+919876543210' },
      antitheftLostMode: { message: 'Please return' },
      lockedApps: ['com.whatsapp', 'com.instagram.android'],
      hiddenApps: ['com.android.chrome'],
      controls: {
        wallpaper: true,
        lost_mode: true,
        antitheft_lost_mode: true,
        app_lock: true,
        app_hide_unhide: true,
      },
    });
    expect((await readStateFile(statePath)).lockedApps).toEqual(['com.whatsapp', 'com.instagram.android']);

    for (const name of [
      'remove_wallpaper',
      'lost_mode_off',
      'antitheft_lost_mode_off',
      'app_unlock',
      'app_unhide',
    ]) {
      await send(agent, name);
    }
    expect(agent.state).toMatchObject({
      wallpaper: null,
      lostMode: null,
      antitheftLostMode: null,
      lockedApps: [],
      hiddenApps: [],
      controls: {
        wallpaper: false,
        lost_mode: false,
        antitheft_lost_mode: false,
        app_lock: false,
        app_hide_unhide: false,
      },
    });
  });

  it('fails an on command with invalid args: not applied, not remembered', async () => {
    const agent = await enrol();
    await agent.start();

    const noText = await send(agent, 'set_wallpaper', {});
    const badPackage = await send(agent, 'app_lock', { packages: ['not a package'] });
    const httpImage = await send(agent, 'set_wallpaper', { imageUrl: 'http://example.com/w.png' });

    expect(noText.outcome).toMatchObject({
      result: 'failed',
      error: 'invalid args: text: Give the wallpaper text or an https image URL',
    });
    expect(badPackage.outcome.error).toBe('invalid args: packages.0: Not an Android package name');
    expect(httpImage.outcome.error).toMatch(/^invalid args: imageUrl: /);
    expect((await finalAckOf(agent.deviceId, noText.id)).status).toBe('failed');
    expect(agent.state).toMatchObject({
      controls: {},
      wallpaper: null,
      lockedApps: [],
      appliedCommandIds: [],
    });

    // Not remembered: the same id is evaluated again (and fails again), not "already applied".
    const again = await send(agent, 'set_wallpaper', {}, noText.id);
    expect(again.outcome.result).toBe('failed');
  });

  it('answers location with a fix of its position, and sim_info with its SIMs', async () => {
    const agent = await enrol();
    await agent.start();

    const first = await send(agent, 'location');
    const fix = ZLocationFix.parse((await finalAckOf(agent.deviceId, first.id)).result);
    expect(fix).toMatchObject({ latitude: '19.076000', longitude: '72.877700', accuracyM: 25 });
    expect(first.outcome.output).toEqual(fix);

    await agent.setPosition({ latitude: 28.6139, longitude: 77.209 });
    const second = await send(agent, 'location');
    expect(second.outcome.output).toMatchObject({
      latitude: '28.613900',
      longitude: '77.209000',
      accuracyM: 25,
    });
    await expect(agent.setPosition({ latitude: 91, longitude: 0 })).rejects.toThrow(
      /invalid position: latitude/,
    );

    const simInfo = await send(agent, 'sim_info');
    expect((await finalAckOf(agent.deviceId, simInfo.id)).result).toEqual({ sims: agent.state.sims });

    // A re-delivered query changes nothing but still answers, in case the first done ack was lost.
    const again = await send(agent, 'location', {}, second.id);
    expect(again.outcome).toMatchObject({ result: 'duplicate', output: { latitude: '28.613900' } });
  });

  it('counts reboots, keeps the last EMI alert and records the other actions', async () => {
    const agent = await enrol();
    await agent.start();
    const alert = { amountPaise: 250_000, dueDate: '2026-03-05', overduePaise: 1000, message: 'Due soon' };

    await send(agent, 'reboot');
    await send(agent, 'reboot');
    await send(agent, 'emi_alert', alert);
    for (const name of ['miui_permission', 'uninstall_antitheft', 'install_apple_onemodapp']) {
      expect((await send(agent, name)).outcome.result).toBe('done');
    }
    const badAlert = await send(agent, 'emi_alert', { amountPaise: -1 });

    expect(badAlert.outcome.result).toBe('failed');
    const saved = await readStateFile(statePath);
    expect(saved).toMatchObject({ bootCount: 2, lastAlert: alert, isLocked: false });
    expect(Object.keys(saved.actionsAppliedAt).sort()).toEqual([
      'emi_alert',
      'install_apple_onemodapp',
      'miui_permission',
      'reboot',
      'uninstall_antitheft',
    ]);
  });

  it('acks uninstall done, then stops for good', async () => {
    const agent = await enrol();
    await agent.start();
    const uninstalled = new Promise<void>((resolve) => agent.once('uninstalled', resolve));

    const { id, outcome } = await send(agent, 'uninstall');
    expect(outcome.result).toBe('done');
    await uninstalled;

    expect(agent.isConnected).toBe(false);
    const done = await finalAckOf(agent.deviceId, id);
    expect(done.status).toBe('done');
    // Where the phone was when the agent went, for the server's location history.
    expect(ZLocationFix.parse(done.result?.location)).toMatchObject({ latitude: '19.076000' });
    expect((await readStateFile(statePath)).uninstalled).toBe(true);
    await expect(agent.start()).rejects.toBeInstanceOf(DeviceUninstalledError);
    const again = await load();
    await expect(again.start()).rejects.toThrow(/was uninstalled/);
  });
});

describe('DeviceAgent reports', () => {
  const SIMS: TSimSlot[] = [
    { slot: 2, iccid: '89914509000012345678', operator: 'Airtel' },
    { slot: 1, iccid: null, operator: null },
  ];

  it('reports a SIM change at once while connected, with the new SIMs in its state', async () => {
    const agent = await enrol();
    await agent.start();

    expect(await agent.setSims(SIMS)).toBe(true);

    const [report] = reportsOf(agent.deviceId, 'sim');
    const sorted = [SIMS[1], SIMS[0]];
    expect(report).toMatchObject({
      type: 'report',
      kind: 'sim',
      data: { sims: sorted },
      state: { sims: sorted },
    });
    expect(await readStateFile(statePath)).toMatchObject({ sims: sorted, isSimReportPending: false });
    await expect(agent.setSims([SIMS[0]!, SIMS[0]!])).rejects.toThrow(/slot 2 is given twice/);
    await expect(agent.setSims([{ slot: 1, iccid: '123', operator: null }])).rejects.toThrow(
      /^invalid SIM slots: slot 1 iccid: /,
    );
  });

  it('reports a SIM change made while stopped after the next hello, also after a restart', async () => {
    const first = await enrol();

    expect(await first.setSims(SIMS)).toBe(false);
    expect((await readStateFile(statePath)).isSimReportPending).toBe(true);
    const second = await load();
    await second.start();

    await waitFor(() => reportsOf(second.deviceId, 'sim')[0], { what: 'sim report' });
    const types = eventsOf(second.deviceId).map(({ event }) => event.type);
    expect(types).toEqual(['hello', 'report']);
    await waitFor(() => (second.state.isSimReportPending ? undefined : true), { what: 'pending cleared' });
  });

  it('reports a location on demand, and refuses when not connected', async () => {
    const agent = await enrol();
    await expect(agent.reportLocation()).rejects.toThrow(/not connected/);
    await agent.start();

    const fix = await agent.reportLocation();
    const given = { latitude: '12.971600', longitude: '77.594600', at: new Date().toISOString() };
    await agent.reportLocation(given);

    expect(reportsOf(agent.deviceId, 'location').map((report) => report.data)).toEqual([fix, given]);
    await expect(agent.reportLocation({ latitude: 1 } as never)).rejects.toThrow();
  });

  it('reports its position every interval while tracking is on', async () => {
    await enrol();
    const agent = await load({ trackingIntervalMs: 50 });
    await agent.start();

    await send(agent, 'tracking_on');
    await waitFor(() => (reportsOf(agent.deviceId, 'location').length >= 3 ? true : undefined), {
      what: 'three location reports',
    });
    const reports = reportsOf(agent.deviceId, 'location');
    expect(reports.every((report) => report.state.controls?.tracking === true)).toBe(true);
    await send(agent, 'tracking_off');
    const count = reportsOf(agent.deviceId, 'location').length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reportsOf(agent.deviceId, 'location')).toHaveLength(count);
  });

  it('goes on tracking after a restart when tracking was on', async () => {
    const first = await enrol();
    await first.start();
    await send(first, 'tracking_on');
    await first.stop();
    const before = reportsOf(first.deviceId, 'location').length;

    const second = await load({ trackingIntervalMs: 50 });
    await second.start();

    await waitFor(() => (reportsOf(second.deviceId, 'location').length > before ? true : undefined), {
      what: 'a location report after restart',
    });
  });
});

/** The code the server issues for the agent's challenge and `action`, `slotsAgo` slots back. */
const codeFor = async (
  agent: DeviceAgent,
  action: TOfflineCodeAction = 'unlock',
  { challenge = agent.offlineChallenge, slotsAgo = 0 } = {},
) =>
  offlineCodeFor({
    keyHex: await offlineCodeKey(agent.state.credentials.deviceSecret),
    deviceId: agent.deviceId,
    challenge,
    action,
    slot: offlineCodeSlot(Date.now()) - slotsAgo,
  });

/** A code that is surely wrong: `code` with its last digit changed. */
const wrongCode = (code: string) => `${code.slice(0, -1)}${(Number(code.at(-1)) + 1) % 10}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('DeviceAgent offline codes', () => {
  it('accepts a valid code with no network: applies it, burns the challenge, saves, and reports it after the next hello', async () => {
    const first = await enrol();
    await first.start();
    await send(first, 'lock');
    await first.stop();
    const challenge = first.offlineChallenge;
    expect(challenge).toMatch(/^\d{6}$/);
    const code = await codeFor(first, 'unlock');
    const offline: TOfflineEvent[] = [];
    first.on('offline', (event) => offline.push(event));

    const outcome = await first.enterOfflineCode(code);

    expect(outcome).toEqual({
      result: 'accepted',
      action: 'unlock',
      challenge: expect.stringMatching(/^\d{6}$/),
      triesLeft: OFFLINE_CODE_MAX_WRONG_TRIES,
      isLocked: false,
      isReported: false,
    });
    expect(outcome.challenge).not.toBe(challenge);
    expect(offline).toEqual([
      expect.objectContaining({ source: 'offline_code', action: 'unlock', challenge }),
    ]);
    const saved = await readStateFile(statePath);
    expect(saved).toMatchObject({
      isLocked: false,
      controls: { lock: false },
      offlineChallenge: outcome.challenge,
      offlineWrongTries: 0,
      offlineEvents: [{ source: 'offline_code', action: 'unlock', challenge, isReportPending: true }],
    });
    // Single use: the challenge it answered is gone.
    expect((await first.enterOfflineCode(code)).result).toBe('wrong');

    const before = eventsOf(first.deviceId).length;
    const second = await load();
    await second.start();

    const report = await waitFor(() => reportsOf(second.deviceId, 'offline_lock')[0], {
      what: 'offline_lock report',
    });
    expect(report).toMatchObject({
      data: { action: 'unlock', challenge, at: saved.offlineEvents[0]!.at, source: 'offline_code' },
      state: { isLocked: false, controls: { lock: false } },
    });
    expect(
      eventsOf(second.deviceId)
        .slice(before)
        .map(({ event }) => event.type),
    ).toEqual(['hello', 'report']);
    await waitFor(
      () => (second.state.offlineEvents.every((event) => !event.isReportPending) ? true : undefined),
      { what: 'report marked sent' },
    );
    expect((await readStateFile(statePath)).offlineEvents[0]?.isReportPending).toBe(false);
  });

  it('reports an accepted code at once while connected, and locks with a lock code', async () => {
    const agent = await enrol();
    await agent.start();
    const states: boolean[] = [];
    agent.on('state', (state) => states.push(state.isLocked));
    const challenge = agent.offlineChallenge;

    const outcome = await agent.enterOfflineCode(await codeFor(agent, 'lock'), 'lock');

    expect(outcome).toMatchObject({ result: 'accepted', action: 'lock', isLocked: true, isReported: true });
    expect(states).toEqual([true]);
    expect(reportsOf(agent.deviceId, 'offline_lock')).toEqual([
      expect.objectContaining({
        data: { action: 'lock', challenge, at: expect.any(String), source: 'offline_code' },
        state: expect.objectContaining({ isLocked: true }),
      }),
    ]);
    // A code for one action does not do the other.
    const unlockAsLock = await agent.enterOfflineCode(await codeFor(agent, 'unlock'), 'lock');
    expect(unlockAsLock.result).toBe('wrong');
    // Applied like the command: an unlock command undoes it as usual.
    await send(agent, 'unlock');
    expect(agent.isLocked).toBe(false);
  });

  it('accepts a code of the previous slot, not an older one', async () => {
    const agent = await enrol();

    expect((await agent.enterOfflineCode(await codeFor(agent, 'lock', { slotsAgo: 2 }), 'lock')).result).toBe(
      'wrong',
    );
    expect((await agent.enterOfflineCode(await codeFor(agent, 'lock', { slotsAgo: 1 }), 'lock')).result).toBe(
      'accepted',
    );
  });

  it('counts wrong codes across restarts and changes the challenge after the last wrong try', async () => {
    const first = await enrol();
    const challenge = first.offlineChallenge;
    const right = await codeFor(first, 'unlock');

    for (let tries = 1; tries <= 3; tries += 1) {
      expect(await first.enterOfflineCode(wrongCode(right))).toMatchObject({
        result: 'wrong',
        challenge,
        triesLeft: OFFLINE_CODE_MAX_WRONG_TRIES - tries,
      });
    }
    // Not codes at all: refused without counting.
    await expect(first.enterOfflineCode('1234')).rejects.toThrow(/8 digits/);
    await expect(first.enterOfflineCode(right, 'wipe' as never)).rejects.toThrow(/unlock or lock/);

    const second = await load();
    expect(second.offlineTriesLeft).toBe(2);
    expect((await second.enterOfflineCode(wrongCode(right))).result).toBe('wrong');
    const changed = await second.enterOfflineCode(wrongCode(right));

    expect(changed).toMatchObject({ result: 'challenge_changed', triesLeft: OFFLINE_CODE_MAX_WRONG_TRIES });
    expect(changed.challenge).not.toBe(challenge);
    expect((await readStateFile(statePath)).offlineChallenge).toBe(changed.challenge);
    // The code for the replaced challenge is no good any more; spaces and dashes are ignored.
    expect((await second.enterOfflineCode(right)).result).toBe('wrong');
    const fresh = await codeFor(second, 'unlock');
    expect((await second.enterOfflineCode(`${fresh.slice(0, 4)} ${fresh.slice(4)}`)).result).toBe('accepted');
    expect(reportsOf(second.deviceId, 'offline_lock')).toEqual([]);
  });

  it('a running agent adopts a code another process entered in its state file, and ignores older files', async () => {
    const running = await enrol();
    await running.start();
    await send(running, 'lock');
    const stale = await readStateFile(statePath);

    const other = await load();
    expect((await other.enterOfflineCode(await codeFor(other, 'unlock'))).result).toBe('accepted');
    const offline: TOfflineEvent[] = [];
    running.on('offline', (event) => offline.push(event));

    expect(await running.adoptOfflineState(stale)).toBe(false);
    expect(await running.adoptOfflineState(await readStateFile(statePath))).toBe(true);

    expect(running.isLocked).toBe(false);
    expect(running.offlineChallenge).toBe(other.offlineChallenge);
    expect(offline).toHaveLength(1);
    await waitFor(() => reportsOf(running.deviceId, 'offline_lock')[0], { what: 'offline_lock report' });
    expect(reportsOf(running.deviceId, 'offline_lock')[0]?.state.isLocked).toBe(false);
    // Its own save is not newer than itself.
    expect(await running.adoptOfflineState(await readStateFile(statePath))).toBe(false);
  });
});

describe('DeviceAgent offline limit', () => {
  /** Takes the device offline: the broker refuses it (CONNACK 3, retried) and drops it. */
  const goOffline = (agent: DeviceAgent) => {
    broker.unavailable.add(agent.deviceId);
    broker.dropConnection(agent.deviceId);
  };

  it('does not lock itself once the broker refused its credentials (e.g. released)', async () => {
    const enrolled = await enrol();
    broker.devices.set(enrolled.deviceId, 'a different secret');
    // Long enough for the refusal to come first on a busy machine; the sleep outlasts it.
    const agent = await load({ offlineLockAfterMs: 1_000 });

    await expect(agent.start()).rejects.toThrow(/broker refused device/);
    await sleep(1_300);

    expect(agent.isLocked).toBe(false);
    expect((await readStateFile(statePath)).offlineEvents).toEqual([]);

    // Restarted long past its limit, it remembers the refusal and still does not lock at boot.
    const restarted = await load({ offlineLockAfterMs: 1 });
    expect(restarted.state.refusedAt).toEqual(expect.any(String));
    await expect(restarted.start()).rejects.toThrow(/broker refused device/);
    await sleep(300);
    expect(restarted.isLocked).toBe(false);
    expect((await readStateFile(statePath)).offlineEvents).toEqual([]);
  });

  it('refuses a limit that is not a positive number', async () => {
    await enrol();
    await expect(load({ offlineLockAfterMs: 0 })).rejects.toThrow(/offlineLockAfterMs/);
    expect((await load({ offlineLockAfterMs: null })).offlineLockAfterMs).toBeNull();
  });

  it('stays unlocked while connected, locks itself after the limit without a check-in, and reports it after the next hello', async () => {
    await enrol();
    // The limit counts from enrolment until the first hello: long enough for that hello on a busy
    // machine; the sleep outlasts it while connected.
    const agent = await load({ offlineLockAfterMs: 1_000 });
    const enrolledAt = agent.lastCheckInAt;
    await agent.start();
    await waitFor(() => (agent.lastCheckInAt !== enrolledAt ? true : undefined), { what: 'check-in saved' });
    await sleep(1_300);
    expect(agent.isLocked).toBe(false);

    const offline = new Promise<TOfflineEvent>((resolve) => agent.once('offline', resolve));
    goOffline(agent);
    const event = await offline;

    expect(agent.isLocked).toBe(true);
    const saved = await readStateFile(statePath);
    expect(saved).toMatchObject({ isLocked: true, controls: { lock: true } });
    expect(saved.offlineEvents).toEqual([
      {
        ...event,
        source: 'offline_limit',
        action: 'lock',
        lastCheckInAt: saved.lastCheckInAt,
        isReportPending: true,
      },
    ]);
    // The check-in is when the connection that had said hello closed, the limit after it.
    expect(Date.parse(event.at) - Date.parse(saved.lastCheckInAt)).toBeGreaterThanOrEqual(1_000);
    expect(reportsOf(agent.deviceId, 'offline_lock')).toEqual([]);

    const before = eventsOf(agent.deviceId).length;
    broker.unavailable.delete(agent.deviceId);
    const report = await waitFor(() => reportsOf(agent.deviceId, 'offline_lock')[0], {
      what: 'offline_lock report after reconnecting',
    });
    expect(report).toMatchObject({
      data: { action: 'lock', source: 'offline_limit', lastCheckInAt: saved.lastCheckInAt, at: event.at },
      state: { isLocked: true },
    });
    expect(eventsOf(agent.deviceId)[before]?.event.type).toBe('hello');
    // Checked in again: no second lock while connected, even after an unlock.
    await send(agent, 'unlock');
    await sleep(1_300);
    expect(agent.isLocked).toBe(false);
    expect(reportsOf(agent.deviceId, 'offline_lock')).toHaveLength(1);
  });

  it('locks at start when the limit ran out while it was off, and an offline unlock code restarts the clock', async () => {
    const enrolled = await enrol();
    broker.unavailable.add(enrolled.deviceId);
    // Last check-in: enrolment, long ago for a 1 s limit.
    await sleep(1_050);
    const agent = await load({ offlineLockAfterMs: 1_000 });
    const locked = new Promise<TOfflineEvent>((resolve) => agent.once('offline', resolve));
    agent.start().catch(() => undefined);

    expect(await locked).toMatchObject({
      source: 'offline_limit',
      lastCheckInAt: agent.state.credentials.enrolledAt,
    });
    expect(agent.isLocked).toBe(true);

    const unlocked = await agent.enterOfflineCode(await codeFor(agent, 'unlock'));
    expect(unlocked).toMatchObject({ result: 'accepted', isLocked: false, isReported: false });
    const relocked = new Promise<TOfflineEvent>((resolve) => agent.once('offline', resolve));
    // The clock restarted at the code: well within the limit, even on a busy machine.
    await sleep(300);
    expect(agent.isLocked).toBe(false);
    expect(await relocked).toMatchObject({ source: 'offline_limit', action: 'lock' });
    expect(agent.isLocked).toBe(true);

    broker.unavailable.delete(agent.deviceId);
    await waitFor(() => (reportsOf(agent.deviceId, 'offline_lock').length === 3 ? true : undefined), {
      what: 'three offline_lock reports',
    });
    expect(reportsOf(agent.deviceId, 'offline_lock').map((report) => report.data.source)).toEqual([
      'offline_limit',
      'offline_code',
      'offline_limit',
    ]);
    // Sent now, with the current state (locked), in the order they happened.
    expect(reportsOf(agent.deviceId, 'offline_lock').every((report) => report.state.isLocked)).toBe(true);
  });
});
