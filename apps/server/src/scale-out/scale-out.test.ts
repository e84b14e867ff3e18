import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeviceAgent, type TCommandOutcome } from '@kisht/device-agent/agent';
import { addDays, istDate } from '@kisht/domain/common/time';
import { evtTopic } from '@kisht/domain/devices/protocol.schema';
import { deviceControlPath, paths } from '@kisht/domain/paths';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../db/seed/seed';
import { customerBody, recordConsentOverHttp, TEST_LOCK_REASON } from '../test/fixtures';
import { type ServerProcess, startServerProcess, type TLogLine } from './server-process';

/**
 * Scale-out (design §7): two real server processes on one PostgreSQL and one Mosquitto, switched
 * by DATABASE_URL and MQTT_URL, with the real reference agent. Sessions, commands and jobs live in
 * the database; device events reach one process each (shared subscription); jobs run once however
 * many processes run them, and survive a process being killed. Both services must be up (this
 * machine and CI run them); the suite fails, naming the service, when one is not.
 */
const ADMIN_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
const MQTT_URL = 'mqtt://127.0.0.1:1883';
/** Jobs every 1.2 s in each process, so a few seconds see many runs of both. */
const JOBS_INTERVAL_MINUTES = '0.02';
/** The control route accepts run_at from one minute ahead; tests then move it closer in SQL. */
const SCHEDULE_AHEAD_MS = 90_000;

const dbName = `kisht_scale_${randomBytes(5).toString('hex')}`;
let admin: pg.Client | undefined;
let db: pg.Client | undefined;
let observer: MqttClient | undefined;
let stateDir: string | undefined;
let isDatabaseCreated = false;
const servers: ServerProcess[] = [];
let serverA: ServerProcess;
let serverB: ServerProcess;
let token: string;
const agents: DeviceAgent[] = [];
/** Every event a device published, counted per topic by a plain (not shared) subscriber. */
const observedEvents = new Map<string, number>();

const requireService = async <T>(service: string, connect: () => Promise<T>): Promise<T> => {
  try {
    return await connect();
  } catch (error) {
    throw new Error(
      `${service} is not reachable; the scale-out suite (design §7) needs it running: ${(error as Error).message}`,
    );
  }
};

const serverEnv = (): Record<string, string> => ({
  NODE_ENV: 'test',
  DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${dbName}`,
  MQTT_URL,
  // This run's own group: another run or deployment on the same broker must not take its events.
  MQTT_SHARED_GROUP: dbName,
  PORT: '0',
  HOST: '127.0.0.1',
  SEED_DEMO: 'true',
  JOBS_INTERVAL_MINUTES,
  // Debug adds one line per job run and per device event received: the tests count them.
  LOG_LEVEL: 'debug',
  OTP_RESEND_AFTER_SECONDS: '0',
  WEB_DIST_DIR: '/nonexistent',
});

const startServer = async (name: string) => {
  const server = await startServerProcess({ name, env: serverEnv() });
  servers.push(server);
  return server;
};

const stopServer = async (server: ServerProcess) => {
  const timer = setTimeout(() => void server.kill('SIGKILL'), 5_000);
  await server.kill('SIGTERM');
  clearTimeout(timer);
};

const call = async (
  server: ServerProcess,
  method: 'GET' | 'POST',
  url: string,
  options: { token?: string; body?: unknown } = {},
) => {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body ? { 'content-type': 'application/json' } : {}),
    },
    ...(options.body ? { body: JSON.stringify(options.body) } : {}),
  });
  // Parsed as a client reads it, untyped (as app.inject's json() in the other route tests).
  const body = JSON.parse(await response.text());
  return { status: response.status, body, data: body.data };
};

/** Logs in through the real OTP routes: the code is asked for on one process and given on another. */
const login = async (requestOn: ServerProcess, verifyOn: ServerProcess): Promise<string> => {
  const who = { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE };
  const requested = await call(requestOn, 'POST', paths.auth.loginWithOtp, { body: who });
  expect(requested.status, JSON.stringify(requested.body)).toBe(200);
  // Outside production the code comes back as devOtp (the dev banner); it is hashed in the database.
  const verified = await call(verifyOn, 'POST', paths.auth.verifyOtp, {
    body: { ...who, otp: requested.data.devOtp },
  });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  return verified.data.token;
};

const sqlRows = async <T>(text: string, values: unknown[] = []): Promise<T[]> =>
  (await db!.query(text, values)).rows as T[];

/** The count(*) a query answers, as a number. */
const countOf = async (text: string, values: unknown[] = []) =>
  Number((await sqlRows<{ count: string }>(text, values))[0]!.count);

const waitUntil = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
};

type TCommandRow = {
  id: string;
  name: string;
  state: string;
  delivery_attempts: number;
  created_by: number | null;
};
const commandsOf = (customerId: number) =>
  sqlRows<TCommandRow>(
    `select c.id, c.name, c.state, c.delivery_attempts, c.created_by from device_commands c
     join devices d on d.id = c.device_id where d.customer_id = $1 order by c.created_at, c.id`,
    [customerId],
  );
const commandState = async (id: string) =>
  (await sqlRows<TCommandRow>('select * from device_commands where id = $1', [id]))[0];

/** Lines of a server's log with this message, from line `from` on. */
const linesOf = (server: ServerProcess, msg: string, from = 0): TLogLine[] =>
  server.logs.slice(from).filter((line) => line.msg === msg);
const JOB_RAN = { ladder: 'auto-lock ladder ran', scheduled: 'scheduled commands ran' } as const;

type TPhone = {
  agent: DeviceAgent;
  customerId: number;
  deviceId: string;
  statePath: string;
  /** Every command message the phone handled, across restarts of its agent. */
  outcomes: TCommandOutcome[];
};

/** Adds a customer through `via`, fetches the QR there and enrols the real agent with it. */
const enrolPhone = async (via: ServerProcess, mobile: string): Promise<TPhone> => {
  const productId = (await call(via, 'GET', `${paths.catalogue.products}?device_type=0`, { token })).data[0]
    .id;
  const body = customerBody(productId, { mobile });
  const created = await call(via, 'POST', paths.customers.create, { token, body });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const customerId = created.data.id as number;
  await recordConsentOverHttp(via.baseUrl, token, customerId);
  const qr = await call(via, 'GET', `${paths.customers.qrCode}?customer_id=${customerId}`, { token });
  const statePath = join(stateDir!, `${customerId}.json`);
  const agent = await DeviceAgent.enrol({
    qr: qr.data.payload,
    imei1: body.imei1,
    imei2: body.imei2,
    statePath,
  });
  // With an external broker nothing serves /mqtt on the API: the phone is sent to the broker itself.
  expect(agent.state.credentials.mqttUrl).toBe(MQTT_URL);
  const phone: TPhone = { agent, customerId, deviceId: agent.deviceId, statePath, outcomes: [] };
  watch(phone, agent);
  await agent.start();
  return phone;
};

const watch = (phone: TPhone, agent: DeviceAgent) => {
  agents.push(agent);
  agent.on('command', (outcome) => phone.outcomes.push(outcome));
};

/** How often the phone applied the command (a re-delivery answers 'duplicate', not 'done'). */
const timesApplied = (phone: TPhone, commandId: string) =>
  phone.outcomes.filter((o) => o.id === commandId && o.result === 'done').length;

const historyState = async (server: ServerProcess, customerId: number, commandId: string) => {
  const history = await call(server, 'GET', `${paths.devices.history}?customer_id=${customerId}`, { token });
  return (history.data as { id: string; state: string }[]).find((c) => c.id === commandId)?.state;
};

/**
 * Schedules an action through `via`, then brings its run_at to `inMs` from now in SQL. An action
 * offered whether or not the phone is locked (reboot), so the reported lock state does not matter.
 */
const scheduleSoon = async (via: ServerProcess, customerId: number, feature: string, inMs: number) => {
  const scheduled = await call(via, 'POST', deviceControlPath(feature), {
    token,
    body: { customer_id: customerId, run_at: new Date(Date.now() + SCHEDULE_AHEAD_MS).toISOString() },
  });
  expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
  expect(scheduled.body.message).toBe('Command scheduled');
  const id = scheduled.data.id as string;
  await sqlRows(`update device_commands set run_at = now() + make_interval(secs => $2) where id = $1`, [
    id,
    inMs / 1000,
  ]);
  return id;
};

beforeAll(async () => {
  admin = await requireService(`PostgreSQL (${ADMIN_DATABASE_URL})`, async () => {
    const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL, connectionTimeoutMillis: 5_000 });
    await client.connect();
    return client;
  });
  observer = await requireService(`Mosquitto (MQTT broker at ${MQTT_URL})`, () =>
    mqtt.connectAsync(
      MQTT_URL,
      { clientId: `kisht-scale-observer-${process.pid}`, connectTimeout: 5_000, reconnectPeriod: 0 },
      false,
    ),
  );
  observer.on('message', (topic) => observedEvents.set(topic, (observedEvents.get(topic) ?? 0) + 1));
  await observer.subscribeAsync('kisht/v1/d/+/evt', { qos: 1 });

  await admin.query(`create database ${dbName}`);
  isDatabaseCreated = true;
  db = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:5432/${dbName}` });
  await db.connect();
  stateDir = mkdtempSync(join(tmpdir(), 'kisht-scale-'));

  // Both at once on an empty database: migrations and the demo seed must not race (one migrates
  // and seeds, the other waits for it and finds the work done).
  [serverA, serverB] = await Promise.all([startServer('A'), startServer('B')]);
  token = await login(serverA, serverA);
}, 90_000);

afterAll(async () => {
  for (const agent of agents) await agent.stop().catch(() => {});
  await Promise.all(servers.map(stopServer));
  // The phones' persistent sessions would stay in Mosquitto (on disk) for good: end each with a
  // clean-session connect under its client id.
  for (const agent of agents) {
    const client = await mqtt
      .connectAsync(MQTT_URL, { clientId: agent.deviceId, clean: true, reconnectPeriod: 0 }, false)
      .catch(() => null);
    await client?.endAsync();
  }
  await observer?.endAsync();
  await db?.end();
  if (isDatabaseCreated) await admin?.query(`drop database if exists ${dbName} with (force)`);
  await admin?.end();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
}, 60_000);

beforeEach((context) => {
  context.onTestFailed(() => {
    for (const server of servers) console.error(`--- ${server.name} (last lines) ---\n${server.tail(80)}`);
  });
});

describe('scale-out: two server processes, PostgreSQL and Mosquitto (design §7)', () => {
  let phone1: TPhone;
  let phone2: TPhone;

  it('seeds once when both processes start together on an empty database', async () => {
    expect(await countOf('select count(*) from organizations where id = $1', [DEMO_ORG_ID])).toBe(1);
    const seeded = [serverA, serverB].map(
      (server) => server.logs.filter((line) => line.msg?.startsWith('seeded demo organisation')).length,
    );
    expect(seeded.sort()).toEqual([0, 1]);
  });

  it('keeps sessions in the database: a token from A works on B, a logout on A ends it on B', async () => {
    const me = await call(serverB, 'GET', paths.users.me, { token });
    expect(me.status).toBe(200);
    expect(me.data.mobile).toBe(DEMO_RETAILER_MOBILE);

    // The OTP asked for on B is checked on A: OTPs live in the database too.
    const second = await login(serverB, serverA);
    expect((await call(serverB, 'GET', paths.users.me, { token: second })).status).toBe(200);
    expect((await call(serverA, 'POST', paths.auth.logout, { token: second })).status).toBe(200);
    expect((await call(serverB, 'GET', paths.users.me, { token: second })).status).toBe(511);
    expect((await call(serverB, 'GET', paths.users.me, { token })).status).toBe(200);
  });

  it('reads the actor fresh with every request on every process: a change shows on the very next one (issue 26)', async () => {
    const who = [DEMO_ORG_ID, DEMO_RETAILER_MOBILE];
    expect((await call(serverB, 'GET', paths.users.lockAccess, { token })).data.unlock).toBe('1');
    const { access } = (
      await sqlRows<{ access: unknown }>('select access from users where org_id = $1 and mobile = $2', who)
    )[0]!;
    // An access flag changed outside B (another process, an admin's SQL): B's next request has it.
    await sqlRows(
      `update users set access = jsonb_build_object('lockAccess', jsonb_build_object('unlock', '0'))
       where org_id = $1 and mobile = $2`,
      who,
    );
    expect((await call(serverB, 'GET', paths.users.lockAccess, { token })).data.unlock).toBe('0');
    await sqlRows('update users set access = $3 where org_id = $1 and mobile = $2', [...who, access]);
    expect((await call(serverA, 'GET', paths.users.lockAccess, { token })).data.unlock).toBe('1');
    // A deactivated user's token answers 511 on the very next request, on both processes.
    await sqlRows(`update users set is_active = false where org_id = $1 and mobile = $2`, who);
    expect((await call(serverB, 'GET', paths.users.me, { token })).status).toBe(511);
    expect((await call(serverA, 'GET', paths.users.me, { token })).status).toBe(511);
    await sqlRows(`update users set is_active = true where org_id = $1 and mobile = $2`, who);
    expect((await call(serverB, 'GET', paths.users.me, { token })).status).toBe(200);
  });

  it('delivers a lock queued on A to the phone once; B sees it done; each event reaches one process', async () => {
    phone1 = await enrolPhone(serverA, '9123400001');
    const lock = await call(serverA, 'POST', paths.devices.lock, {
      token,
      // A new customer has nothing overdue: a lock needs a reason (issue 12).
      body: { customer_id: phone1.customerId, ...TEST_LOCK_REASON },
    });
    expect(lock.status, JSON.stringify(lock.body)).toBe(200);
    const lockId = lock.data.id as string;
    await phone1.agent.waitForLockState(true, { timeoutMs: 15_000 });
    await waitUntil(
      'B to show the lock done',
      async () => (await historyState(serverB, phone1.customerId, lockId)) === 'done',
    );
    expect(timesApplied(phone1, lockId)).toBe(1);

    const unlock = await call(serverB, 'POST', paths.devices.unlock, {
      token,
      body: { customer_id: phone1.customerId },
    });
    const unlockId = unlock.data.id as string;
    await phone1.agent.waitForLockState(false, { timeoutMs: 15_000 });
    await waitUntil(
      'A to show the unlock done',
      async () => (await historyState(serverA, phone1.customerId, unlockId)) === 'done',
    );
    expect(timesApplied(phone1, unlockId)).toBe(1);

    // Shared subscription: every event the phone published (hello, acks) was taken by exactly one
    // of the two processes; Mosquitto hands them out in turn, so both took some.
    const topic = evtTopic(phone1.deviceId);
    const received = (server: ServerProcess) =>
      linesOf(server, 'device event received').filter((line) => line.topic === topic).length;
    const published = () => observedEvents.get(topic) ?? 0;
    await waitUntil(
      'the servers to log every event',
      () => received(serverA) + received(serverB) >= published(),
    );
    expect(published()).toBeGreaterThanOrEqual(5);
    expect(received(serverA) + received(serverB)).toBe(published());
    expect(received(serverA)).toBeGreaterThan(0);
    expect(received(serverB)).toBeGreaterThan(0);
  }, 60_000);

  // Mosquitto hands a phone's consecutive events to the two processes in turn, so a 'received' ack
  // (the state before applying) is often recorded after 'done' (the state after). The event seq
  // (protocol §4) keeps the state of the newest event whatever the order of recording.
  it('records what a phone reports in the order it reported it', async () => {
    const wrong: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const isLock = i % 2 === 0;
      const via = i % 4 < 2 ? serverA : serverB;
      const sent = await call(via, 'POST', isLock ? paths.devices.lock : paths.devices.unlock, {
        token,
        body: { customer_id: phone1.customerId, ...TEST_LOCK_REASON },
      });
      const id = sent.data.id as string;
      await waitUntil('the command to be done', async () => (await commandState(id))?.state === 'done');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const details = await call(via, 'GET', `${paths.customers.details}?customer_id=${phone1.customerId}`, {
        token,
      });
      if (details.data.lockStatus !== (isLock ? 1 : 0)) wrong.push(`${i}: ${isLock ? 'lock' : 'unlock'}`);
    }
    expect(wrong).toEqual([]);
  });

  it('runs the auto-lock ladder in both processes and still locks and reminds once', async () => {
    phone2 = await enrolPhone(serverB, '9123400002');
    const today = istDate();
    await sqlRows('update emis set due_date = $2 where customer_id = $1 and instalment_no = 1', [
      phone2.customerId,
      addDays(today, -10),
    ]);
    await sqlRows('update emis set due_date = $2 where customer_id = $1 and instalment_no = 2', [
      phone2.customerId,
      addDays(today, 2),
    ]);
    const from = [serverA.logs.length, serverB.logs.length];
    await sqlRows(
      `update organizations set settings = settings ||
         '{"autoLock":{"reminderDaysBefore":2,"lockAfterDaysOverdue":5,"autoUnlock":false}}'::jsonb
       where id = $1`,
      [DEMO_ORG_ID],
    );
    await phone2.agent.waitForLockState(true, { timeoutMs: 15_000 });
    // Several runs in each process after the ladder was set.
    await waitUntil('four ladder runs in each process', () =>
      [serverA, serverB].every((server, i) => linesOf(server, JOB_RAN.ladder, from[i]).length >= 4),
    );
    await waitUntil('the reminder and the lock to be done', async () =>
      (await commandsOf(phone2.customerId)).every((c) => c.state === 'done'),
    );
    const commands = await commandsOf(phone2.customerId);
    expect(commands.map((c) => [c.name, c.created_by])).toEqual([
      ['set_wallpaper', null],
      ['lock', null],
    ]);
    for (const command of commands) expect(timesApplied(phone2, command.id), command.name).toBe(1);
    const audits = await countOf(
      `select count(*) from audit_log where action = 'device.auto_lock' and entity_id = $1`,
      [String(phone2.customerId)],
    );
    expect(audits).toBe(1);
  }, 60_000);

  it('sends a scheduled command once though both processes look for due commands', async () => {
    const from = [serverA.logs.length, serverB.logs.length];
    const id = await scheduleSoon(serverA, phone1.customerId, 'reboot', 2_000);
    await waitUntil(
      'the scheduled command to be done',
      async () => (await commandState(id))?.state === 'done',
    );
    await waitUntil('four scheduled-command runs in each process', () =>
      [serverA, serverB].every((server, i) => linesOf(server, JOB_RAN.scheduled, from[i]).length >= 4),
    );
    expect((await commandState(id))?.delivery_attempts).toBe(1);
    expect(phone1.outcomes.filter((o) => o.id === id).map((o) => o.result)).toEqual(['done']);
    const sent = [serverA, serverB].flatMap((server, i) =>
      linesOf(server, JOB_RAN.scheduled, from[i]).map((line) => line.sent as number),
    );
    expect(sent.reduce((total, n) => total + n, 0)).toBe(1);
  }, 60_000);

  it('loses nothing and duplicates nothing when a process is killed and started again', async () => {
    const customersBefore = await countOf('select count(*) from customers');
    // The phone is off; its `gone` event (protocol §4) reaches one of the processes: offline.
    await phone1.agent.stop();
    await waitUntil(
      'the phone to show offline',
      async () =>
        (
          await sqlRows<{ is_online: boolean }>('select is_online from devices where id = $1', [
            phone1.deviceId,
          ])
        )[0]!.is_online === false,
    );
    // A lock and a scheduled reboot are queued through B; the lock waits in the offline command log.
    const lock = await call(serverB, 'POST', paths.devices.lock, {
      token,
      body: { customer_id: phone1.customerId, ...TEST_LOCK_REASON },
    });
    expect(lock.status, JSON.stringify(lock.body)).toBe(200);
    const lockId = lock.data.id as string;
    const offlineLog = await call(serverA, 'GET', paths.devices.offlineCommandLog, { token });
    expect(offlineLog.data.map((c: { id: string }) => c.id)).toContain(lockId);
    const rebootId = await scheduleSoon(serverB, phone1.customerId, 'reboot', 3_000);

    // B dies at once, with no chance to clean up.
    await serverB.kill('SIGKILL');
    // A takes the scheduled command when it is due: the job was a row, not a timer in B.
    await waitUntil(
      'A to send the scheduled command',
      async () => (await commandState(rebootId))?.state === 'sent',
    );

    serverB = await startServer('B (restarted)');
    const customersAfter = await countOf('select count(*) from customers');
    expect(customersAfter).toBe(customersBefore); // SEED_DEMO on a seeded database does nothing
    expect((await call(serverB, 'GET', paths.users.me, { token })).status).toBe(200);

    // The phone comes back: Mosquitto's session and the hello re-send both deliver; applied once.
    const again = await DeviceAgent.load({ statePath: phone1.statePath });
    watch(phone1, again);
    await again.start();
    await again.waitForLockState(true, { timeoutMs: 15_000 });
    await waitUntil(
      'B to show the lock and the reboot done',
      async () =>
        (await historyState(serverB, phone1.customerId, lockId)) === 'done' &&
        (await historyState(serverB, phone1.customerId, rebootId)) === 'done',
    );
    expect(timesApplied(phone1, lockId)).toBe(1);
    expect(timesApplied(phone1, rebootId)).toBe(1);
    // Every command of the phone ended done, and the two queued while B died came last, once each.
    const all = (await commandsOf(phone1.customerId)).map((c) => [c.name, c.state]);
    expect(all.filter(([, state]) => state !== 'done')).toEqual([]);
    expect(all.slice(-2)).toEqual([
      ['lock', 'done'],
      ['reboot', 'done'],
    ]);

    // The restarted B runs the ladder too: phone 2 still has its one reminder and one lock.
    await waitUntil('two ladder runs in the restarted B', () => linesOf(serverB, JOB_RAN.ladder).length >= 2);
    expect((await commandsOf(phone2.customerId)).map((c) => c.name)).toEqual(['set_wallpaper', 'lock']);
  }, 90_000);
});
