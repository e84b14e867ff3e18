import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

type TRun = {
  child: ChildProcessWithoutNullStreams;
  stdout: string[];
  stderr: string[];
  exit: Promise<number>;
};

let dir: string;
let broker: TTestBroker;
let enrolServer: TEnrolServer;
const children: ChildProcessWithoutNullStreams[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kisht-cli-'));
  broker = await startTestBroker();
  enrolServer = await startEnrolServer(broker);
});

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await enrolServer.close();
  await broker.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs the real bin (tsx and all) in the temp directory, collecting output lines. */
const run = (args: string[]): TRun => {
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
  return { child, stdout, stderr, exit };
};

const waitForLine = (lines: string[], line: string | RegExp) =>
  waitFor(
    () => lines.find((candidate) => (typeof line === 'string' ? candidate === line : line.test(candidate))),
    {
      timeoutMs: 15_000,
      what: `output line ${line}`,
    },
  );

describe('kisht-agent CLI', () => {
  it('enrols, stays connected, applies a lock, stops on SIGTERM, and status shows it locked', async () => {
    const qr = JSON.stringify(createProvisioningPayload({ serverUrl: enrolServer.url }));
    const agent = run(['enrol', '--qr', qr, '--imei1', TEST_IMEI_1, '--imei2', TEST_IMEI_2]);

    const enrolled = await waitForLine(agent.stdout, /^enrolled: device \S+ \(IMEI \d{15}\)$/);
    const deviceId = /^enrolled: device (\S+) /.exec(enrolled)![1]!;
    expect(enrolled).toBe(`enrolled: device ${deviceId} (IMEI ${TEST_IMEI_1})`);
    await waitForLine(agent.stdout, `connected to ${broker.url}`);

    const lock = createCommandMessage({ name: 'lock' });
    await broker.publishCommand(deviceId, lock);
    await waitForLine(agent.stdout, 'state: LOCKED');
    agent.child.kill('SIGTERM');

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
    first.child.kill('SIGINT');
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
    second.child.kill('SIGINT');
    expect(await second.exit).toBe(0);
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
});
