/**
 * Benchmark: one bulk lock (multiple_device_lock_unlock, filter all_enrolled) of N connected
 * phones, against a baseline measured in the same run — a raw QoS 1 publish of a lock command to
 * every phone's cmd topic straight through the broker, with the server's event handling paused,
 * timed until the phones' done acks reach the broker.
 *
 * Embedded (the default): the real server (buildApp on 127.0.0.1, port 0, in-memory PGlite,
 * embedded broker at /mqtt, jobs off) gets N enrolled customers inserted in batches, each device
 * with a known secret (stored as its SHA-256, as enrolment does). The phones are real DeviceAgents
 * (bulk-lock-devices.ts) in child processes, connected over WebSocket to /mqtt.
 *
 * `--scale-out` (design §7, support/scale-out.ts): the same customers in a fresh PostgreSQL
 * database, two server processes on it and on the machine's Mosquitto, the phones connected to
 * Mosquitto; the baseline is published straight to Mosquitto with both server processes stopped
 * (they are started again for the bulk), the bulk request goes to A and the progress polls
 * alternate between A and B.
 *
 * Run: `npm run bulk-lock -w @kisht/bench` (`-- --devices 10000` for N, default 2000;
 * `--phone-processes 2` to split the phones across that many child processes, default 1;
 * `--scale-out` for PostgreSQL + Mosquitto (`--api-processes 1` for one server process instead of two);
 * `--connect-concurrency 200` for how many phones connect at once; `--poll-ms 200` for how often
 * the progress call is polled — the web app polls every 1,500 ms; `--sql-stats` to print the time
 * per statement during the bulk, embedded only; `--profile file.cpuprofile` for a CPU profile of the
 * embedded server during the bulk). The embedded server holds one socket per phone, each phone
 * process one socket and, while a round is applied, one state file per phone; Node raises its
 * open-file limit to the hard limit by itself, and the run stops at once, saying so, when that is
 * still too low. Progress lines (each phase, and what a long wait still waits for) go to stderr.
 * Prints figures (the last line, SUMMARY, in one line); asserts nothing.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { TBulkProgress } from '@kisht/domain/devices/devices.schema';
import { cmdTopic } from '@kisht/domain/devices/protocol.schema';
import { signServerMessage } from '@kisht/domain/devices/server-message';
import { paths } from '@kisht/domain/paths';
import { deviceCommands, devices } from '@kisht/server/db/schema';
import { DEMO_ORG_ID } from '@kisht/server/db/seed/seed';
import { and, eq } from 'drizzle-orm';
import {
  callJson,
  checkOpenFiles,
  connectPhones,
  kth,
  logProgress,
  seconds,
  sleep,
  startPhones,
  timeStatements,
  trackAcks,
  waitUntil,
} from './support/bench-server';
import { startEmbeddedTarget } from './support/bench-target';
import { startScaleOutTarget } from './support/scale-out';

const { values: args } = parseArgs({
  options: {
    devices: { type: 'string', default: '2000' },
    /** How many child processes hold the phones (split evenly). */
    'phone-processes': { type: 'string', default: '1' },
    /** PostgreSQL + Mosquitto and two server processes instead of the embedded server. */
    'scale-out': { type: 'boolean', default: false },
    /** How many server processes --scale-out starts (default 2; 1 gives one process's figures). */
    'api-processes': { type: 'string', default: '2' },
    /** The broker of --scale-out (default the machine's Mosquitto, mqtt://127.0.0.1:1883). */
    'mqtt-url': { type: 'string' },
    'connect-concurrency': { type: 'string', default: '200' },
    /** How often the progress call is polled during the bulk, in milliseconds. */
    'poll-ms': { type: 'string', default: '200' },
    /** Prints the time spent in each statement on PGlite during the bulk (waits for the connection included). */
    'sql-stats': { type: 'boolean', default: false },
    /** Writes a V8 CPU profile of the server process during the bulk phase to this file. */
    profile: { type: 'string' },
  },
});
const N = Number(args.devices);
const CONNECT_CONCURRENCY = Number(args['connect-concurrency']);
const PHONE_PROCESSES = Number(args['phone-processes']);
const SCALE_OUT = args['scale-out'];
if (!Number.isInteger(N) || N < 1) throw new Error('--devices must be a whole number from 1');
if (!Number.isInteger(PHONE_PROCESSES) || PHONE_PROCESSES < 1)
  throw new Error('--phone-processes must be a whole number from 1');
if (SCALE_OUT && (args['sql-stats'] || args.profile))
  throw new Error('--sql-stats and --profile measure the embedded server: not with --scale-out');
/** The k-th arrival that makes 99%. */
const P99_COUNT = Math.ceil(0.99 * N);
const POLL_MS = Number(args['poll-ms']);
/** How long any one phase may take before the benchmark gives up on it. */
const PHASE_TIMEOUT_MS = 120_000 + N * 100;
/** The bulk phase ends early when its counts have not moved for this long (the bench runs no jobs, so nothing would re-send). */
const STALL_MS = 30_000;
/** The baseline's policy versions start above this: far above what the server gives in a run. */
const BASELINE_POLICY_VERSION = 1_000_000;

const main = async () => {
  await checkOpenFiles({ serverPhones: SCALE_OUT ? 0 : N, phonesPerProcess: Math.ceil(N / PHONE_PROCESSES) });
  const loadAtStart = loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
  const deployment = SCALE_OUT
    ? await startScaleOutTarget(N, args['mqtt-url'], Number(args['api-processes']))
    : await startEmbeddedTarget(N);
  const { statements: counter, db, bus, simulated, seededMs } = deployment;
  const { receivedAt, doneAt } = await trackAcks(bus);
  const phones = await startPhones(deployment.phoneTarget, {
    processes: PHONE_PROCESSES,
    ...(deployment.externalBrokerUrl ? { cleanSessionsAt: deployment.externalBrokerUrl } : {}),
  });
  try {
    // Connect: first the connect baseline (the same clients' plain MQTT connects, closed again),
    // then every phone connects, subscribes and says hello; then wait until the server has
    // recorded every hello.
    const connected = await connectPhones(deployment, phones, {
      concurrency: CONNECT_CONCURRENCY,
      timeoutMs: PHASE_TIMEOUT_MS,
      isRawConnectMeasured: true,
    });
    const { connectMs, helloMs, rawConnectMs } = connected;
    const clients = deployment.mqttClients();
    const online = clients === null ? 'MQTT clients not counted on Mosquitto' : `${clients} MQTT clients`;

    // Baseline: raw publishes through the broker, server event handling paused. A warm-up round
    // (unlock, not reported), the measured lock round, and an unlock round that puts the phones back
    // (reported as a second sample); the server's records still say unlocked throughout.
    // Each round is a signed policy version above anything the server has sent (device protocol
    // §6), signed before the clock starts: the baseline is the broker and the phones alone.
    const serverKey = deployment.signingKey;
    let baselineVersion = BASELINE_POLICY_VERSION;
    const rawRound = async (name: 'lock' | 'unlock') => {
      baselineVersion += 1;
      const messages = simulated.map((device) => {
        const id = randomUUID();
        const payload = signServerMessage(serverKey, {
          type: 'policy',
          deviceId: device.deviceId,
          version: baselineVersion,
          policy: { locked: name === 'lock', controls: {} },
          commands: [{ id, name }],
          issuedAt: new Date().toISOString(),
        });
        return { id, topic: cmdTopic(device.deviceId), payload };
      });
      logProgress(`baseline ${name}: ${messages.length} raw publishes`);
      const t0 = performance.now();
      await Promise.all(messages.map((m) => bus.publish(m.topic, m.payload)));
      logProgress(`baseline ${name}: the broker took every publish in ${seconds(performance.now() - t0)}`);
      const doneCount = () => messages.reduce((n, m) => n + (doneAt.has(m.id) ? 1 : 0), 0);
      await waitUntil(
        () => messages.every((m) => doneAt.has(m.id)),
        PHASE_TIMEOUT_MS,
        20,
        async () => {
          const status = await phones.status();
          return `baseline ${name} done acks: ${doneCount()}/${messages.length}; phones without a sync ${status.unsynced}, reconnects ${status.reconnects}, messages refused ${status.invalidMessages}`;
        },
      );
      logProgress(
        `baseline ${name}: ${doneCount()}/${messages.length} done acks at ${seconds(performance.now() - t0)}`,
      );
      const times = messages.flatMap((m) => (doneAt.has(m.id) ? [doneAt.get(m.id)! - t0] : []));
      return { p99: kth(times, P99_COUNT), all: kth(times, N), answered: times.length };
    };
    await deployment.pauseServer();
    await rawRound('unlock');
    const baseline = await rawRound('lock');
    const restore = await rawRound('unlock');
    // The server's own versions go on above the baseline's, so the phones take the bulk lock.
    await db.update(devices).set({ policyVersion: baselineVersion }).where(eq(devices.orgId, DEMO_ORG_ID));
    await deployment.resumeServer();

    // Bulk: one POST by the logged-in demo retailer (bulk_retailer '1'), then the progress call every
    // 200 ms until every command is done (or none is pending any more). In scale-out the POST goes
    // to A and the polls alternate between A and B.
    const token = await deployment.login();
    const bases = deployment.bases();
    deployment.resetRecording();
    const sqlStats = args['sql-stats'] && counter ? timeStatements(counter) : null;
    const profiler = args.profile ? new Session() : null;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    logProgress('bulk: POST multiple_device_lock_unlock');
    const t0 = performance.now();
    const wallT0 = Date.now();
    const response = await callJson(`${bases[0]}${paths.devices.bulkLockUnlock}`, {
      method: 'POST',
      token,
      body: { action: 'lock', filter: 'all_enrolled' },
    });
    const httpMs = performance.now() - t0;
    if (response.status !== 200) {
      throw new Error(`bulk lock failed: HTTP ${response.status} ${JSON.stringify(response.json)}`);
    }
    const accepted = response.json.data as TBulkProgress;
    logProgress(`bulk: accepted ${accepted.total} commands in ${seconds(httpMs)}, polling progress`);
    // As the web app polls: with the last answer's cursor, so only changed items come back.
    let cursor = accepted.cursor;
    let polls = 0;
    const progress = async () => {
      const base = bases[polls % bases.length];
      const url = `${base}${paths.devices.bulkProgress}?batch_id=${accepted.batchId}&since=${cursor}`;
      const reply = await callJson(url, { method: 'GET', token });
      if (reply.status !== 200) throw new Error(`progress failed: HTTP ${reply.status}`);
      const answer = reply.json.data as TBulkProgress;
      cursor = answer.cursor;
      return answer;
    };
    const doneTarget = Math.ceil(0.99 * accepted.total);
    let polled99Ms: number | null = null;
    let polledAllMs: number | null = null;
    let pollingMs = 0;
    let finalProgress = accepted;
    let lastChangeAt = performance.now();
    let lastCounts = '';
    while (performance.now() - t0 < PHASE_TIMEOUT_MS) {
      const pollStart = performance.now();
      finalProgress = await progress();
      polls += 1;
      pollingMs += performance.now() - pollStart;
      const { done, queued, sent, received } = finalProgress.counts;
      const counts = JSON.stringify(finalProgress.counts);
      if (counts !== lastCounts) [lastCounts, lastChangeAt] = [counts, performance.now()];
      else if (performance.now() - lastChangeAt > STALL_MS) {
        logProgress(`bulk: nothing moved for ${seconds(STALL_MS)}: ${counts}`);
        break;
      }
      if (done >= doneTarget) polled99Ms ??= performance.now() - t0;
      if (done === accepted.total) polledAllMs = performance.now() - t0;
      if (queued + sent + received === 0) break;
      if (polls % 50 === 0)
        logProgress(
          `bulk: ${done}/${accepted.total} done, ${queued} queued, ${sent} sent, ${received} received`,
        );
      await sleep(Math.max(0, POLL_MS - (performance.now() - pollStart)));
    }
    logProgress(`bulk: polling ended, ${finalProgress.counts.done}/${accepted.total} done`);
    const recorded = deployment.recording ? { ...deployment.recording } : null;
    const statements = sqlStats?.stop();
    if (profiler) {
      const { profile } = await profiler.post('Profiler.stop');
      await writeFile(args.profile!, JSON.stringify(profile));
      profiler.disconnect();
    }
    // The answer lists the first chunk only (the rest is written after it): every id from the batch.
    const batchRows = await db
      .select({ id: deviceCommands.id })
      .from(deviceCommands)
      .where(eq(deviceCommands.batchId, accepted.batchId));
    const ids = batchRows.map((row) => row.id);
    if (ids.length === 0) throw new Error('the bulk batch wrote no command rows');
    await waitUntil(() => ids.every((id) => doneAt.has(id)), 10_000);
    const firstReceived = Math.min(...ids.map((id) => (receivedAt.get(id) ?? Number.POSITIVE_INFINITY) - t0));
    const ackTimes = ids.flatMap((id) => (doneAt.has(id) ? [doneAt.get(id)! - t0] : []));
    // When each command row became done (its updated_at), as the database saw it.
    const rows = await db
      .select({ updatedAt: deviceCommands.updatedAt })
      .from(deviceCommands)
      .where(and(eq(deviceCommands.batchId, accepted.batchId), eq(deviceCommands.state, 'done')));
    const rowTimes = rows.map((row) => row.updatedAt.getTime() - wallT0);
    const ackP99 = kth(ackTimes, doneTarget);
    const rowP99 = kth(rowTimes, doneTarget);
    const rowAll = kth(rowTimes, accepted.total);

    const serverMemory = await deployment.serverMemory();
    logProgress('phones: stopping');
    const final = await phones.stop();
    logProgress('phones: stopped');
    const ratio = (a: number | null, b: number | null) =>
      a === null || b === null ? 'n/a' : (a / b).toFixed(2);
    const notDone = Object.entries(finalProgress.counts).filter(([state, n]) => n > 0 && state !== 'done');
    const load = loadavg()
      .map((n) => n.toFixed(1))
      .join(' ');
    const lines = [
      `bulk lock, ${
        SCALE_OUT
          ? `scale-out (PostgreSQL + Mosquitto, ${args['api-processes']} server processes)`
          : 'embedded (PGlite, embedded broker, one process)'
      }: ${N} simulated phones (DeviceAgent, ${phones.processes} child process${phones.processes > 1 ? 'es' : ''}), ${availableParallelism()} cores; load average at start ${loadAtStart}, at end ${load}`,
      `seeded ${N} enrolled customers (with the demo data) in ${seconds(seededMs)}`,
      `connect: ${connected.failures.length === 0 ? 'all' : N - connected.failures.length} connected and said hello in ${seconds(connectMs)} (${CONNECT_CONCURRENCY} at a time; ${online}); server recorded every hello at ${seconds(helloMs)}`,
      rawConnectMs === null
        ? 'connect baseline: not measured'
        : `connect baseline: the same clients' plain MQTT connections (${SCALE_OUT ? "the broker's own check only: Kisht's auth hook is EMQX's, not run here" : 'credentials checked by the server, batched'}, no hello) in ${seconds(rawConnectMs)}${connected.rawFailures.length === 0 ? '' : ` (${connected.rawFailures.length} failed, first: ${connected.rawFailures[0]})`}; ratio hellos recorded / raw connect ${ratio(helloMs, rawConnectMs)}`,
      `baseline (raw QoS 1 publish to each cmd topic, server event handling ${SCALE_OUT ? 'stopped' : 'paused'}): 99% done acks at ${seconds(baseline.p99)}, all at ${seconds(baseline.all)} (${baseline.answered}/${N}); second sample (unlock) 99% at ${seconds(restore.p99)}`,
      `bulk request (HTTP POST multiple_device_lock_unlock, filter all_enrolled): ${seconds(httpMs)} for ${accepted.total} commands, ${accepted.skipped.length} skipped; the first command reached its phone at ${seconds(Number.isFinite(firstReceived) ? firstReceived : null)}`,
      `bulk done (progress polled every ${POLL_MS} ms, ${polls} polls answered in ${seconds(pollingMs / Math.max(1, polls))} on average): 99% at ${seconds(polled99Ms)}, 100% at ${seconds(polledAllMs)}; command rows done: 99% at ${seconds(rowP99)}, all at ${seconds(rowAll)}; done acks at the broker: 99% at ${seconds(ackP99)}, all at ${seconds(kth(ackTimes, accepted.total))}`,
      recorded
        ? `server recorded ${recorded.events} device events in ${recorded.batches} batches (largest ${recorded.largest}), busy ${seconds(recorded.busyMs)}`
        : 'server event recording: in the server processes, not measured here',
      `ratio bulk/baseline (99%): ${ratio(polled99Ms, baseline.p99)} (command rows ${ratio(rowP99, baseline.p99)}, done acks ${ratio(ackP99, baseline.p99)})`,
      `final: ${finalProgress.counts.done}/${finalProgress.total} done (${
        notDone.map(([state, n]) => `${state} ${n}`).join(', ') || 'nothing else'
      }); phones (over all rounds) applied ${final.outcomes.done} commands, failed ${final.outcomes.failed}, duplicates ${final.outcomes.duplicate}; ${final.warnings} warnings${final.firstWarning ? ` (first: ${final.firstWarning})` : ''}`,
      `peak memory (max RSS): server ${serverMemory}; phones' process${phones.processes > 1 ? 'es' : ''} ${final.perProcessRssKiB.map((kiB) => `${(kiB / 1024).toFixed(0)} MiB`).join(' + ')}`,
    ];
    if (connected.failures.length > 0)
      lines.push(`connect failures: ${connected.failures.slice(0, 3).join('; ')}`);
    if (statements) {
      lines.push('statements during the bulk, by total time (ms, count, rows, statement):');
      for (const [text, stat] of [...statements].sort((x, y) => y[1].ms - x[1].ms).slice(0, 15))
        lines.push(
          `  ${stat.ms.toFixed(0).padStart(7)} ${String(stat.count).padStart(6)}x ${String(stat.rows).padStart(8)}  ${text}`,
        );
    }
    lines.push(
      `SUMMARY mode=${deployment.mode} devices=${N} phone_processes=${phones.processes} connect=${seconds(connectMs)} raw_connect=${seconds(rawConnectMs)} connect_ratio=${ratio(helloMs, rawConnectMs)} request=${seconds(httpMs)} done99=${seconds(polled99Ms)} done100=${seconds(polledAllMs)} baseline99=${seconds(baseline.p99)} ratio=${ratio(polled99Ms, baseline.p99)} duplicates=${final.outcomes.duplicate} failures=${(final.outcomes.failed ?? 0) + connected.failures.length + notDone.reduce((sum, [, n]) => sum + n, 0)} server_rss="${serverMemory}" phones_rss_mib=${(final.maxRssKiB / 1024).toFixed(0)} load_start="${loadAtStart}" load_end="${load}"`,
    );
    console.log(lines.join('\n'));
  } finally {
    await phones.close();
    await deployment.close();
  }
};

await main();
