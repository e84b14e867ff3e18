import { parseArgs } from 'node:util';
import { paths } from '@kisht/domain/paths';
import { runConformanceChecks, type TConformanceCheckResult, type TDeviceAdapter } from './checks';
import { createDeviceAgentAdapter, type TDeviceAgentAdapter } from './device-agent-adapter';
import { startEnrolEndpoint } from './enrol-endpoint';
import { startConformanceBroker } from './harness';

/**
 * The `kisht-conformance` command line (bin/kisht-conformance.mjs): plays the Kisht server against
 * a device over MQTT (TCP or WebSocket) and prints one line per check. The device enrols through
 * the enrol endpoint this serves, with the QR payload (or the credentials) printed at start, so no
 * code of ours runs on the device side; `--agent` tests the reference DeviceAgent instead.
 */

export const USAGE = `kisht-conformance: the Kisht device protocol (v2) conformance suite. It plays the
server against one device over MQTT and prints one line per check.

Usage:
  kisht-conformance [--broker <url>] [--api <url>] [--public-host <host>] [--agent]
                    [--filter <regex>] [--timeout-ms <n>] [--settle-ms <n>]
                    [--connect-timeout-ms <n>] [--tracking-within-ms <n>] [--uninstall]
                    [--stop-on-failure]
  kisht-conformance --help

It starts an MQTT broker and an HTTP enrol endpoint (POST ${paths.devices.enrol}), prints the
enrolment QR payload and the credentials, waits for the device to enrol and connect, then runs the
checks. A device the suite cannot stop and restart skips the checks that need it (offline,
restart, stale while offline, cancel while offline, sync), and those that need SIM, offline-code or
tracking hooks; --agent runs every check against the reference agent in this process.

Options:
  --broker <url>       where the broker listens: mqtt://HOST:PORT (or tcp://, MQTT over TCP) or
                       ws://HOST:PORT (MQTT over WebSocket at ${paths.mqtt}); port 0 takes a free
                       port (default mqtt://127.0.0.1:0)
  --api <url>          where the enrol endpoint listens: http://HOST:PORT (default
                       http://127.0.0.1:0)
  --public-host <host> the host name or address the device is given for both (default: the
                       listening host; use the machine's LAN address with 0.0.0.0 for a phone)
  --agent              test the reference DeviceAgent, enrolled through the endpoint, in this
                       process
  --filter <regex>     run only the checks whose name matches (the connect check always runs)
  --timeout-ms <n>     how long to wait for each expected event (default 10000)
  --settle-ms <n>      how long to watch for extra acks after a command ends (default 300)
  --connect-timeout-ms <n>
                       how long to wait for the device to enrol and connect (default 600000)
  --tracking-within-ms <n>
                       check location reports while tracking: two within n ms (default: skipped)
  --uninstall          run the uninstall check last (the device leaves for good)
  --stop-on-failure    skip every check after the first failure
  -h, --help           show this help

Output (stdout, one line each):
  broker: <mqtt url the device is given>
  enrol: POST <url>
  qr: <enrolment QR payload, Android provisioning JSON>
  credentials: <the enrol answer's data: deviceId, deviceSecret, mqttUrl, topics, serverKey>
  waiting for device <id> (up to <n> s)
  enrolled: IMEI <imei1>, <imei2>
  connected: device <id>
  PASS <check> | FAIL <check>: <why> | SKIP <check>: <why>
  summary: <n> passed, <n> failed, <n> skipped

Exit code: 0 when no check failed; 1 when one failed or the device did not connect in time;
2 for bad options.
`;

/** Where the CLI writes; tests may pass their own. */
export type TCliOutput = { out: (line: string) => void; err: (line: string) => void };

const CONSOLE_OUTPUT: TCliOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Thrown for bad option values: exit code 2. */
class UsageError extends Error {}

/** The options as parsed and checked. */
type TCliOptions = {
  transport: 'tcp' | 'ws';
  brokerHost: string;
  brokerPort: number;
  apiHost: string;
  apiPort: number;
  publicHost?: string;
  isAgent: boolean;
  filter?: RegExp;
  timeoutMs: number;
  settleMs: number;
  connectTimeoutMs: number;
  trackingWithinMs?: number;
  includeUninstall: boolean;
  stopOnFailure: boolean;
};

const positiveInteger = (name: string, value: string | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0)
    throw new UsageError(`--${name} must be a positive whole number, not ${value}`);
  return number;
};

/** Host and port of a listen URL with one of `protocols`; port 0 when it gives none. */
const listenAddress = (
  name: string,
  value: string,
  protocols: readonly string[],
): { protocol: string; host: string; port: number } => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--${name} must be a URL like ${protocols[0]}//127.0.0.1:0, not ${value}`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new UsageError(
      `--${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}, not ${value}`,
    );
  }
  if (url.pathname !== '/' && url.pathname !== '' && url.pathname !== paths.mqtt) {
    throw new UsageError(`--${name} takes no path (${url.pathname})`);
  }
  // URL keeps IPv6 hosts in brackets; listen() wants them bare.
  return {
    protocol: url.protocol,
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(url.port || 0),
  };
};

const parseOptions = (argv: string[]): TCliOptions | 'help' => {
  let parsed: ReturnType<typeof parseCliArgs>;
  try {
    parsed = parseCliArgs(argv);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (positionals.length > 0) throw new UsageError(`unexpected argument: ${positionals[0]}`);
  const broker = listenAddress('broker', values.broker ?? 'mqtt://127.0.0.1:0', ['mqtt:', 'tcp:', 'ws:']);
  const api = listenAddress('api', values.api ?? 'http://127.0.0.1:0', ['http:']);
  let filter: RegExp | undefined;
  if (values.filter !== undefined) {
    try {
      filter = new RegExp(values.filter);
    } catch (error) {
      throw new UsageError(`--filter is not a regular expression: ${(error as Error).message}`);
    }
  }
  return {
    transport: broker.protocol === 'ws:' ? 'ws' : 'tcp',
    brokerHost: broker.host,
    brokerPort: broker.port,
    apiHost: api.host,
    apiPort: api.port,
    publicHost: values['public-host'],
    isAgent: values.agent === true,
    filter,
    timeoutMs: positiveInteger('timeout-ms', values['timeout-ms'], 10_000),
    settleMs: positiveInteger('settle-ms', values['settle-ms'], 300),
    connectTimeoutMs: positiveInteger('connect-timeout-ms', values['connect-timeout-ms'], 600_000),
    trackingWithinMs:
      values['tracking-within-ms'] === undefined
        ? undefined
        : positiveInteger('tracking-within-ms', values['tracking-within-ms'], 0),
    includeUninstall: values.uninstall === true,
    stopOnFailure: values['stop-on-failure'] === true,
  };
};

const parseCliArgs = (argv: string[]) =>
  parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      broker: { type: 'string' },
      api: { type: 'string' },
      'public-host': { type: 'string' },
      agent: { type: 'boolean' },
      filter: { type: 'string' },
      'timeout-ms': { type: 'string' },
      'settle-ms': { type: 'string' },
      'connect-timeout-ms': { type: 'string' },
      'tracking-within-ms': { type: 'string' },
      uninstall: { type: 'boolean' },
      'stop-on-failure': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });

/** "PASS name", "FAIL name: why", "SKIP name: why", on one line. */
const resultLine = (result: TConformanceCheckResult): string => {
  const label = { passed: 'PASS', failed: 'FAIL', skipped: 'SKIP' }[result.status];
  const why = result.error?.replace(/\s*\n\s*/g, ' | ');
  return `${label} ${result.name}${why ? `: ${why}` : ''}`;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `kisht-conformance` with `argv` (without node and the script); resolves with the exit code.
 * See USAGE.
 */
export const main = async (argv: string[], output: TCliOutput = CONSOLE_OUTPUT): Promise<number> => {
  let options: TCliOptions | 'help';
  try {
    options = parseOptions(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    output.err(`error: ${error.message}`);
    output.err('Run kisht-conformance --help for usage.');
    return 2;
  }
  if (options === 'help') {
    output.out(USAGE);
    return 0;
  }

  const isWildcard = (host: string) => host === '0.0.0.0' || host === '::';
  if (!options.publicHost && (isWildcard(options.brokerHost) || isWildcard(options.apiHost))) {
    output.err(
      'warning: listening on all interfaces without --public-host: the device is given that address',
    );
  }
  const broker = await startConformanceBroker({
    transport: options.transport,
    host: options.brokerHost,
    port: options.brokerPort,
    publicHost: options.publicHost,
  });
  let agentAdapter: TDeviceAgentAdapter | undefined;
  try {
    const endpoint = await startEnrolEndpoint(broker.credentials, {
      host: options.apiHost,
      port: options.apiPort,
      publicHost: options.publicHost,
    });
    try {
      const { credentials } = broker;
      output.out(`broker: ${credentials.mqttUrl}`);
      output.out(`enrol: POST ${endpoint.serverUrl}${paths.devices.enrol}`);
      output.out(`qr: ${JSON.stringify(endpoint.qrPayload)}`);
      output.out(`credentials: ${JSON.stringify(endpoint.answer)}`);

      let adapter: TDeviceAdapter;
      if (options.isAgent) {
        const within = options.trackingWithinMs;
        agentAdapter = createDeviceAgentAdapter({
          qr: JSON.stringify(endpoint.qrPayload),
          ...(within ? { trackingIntervalMs: Math.max(50, Math.floor(within / 5)) } : {}),
        });
        adapter = agentAdapter;
      } else {
        // The device is not ours to start or stop: wait until it has enrolled and said hello.
        output.out(
          `waiting for device ${credentials.deviceId} (up to ${Math.round(options.connectTimeoutMs / 1000)} s)`,
        );
        const deadline = Date.now() + options.connectTimeoutMs;
        let enrolmentsShown = 0;
        const showEnrolments = () => {
          for (const { imei1, imei2 } of endpoint.enrolments.slice(enrolmentsShown)) {
            output.out(`enrolled: IMEI ${imei1}, ${imei2}`);
          }
          enrolmentsShown = endpoint.enrolments.length;
        };
        const hasSaidHello = () => broker.events.some(({ event }) => event?.type === 'hello');
        while (!hasSaidHello()) {
          showEnrolments();
          if (Date.now() > deadline) {
            output.err(
              `error: device ${credentials.deviceId} did not connect and say hello within ${options.connectTimeoutMs} ms`,
            );
            return 1;
          }
          await sleep(50);
        }
        showEnrolments();
        output.out(`connected: device ${credentials.deviceId}`);
        adapter = { start: async () => undefined };
      }

      const filter = options.filter;
      const results = await runConformanceChecks(adapter, {
        broker,
        timeoutMs: options.timeoutMs,
        settleMs: options.settleMs,
        includeUninstall: options.includeUninstall,
        trackingReportWithinMs: options.trackingWithinMs,
        stopOnFailure: options.stopOnFailure,
        ...(filter ? { filter: (name: string) => filter.test(name) } : {}),
        onResult: (result) => output.out(resultLine(result)),
      });
      const count = (status: TConformanceCheckResult['status']) =>
        results.filter((result) => result.status === status).length;
      output.out(
        `summary: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped`,
      );
      return count('failed') > 0 ? 1 : 0;
    } finally {
      await endpoint.close();
    }
  } finally {
    await agentAdapter?.dispose();
    await broker.close();
  }
};
