import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appEnrolUri, deepLinkUrl } from '@kisht/domain/devices/link-enrolment';
import type { TReportEvent } from '@kisht/domain/devices/protocol.schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeviceAgent, EnrolmentError } from './agent';
import { main } from './cli';
import { exchangeEnrolmentCode, LinkEnrolmentError, readDeepLink } from './link';
import {
  startEnrolServer,
  startTestBroker,
  type TEnrolServer,
  TEST_ENROLMENT_TOKEN,
  TEST_IMEI_1,
  TEST_IMEI_2,
  type TTestBroker,
  waitFor,
} from './test-support';

describe('readDeepLink', () => {
  it('reads the https deep link and the kisht://enrol link, keeping a path prefix', () => {
    const https = deepLinkUrl({
      serverUrl: 'https://kisht.example.in/shop/',
      orgId: 41,
      token: TEST_ENROLMENT_TOKEN,
    });
    expect(https).toBe(`https://kisht.example.in/shop/emm/l?org_id=41&token=${TEST_ENROLMENT_TOKEN}`);
    expect(readDeepLink(https)).toEqual({
      serverUrl: 'https://kisht.example.in/shop',
      orgId: 41,
      enrolmentToken: TEST_ENROLMENT_TOKEN,
    });
    const app = appEnrolUri({ serverUrl: 'http://127.0.0.1:8080', orgId: 46, token: TEST_ENROLMENT_TOKEN });
    expect(app.startsWith('kisht://enrol?server=http%3A%2F%2F127.0.0.1%3A8080&org_id=46&token=')).toBe(true);
    expect(readDeepLink(app)).toEqual({
      serverUrl: 'http://127.0.0.1:8080',
      orgId: 46,
      enrolmentToken: TEST_ENROLMENT_TOKEN,
    });
  });

  it.each([
    ['not a link at all', /not a link/],
    [
      'https://kisht.example.in/somewhere?org_id=41&token=abcdefghijklmnopqrst',
      /path must end with \/emm\/l/,
    ],
    ['ftp://kisht.example.in/emm/l?org_id=41&token=abcdefghijklmnopqrst', /unexpected scheme/],
    ['https://kisht.example.in/emm/l?token=abcdefghijklmnopqrst', /no valid org/],
    ['https://kisht.example.in/emm/l?org_id=41&token=short', /no valid enrolment token/],
    ['kisht://enrol?org_id=41&token=abcdefghijklmnopqrst', /no http\(s\) server/],
    ['kisht://pay?server=https://x.in&org_id=41&token=abcdefghijklmnopqrst', /not an enrol link/],
  ])('refuses %s', (text, message) => {
    expect(() => readDeepLink(text)).toThrow(message);
    expect(() => readDeepLink(text)).toThrow(LinkEnrolmentError);
  });
});

describe('exchangeEnrolmentCode', () => {
  it('refuses a code that is not 8 Crockford letters without calling the server', async () => {
    let calls = 0;
    const counting = (async () => {
      calls += 1;
      return new Response('{}');
    }) as typeof fetch;
    await expect(
      exchangeEnrolmentCode({ serverUrl: 'http://127.0.0.1:9', orgId: 41, code: 'ABC', fetch: counting }),
    ).rejects.toMatchObject({ code: 'BAD_CODE' });
    expect(calls).toBe(0);
  });

  it('says NETWORK when the server cannot be reached', async () => {
    await expect(
      exchangeEnrolmentCode({ serverUrl: 'http://127.0.0.1:9', orgId: 41, code: 'ABCD-EFGH' }),
    ).rejects.toMatchObject({ code: 'NETWORK' });
  });
});

describe('link mode of DeviceAgent and the CLI', () => {
  let dir: string;
  let broker: TTestBroker;
  let enrolServer: TEnrolServer;
  const stops: AbortController[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kisht-link-'));
    broker = await startTestBroker();
    enrolServer = await startEnrolServer(broker);
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) stop.abort();
    await enrolServer.close();
    await broker.close();
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * Runs the CLI's `main` in this process with the temp directory as its working directory (the
   * real bin is covered by cli.test.ts; a process per case cost seconds each, issue 17). `stop`
   * stands in for SIGTERM.
   */
  const run = (args: string[]) => {
    const stop = new AbortController();
    stops.push(stop);
    const stdout: string[] = [];
    const stderr: string[] = [];
    const exit = main(
      args,
      { out: (line) => stdout.push(line), err: (line) => stderr.push(line) },
      { stop: stop.signal, cwd: dir },
    );
    return { stdout, stderr, exit, stop: () => stop.abort() };
  };

  it('DeviceAgent.enrol takes exactly one of qr, link or code', async () => {
    const link = deepLinkUrl({ serverUrl: enrolServer.url, orgId: 41, token: TEST_ENROLMENT_TOKEN });
    await expect(
      DeviceAgent.enrol({ imei1: TEST_IMEI_1, imei2: TEST_IMEI_2, statePath: join(dir, 'a.json') }),
    ).rejects.toThrow(/exactly one of a QR, a deep link or a code/);
    await expect(
      DeviceAgent.enrol({
        link,
        qr: '{}',
        imei1: TEST_IMEI_1,
        imei2: TEST_IMEI_2,
        statePath: join(dir, 'a.json'),
      }),
    ).rejects.toThrow(/exactly one/);
    const bad = DeviceAgent.enrol({
      link: 'https://x.in/nowhere',
      imei1: TEST_IMEI_1,
      imei2: TEST_IMEI_2,
      statePath: join(dir, 'b.json'),
    });
    await expect(bad).rejects.toBeInstanceOf(EnrolmentError);
    await expect(bad).rejects.toMatchObject({ code: 'BAD_LINK' });
    expect(enrolServer.requests).toHaveLength(0);
  });

  it('enrols with --link, and uninstall-app reports the removal with the position and stops for good', async () => {
    const link = deepLinkUrl({ serverUrl: enrolServer.url, orgId: 41, token: TEST_ENROLMENT_TOKEN });
    const agent = run(['enrol', '--link', link, '--imei1', TEST_IMEI_1, '--imei2', TEST_IMEI_2]);
    const enrolled = await waitFor(() => agent.stdout.find((line) => line.startsWith('enrolled: device ')), {
      timeoutMs: 15_000,
      what: 'enrolled line',
    });
    const deviceId = /^enrolled: device (\S+) /.exec(enrolled)![1]!;
    expect(enrolServer.requests).toEqual([
      { token: TEST_ENROLMENT_TOKEN, imei1: TEST_IMEI_1, imei2: TEST_IMEI_2 },
    ]);
    await waitFor(() => agent.stdout.find((line) => line === `connected to ${broker.url}`), {
      timeoutMs: 15_000,
      what: 'connected line',
    });
    agent.stop();
    expect(await agent.exit).toBe(0);

    const removal = run(['uninstall-app', '--lat', '12.9716', '--lon', '77.5946']);
    expect(await removal.exit).toBe(0);
    expect(removal.stdout).toEqual(['report app_removed 12.971600,77.594600', 'uninstalled']);
    const report = broker.events.find(
      ({ deviceId: id, event }) => id === deviceId && event.type === 'report' && event.kind === 'app_removed',
    )?.event as TReportEvent | undefined;
    expect(report?.data).toMatchObject({ latitude: '12.971600', longitude: '77.594600' });

    // Uninstalled: it neither runs nor reports again.
    const again = run(['uninstall-app']);
    expect(await again.exit).toBe(1);
    expect(again.stderr.join('\n')).toContain('already uninstalled');
    const start = run(['run']);
    expect(await start.exit).toBe(1);
  }, 45_000);

  it("rejects bad link-mode usage (exit 2) and a link that is not Kisht's (exit 1)", async () => {
    const noServer = run(['enrol', '--code', 'ABCD-EFGH', '--imei1', TEST_IMEI_1, '--imei2', TEST_IMEI_2]);
    expect(await noServer.exit).toBe(2);
    expect(noServer.stderr).toContain('error: enrol --code needs --server, --org');
    const both = run(['enrol', '--qr', '{}', '--link', 'x', '--imei1', TEST_IMEI_1, '--imei2', TEST_IMEI_2]);
    expect(await both.exit).toBe(2);
    expect(both.stderr.join('\n')).toContain('enrol needs one of --qr, --link, or --code');
    const badLink = run([
      'enrol',
      '--link',
      'https://x.in/nope',
      '--imei1',
      TEST_IMEI_1,
      '--imei2',
      TEST_IMEI_2,
    ]);
    expect(await badLink.exit).toBe(1);
    expect(badLink.stderr.join('\n')).toContain('not a Kisht deep link');
  }, 45_000);
});
