/**
 * Benchmark: one bulk lock (multiple_device_lock_unlock, filter all_enrolled) of N connected
 * phones, against a baseline measured in the same run — a raw QoS 1 publish of a lock command to
 * every phone's cmd topic straight through the embedded broker, with the server's event handling
 * paused, timed until the phones' done acks reach the broker.
 *
 * The real server (buildApp on 127.0.0.1, port 0, in-memory PGlite, embedded broker at /mqtt, jobs
 * off) gets N enrolled customers inserted in batches, each device with a known secret (stored as
 * its SHA-256, as enrolment does). The phones are real DeviceAgents (bulk-lock-devices.ts) in a
 * child process, connected over WebSocket to /mqtt.
 *
 * Run: `npm run bulk-lock -w @kisht/bench` (`-- --devices 10000` for N, default 2000;
 * `--connect-concurrency 200` for how many phones connect at once; `--poll-ms 200` for how often
 * the progress call is polled — the web app polls every 1,500 ms; `--sql-stats` to print the time
 * per statement during the bulk; `--profile file.cpuprofile` for a CPU profile of the server during
 * the bulk). Each process holds one socket per phone; Node raises its open-file limit to the hard
 * limit by itself, and the run stops at once, saying so, when that is still too low. Prints figures
 * (the last line, SUMMARY, in one line); asserts nothing.
 */
import { fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { imeiCheckDigit } from '@kisht/domain/common/identifiers';
import { addDays, istDate } from '@kisht/domain/common/time';
import type { TBulkProgress } from '@kisht/domain/devices/devices.schema';
import { cmdTopic } from '@kisht/domain/devices/protocol.schema';
import { signServerMessage } from '@kisht/domain/devices/server-message';
import { paths } from '@kisht/domain/paths';
import { buildApp } from '@kisht/server/app';
import { loadConfig } from '@kisht/server/config';
import { createPglite, type Db, openDatabase } from '@kisht/server/db/client';
import { customers, deviceCommands, devices, emis, products, users } from '@kisht/server/db/schema';
import { BULK_CUSTOMER_LOAN, DEMO_ORG_ID, DEMO_RETAILER_MOBILE, seedDemo } from '@kisht/server/db/seed/seed';
import { sha256Hex } from '@kisht/server/lib/crypto';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { TChildMessage, TParentMessage, TSimulatedDevice } from './bulk-lock-devices';

const { values: args } = parseArgs({
  options: {
    devices: { type: 'string', default: '2000' },
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
if (!Number.isInteger(N) || N < 1 || N > 10_000)
  throw new Error('--devices must be 1–10000 (the bulk limit)');
/** The k-th arrival that makes 99%. */
const P99_COUNT = Math.ceil(0.99 * N);
const POLL_MS = Number(args['poll-ms']);
/** How long any one phase may take before the benchmark gives up on it. */
const PHASE_TIMEOUT_MS = 120_000 + N * 100;
const BATCH = 1_000;
/** The baseline's policy versions start above this: far above what the server gives in a run. */
const BASELINE_POLICY_VERSION = 1_000_000;
/** Sockets and files each process needs besides one per phone. */
const SPARE_FILES = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number | null) => (ms === null ? 'not reached' : `${(ms / 1000).toFixed(2)} s`);
const waitUntil = async (isDone: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 20) => {
  const deadline = performance.now() + timeoutMs;
  while (!(await isDone())) {
    if (performance.now() > deadline) return false;
    await sleep(everyMs);
  }
  return true;
};

/**
 * A JSON call over node:http: unlike fetch (undici: 300 s for the response headers) it waits as
 * long as the server takes, and a bulk request of 10,000 phones can take longer than that here.
 */
const callJson = (url: string, options: { method: 'GET' | 'POST'; token: string; body?: unknown }) =>
  new Promise<{ status: number; json: { data: unknown } }>((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const request = httpRequest(
      url,
      {
        method: options.method,
        headers: {
          authorization: `Bearer ${options.token}`,
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          try {
            resolve({
              status: response.statusCode ?? 0,
              json: JSON.parse(Buffer.concat(chunks).toString('utf8')),
            });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
/**
 * Wraps pglite.query (what drizzle calls) to add up, per statement text, the calls, milliseconds
 * (waiting for the single connection included) and rows; stop() unwraps it and returns the totals.
 */
const timeStatements = (pglite: Awaited<ReturnType<typeof createPglite>>) => {
  type PGlite = typeof pglite;
  const stats = new Map<string, { count: number; ms: number; rows: number }>();
  const original = pglite.query;
  const timed = async (...call: Parameters<PGlite['query']>) => {
    const start = performance.now();
    const result = await original.apply(pglite, call);
    const text = call[0].replace(/\s+/g, ' ').trim().slice(0, 100);
    const stat = stats.get(text) ?? { count: 0, ms: 0, rows: 0 };
    stat.count += 1;
    stat.ms += performance.now() - start;
    stat.rows += result.rows.length;
    stats.set(text, stat);
    return result;
  };
  pglite.query = timed as PGlite['query'];
  return {
    stop: () => {
      pglite.query = original;
      return stats;
    },
  };
};

/** Time of the k-th (1-based) earliest of `times`, or null when fewer arrived. */
const kth = (times: number[], k: number) => {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted.length >= k ? sorted[k - 1]! : null;
};

const imei = (n: number, slot: number) => {
  const body = `36${slot}${String(n).padStart(11, '0')}`;
  return `${body}${imeiCheckDigit(body)}`;
};

/**
 * Adds `count` installed customers of the demo retailer, each with an enrolled device whose secret
 * is known (stored as sha256 hex, as enrolment stores it). The three seeded demo phones have
 * secrets nobody knows and could never answer, so they are un-enrolled first: every phone the bulk
 * request targets is a simulated one.
 */
const seedEnrolledCustomers = async (db: Db, count: number): Promise<TSimulatedDevice[]> => {
  const [retailer] = await db
    .select()
    .from(users)
    .where(and(eq(users.orgId, DEMO_ORG_ID), eq(users.mobile, DEMO_RETAILER_MOBILE)));
  const [product] = await db.select().from(products).where(eq(products.orgId, DEMO_ORG_ID)).limit(1);
  await db.update(devices).set({ enrolledAt: null, secretHash: null }).where(eq(devices.orgId, DEMO_ORG_ID));
  const simulated: TSimulatedDevice[] = [];
  const enrolledAt = new Date();
  for (let offset = 0; offset < count; offset += BATCH) {
    const size = Math.min(BATCH, count - offset);
    const inserted = await db
      .insert(customers)
      .values(
        Array.from({ length: size }, (_, k) => ({
          orgId: DEMO_ORG_ID,
          retailerId: retailer!.id,
          firstName: 'Bench',
          lastName: `Phone${offset + k}`,
          mobile: `+91${7_000_000_000 + offset + k}`,
          status: 1, // install: what enrolment makes of the customer
          productId: product!.id,
          ...BULK_CUSTOMER_LOAN,
        })),
      )
      .returning({ id: customers.id });
    const batch = inserted.map((_, k) => ({
      deviceId: uuidv7(),
      secret: randomBytes(32).toString('base64url'),
      imei1: imei(offset + k, 1),
      imei2: imei(offset + k, 2),
    }));
    await db.insert(devices).values(
      batch.map((device, k) => ({
        id: device.deviceId,
        orgId: DEMO_ORG_ID,
        customerId: inserted[k]!.id,
        imei1: device.imei1,
        imei2: device.imei2,
        enrolledAt,
        secretHash: sha256Hex(device.secret),
      })),
    );
    // One instalment each, due ten days ago and unpaid: since issue 12 a bulk lock only locks
    // customers with something overdue (it carries no reason), so paid-up phones would be skipped.
    await db.insert(emis).values(
      inserted.map(({ id }) => ({
        orgId: DEMO_ORG_ID,
        customerId: id,
        instalmentNo: 1,
        dueDate: addDays(istDate(), -10),
        amountPaise: BULK_CUSTOMER_LOAN.emiPaise,
        principalPaise: BULK_CUSTOMER_LOAN.emiPaise,
        interestPaise: 0,
      })),
    );
    simulated.push(...batch);
  }
  return simulated;
};

/** The soft limit on open files of this process (Linux /proc), or null where it cannot be read. */
const openFilesLimit = async (): Promise<number | null> => {
  const limits = await readFile('/proc/self/limits', 'utf8').catch(() => null);
  const match = limits && /^Max open files\s+(\d+|unlimited)/m.exec(limits);
  if (!match) return null;
  return match[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(match[1]);
};

const main = async () => {
  const fileLimit = await openFilesLimit();
  if (fileLimit !== null && fileLimit < N + SPARE_FILES) {
    throw new Error(
      `${N} phones need about ${N + SPARE_FILES} open files per process, the limit here is ${fileLimit}: raise it (ulimit -n) or use fewer --devices`,
    );
  }
  const loadAtStart = loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
  const started = performance.now();
  const pglite = await createPglite('memory://');
  const { db } = await openDatabase({ pglite });
  await seedDemo(db);
  const simulated = await seedEnrolledCustomers(db, N);
  await pglite.exec('ANALYZE');
  const seededMs = performance.now() - started;

  const app = await buildApp(
    loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      OTP_RESEND_AFTER_SECONDS: '0',
      JOBS_INTERVAL_MINUTES: '0',
      PGLITE_ANALYZE_INTERVAL_HOURS: '0',
      WEB_DIST_DIR: '/nonexistent',
    }),
    { pglite, sms: { send: async () => {} } },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const broker = app.broker!;

  // Every received and done ack that reaches the broker, by command id: when it first arrived.
  const receivedAt = new Map<string, number>();
  const doneAt = new Map<string, number>();
  await broker.subscribeEvents(async (_topic, payload) => {
    const event = JSON.parse(payload.toString('utf8')) as {
      type?: string;
      status?: string;
      commandId?: string;
    };
    if (event.type !== 'ack' || !event.commandId) return;
    const arrivals = event.status === 'done' ? doneAt : event.status === 'received' ? receivedAt : null;
    if (arrivals && !arrivals.has(event.commandId)) arrivals.set(event.commandId, performance.now());
  });
  // The baseline has no server logic: the recorder's recording of device events (processBatch, a
  // private method) is replaced by a no-op on the instance while it runs. Otherwise the instance
  // holds a wrapper that counts batches and the time spent recording them.
  type TBatchRecorder = (batch: unknown[]) => Promise<void>;
  const dispatcher = app.ctx.deviceEvents as unknown as { processBatch?: TBatchRecorder };
  const recordBatch = dispatcher.processBatch;
  if (typeof recordBatch !== 'function') {
    throw new Error('DeviceEventRecorder has no processBatch any more: update how the baseline pauses it');
  }
  const recording = { batches: 0, events: 0, largest: 0, busyMs: 0 };
  const measuredRecordBatch: TBatchRecorder = async (batch) => {
    const start = performance.now();
    try {
      await recordBatch.call(dispatcher, batch);
    } finally {
      recording.batches += 1;
      recording.events += batch.length;
      recording.largest = Math.max(recording.largest, batch.length);
      recording.busyMs += performance.now() - start;
    }
  };
  const resetRecording = () => Object.assign(recording, { batches: 0, events: 0, largest: 0, busyMs: 0 });
  const pauseDispatcher = () => {
    dispatcher.processBatch = async () => {};
  };
  const resumeDispatcher = () => {
    dispatcher.processBatch = measuredRecordBatch;
  };
  resumeDispatcher();

  // Phones in a child process (bulk-lock-devices.ts), in a temporary directory of state files (in
  // /dev/shm when there is one, so that the one disk of this machine does not stand in for N phones').
  const stateDir = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'kisht-bulk-'));
  const child = fork(new URL('./bulk-lock-devices.ts', import.meta.url), [], { stdio: 'inherit' });
  const childExited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ask = <T extends TChildMessage['type']>(message: TParentMessage, answer: T) =>
    new Promise<Extract<TChildMessage, { type: T }>>((resolve, reject) => {
      const onMessage = (reply: TChildMessage) => {
        if (reply.type !== answer) return;
        child.off('exit', onExit);
        child.off('message', onMessage);
        resolve(reply as Extract<TChildMessage, { type: T }>);
      };
      const onExit = (code: number | null) => reject(new Error(`simulated devices exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send(message);
    });

  let final: Extract<TChildMessage, { type: 'stopped' }> | undefined;
  try {
    await ask(
      {
        type: 'prepare',
        serverUrl: base,
        mqttUrl: `${base.replace(/^http/, 'ws')}${paths.mqtt}`,
        stateDir,
        devices: simulated,
        serverKey: await app.ctx.dispatcher.serverKeys
          .forOrg(DEMO_ORG_ID)
          .then(({ kid, publicKey }) => ({ kid, publicKey })),
      },
      'prepared',
    );

    // Connect: every phone connects, subscribes and says hello; then wait until the server has
    // recorded every hello (the hello carries the SIM slots, so sims is set).
    const connectStart = performance.now();
    const connected = await ask(
      { type: 'connect', concurrency: CONNECT_CONCURRENCY, timeoutMs: 60_000 },
      'connected',
    );
    const connectMs = performance.now() - connectStart;
    const recordedHellos = async () =>
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(devices)
          .where(and(eq(devices.orgId, DEMO_ORG_ID), isNotNull(devices.enrolledAt), isNotNull(devices.sims)))
      )[0]!.n;
    await waitUntil(
      async () => (await recordedHellos()) >= N - connected.failures.length,
      PHASE_TIMEOUT_MS,
      200,
    );
    const helloMs = performance.now() - connectStart;
    const online = broker.connectedClients();

    // Baseline: raw publishes through the broker, server event handling paused. A warm-up round
    // (unlock, not reported), the measured lock round, and an unlock round that puts the phones back
    // (reported as a second sample); the server's records still say unlocked throughout.
    // Each round is a signed policy version above anything the server has sent (device protocol
    // §6), signed before the clock starts: the baseline is the broker and the phones alone.
    const serverKey = await app.ctx.dispatcher.serverKeys.forOrg(DEMO_ORG_ID);
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
      const t0 = performance.now();
      await Promise.all(messages.map((m) => broker.publish(m.topic, m.payload)));
      await waitUntil(() => messages.every((m) => doneAt.has(m.id)), PHASE_TIMEOUT_MS);
      const times = messages.flatMap((m) => (doneAt.has(m.id) ? [doneAt.get(m.id)! - t0] : []));
      return { p99: kth(times, P99_COUNT), all: kth(times, N), answered: times.length };
    };
    pauseDispatcher();
    await rawRound('unlock');
    const baseline = await rawRound('lock');
    const restore = await rawRound('unlock');
    // The server's own versions go on above the baseline's, so the phones take the bulk lock.
    await db.update(devices).set({ policyVersion: baselineVersion }).where(eq(devices.orgId, DEMO_ORG_ID));
    resumeDispatcher();

    // Bulk: one POST by the logged-in demo retailer (bulk_retailer '1'), then the progress call every
    // 200 ms until every command is done (or none is pending any more).
    const otp = await app.inject({
      method: 'POST',
      url: paths.auth.loginWithOtp,
      payload: { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE },
    });
    const verified = await app.inject({
      method: 'POST',
      url: paths.auth.verifyOtp,
      payload: { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE, otp: otp.json().data.devOtp },
    });
    const token = verified.json().data.token as string;
    resetRecording();
    const sqlStats = args['sql-stats'] ? timeStatements(pglite) : null;
    const profiler = args.profile ? new Session() : null;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    const t0 = performance.now();
    const wallT0 = Date.now();
    const response = await callJson(`${base}${paths.devices.bulkLockUnlock}`, {
      method: 'POST',
      token,
      body: { action: 'lock', filter: 'all_enrolled' },
    });
    const httpMs = performance.now() - t0;
    if (response.status !== 200) {
      throw new Error(`bulk lock failed: HTTP ${response.status} ${JSON.stringify(response.json)}`);
    }
    const accepted = response.json.data as TBulkProgress;
    const progress = async () => {
      const reply = await callJson(`${base}${paths.devices.bulkProgress}?batch_id=${accepted.batchId}`, {
        method: 'GET',
        token,
      });
      if (reply.status !== 200) throw new Error(`progress failed: HTTP ${reply.status}`);
      return reply.json.data as TBulkProgress;
    };
    const target = Math.ceil(0.99 * accepted.total);
    let polled99Ms: number | null = null;
    let polledAllMs: number | null = null;
    let polls = 0;
    let pollingMs = 0;
    let finalProgress = accepted;
    while (performance.now() - t0 < PHASE_TIMEOUT_MS) {
      const pollStart = performance.now();
      finalProgress = await progress();
      polls += 1;
      pollingMs += performance.now() - pollStart;
      const { done, queued, sent, received } = finalProgress.counts;
      if (done >= target) polled99Ms ??= performance.now() - t0;
      if (done === accepted.total) polledAllMs = performance.now() - t0;
      if (queued + sent + received === 0) break;
      await sleep(Math.max(0, POLL_MS - (performance.now() - pollStart)));
    }
    const recorded = { ...recording };
    const statements = sqlStats?.stop();
    if (profiler) {
      const { profile } = await profiler.post('Profiler.stop');
      await writeFile(args.profile!, JSON.stringify(profile));
      profiler.disconnect();
    }
    const ids = accepted.items.map((item) => item.commandId);
    await waitUntil(() => ids.every((id) => doneAt.has(id)), 10_000);
    const firstReceived = Math.min(...ids.map((id) => (receivedAt.get(id) ?? Number.POSITIVE_INFINITY) - t0));
    const ackTimes = ids.flatMap((id) => (doneAt.has(id) ? [doneAt.get(id)! - t0] : []));
    // When each command row became done (its updated_at), as the database saw it.
    const rows = await db
      .select({ updatedAt: deviceCommands.updatedAt })
      .from(deviceCommands)
      .where(and(eq(deviceCommands.batchId, accepted.batchId), eq(deviceCommands.state, 'done')));
    const rowTimes = rows.map((row) => row.updatedAt.getTime() - wallT0);
    const ackP99 = kth(ackTimes, target);
    const rowP99 = kth(rowTimes, target);
    const rowAll = kth(rowTimes, accepted.total);

    final = await ask({ type: 'stop' }, 'stopped');
    const ratio = (a: number | null, b: number | null) =>
      a === null || b === null ? 'n/a' : (a / b).toFixed(2);
    const notDone = Object.entries(finalProgress.counts).filter(([state, n]) => n > 0 && state !== 'done');
    const load = loadavg()
      .map((n) => n.toFixed(1))
      .join(' ');
    const lines = [
      `bulk lock: ${N} simulated phones (DeviceAgent, child process), ${availableParallelism()} cores; load average at start ${loadAtStart}, at end ${load}`,
      `seeded ${N} enrolled customers (with the demo data) in ${seconds(seededMs)}`,
      `connect: ${connected.failures.length === 0 ? 'all' : N - connected.failures.length} connected and said hello in ${seconds(connectMs)} (${CONNECT_CONCURRENCY} at a time; ${online} MQTT clients); server recorded every hello at ${seconds(helloMs)}`,
      `baseline (raw QoS 1 publish to each cmd topic, server event handling paused): 99% done acks at ${seconds(baseline.p99)}, all at ${seconds(baseline.all)} (${baseline.answered}/${N}); second sample (unlock) 99% at ${seconds(restore.p99)}`,
      `bulk request (HTTP POST multiple_device_lock_unlock, filter all_enrolled): ${seconds(httpMs)} for ${accepted.total} commands, ${accepted.skipped.length} skipped; the first command reached its phone at ${seconds(Number.isFinite(firstReceived) ? firstReceived : null)}`,
      `bulk done (progress polled every ${POLL_MS} ms, ${polls} polls answered in ${seconds(pollingMs / Math.max(1, polls))} on average): 99% at ${seconds(polled99Ms)}, 100% at ${seconds(polledAllMs)}; command rows done: 99% at ${seconds(rowP99)}, all at ${seconds(rowAll)}; done acks at the broker: 99% at ${seconds(ackP99)}, all at ${seconds(kth(ackTimes, accepted.total))}`,
      `server recorded ${recorded.events} device events in ${recorded.batches} batches (largest ${recorded.largest}), busy ${seconds(recorded.busyMs)}`,
      `ratio bulk/baseline (99%): ${ratio(polled99Ms, baseline.p99)} (command rows ${ratio(rowP99, baseline.p99)}, done acks ${ratio(ackP99, baseline.p99)})`,
      `final: ${finalProgress.counts.done}/${finalProgress.total} done (${
        notDone.map(([state, n]) => `${state} ${n}`).join(', ') || 'nothing else'
      }); phones (over all rounds) applied ${final.outcomes.done} commands, failed ${final.outcomes.failed}, duplicates ${final.outcomes.duplicate}; ${final.warnings} warnings${final.firstWarning ? ` (first: ${final.firstWarning})` : ''}`,
      `peak memory (max RSS): server ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB, phones' process ${(final.maxRssKiB / 1024).toFixed(0)} MiB`,
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
      `SUMMARY devices=${N} connect=${seconds(connectMs)} request=${seconds(httpMs)} done99=${seconds(polled99Ms)} done100=${seconds(polledAllMs)} baseline99=${seconds(baseline.p99)} ratio=${ratio(polled99Ms, baseline.p99)} duplicates=${final.outcomes.duplicate} failures=${(final.outcomes.failed ?? 0) + connected.failures.length + notDone.reduce((sum, [, n]) => sum + n, 0)}`,
    );
    console.log(lines.join('\n'));
  } finally {
    if (!final && child.connected) await ask({ type: 'stop' }, 'stopped').catch(() => undefined);
    if (child.exitCode === null) {
      const exited = await Promise.race([childExited.then(() => true), sleep(10_000).then(() => false)]);
      if (!exited) child.kill();
    }
    await app.close();
    await rm(stateDir, { recursive: true, force: true });
  }
};

await main();
