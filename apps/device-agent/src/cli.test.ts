import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { offlineCodeFor, offlineCodeKey, offlineCodeSlot } from '@kisht/domain/devices/offline-code';
import { cmdTopic, evtTopic, type TReportEvent } from '@kisht/domain/devices/protocol.schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from './cli';
import { createAgentState, readStateFile, type TAgentStateFile, writeStateFile } from './state';
import {
  createCommandMessage,
  createProvisioningPayload,
  startEnrolServer,
  startTestBroker,
  type TEnrolServer,
  TEST_IMEI_1,
  TEST_IMEI_2,
  type TTestBroker,
  waitFor,
} from './test-support';

const BIN = fileURLToPath(new URL('../bin/kisht-agent.mjs', import.meta.url));

/** One CLI run: its output lines, its exit code, and how to stop it (SIGTERM for a process). */
type TRun = {
  stdout: string[];
  stderr: string[];
  exit: Promise<number>;
  /** Stops `enrol` or `run` as SIGINT/SIGTERM does. */
  stop: () => void;
};

let dir: string;
let broker: TTestBroker;
let enrolServer: TEnrolServer;
const children: ChildProcessWithoutNullStreams[] = [];
const stops: AbortController[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kisht-cli-'));
  broker = await startTestBroker();
  enrolServer = await startEnrolServer(broker);
});

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const stop of stops.splice(0)) stop.abort();
  await enrolServer.close();
  await broker.close();
  await rm(dir, { recursive: true, force: true });
});

/**
 * Runs the CLI's `main` in this process with the temp directory as its working directory: the
 * same code as the bin without a process per case (issue 17's suite time). `stop` stands in for
 * the signal.
 */
const run = (args: string[]): TRun => {
  const stop = new AbortController();
  stops.push(stop);
  const stdout: string[] = [];
  const stderr: string[] = [];
  const exit = main(
    args,
    { out: (line) => stdout.push(line), err: (line) => stderr.push(line) },
    {
      stop: stop.signal,
      cwd: dir,
    },
  );
  return { stdout, stderr, exit, stop: () => stop.abort() };
};

/** Runs the real bin (tsx and all) in the temp directory, collecting output lines; `stop` sends SIGTERM. */
const runProcess = (args: string[]): TRun => {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir });
  children.push(child);
  const collect = (stream: NodeJS.ReadableStream, lines: string[]) => {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      lines.push(...parts);
    });
  };
  const stdout: string[] = [];
  const stderr: string[] = [];
  collect(child.stdout, stdout);
  collect(child.stderr, stderr);
  const exit = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  return { stdout, stderr, exit, stop: () => child.kill('SIGTERM') };
};

const waitForLine = (lines: string[], line: string | RegExp) =>
  waitFor(
    () => lines.find((candidate) => (typeof line === 'string' ? candidate === line : line.test(candidate))),
    {
      timeoutMs: 15_000,
      what: `output line ${line}`,
    },
  );

/**
 * Waits until the state file at `statePath` holds what `isSaved` looks for: in-process runs go on
 * at once, where a new process took a second to start, so a running agent's save may still be on
 * its way.
 */
const untilSaved = async (statePath: string, isSaved: (state: TAgentStateFile) => boolean, what: string) => {
  for (let tries = 0; !isSaved(await readStateFile(statePath)); tries += 1) {
    if (tries > 1000) throw new Error(`the running agent never saved ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

/** Writes a state file for a new device the broker knows (as enrol would), without running the CLI. */
const createDevice = async (statePath: string) => {
  const deviceId = randomUUID();
  const deviceSecret = randomUUID();
  broker.devices.set(deviceId, deviceSecret);
  await writeStateFile(
    statePath,
    createAgentState({
      deviceId,
      deviceSecret,
      mqttUrl: broker.url,
      cmdTopic: cmdTopic(deviceId),
      evtTopic: evtTopic(deviceId),
      serverUrl: enrolServer.url,
      imei1: TEST_IMEI_1,
      imei2: TEST_IMEI_2,
      enrolledAt: new Date().toISOString(),
      serverKey: broker.server.serverKey,
    }),
  );
  return deviceId;
};

const reportsOf = (deviceId: string, kind: TReportEvent['kind']) =>
  broker.events.flatMap(({ deviceId: from, event }) =>
    from === deviceId && event.type === 'report' && event.kind === kind ? [event] : [],
  );

describe('kisht-agent CLI', () => {
  it('enrols, stays connected, applies a lock, stops on SIGTERM, and status shows it locked', async () => {
    const qr = JSON.stringify(createProvisioningPayload({ serverUrl: enrolServer.url }));
    const agent = runProcess(['enrol', '--qr', qr, '--imei1', TEST_IMEI_1, '--imei2', TEST_IMEI_2]);

    const enrolled = await waitForLine(agent.stdout, /^enrolled: device \S+ \(IMEI \d{15}\)$/);
    const deviceId = /^enrolled: device (\S+) /.exec(enrolled)![1]!;
    expect(enrolled).toBe(`enrolled: device ${deviceId} (IMEI ${TEST_IMEI_1})`);
    await waitForLine(agent.stdout, `connected to ${broker.url}`);

    const lock = createCommandMessage({ name: 'lock' });
    await broker.publishCommand(deviceId, lock);
    await waitForLine(agent.stdout, 'state: LOCKED');
    agent.stop();

    expect(await agent.exit).toBe(0);
    expect(agent.stdout).toEqual([
      `enrolled: device ${deviceId} (IMEI ${TEST_IMEI_1})`,
      'state: UNLOCKED',
      `connected to ${broker.url}`,
      `command lock ${lock.id} applied`,
      'state: LOCKED',
      'disconnected',
      'stopped',
    ]);

    const status = run(['status']);
    expect(await status.exit).toBe(0);
    expect(status.stdout).toContain(`device: ${deviceId}`);
    expect(status.stdout).toContain('state: LOCKED');
    // What the locked screen shows: why, whom to call, the challenge, emergency calls.
    expect(status.stdout.find((line) => line.startsWith('lock screen:'))).toMatch(
      /^lock screen: This phone is locked by your retailer\.; Call Ravi Mobiles on \+919876543210\.; Offline code challenge: \d{6}; Emergency calls: allowed$/,
    );
    expect(status.stdout).toContain('Emergency calls: allowed');
  }, 30_000);

  it('status shows the lock screen of the policy: retailer, amount overdue, how to pay, emergency calls allowed', async () => {
    const statePath = join(dir, 'locked.json');
    const deviceId = await createDevice(statePath);
    broker.server.lockScreen = {
      reason: 'overdue_emi',
      retailerName: 'Ravi Mobiles',
      retailerPhone: '+919876543210',
      overduePaise: 208_000,
      howToPay: 'UPI ravimobiles@okaxis\nShop 4, Andheri West',
      emergencyCalls: true,
    };
    const agent = run(['run', '--state', statePath]);
    await waitForLine(agent.stdout, `connected to ${broker.url}`);
    await broker.publishCommand(deviceId, createCommandMessage({ name: 'lock' }));
    await waitForLine(agent.stdout, 'state: LOCKED');
    agent.stop();
    expect(await agent.exit).toBe(0);

    const status = run(['status', '--state', statePath]);
    expect(await status.exit).toBe(0);
    expect(status.stdout.find((line) => line.startsWith('lock screen:'))).toMatch(
      /^lock screen: This phone is locked because an EMI is overdue\.; Call Ravi Mobiles on \+919876543210\.; Overdue: ₹2,080\.00; How to pay: UPI ravimobiles@okaxis \/ Shop 4, Andheri West; Offline code challenge: \d{6}; Emergency calls: allowed$/,
    );
    expect(status.stdout).toContain('Emergency calls: allowed');
  }, 30_000);

  it('run starts from the saved state and gets a command sent while it was off', async () => {
    const qr = JSON.stringify(createProvisioningPayload({ serverUrl: enrolServer.url }));
    const statePath = join(dir, 'phone-1.json');
    const first = run([
      'enrol',
      '--qr',
      qr,
      '--imei1',
      TEST_IMEI_1,
      '--imei2',
      TEST_IMEI_2,
      '--state',
      statePath,
    ]);
    const enrolled = await waitForLine(first.stdout, /^enrolled: device /);
    const deviceId = /^enrolled: device (\S+) /.exec(enrolled)![1]!;
    await waitForLine(first.stdout, /^connected to /);
    first.stop();
    expect(await first.exit).toBe(0);

    const lock = createCommandMessage({ name: 'lock' });
    await broker.publishCommand(deviceId, lock);
    const second = run(['run', '--state', statePath]);

    await waitForLine(second.stdout, 'state: LOCKED');
    expect(second.stdout.slice(0, 4)).toEqual([
      'state: UNLOCKED',
      `connected to ${broker.url}`,
      `command lock ${lock.id} applied`,
      'state: LOCKED',
    ]);
    second.stop();
    expect(await second.exit).toBe(0);
  }, 30_000);

  it('refuses a second run on a state file a running agent holds, and runs again once it stopped (issue 27)', async () => {
    const qr = JSON.stringify(createProvisioningPayload({ serverUrl: enrolServer.url }));
    const statePath = join(dir, 'phone-twice.json');
    const first = run([
      'enrol',
      '--qr',
      qr,
      '--imei1',
      TEST_IMEI_1,
      '--imei2',
      TEST_IMEI_2,
      '--state',
      statePath,
    ]);
    await waitForLine(first.stdout, /^connected to /);

    const second = run(['run', '--state', statePath]);
    expect(await second.exit).toBe(1);
    expect(second.stderr.join('\n')).toContain(
      `another kisht-agent is running on ${statePath}: stop it first`,
    );
    expect(second.stdout.filter((line) => line.startsWith('connected to'))).toEqual([]);

    first.stop();
    expect(await first.exit).toBe(0);
    const third = run(['run', '--state', statePath]);
    await waitForLine(third.stdout, /^connected to /);
    third.stop();
    expect(await third.exit).toBe(0);
  }, 30_000);

  it('explains a refused enrolment and exits 1', async () => {
    const qr = JSON.stringify(
      createProvisioningPayload({ serverUrl: enrolServer.url, token: 'a-token-the-server-never-issued' }),
    );
    const agent = run(['enrol', '--qr', qr, '--imei1', TEST_IMEI_1, '--imei2', TEST_IMEI_2]);

    expect(await agent.exit).toBe(1);
    expect(agent.stderr).toContain(
      'error: enrolment refused: This enrolment QR is no longer valid (ENROLMENT_TOKEN_INVALID, HTTP 400)',
    );
  }, 30_000);

  it('says to enrol first when there is no state file, and rejects bad usage', async () => {
    const status = run(['status']);
    expect(await status.exit).toBe(1);
    expect(status.stderr.join('\n')).toMatch(/no state file at .*device\.json; enrol first/);

    const enrol = run(['enrol', '--qr', '{}']);
    expect(await enrol.exit).toBe(2);
    expect(enrol.stderr).toContain('error: enrol needs --imei1, --imei2');

    const help = run(['--help']);
    expect(await help.exit).toBe(0);
    expect(help.stdout.join('\n')).toMatch(/kisht-agent enrol --qr/);
  }, 30_000);

  it('changes SIMs and position of a stopped device; run reports the SIMs after hello and uses the position', async () => {
    const statePath = join(dir, 'phone.json');
    const deviceId = await createDevice(statePath);

    const sim = run([
      'sim',
      '--state',
      statePath,
      '--slot',
      '2',
      '--iccid',
      '89914509000012345678',
      '--operator',
      'Airtel',
    ]);
    expect(await sim.exit).toBe(0);
    expect(sim.stdout[0]).toMatch(/^sims: 1=8991\d{15} \(Jio\), 2=89914509000012345678 \(Airtel\)$/);
    const empty = run(['sim', '--state', statePath, '--slot', '1', '--empty']);
    expect(await empty.exit).toBe(0);
    expect(empty.stdout).toEqual(['sims: 1=empty, 2=89914509000012345678 (Airtel)']);
    const moved = run([
      'position',
      '--state',
      statePath,
      '--lat',
      '12.9716',
      '--lon',
      '77.5946',
      '--accuracy',
      '10',
    ]);
    expect(await moved.exit).toBe(0);
    expect(moved.stdout).toEqual(['position: 12.9716,77.5946 (±10 m)']);

    const status = run(['status', '--state', statePath]);
    expect(await status.exit).toBe(0);
    expect(status.stdout).toEqual(
      expect.arrayContaining([
        'state: UNLOCKED',
        'controls: none',
        'sims: 1=empty, 2=89914509000012345678 (Airtel)',
        'position: 12.9716,77.5946 (±10 m)',
        'boots: 0',
      ]),
    );

    const agent = run(['run', '--state', statePath]);
    await waitForLine(agent.stdout, 'report sim');
    expect(reportsOf(deviceId, 'sim')[0]?.data).toEqual({
      sims: [
        { slot: 1, iccid: null, operator: null },
        { slot: 2, iccid: '89914509000012345678', operator: 'Airtel' },
      ],
    });
    const location = createCommandMessage({ name: 'location' });
    await broker.publishCommand(deviceId, location);
    await waitForLine(agent.stdout, `command location ${location.id} applied`);
    // The ack is published without waiting: it may reach the broker just after the line is printed.
    const done = await waitFor(
      () =>
        broker.events.find(
          ({ event }) => event.type === 'ack' && event.commandId === location.id && event.status === 'done',
        ),
      { what: 'done ack of location' },
    );
    expect(done?.event).toMatchObject({
      result: { latitude: '12.971600', longitude: '77.594600', accuracyM: 10 },
    });
    agent.stop();
    expect(await agent.exit).toBe(0);
  }, 30_000);

  it('a running agent reports a SIM change made from another shell, prints controls, and ends on uninstall', async () => {
    const statePath = join(dir, 'phone.json');
    const deviceId = await createDevice(statePath);
    const enrolledAt = (await readStateFile(statePath)).lastCheckInAt;
    const agent = run(['run', '--state', statePath, '--lat', '28.6139', '--lon', '77.209']);
    await waitForLine(agent.stdout, `connected to ${broker.url}`);
    // The running agent saves its check-in after the hello; a change saved from "another shell"
    // before that would be older than the agent's own state, and not adopted (as across processes).
    await untilSaved(statePath, (state) => state.lastCheckInAt !== enrolledAt, 'the check-in');

    const sim = run([
      'sim',
      '--state',
      statePath,
      '--slot',
      '1',
      '--iccid',
      '8991100000000009876',
      '--operator',
      'Vi',
    ]);
    expect(await sim.exit).toBe(0);
    await waitForLine(agent.stdout, 'report sim');
    expect(reportsOf(deviceId, 'sim')[0]?.state.sims?.[0]).toEqual({
      slot: 1,
      iccid: '8991100000000009876',
      operator: 'Vi',
    });

    await broker.publishCommand(deviceId, createCommandMessage({ name: 'camera_lock' }));
    await waitForLine(agent.stdout, 'control camera_lock: ON');
    await broker.publishCommand(deviceId, createCommandMessage({ name: 'tracking_on' }));
    await waitForLine(agent.stdout, 'report location 28.613900,77.209000');
    const uninstall = createCommandMessage({ name: 'uninstall' });
    await broker.publishCommand(deviceId, uninstall);

    expect(await agent.exit).toBe(0);
    expect(agent.stdout.slice(-3)).toEqual([
      `command uninstall ${uninstall.id} applied`,
      'disconnected',
      'uninstalled',
    ]);
    expect((await readStateFile(statePath)).uninstalled).toBe(true);

    const again = run(['run', '--state', statePath]);
    expect(await again.exit).toBe(1);
    expect(again.stderr[0]).toBe(
      `error: device ${deviceId} was uninstalled by an uninstall command; enrol again`,
    );
    const status = run(['status', '--state', statePath]);
    expect(await status.exit).toBe(0);
    expect(status.stdout).toContain('UNINSTALLED');
    expect(status.stdout).toContain('controls: camera_lock=ON, tracking=ON');
  }, 30_000);

  it('rejects bad sim and position options', async () => {
    const statePath = join(dir, 'phone.json');
    await createDevice(statePath);

    const noCard = run(['sim', '--state', statePath, '--slot', '1']);
    expect(await noCard.exit).toBe(2);
    expect(noCard.stderr[0]).toBe('error: sim needs --iccid or --empty (one of them)');
    const badIccid = run(['sim', '--state', statePath, '--slot', '1', '--iccid', '12']);
    expect(await badIccid.exit).toBe(1);
    expect(badIccid.stderr[0]).toMatch(/^error: invalid SIM slots: slot 1 iccid: /);
    const halfPosition = run(['position', '--state', statePath, '--lat', '12']);
    expect(await halfPosition.exit).toBe(2);
    expect(halfPosition.stderr[0]).toBe('error: --lat and --lon go together');
  }, 30_000);

  it('prints the challenge and takes offline codes; a running agent applies and reports them', async () => {
    const statePath = join(dir, 'phone.json');
    const deviceId = await createDevice(statePath);
    const agent = run(['run', '--state', statePath]);
    await waitForLine(agent.stdout, `connected to ${broker.url}`);
    await broker.publishCommand(deviceId, createCommandMessage({ name: 'lock' }));
    await waitForLine(agent.stdout, 'state: LOCKED');

    const shown = run(['challenge', '--state', statePath]);
    expect(await shown.exit).toBe(0);
    const challenge = /^challenge: (\d{6})$/.exec(shown.stdout[0] ?? '')?.[1];
    expect(challenge).toBeDefined();
    const code = await offlineCodeFor({
      keyHex: await offlineCodeKey(broker.devices.get(deviceId)!),
      deviceId,
      challenge: challenge!,
      action: 'unlock',
      slot: offlineCodeSlot(Date.now()),
    });
    const wrongCode = `${code.slice(0, -1)}${(Number(code.at(-1)) + 1) % 10}`;

    const wrong = run(['offline-code', '--state', statePath, '--code', wrongCode]);
    expect(await wrong.exit).toBe(1);
    expect(wrong.stdout).toEqual(['offline code wrong: 4 tries left', `challenge: ${challenge}`]);
    const right = run(['offline-code', '--state', statePath, '--code', code, '--action', 'unlock']);
    expect(await right.exit).toBe(0);
    expect(right.stdout.slice(0, 2)).toEqual(['offline code accepted: unlock', 'state: UNLOCKED']);
    const next = /^challenge: (\d{6})$/.exec(right.stdout[2] ?? '')?.[1];
    expect(next).toBeDefined();
    expect(next).not.toBe(challenge);

    await waitForLine(agent.stdout, 'offline unlock (offline_code)');
    await waitForLine(agent.stdout, 'state: UNLOCKED');
    await waitForLine(agent.stdout, 'report offline_lock unlock (offline_code)');
    expect(reportsOf(deviceId, 'offline_lock')).toEqual([
      expect.objectContaining({
        data: { action: 'unlock', challenge, at: expect.any(String), source: 'offline_code' },
        state: expect.objectContaining({ isLocked: false }),
      }),
    ]);

    const again = run(['offline-code', '--state', statePath, '--code', code]);
    expect(await again.exit).toBe(1);
    expect(again.stdout[0]).toBe('offline code wrong: 4 tries left');
    // The agent prints the report as it goes out and saves it as sent just after.
    await untilSaved(
      statePath,
      (state) => state.offlineEvents.every((event) => !event.isReportPending),
      'the offline report as sent',
    );
    const status = run(['status', '--state', statePath]);
    expect(await status.exit).toBe(0);
    expect(status.stdout).toContain(`offline challenge: ${next} (wrong tries: 1 of 5)`);
    expect(status.stdout).toContain('offline reports pending: 0');
    agent.stop();
    expect(await agent.exit).toBe(0);

    const noCode = run(['offline-code', '--state', statePath]);
    expect(await noCode.exit).toBe(2);
    expect(noCode.stderr[0]).toBe('error: offline-code needs --code');
    const badAction = run(['offline-code', '--state', statePath, '--code', code, '--action', 'wipe']);
    expect(await badAction.exit).toBe(2);
    expect(badAction.stderr[0]).toBe('error: --action must be unlock or lock, not "wipe"');
    const short = run(['offline-code', '--state', statePath, '--code', '1234']);
    expect(await short.exit).toBe(1);
    expect(short.stderr[0]).toBe('error: an offline code is 8 digits');
  }, 60_000);

  it('run --offline-lock-after locks the phone offline and reports it after reconnecting', async () => {
    const statePath = join(dir, 'phone.json');
    await createDevice(statePath);
    const badLimit = run(['run', '--state', statePath, '--offline-lock-after', '0']);
    expect(await badLimit.exit).toBe(2);
    expect(badLimit.stderr[0]).toBe('error: --offline-lock-after must be more than 0 minutes');

    // The limit counts from the last check-in, here the state file's creation: it must outlast
    // starting the CLI on a busy machine, or the phone rightly locks before it first gets through.
    // 0.1 minutes = 6 s.
    const deviceId = await createDevice(statePath);
    const agent = run(['run', '--state', statePath, '--offline-lock-after', '0.1']);
    await waitForLine(agent.stdout, `connected to ${broker.url}`);
    expect(agent.stdout).not.toContain('offline lock (offline_limit)');
    broker.unavailable.add(deviceId);
    broker.dropConnection(deviceId);
    await waitForLine(agent.stdout, 'offline lock (offline_limit)');
    await waitForLine(agent.stdout, 'state: LOCKED');
    expect(reportsOf(deviceId, 'offline_lock')).toEqual([]);

    broker.unavailable.delete(deviceId);
    await waitForLine(agent.stdout, 'report offline_lock lock (offline_limit)');
    expect(reportsOf(deviceId, 'offline_lock')[0]).toMatchObject({
      data: { action: 'lock', source: 'offline_limit', lastCheckInAt: expect.any(String) },
      state: { isLocked: true },
    });
    agent.stop();
    expect(await agent.exit).toBe(0);
  }, 45_000);
});
