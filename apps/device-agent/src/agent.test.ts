import { readFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cmdTopic, evtTopic, type TAckEvent } from '@kisht/domain/devices/protocol.schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeviceAgent, EnrolmentError, type TCommandOutcome } from './agent';
import { readStateFile } from './state';
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
const load = async () => {
  const agent = await DeviceAgent.load({ statePath });
  agents.push(agent);
  return agent;
};

const eventsOf = (deviceId: string) => broker.events.filter((entry) => entry.deviceId === deviceId);
const hellosOf = (deviceId: string) => eventsOf(deviceId).filter((entry) => entry.event.type === 'hello');
const acksOf = (deviceId: string, commandId: string): TAckEvent[] =>
  eventsOf(deviceId).flatMap(({ event }) =>
    event.type === 'ack' && event.commandId === commandId ? [event] : [],
  );

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
    });

    await expect(attempt).rejects.toMatchObject({
      code: 'NETWORK',
      message: expect.stringContaining('cannot reach'),
    });
  });
});

describe('DeviceAgent session', () => {
  it('says hello with its state when it connects', async () => {
    const agent = await enrol();

    await agent.start();

    expect(agent.isConnected).toBe(true);
    const [hello] = hellosOf(agent.deviceId);
    expect(hello?.event).toMatchObject({ v: 1, type: 'hello', state: { isLocked: false } });
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
    expect(saved.appliedCommandIds).toEqual([lock.id]);
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

  it('applies a command id once: a redelivery is re-acked done and changes nothing', async () => {
    const agent = await enrol();
    await agent.start();
    const lock = createCommandMessage({ name: 'lock' });
    const unlock = createCommandMessage({ name: 'unlock' });

    await broker.publishCommand(agent.deviceId, lock);
    await agent.waitForLockState(true);
    await broker.publishCommand(agent.deviceId, unlock);
    await agent.waitForLockState(false);
    const redelivered = nextOutcome(agent);
    await broker.publishCommand(agent.deviceId, lock);

    expect(await redelivered).toMatchObject({ id: lock.id, result: 'duplicate', state: { isLocked: false } });
    expect(agent.isLocked).toBe(false);
    const acks = await waitFor(() => {
      const found = acksOf(agent.deviceId, lock.id);
      return found.length === 3 ? found : undefined;
    });
    expect(acks.map((ack) => ack.status)).toEqual(['received', 'done', 'done']);
    expect(acks[2]?.state.isLocked).toBe(false);
    expect((await readStateFile(statePath)).appliedCommandIds).toEqual([lock.id, unlock.id]);
  });

  it('acks failed for a command it does not support yet', async () => {
    const agent = await enrol();
    await agent.start();
    const reboot = createCommandMessage({ name: 'reboot' });
    const outcome = nextOutcome(agent);

    await broker.publishCommand(agent.deviceId, reboot);

    expect(await outcome).toMatchObject({ result: 'failed', error: 'unsupported command' });
    const acks = await waitFor(() => {
      const found = acksOf(agent.deviceId, reboot.id);
      return found.length === 2 ? found : undefined;
    });
    expect(acks.map((ack) => [ack.status, ack.error])).toEqual([
      ['received', undefined],
      ['failed', 'unsupported command'],
    ]);
  });

  it('ignores invalid command messages and keeps working', async () => {
    const agent = await enrol();
    await agent.start();
    const invalid: string[] = [];
    agent.on('invalidMessage', ({ reason }) => invalid.push(reason));

    await broker.publishCommand(agent.deviceId, 'not json');
    await broker.publishCommand(agent.deviceId, JSON.stringify({ v: 1, id: 'nope', name: 'lock' }));
    await broker.publishCommand(agent.deviceId, createCommandMessage({ name: 'lock' }));
    await agent.waitForLockState(true);

    expect(invalid).toHaveLength(2);
    expect(invalid[0]).toBe('not JSON');
    expect(invalid[1]).toMatch(/id/);
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
    expect(second.state.appliedCommandIds).toEqual([lock.id]);
    await second.start();
    expect(hellosOf(second.deviceId).at(-1)?.event.state.isLocked).toBe(true);

    // Should the server send it again (say its done ack was lost), it is not applied twice.
    const outcome = nextOutcome(second);
    await broker.publishCommand(second.deviceId, lock);
    expect((await outcome).result).toBe('duplicate');
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
