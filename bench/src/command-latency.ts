/**
 * Benchmark (issue 17): the latency of ONE command. A retailer's `POST /api/device/lock` (or
 * unlock) until the phone's done ack reaches the broker, one request at a time, against a baseline
 * measured in the same run: a raw QoS 1 publish of a signed policy to the same phones until their
 * done acks, with the server's event handling paused.
 *
 * The server and phones are the bulk-lock benchmark's (support/bench-server.ts): the real server on
 * 127.0.0.1 (in-memory PGlite, embedded broker, jobs off) and N real DeviceAgents in a child
 * process, every customer owing an overdue instalment (so a lock needs no reason). Sample k goes
 * to phone k mod N: a lock the first time round, an unlock the next, and so on. `--scale-out`
 * (support/scale-out.ts): PostgreSQL + Mosquitto and two server processes, the baseline published
 * straight to Mosquitto with both processes stopped; sample k's HTTP call goes to process k mod 2.
 *
 * Run: `npm run command-latency -w @kisht/bench` (`-- --devices 100` connected phones, default 100;
 * `--samples 200`, default 200; `--scale-out`; `--sql-stats` lists the statements per command,
 * `--profile file.cpuprofile` writes a CPU profile of the measured calls, both embedded only). Prints figures (the last line, SUMMARY, in one line); asserts nothing.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { cmdTopic } from '@kisht/domain/devices/protocol.schema';
import { signServerMessage } from '@kisht/domain/devices/server-message';
import { paths } from '@kisht/domain/paths';
import { devices } from '@kisht/server/db/schema';
import { DEMO_ORG_ID } from '@kisht/server/db/seed/seed';
import { eq, inArray } from 'drizzle-orm';
import {
  callJson,
  checkOpenFiles,
  connectPhones,
  startPhones,
  timeStatements,
  trackAcks,
} from './support/bench-server';
import { startEmbeddedTarget } from './support/bench-target';
import { startScaleOutTarget } from './support/scale-out';

const { values: args } = parseArgs({
  options: {
    devices: { type: 'string', default: '100' },
    samples: { type: 'string', default: '200' },
    /** PostgreSQL + Mosquitto and two server processes instead of the embedded server. */
    'scale-out': { type: 'boolean', default: false },
    /** The broker of --scale-out (default the machine's Mosquitto, mqtt://127.0.0.1:1883). */
    'mqtt-url': { type: 'string' },
    /** Prints the statements the measured calls ran on PGlite: calls and ms per request. */
    'sql-stats': { type: 'boolean', default: false },
    /** Writes a V8 CPU profile of the server during the measured calls to this file (embedded). */
    profile: { type: 'string' },
  },
});
const N = Number(args.devices);
const SAMPLES = Number(args.samples);
if (!Number.isInteger(N) || N < 1 || N > 10_000) throw new Error('--devices must be 1–10000');
if (!Number.isInteger(SAMPLES) || SAMPLES < 10) throw new Error('--samples must be at least 10');
const SCALE_OUT = args['scale-out'];
if (SCALE_OUT && (args['sql-stats'] || args.profile))
  throw new Error('--sql-stats and --profile measure the embedded server: not with --scale-out');
/** How long one command may take before the benchmark gives up. */
const COMMAND_TIMEOUT_MS = 30_000;
/** The baseline's policy versions start above this: far above what the server gives in a run. */
const BASELINE_POLICY_VERSION = 1_000_000;

/** The q-quantile (0–1, nearest rank) of `values`, in ms. */
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;
const describe = (values: number[]) =>
  `p50 ${ms(quantile(values, 0.5))}, p90 ${ms(quantile(values, 0.9))}, p99 ${ms(quantile(values, 0.99))}`;

const main = async () => {
  // The phones run in one process here.
  await checkOpenFiles({ serverPhones: SCALE_OUT ? 0 : N, phonesPerProcess: N });
  const loadAtStart = loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
  const deployment = SCALE_OUT
    ? await startScaleOutTarget(N, args['mqtt-url'])
    : await startEmbeddedTarget(N);
  const { db, bus, simulated } = deployment;
  const acks = await trackAcks(bus);
  const phones = await startPhones(deployment.phoneTarget, {
    ...(deployment.externalBrokerUrl ? { cleanSessionsAt: deployment.externalBrokerUrl } : {}),
  });
  try {
    const connected = await connectPhones(deployment, phones, { concurrency: 100, timeoutMs: 120_000 });
    if (connected.failures.length > 0) throw new Error(`connect failed: ${connected.failures[0]}`);
    const customerOf = new Map(
      (
        await db
          .select({ id: devices.id, customerId: devices.customerId })
          .from(devices)
          .where(
            inArray(
              devices.id,
              simulated.map((device) => device.deviceId),
            ),
          )
      ).map((row) => [row.id, row.customerId]),
    );

    // Baseline: one signed policy version at a time, published straight through the broker, until
    // that phone's done ack; the server's event handling paused. A warm-up pass over every phone
    // first (unlock, not counted), then SAMPLES samples alternating lock and unlock per phone, and
    // a last pass that leaves every phone unlocked, as the server's records still say.
    const serverKey = deployment.signingKey;
    let version = BASELINE_POLICY_VERSION;
    const rawCommand = async (deviceId: string, locked: boolean) => {
      version += 1;
      const id = randomUUID();
      const payload = signServerMessage(serverKey, {
        type: 'policy',
        deviceId,
        version,
        policy: { locked, controls: {} },
        commands: [{ id, name: locked ? 'lock' : 'unlock' }],
        issuedAt: new Date().toISOString(),
      });
      const t0 = performance.now();
      await bus.publish(cmdTopic(deviceId), payload);
      return (await acks.whenDone(id, COMMAND_TIMEOUT_MS)) - t0;
    };
    const isLockRound = (k: number) => Math.floor(k / N) % 2 === 0;
    await deployment.pauseServer();
    for (const device of simulated) await rawCommand(device.deviceId, false);
    const baseline: number[] = [];
    for (let k = 0; k < SAMPLES; k += 1) {
      baseline.push(await rawCommand(simulated[k % N]!.deviceId, isLockRound(k)));
    }
    for (const device of simulated) await rawCommand(device.deviceId, false);
    // The server's own versions go on above the baseline's, so the phones take its policies.
    await db.update(devices).set({ policyVersion: version }).where(eq(devices.orgId, DEMO_ORG_ID));
    await deployment.resumeServer();

    // Measured: the retailer's lock/unlock call, one at a time (in scale-out to A and B in turn),
    // until the phone's done ack.
    const token = await deployment.login();
    const bases = deployment.bases();
    const sqlStats =
      args['sql-stats'] && deployment.statements ? timeStatements(deployment.statements) : null;
    const profiler = args.profile ? new Session() : null;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    const answered: number[] = [];
    const done: number[] = [];
    for (let k = 0; k < SAMPLES; k += 1) {
      const device = simulated[k % N]!;
      const path = isLockRound(k) ? paths.devices.lock : paths.devices.unlock;
      const t0 = performance.now();
      const reply = await callJson(`${bases[k % bases.length]}${path}`, {
        method: 'POST',
        token,
        body: { customer_id: customerOf.get(device.deviceId) },
      });
      answered.push(performance.now() - t0);
      if (reply.status !== 200) {
        throw new Error(`${path} failed: HTTP ${reply.status} ${JSON.stringify(reply.json)}`);
      }
      const commandId = (reply.json.data as { id: string }).id;
      done.push((await acks.whenDone(commandId, COMMAND_TIMEOUT_MS)) - t0);
    }
    const statements = sqlStats?.stop();
    if (profiler) {
      const { profile } = await profiler.post('Profiler.stop');
      await writeFile(args.profile!, JSON.stringify(profile));
      profiler.disconnect();
    }
    if (statements) {
      const rows = [...statements.entries()].sort((a, b) => b[1].ms - a[1].ms);
      const calls = rows.reduce((sum, [, stat]) => sum + stat.count, 0);
      const total = rows.reduce((sum, [, stat]) => sum + stat.ms, 0);
      console.log(
        `statements during the measured calls (ack recording included): ${(calls / SAMPLES).toFixed(1)} per command, ${ms(total / SAMPLES)} per command`,
      );
      for (const [text, stat] of rows.slice(0, 25)) {
        console.log(`  ${(stat.count / SAMPLES).toFixed(2)}× ${ms(stat.ms / stat.count)}  ${text}`);
      }
    }
    const outcomes = await phones.stop();
    const ratio = (q: number) => (quantile(done, q) / quantile(baseline, q)).toFixed(2);
    const load = loadavg()
      .map((n) => n.toFixed(1))
      .join(' ');
    console.log(
      [
        `command latency, ${
          SCALE_OUT
            ? 'scale-out (PostgreSQL + Mosquitto, two server processes, calls to each in turn)'
            : 'embedded (PGlite, embedded broker, one process)'
        }: ${SAMPLES} commands one at a time over ${N} connected phones (DeviceAgent, child process), ${availableParallelism()} cores; load average at start ${loadAtStart}, at end ${load}`,
        `baseline (raw QoS 1 publish of a signed policy → done ack, server event handling ${SCALE_OUT ? 'stopped' : 'paused'}): ${describe(baseline)}`,
        `HTTP lock/unlock → HTTP answer: ${describe(answered)}`,
        `HTTP lock/unlock → done ack at the broker: ${describe(done)}`,
        `ratio command/baseline: p50 ${ratio(0.5)}, p99 ${ratio(0.99)}`,
        `${deployment.recording ? `server recorded ${deployment.recording.events} device events in ${deployment.recording.batches} batches` : 'server event recording: in the server processes'}; phones applied ${outcomes.outcomes.done} commands, failed ${outcomes.outcomes.failed}, duplicates ${outcomes.outcomes.duplicate}; ${outcomes.warnings} warnings${outcomes.firstWarning ? ` (first: ${outcomes.firstWarning})` : ''}`,
        `SUMMARY mode=${deployment.mode} devices=${N} samples=${SAMPLES} baseline_p50=${ms(quantile(baseline, 0.5))} baseline_p99=${ms(quantile(baseline, 0.99))} done_p50=${ms(quantile(done, 0.5))} done_p99=${ms(quantile(done, 0.99))} answer_p50=${ms(quantile(answered, 0.5))} ratio_p50=${ratio(0.5)} ratio_p99=${ratio(0.99)} load_start="${loadAtStart}" load_end="${load}"`,
      ].join('\n'),
    );
  } finally {
    await phones.close();
    await deployment.close();
  }
};

await main();
