/**
 * What the device-channel benchmarks share (bulk-lock.ts, command-latency.ts): a real server on
 * 127.0.0.1 (port 0, in-memory PGlite, embedded broker, jobs off) with N enrolled customers whose
 * phones are real DeviceAgents in a child process (bulk-lock-devices.ts), the broker's done acks as
 * they arrive, the recorder paused for a raw baseline, and small timing helpers.
 */
import { fork } from 'node:child_process';
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
import { paths } from '@kisht/domain/paths';
import { buildApp } from '@kisht/server/app';
import { loadConfig } from '@kisht/server/config';
import { createPglite, type Db, openDatabase } from '@kisht/server/db/client';
import { customers, devices, emis, products, users } from '@kisht/server/db/schema';
import { BULK_CUSTOMER_LOAN, DEMO_ORG_ID, DEMO_RETAILER_MOBILE, seedDemo } from '@kisht/server/db/seed/seed';
import { sha256Hex } from '@kisht/server/lib/crypto';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { TChildMessage, TParentMessage, TSimulatedDevice } from '../bulk-lock-devices';

const BATCH = 1_000;
/** Sockets and files each process needs besides one per phone. */
const SPARE_FILES = 500;

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Milliseconds as seconds with two decimals, or 'not reached' for null. */
export const seconds = (ms: number | null) => (ms === null ? 'not reached' : `${(ms / 1000).toFixed(2)} s`);
/** Polls `isDone` every `everyMs` until it holds (true) or `timeoutMs` passes (false). */
export const waitUntil = async (
  isDone: () => boolean | Promise<boolean>,
  timeoutMs: number,
  everyMs = 20,
) => {
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

/** Throws, saying what to do, when this process cannot hold a socket for each of `phones` phones. */
export const checkOpenFiles = async (phones: number): Promise<void> => {
  const fileLimit = await openFilesLimit();
  if (fileLimit !== null && fileLimit < phones + SPARE_FILES) {
    throw new Error(
      `${phones} phones need about ${phones + SPARE_FILES} open files per process, the limit here is ${fileLimit}: raise it (ulimit -n) or use fewer --devices`,
    );
  }
};

/**
 * A listening server with the demo data and `phones` enrolled customers (seedEnrolledCustomers),
 * ANALYZEd; `seededMs` is how long the data took.
 */
export const startBenchServer = async (phones: number) => {
  const started = performance.now();
  const pglite = await createPglite('memory://');
  const { db } = await openDatabase({ pglite });
  await seedDemo(db);
  const simulated = await seedEnrolledCustomers(db, phones);
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
  return { pglite, db, app, base, broker: app.broker!, simulated, seededMs };
};
export type TBenchServer = Awaited<ReturnType<typeof startBenchServer>>;

/**
 * Every received and done ack that reaches the broker, by command id: when it first arrived
 * (performance.now() ms); `onDone` hears each done ack as it arrives.
 */
export const trackAcks = async (server: TBenchServer) => {
  const receivedAt = new Map<string, number>();
  const doneAt = new Map<string, number>();
  const doneListeners = new Set<(commandId: string, at: number) => void>();
  await server.broker.subscribeEvents(async (_topic, payload) => {
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

/**
 * The server's recording of device events (DeviceEventRecorder's private processBatch), wrapped
 * to count batches, events and busy time, and pausable: a baseline runs with no server logic.
 * Throws when the recorder has no processBatch any more.
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
      recorder.processBatch = async () => {};
    },
    resume: () => {
      recorder.processBatch = measured;
    },
  };
};

/**
 * The simulated phones (bulk-lock-devices.ts) in a child process, with their state files in a
 * temporary directory (in /dev/shm when there is one, so the one disk of this machine does not
 * stand in for N phones'). `ask` sends a message and waits for the answer of that type; `close`
 * stops them if they still run and removes the files.
 */
export const startPhones = async (server: TBenchServer) => {
  const stateDir = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'kisht-bulk-'));
  const child = fork(new URL('../bulk-lock-devices.ts', import.meta.url), [], { stdio: 'inherit' });
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
  await ask(
    {
      type: 'prepare',
      serverUrl: server.base,
      mqttUrl: `${server.base.replace(/^http/, 'ws')}${paths.mqtt}`,
      stateDir,
      devices: server.simulated,
      serverKey: await server.app.ctx.dispatcher.serverKeys
        .forOrg(DEMO_ORG_ID)
        .then(({ kid, publicKey }) => ({ kid, publicKey })),
    },
    'prepared',
  );
  let stopped: Extract<TChildMessage, { type: 'stopped' }> | undefined;
  return {
    ask,
    /** Stops the phones (once) and answers their outcomes. */
    stop: async () => {
      stopped ??= await ask({ type: 'stop' }, 'stopped');
      return stopped;
    },
    close: async () => {
      if (!stopped && child.connected) await ask({ type: 'stop' }, 'stopped').catch(() => undefined);
      if (child.exitCode === null) {
        const exited = await Promise.race([childExited.then(() => true), sleep(10_000).then(() => false)]);
        if (!exited) child.kill();
      }
      await rm(stateDir, { recursive: true, force: true });
    },
  };
};

/**
 * Connects every phone (`concurrency` at a time) and waits until the server has recorded every
 * hello (the hello carries the SIM slots, so devices.sims is set). Times in ms.
 */
export const connectPhones = async (
  server: TBenchServer,
  phones: Awaited<ReturnType<typeof startPhones>>,
  options: { concurrency: number; timeoutMs: number },
) => {
  const connectStart = performance.now();
  const connected = await phones.ask(
    { type: 'connect', concurrency: options.concurrency, timeoutMs: 60_000 },
    'connected',
  );
  const connectMs = performance.now() - connectStart;
  const recordedHellos = async () =>
    (
      await server.db
        .select({ n: sql<number>`count(*)::int` })
        .from(devices)
        .where(and(eq(devices.orgId, DEMO_ORG_ID), isNotNull(devices.enrolledAt), isNotNull(devices.sims)))
    )[0]!.n;
  const expected = server.simulated.length - connected.failures.length;
  await waitUntil(async () => (await recordedHellos()) >= expected, options.timeoutMs, 200);
  return { failures: connected.failures, connectMs, helloMs: performance.now() - connectStart };
};

/** Logs the demo retailer in by OTP (development answers the OTP) and answers the session token. */
export const loginDemoRetailer = async (server: TBenchServer): Promise<string> => {
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
 * Wraps pglite.query (what drizzle calls) to add up, per statement text, the calls, milliseconds
 * (waiting for the single connection included) and rows; stop() unwraps it and returns the totals.
 */
export const timeStatements = (pglite: Awaited<ReturnType<typeof createPglite>>) => {
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
