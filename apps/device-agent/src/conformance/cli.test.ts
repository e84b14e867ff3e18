import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ZFailure, zEnvelope } from '@kisht/domain/common/envelope';
import { ZEnrolDeviceResponse } from '@kisht/domain/devices/devices.schema';
import { ANDROID_PROVISIONING_KEYS, PROVISIONING_EXTRAS } from '@kisht/domain/devices/protocol.schema';
import { paths } from '@kisht/domain/paths';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../test-support';
import { conformanceCheckNames, type TDeviceAdapter } from './checks';
import { main } from './cli';
import { createFlawedDevice } from './flawed-device';

const BIN = fileURLToPath(new URL('../../bin/kisht-conformance.mjs', import.meta.url));

type TRun = {
  child: ChildProcessWithoutNullStreams;
  stdout: string[];
  stderr: string[];
  exit: Promise<number>;
};

const children: ChildProcessWithoutNullStreams[] = [];
const devices: TDeviceAdapter[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all(devices.splice(0).map((device) => device.stop?.()));
});

/** Runs the real bin (tsx and all), collecting output lines. */
const run = (args: string[]): TRun => {
  const child = spawn(process.execPath, [BIN, ...args]);
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

/** The value of the first `prefix: …` line, once printed. */
const lineValue = (lines: string[], prefix: string) =>
  waitFor(() => lines.find((line) => line.startsWith(`${prefix}: `))?.slice(prefix.length + 2), {
    timeoutMs: 15_000,
    what: `a "${prefix}:" line`,
  });

/** Runs main() in this process, collecting its output. */
const runMain = async (args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
};

describe('kisht-conformance', () => {
  it('passes the reference agent over MQTT over WebSocket, every check on ephemeral ports', async () => {
    // In-process: the bin itself is run by the next case (issue 17: a process per case costs seconds).
    const cli = await runMain([
      '--agent',
      '--broker',
      'ws://127.0.0.1:0',
      '--uninstall',
      '--tracking-within-ms',
      '1000',
      '--settle-ms',
      '200',
    ]);

    const checks = cli.out.filter((line) => /^(PASS|FAIL|SKIP) /.test(line));
    expect(
      checks.filter((line) => !line.startsWith('PASS ')),
      cli.out.join('\n'),
    ).toEqual([]);
    expect(checks.map((line) => line.slice('PASS '.length))).toEqual(conformanceCheckNames());
    expect(cli.out).toContain(`summary: ${checks.length} passed, 0 failed, 0 skipped`);
    expect(cli.out.find((line) => line.startsWith('broker: '))).toMatch(
      /^broker: ws:\/\/127\.0\.0\.1:\d+\/mqtt$/,
    );
    expect(cli.code).toBe(0);
  }, 60_000);

  it('plays the server for a device that enrols with the printed QR, and exits 1 naming the failed check', async () => {
    const cli = run(['--filter', '^(lock|events):', '--timeout-ms', '1500', '--settle-ms', '200']);
    const qr = JSON.parse(await lineValue(cli.stdout, 'qr')) as Record<string, Record<string, string>>;
    const extras = qr[ANDROID_PROVISIONING_KEYS.adminExtrasBundle]!;
    const enrol = (token: string) =>
      fetch(`${extras[PROVISIONING_EXTRAS.serverUrl]}${paths.devices.enrol}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, imei1: '490154203237518', imei2: '356938035643809' }),
      });

    // A device with another token is refused; with the QR's, it gets the credentials.
    const refused = await enrol('a-token-this-endpoint-never-issued');
    expect(refused.status).toBe(400);
    expect(ZFailure.parse(await refused.json())).toMatchObject({ code: 'ENROLMENT_TOKEN_INVALID' });
    const enrolled = await enrol(extras[PROVISIONING_EXTRAS.enrolmentToken]!);
    expect(enrolled.status).toBe(200);
    const { data: credentials } = zEnvelope(ZEnrolDeviceResponse).parse(await enrolled.json());
    expect(JSON.parse(await lineValue(cli.stdout, 'credentials'))).toEqual(credentials);
    // A device that acks done twice, on nothing but MQTT.js and the credentials.
    const device = createFlawedDevice('double-done');
    devices.push(device);
    await device.start(credentials);

    expect(await cli.exit).toBe(1);
    expect(cli.stdout).toContain('enrolled: IMEI 490154203237518, 356938035643809');
    expect(cli.stdout).toContain(`connected: device ${credentials.deviceId}`);
    expect(cli.stdout).toContain(
      'FAIL lock: acks received, then done with isLocked true, nothing more: lock was acked [received, done, done], expected [received, done]',
    );
    expect(cli.stdout.find((line) => line.startsWith('FAIL events:'))).toMatch(
      /got 2 final acks for 1 deliveries/,
    );
    expect(cli.stdout.find((line) => line.startsWith('SKIP unlock:'))).toMatch(/: filtered out$/);
    expect(cli.stdout.at(-1)).toMatch(/^summary: 1 passed, 2 failed, \d+ skipped$/);
  }, 30_000);

  it('exits 1 when no device connects in time, and 2 for bad options', async () => {
    const alone = await runMain(['--connect-timeout-ms', '200']);
    expect(alone.code).toBe(1);
    expect(alone.err).toEqual([
      expect.stringMatching(/^error: device [0-9a-f-]+ did not connect and say hello within 200 ms$/),
    ]);

    const badBroker = await runMain(['--broker', 'http://127.0.0.1:0']);
    expect(badBroker).toMatchObject({
      code: 2,
      err: [expect.stringMatching(/^error: --broker must start with mqtt:\/\//), expect.any(String)],
    });
    const badTimeout = await runMain(['--timeout-ms', 'soon']);
    expect(badTimeout.err[0]).toBe('error: --timeout-ms must be a positive whole number, not soon');
    expect(badTimeout.code).toBe(2);
  });
});
