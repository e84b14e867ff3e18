/**
 * What the device-channel benchmarks share (bulk-lock.ts, command-latency.ts): a real server on
 * 127.0.0.1 (port 0, in-memory PGlite, embedded broker, jobs off) with N enrolled customers whose
 * phones are real DeviceAgents in one or more child processes (bulk-lock-devices.ts), the broker's
 * done acks as they arrive, the recorder paused for a raw baseline, and small timing helpers. The
 * scale-out mode (PostgreSQL + Mosquitto, two server processes) is in scale-out.ts.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { imeiCheckDigit } from '@kisht/domain/common/identifiers';
import { addDays, istDate } from '@kisht/domain/common/time';
import type { TServerKey } from '@kisht/domain/devices/protocol.schema';
import { paths } from '@kisht/domain/paths';
import { buildApp } from '@kisht/server/app';
import { loadConfig } from '@kisht/server/config';
import { createPglite, type Db, openDatabase } from '@kisht/server/db/client';
import { customers, devices, emis, products, users } from '@kisht/server/db/schema';
import { BULK_CUSTOMER_LOAN, DEMO_ORG_ID, DEMO_RETAILER_MOBILE, seedDemo } from '@kisht/server/db/seed/seed';
import type { StatementCounter } from '@kisht/server/db/statement-counter';
import type { DeviceBus } from '@kisht/server/device-channel/bus';
import { sha256Hex } from '@kisht/server/lib/crypto';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import type { TChildMessage, TParentMessage, TSimulatedDevice } from '../bulk-lock-devices';

const BATCH = 1_000;
/** Sockets and files each process needs besides one per phone. */
const SPARE_FILES = 500;

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Milliseconds as seconds with two decimals, or 'not reached' for null. */
export const seconds = (ms: number | null) => (ms === null ? 'not reached' : `${(ms / 1000).toFixed(2)} s`);
/**
 * Writes one progress line to stderr, stamped with the seconds since this process started: where a
 * long run is, so that a stall shows its phase. The figures themselves go to stdout.
 */
export const logProgress = (text: string) => {
  process.stderr.write(`[bench ${(performance.now() / 1000).toFixed(1).padStart(7)} s] ${text}\n`);
};
/** How often a wait that has not ended says what it still waits for. */
const WAITING_REPORT_MS = 30_000;
/**
 * Polls `isDone` every `everyMs` until it holds (true) or `timeoutMs` passes (false). With
 * `waitingFor`, a wait that lasts says every 30 s what it still waits for (logProgress), and says so
 * when it gives up.
 */
export const waitUntil = async (
  isDone: () => boolean | Promise<boolean>,
  timeoutMs: number,
  everyMs = 20,
  waitingFor?: () => string | Promise<string>,
) => {
  const start = performance.now();
  const deadline = start + timeoutMs;
  let nextReport = start + WAITING_REPORT_MS;
  while (!(await isDone())) {
    const now = performance.now();
    if (now > deadline) {
      if (waitingFor) logProgress(`gave up after ${seconds(now - start)} waiting for ${await waitingFor()}`);
      return false;
    }
    if (waitingFor && now > nextReport) {
      logProgress(`still waiting (${seconds(now - start)}) for ${await waitingFor()}`);
      nextReport = now + WAITING_REPORT_MS;
    }
    await sleep(everyMs);
  }
  return true;
};

/**
 * A JSON call over node:http: unlike fetch (undici: 300 s for the response headers) it waits as
 * long as the server takes, and a bulk request of 10,000 phones can take longer than that here.
 */
export const callJson = (url: string, options: { method: 'GET' | 'POST'; token: string; body?: unknown }) =>
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
/** Time of the k-th (1-based) earliest of `times`, or null when fewer arrived. */
export const kth = (times: number[], k: number) => {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted.length >= k ? sorted[k - 1]! : null;
};

/** A valid 15-digit IMEI (Luhn check digit) for phone `n`, SIM slot `slot`. */
export const imei = (n: number, slot: number) => {
  const body = `36${slot}${String(n).padStart(11, '0')}`;
  return `${body}${imeiCheckDigit(body)}`;
};

/**
 * Adds `count` installed customers of the demo retailer, each with an enrolled device whose secret
 * is known (stored as sha256 hex, as enrolment stores it). The three seeded demo phones have
 * secrets nobody knows and could never answer, so they are un-enrolled first: every phone the bulk
 * request targets is a simulated one.
 */
export const seedEnrolledCustomers = async (db: Db, count: number): Promise<TSimulatedDevice[]> => {
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
export const openFilesLimit = async (): Promise<number | null> => {
  const limits = await readFile('/proc/self/limits', 'utf8').catch(() => null);
  const match = limits && /^Max open files\s+(\d+|unlimited)/m.exec(limits);
  if (!match) return null;
  return match[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(match[1]);
};

/**
 * Throws, saying what to do, when this process's open-file limit (the phone processes inherit it)
 * is too low: the embedded server holds a socket per phone (`serverPhones`, 0 when the server runs
 * elsewhere), and a phone process a socket per phone plus, while a round of commands is applied, a
 * state file being saved per phone (`phonesPerProcess`; a save that fails for want of a file
 * descriptor leaves its command without a done ack).
 */
export const checkOpenFiles = async (options: { serverPhones: number; phonesPerProcess: number }) => {
  const fileLimit = await openFilesLimit();
  const server = options.serverPhones + SPARE_FILES;
  const phones = 2 * options.phonesPerProcess + SPARE_FILES;
  if (fileLimit === null || fileLimit >= Math.max(server, phones)) return;
  throw new Error(
    server > fileLimit
      ? `the embedded server holds a socket per phone: ${options.serverPhones} phones need about ${server} open files, the limit here is ${fileLimit}: raise it (ulimit -n) or use fewer --devices`
      : `a phone process needs about two open files per phone (its socket, its state file while saved): ${options.phonesPerProcess} phones a process need about ${phones}, the limit here is ${fileLimit}: raise it (ulimit -n), use fewer --devices or more --phone-processes`,
  );
};

/**
 * A listening server with the demo data and `phones` enrolled customers (seedEnrolledCustomers),
 * ANALYZEd; `seededMs` is how long the data took.
 */
/**
 * The configuration of a server a benchmark starts in its own process: quiet, the database seeded
 * by the bench (not the demo seed), OTPs without a cool-down, no jobs, no ANALYZE timer, no web app.
 */
export const BENCH_SERVER_ENV = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  SEED_DEMO: 'false',
  OTP_RESEND_AFTER_SECONDS: '0',
  JOBS_INTERVAL_MINUTES: '0',
  PGLITE_ANALYZE_INTERVAL_HOURS: '0',
  WEB_DIST_DIR: '/nonexistent',
} as const;

export const startBenchServer = async (phones: number) => {
  logProgress(`server: seeding ${phones} enrolled customers`);
  const started = performance.now();
  const pglite = await createPglite('memory://');
  const { db } = await openDatabase({ pglite });
  await seedDemo(db);
  const simulated = await seedEnrolledCustomers(db, phones);
  await pglite.exec('ANALYZE');
  const seededMs = performance.now() - started;
  const app = await buildApp(loadConfig(BENCH_SERVER_ENV), { pglite, sms: { send: async () => {} } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  logProgress(`server: listening at ${base}, seeded in ${seconds(seededMs)}`);
  return { pglite, db, app, base, broker: app.broker!, simulated, seededMs };
};
export type TBenchServer = Awaited<ReturnType<typeof startBenchServer>>;

/**
 * Every received and done ack that reaches the broker, by command id, as `source` delivers the
 * device events (the embedded broker, or the bench's own subscriber on an external broker): when it
 * first arrived (performance.now() ms); `whenDone` waits for one command's done ack.
 */
export const trackAcks = async (source: Pick<DeviceBus, 'subscribeEvents'>) => {
  const receivedAt = new Map<string, number>();
  const doneAt = new Map<string, number>();
  const doneListeners = new Set<(commandId: string, at: number) => void>();
  await source.subscribeEvents(async (_topic, payload) => {
    const event = JSON.parse(payload.toString('utf8')) as {
      type?: string;
      status?: string;
      commandId?: string;
    };
    if (event.type !== 'ack' || !event.commandId) return;
    const arrivals = event.status === 'done' ? doneAt : event.status === 'received' ? receivedAt : null;
    if (!arrivals || arrivals.has(event.commandId)) return;
    const at = performance.now();
    arrivals.set(event.commandId, at);
    if (arrivals === doneAt) for (const listener of doneListeners) listener(event.commandId, at);
  });
  /** Resolves with the arrival time of `commandId`'s done ack (at once if it has arrived). */
  const whenDone = (commandId: string, timeoutMs: number) =>
    new Promise<number>((resolve, reject) => {
      const known = doneAt.get(commandId);
      if (known !== undefined) return resolve(known);
      const timer = setTimeout(() => {
        doneListeners.delete(listener);
        reject(new Error(`no done ack for ${commandId} within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener = (id: string, at: number) => {
        if (id !== commandId) return;
        clearTimeout(timer);
        doneListeners.delete(listener);
        resolve(at);
      };
      doneListeners.add(listener);
    });
  return { receivedAt, doneAt, whenDone };
};

/** True when a queued device event (DeviceEventRecorder's queue item, with its raw payload) is a hello. */
const isHelloEvent = (queued: unknown) => {
  try {
    return JSON.parse((queued as { payload: Buffer }).payload.toString('utf8')).type === 'hello';
  } catch {
    return false;
  }
};

/**
 * The server's recording of device events (DeviceEventRecorder's private processBatch), wrapped
 * to count batches, events and busy time, and pausable: a baseline runs with no server logic but
 * the answers to hellos (see pause). Throws when the recorder has no processBatch any more.
 */
export const instrumentRecorder = (server: TBenchServer) => {
  type TBatchRecorder = (batch: unknown[]) => Promise<void>;
  const recorder = server.app.ctx.deviceEvents as unknown as { processBatch?: TBatchRecorder };
  const recordBatch = recorder.processBatch;
  if (typeof recordBatch !== 'function') {
    throw new Error('DeviceEventRecorder has no processBatch any more: update how the baseline pauses it');
  }
  const recording = { batches: 0, events: 0, largest: 0, busyMs: 0 };
  const measured: TBatchRecorder = async (batch) => {
    const start = performance.now();
    try {
      await recordBatch.call(recorder, batch);
    } finally {
      recording.batches += 1;
      recording.events += batch.length;
      recording.largest = Math.max(recording.largest, batch.length);
      recording.busyMs += performance.now() - start;
    }
  };
  recorder.processBatch = measured;
  return {
    recording,
    reset: () => Object.assign(recording, { batches: 0, events: 0, largest: 0, busyMs: 0 }),
    pause: () => {
      // Hellos are still answered: a phone that reconnects meanwhile (a keepalive or drain timeout
      // under load) holds every message until the sync for its hello comes, so without one it
      // would hold the baseline's policies for good and the round would wait for it to the timeout.
      recorder.processBatch = async (batch) => {
        const hellos = batch.filter(isHelloEvent);
        if (hellos.length > 0) await recordBatch.call(recorder, hellos);
      };
    },
    resume: () => {
      recorder.processBatch = measured;
    },
  };
};

/** Where the phones connect and whom they trust: what enrolment would have handed them. */
export type TPhoneTarget = {
  /** The server's base URL (the agent's HTTP calls). */
  serverUrl: string;
  /** The broker: ws://…/mqtt on the embedded server, mqtt://… for an external one. */
  mqttUrl: string;
  devices: TSimulatedDevice[];
  /** The organisation's server key (device protocol §5). */
  serverKey: TServerKey;
};

/** The embedded server's phone target: its /mqtt over WebSocket and the demo organisation's key. */
export const embeddedPhoneTarget = async (server: TBenchServer): Promise<TPhoneTarget> => ({
  serverUrl: server.base,
  mqttUrl: `${server.base.replace(/^http/, 'ws')}${paths.mqtt}`,
  devices: server.simulated,
  serverKey: await server.app.ctx.dispatcher.serverKeys
    .forOrg(DEMO_ORG_ID)
    .then(({ kid, publicKey }) => ({ kid, publicKey })),
});

type TStopped = Extract<TChildMessage, { type: 'stopped' }>;

/**
 * The simulated phones (bulk-lock-devices.ts) in `processes` child processes (default 1), the
 * devices split between them in contiguous slices, with their state files in a temporary directory
 * (in /dev/shm when there is one, so the one disk of this machine does not stand in for N phones').
 * `connect` starts every phone (`concurrency` at a time over all processes); `stop` stops them once
 * and answers their outcomes summed over the processes (maxRssKiB: the sum of each process's peak,
 * perProcessRssKiB: each); `close` stops them if they still run and removes the files.
 * `cleanSessionsAt` (an external broker's URL) ends the phones' persistent sessions there on stop.
 */
export const startPhones = async (
  target: TPhoneTarget,
  options: { processes?: number; cleanSessionsAt?: string } = {},
) => {
  const count = Math.max(1, Math.min(options.processes ?? 1, target.devices.length));
  logProgress(`phones: ${count} process${count > 1 ? 'es' : ''} load ${target.devices.length} phones`);
  const stateDir = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'kisht-bulk-'));
  const children = Array.from({ length: count }, () =>
    fork(new URL('../bulk-lock-devices.ts', import.meta.url), [], { stdio: 'inherit' }),
  );
  const exited = children.map((child) => new Promise<void>((resolve) => child.once('exit', () => resolve())));
  const ask = <T extends TChildMessage['type']>(child: ChildProcess, message: TParentMessage, answer: T) =>
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
  const askAll = <T extends TChildMessage['type']>(message: TParentMessage, answer: T) =>
    Promise.all(children.map((child) => ask(child, message, answer)));
  const sliceSize = Math.ceil(target.devices.length / count);
  await Promise.all(
    children.map((child, i) =>
      ask(
        child,
        {
          type: 'prepare',
          serverUrl: target.serverUrl,
          mqttUrl: target.mqttUrl,
          stateDir,
          devices: target.devices.slice(i * sliceSize, (i + 1) * sliceSize),
          serverKey: target.serverKey,
        },
        'prepared',
      ),
    ),
  );
  logProgress('phones: loaded');
  const stopMessage: TParentMessage = {
    type: 'stop',
    ...(options.cleanSessionsAt ? { cleanSessionsAt: options.cleanSessionsAt } : {}),
  };
  let stopped: Promise<TStopped & { perProcessRssKiB: number[] }> | undefined;
  return {
    processes: count,
    /** Starts every phone; answers the phones that failed to connect or say hello (why, each). */
    connect: async (concurrency: number, timeoutMs: number) => {
      const answers = await askAll(
        { type: 'connect', concurrency: Math.max(1, Math.ceil(concurrency / count)), timeoutMs },
        'connected',
      );
      return { failures: answers.flatMap((answer) => answer.failures) };
    },
    /**
     * The connect baseline: every phone's plain MQTT connection (its credentials checked, no hello),
     * `concurrency` at a time over all processes, then closed again; answers, once all are closed,
     * the failures and how long the slowest process took until all its connections were open (ms).
     */
    rawConnect: async (concurrency: number, timeoutMs: number) => {
      const answers = await askAll(
        { type: 'rawConnect', concurrency: Math.max(1, Math.ceil(concurrency / count)), timeoutMs },
        'rawConnected',
      );
      return {
        failures: answers.flatMap((answer) => answer.failures),
        openMs: Math.max(...answers.map((answer) => answer.openMs)),
      };
    },
    /**
     * Waits until every phone has the sync answering its hello (TParentMessage sync), up to
     * `timeoutMs`; answers the phones that still wait.
     */
    sync: async (timeoutMs: number) => {
      const answers = await askAll({ type: 'sync', timeoutMs }, 'synced');
      return { unsynced: answers.flatMap((answer) => answer.unsynced) };
    },
    /** The phones' counters over all processes (TChildMessage status). */
    status: async () => {
      const answers = await askAll({ type: 'status' }, 'status');
      return {
        unsynced: answers.reduce((sum, answer) => sum + answer.unsynced, 0),
        reconnects: answers.reduce((sum, answer) => sum + answer.reconnects, 0),
        invalidMessages: answers.reduce((sum, answer) => sum + answer.invalidMessages, 0),
      };
    },
    /** Stops the phones (once) and answers their outcomes. */
    stop: () => {
      stopped ??= askAll(stopMessage, 'stopped').then((answers) => {
        const outcomes: Record<string, number> = {};
        for (const answer of answers)
          for (const [result, n] of Object.entries(answer.outcomes))
            outcomes[result] = (outcomes[result] ?? 0) + n;
        return {
          type: 'stopped' as const,
          outcomes,
          warnings: answers.reduce((sum, answer) => sum + answer.warnings, 0),
          firstWarning: answers.find((answer) => answer.firstWarning)?.firstWarning ?? null,
          maxRssKiB: answers.reduce((sum, answer) => sum + answer.maxRssKiB, 0),
          perProcessRssKiB: answers.map((answer) => answer.maxRssKiB),
        };
      });
      return stopped;
    },
    close: async () => {
      if (!stopped && children.every((child) => child.connected)) {
        await Promise.race([askAll(stopMessage, 'stopped').catch(() => undefined), sleep(120_000)]);
      }
      await Promise.all(
        children.map(async (child, i) => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          const hasExited = await Promise.race([
            exited[i]!.then(() => true),
            sleep(10_000).then(() => false),
          ]);
          if (!hasExited) child.kill();
        }),
      );
      await rm(stateDir, { recursive: true, force: true });
    },
  };
};
export type TPhones = Awaited<ReturnType<typeof startPhones>>;

/**
 * Connects every phone (`concurrency` at a time) and waits until the server has recorded every
 * hello (the hello carries the SIM slots, so devices.sims is set; read from `db`). Times in ms.
 */
export const connectPhones = async (
  target: { db: Db; simulated: TSimulatedDevice[] },
  phones: TPhones,
  options: { concurrency: number; timeoutMs: number; isRawConnectMeasured?: boolean },
) => {
  // With isRawConnectMeasured, the baseline first: the same clients' plain MQTT connections, then
  // closed (issue 17: connect time against the raw connect of the same clients). They are all
  // closed before a phone starts, so no phone's connect takes over a baseline connection of its
  // client id; the pause lets the broker settle.
  let rawConnectMs: number | null = null;
  let rawFailures: string[] = [];
  if (options.isRawConnectMeasured) {
    logProgress(`connect baseline: ${target.simulated.length} plain MQTT connects`);
    const raw = await phones.rawConnect(options.concurrency, 60_000);
    rawFailures = raw.failures;
    rawConnectMs = raw.openMs;
    logProgress(
      `connect baseline: all open in ${seconds(rawConnectMs)} (and closed again), ${rawFailures.length} failed`,
    );
    await sleep(2_000);
  }
  logProgress(`connect: ${target.simulated.length} phones start`);
  const connectStart = performance.now();
  const connected = await phones.connect(options.concurrency, 60_000);
  const connectMs = performance.now() - connectStart;
  logProgress(`connect: said hello in ${seconds(connectMs)}, ${connected.failures.length} failed`);
  const recordedHellos = async () =>
    (
      await target.db
        .select({ n: sql<number>`count(*)::int` })
        .from(devices)
        .where(and(eq(devices.orgId, DEMO_ORG_ID), isNotNull(devices.enrolledAt), isNotNull(devices.sims)))
    )[0]!.n;
  const expected = target.simulated.length - connected.failures.length;
  let recorded = 0;
  await waitUntil(
    async () => {
      recorded = await recordedHellos();
      return recorded >= expected;
    },
    options.timeoutMs,
    200,
    () => `hellos recorded: ${recorded}/${expected}`,
  );
  logProgress(
    `connect: ${recorded}/${expected} hellos recorded at ${seconds(performance.now() - connectStart)}`,
  );
  // The server has recorded a hello of each phone, but its sync may still be on the way, and a
  // phone that said hello again meanwhile waits for the sync of the later one. A phone without its
  // sync holds every message; so that what comes next (the baseline pauses the server's event
  // handling, and a hello said then is never answered) reaches every phone, wait for all syncs.
  const { unsynced } = await phones.sync(options.timeoutMs);
  logProgress(
    `connect: every phone but ${unsynced.length} has its sync at ${seconds(performance.now() - connectStart)}`,
  );
  return {
    failures: [...connected.failures, ...unsynced.map((deviceId) => `${deviceId}: no sync`)],
    connectMs,
    helloMs: performance.now() - connectStart,
    rawConnectMs,
    rawFailures,
  };
};

/** Logs the demo retailer in by OTP (development answers the OTP) and answers the session token. */
export const loginDemoRetailer = async (server: {
  app: Pick<FastifyInstance, 'inject'>;
}): Promise<string> => {
  const otp = await server.app.inject({
    method: 'POST',
    url: paths.auth.loginWithOtp,
    payload: { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE },
  });
  const verified = await server.app.inject({
    method: 'POST',
    url: paths.auth.verifyOtp,
    payload: { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE, otp: otp.json().data.devOtp },
  });
  return verified.json().data.token as string;
};

/**
 * Adds up, per statement text, the calls, milliseconds (waiting for PGlite's single connection
 * included) and rows of every statement the server sends, from its statement counter (issue 26:
 * transaction() statements and BEGIN/COMMIT included); stop() ends it and returns the totals.
 */
export const timeStatements = (counter: StatementCounter) => {
  const stats = new Map<string, { count: number; ms: number; rows: number }>();
  const stop = counter.observe((event) => {
    const text = event.text.slice(0, 100);
    const stat = stats.get(text) ?? { count: 0, ms: 0, rows: 0 };
    stat.count += 1;
    stat.ms += event.ms;
    stat.rows += event.rows;
    stats.set(text, stat);
  });
  return {
    stop: () => {
      stop();
      return stats;
    },
  };
};
