/**
 * The scale-out deployment (design §7) for the device-channel benchmarks (`--scale-out`): a fresh
 * database on the machine's PostgreSQL (a random name, dropped at the end), two real server
 * processes on it (`apps/server/src/main.ts`, started as the scale-out test starts them) sharing
 * device events through their own shared-subscription group on the machine's Mosquitto, and the
 * bench's own MQTT clients there for the baseline's publishes and for watching the acks.
 *
 * Mosquitto here allows anonymous clients and checks nothing (/etc/mosquitto/mosquitto.conf), as in
 * the scale-out test: the servers get no MQTT_USERNAME, BROKER_HOOK_SECRET nor MQTT_BROKER_AUTH
 * (NODE_ENV=test does not require them), and the phones log in with their id and secret, unchecked.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { paths } from '@kisht/domain/paths';
import { openDatabase } from '@kisht/server/db/client';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE, seedDemo } from '@kisht/server/db/seed/seed';
import { ServerKeys } from '@kisht/server/modules/devices/server-keys.service';
import { type ServerProcess, startServerProcess } from '@kisht/server/scale-out/server-process';
import { sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { seedEnrolledCustomers } from './bench-server';
import type { TBenchTarget } from './bench-target';

/** The machine's PostgreSQL (trust) and its maintenance database, where databases are made. */
const POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432';
const ADMIN_DATABASE_URL = `${POSTGRES_URL}/test`;
/** The machine's Mosquitto (the default broker). */
export const SCALE_OUT_MQTT_URL = 'mqtt://127.0.0.1:1883';
const EVENTS_TOPIC = 'kisht/v1/d/+/evt';
/**
 * How many clients watch the device events, in a shared group of their own, at QoS 1. Mosquitto
 * (defaults here: max_inflight_messages 20, max_queued_messages 1,000 a client) drops what a
 * client's queue cannot hold, and one watcher missed acks of 10,000 phones answering a round; split
 * 32 ways each holds about 1,000. Not QoS 0: the watcher then sends nothing back, and Mosquitto
 * (no set_tcp_nodelay here) holds each small write for the delayed TCP ack, ~40 ms a message.
 */
const WATCHERS = 32;

/** Every line a server process logs is kept in memory: above debug, one line a request at most. */
const serverEnv = (databaseUrl: string, mqttUrl: string, sharedGroup: string): Record<string, string> => ({
  NODE_ENV: 'test',
  DATABASE_URL: databaseUrl,
  MQTT_URL: mqttUrl,
  // This run's own group: another run or deployment on the same broker must not take its events.
  MQTT_SHARED_GROUP: sharedGroup,
  PORT: '0',
  HOST: '127.0.0.1',
  // The bench seeds the demo data itself, before the processes start.
  SEED_DEMO: 'false',
  JOBS_INTERVAL_MINUTES: '0',
  LOG_LEVEL: 'info',
  OTP_RESEND_AFTER_SECONDS: '0',
  WEB_DIST_DIR: '/nonexistent',
});

/** Peak resident memory (VmHWM) of process `pid` in MiB, from /proc, or null when gone. */
const peakRssMiB = async (pid: unknown) => {
  if (typeof pid !== 'number') return null;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
  const match = status && /^VmHWM:\s+(\d+) kB/m.exec(status);
  return match ? Number(match[1]) / 1024 : null;
};

/**
 * Server processes (A, B by default; `processes` of them) on a fresh PostgreSQL database seeded with the demo data and `phones`
 * enrolled customers, on the MQTT broker at `mqttUrl` (the machine's Mosquitto unless given). Fails,
 * naming the service, when PostgreSQL or the broker is not reachable. close() stops the processes
 * and drops the database.
 */
export const startScaleOutTarget = async (
  phones: number,
  mqttUrl: string = SCALE_OUT_MQTT_URL,
  /** How many server processes (A, B, …); 2 unless told (1 measures what one process does). */
  processes = 2,
): Promise<TBenchTarget> => {
  const dbName = `kisht_bench_${randomBytes(5).toString('hex')}`;
  const databaseUrl = `${POSTGRES_URL}/${dbName}`;
  const admin = await openDatabase({ databaseUrl: ADMIN_DATABASE_URL, migrate: false });
  await admin.db.execute(sql.raw(`create database ${dbName}`)).catch((error: Error) => {
    throw new Error(`PostgreSQL (${ADMIN_DATABASE_URL}) is needed for --scale-out: ${error.message}`);
  });
  let servers: ServerProcess[] = [];
  let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
  let clients: mqtt.MqttClient[] = [];
  const stopServers = async () => {
    // What went wrong inside a process would otherwise stay in its memory: its errors go to stderr.
    for (const server of servers) {
      const errors = server.logs.filter((line) => (line.level ?? 0) >= 50);
      if (errors.length === 0) continue;
      console.error(`server ${server.name}: ${errors.length} errors logged; the first:`);
      for (const line of errors.slice(0, 3)) console.error(JSON.stringify(line).slice(0, 2_000));
    }
    await Promise.all(
      servers.map(async (server) => {
        const timer = setTimeout(() => void server.kill('SIGKILL'), 10_000);
        await server.kill('SIGTERM');
        clearTimeout(timer);
      }),
    );
  };
  const close = async () => {
    await stopServers();
    await Promise.all(clients.map((client) => client.endAsync().catch(() => undefined)));
    await database?.close();
    await admin.db.execute(sql.raw(`drop database if exists ${dbName} with (force)`));
    await admin.close();
  };
  try {
    const started = performance.now();
    database = await openDatabase({ databaseUrl });
    const { db } = database;
    await seedDemo(db);
    const simulated = await seedEnrolledCustomers(db, phones);
    await db.execute(sql`analyze`);
    const seededMs = performance.now() - started;
    const signingKey = await new ServerKeys(db).forOrg(DEMO_ORG_ID);

    const connect = (name: string) =>
      mqtt.connectAsync(mqttUrl, {
        clientId: `kisht-bench-${process.pid}-${name}-${randomBytes(3).toString('hex')}`,
        clean: true,
        reconnectPeriod: 1_000,
        connectTimeout: 5_000,
      });
    clients = await Promise.all(
      Array.from({ length: WATCHERS + 1 }, (_, k) => connect(k === 0 ? 'publisher' : `watcher${k}`)),
    ).catch((error: Error) => {
      throw new Error(`Mosquitto (${mqttUrl}) is needed for --scale-out: ${error.message}`);
    });
    const [publisher, ...watchers] = clients;
    const startServers = async () => {
      const env = serverEnv(databaseUrl, mqttUrl, dbName);
      servers = await Promise.all(
        Array.from({ length: processes }, (_, k) => String.fromCharCode(65 + k)).map((name) =>
          startServerProcess({ name, env, timeoutMs: 120_000 }),
        ),
      );
    };
    await startServers();
    const serverPid = (server: ServerProcess) =>
      server.logs.find((line) => line.msg?.startsWith('Kisht is serving'))?.pid;

    return {
      mode: 'scale-out',
      db,
      simulated,
      seededMs,
      bases: () => servers.map((server) => server.baseUrl),
      phoneTarget: {
        serverUrl: servers[0]!.baseUrl,
        mqttUrl,
        devices: simulated,
        serverKey: { kid: signingKey.kid, publicKey: signingKey.publicKey },
      },
      externalBrokerUrl: mqttUrl,
      signingKey,
      bus: {
        publish: async (topic, payload) => {
          await publisher!.publishAsync(topic, payload, { qos: 1 });
        },
        // The watchers' own shared group (not the servers'): together they see every event once.
        subscribeEvents: async (handler) => {
          for (const watcher of watchers) {
            watcher.on('message', (topic, payload) => {
              handler(topic, payload).catch((error: unknown) =>
                console.error('event handling failed:', error),
              );
            });
          }
          await Promise.all(
            watchers.map((watcher) =>
              watcher.subscribeAsync(`$share/${dbName}_bench/${EVENTS_TOPIC}`, { qos: 1 }),
            ),
          );
        },
      },
      pauseServer: stopServers,
      resumeServer: startServers,
      login: async () => {
        // The code is asked for on A and given on B: OTPs and sessions live in the database.
        const [a, b = a] = servers.map((server) => server.baseUrl);
        const who = { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE };
        const post = async (base: string, path: string, body: unknown) => {
          const response = await fetch(`${base}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          const json = (await response.json()) as { data: { devOtp?: string; token?: string } };
          if (response.status !== 200)
            throw new Error(`${path}: HTTP ${response.status} ${JSON.stringify(json)}`);
          return json.data;
        };
        const { devOtp } = await post(a!, paths.auth.loginWithOtp, who);
        return (await post(b!, paths.auth.verifyOtp, { ...who, otp: devOtp })).token!;
      },
      recording: null,
      resetRecording: () => {},
      mqttClients: () => null,
      serverMemory: async () => {
        const peaks = await Promise.all(servers.map((server) => peakRssMiB(serverPid(server))));
        return peaks
          .map((peak, i) => `${servers[i]!.name} ${peak === null ? 'n/a' : `${peak.toFixed(0)} MiB`}`)
          .join(', ');
      },
      statements: null,
      close,
    };
  } catch (error) {
    for (const server of servers) console.error(`--- server ${server.name} ---\n${server.tail(30)}`);
    await close().catch(() => undefined);
    throw error;
  }
};
