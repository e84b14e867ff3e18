import type { PGlite } from '@electric-sql/pglite';
import { imeiCheckDigit } from '@kisht/domain/common/identifiers';
import { evtTopic, PROTOCOL_VERSION, type TSimSlot } from '@kisht/domain/devices/protocol.schema';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Db, openDatabase } from '../../db/client';
import { customers, deviceCommands, devices, products, simChanges, users } from '../../db/schema';
import { BULK_CUSTOMER_LOAN, DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import { openTestPglite } from '../../test/harness';
import { DeviceEventRecorder } from './device-events.service';
import { CommandDispatcher } from './device-outbox.service';

/**
 * The dispatcher records device events in batches (set-based statements for many devices). These
 * tests fire many events at once, as thousands of phones acking a bulk lock do, and check that the
 * batch keeps the per-event rules: each device's order, no command moving backwards, acks for
 * another device's command ignored, hooks and re-sends as before.
 */
let pglite: PGlite;
let db: Db;
let published: { topic: string; payload: string }[];
let warnings: string[];
let recorder: DeviceEventRecorder;

const SIMS_A: TSimSlot[] = [{ slot: 1, iccid: '8991000900000000001', operator: 'Jio' }];
const SIMS_B: TSimSlot[] = [{ slot: 1, iccid: '8991000900000000002', operator: 'Airtel' }];

beforeEach(async () => {
  pglite = await openTestPglite();
  db = (await openDatabase({ pglite, migrate: false })).db;
  published = [];
  warnings = [];
  const log = {
    warn: (_obj: object, message: string) => void warnings.push(message),
    error: (_obj: object, message: string) => void warnings.push(`error: ${message}`),
    info: () => {},
    debug: () => {},
  } as unknown as FastifyBaseLogger;
  const dispatcher = new CommandDispatcher(
    db,
    {
      publish: async (topic, payload) => void published.push({ topic, payload }),
      subscribeEvents: async () => {},
      close: async () => {},
    },
    log,
  );
  recorder = new DeviceEventRecorder(db, dispatcher, log);
});
afterEach(async () => {
  await pglite.close();
});

let imeiCounter = 0;
const imei = () => {
  imeiCounter += 1;
  const body = `35${String(imeiCounter).padStart(12, '0')}`;
  return `${body}${imeiCheckDigit(body)}`;
};

/** Enrolled devices (each with its own customer of the demo retailer), SIMs as given; returns their ids. */
const createDevices = async (count: number, sims: TSimSlot[] | null = SIMS_A): Promise<string[]> => {
  const [retailer] = await db
    .select()
    .from(users)
    .where(and(eq(users.orgId, DEMO_ORG_ID), eq(users.mobile, DEMO_RETAILER_MOBILE)));
  const [product] = await db.select().from(products).where(eq(products.orgId, DEMO_ORG_ID)).limit(1);
  const inserted = await db
    .insert(customers)
    .values(
      Array.from({ length: count }, (_, k) => ({
        orgId: DEMO_ORG_ID,
        retailerId: retailer!.id,
        firstName: 'Batch',
        lastName: `Phone${k}`,
        mobile: `+91${7_100_000_000 + imeiCounter + k}`,
        status: 1,
        productId: product!.id,
        ...BULK_CUSTOMER_LOAN,
      })),
    )
    .returning({ id: customers.id });
  const ids = inserted.map(() => uuidv7());
  await db.insert(devices).values(
    inserted.map((customer, k) => ({
      id: ids[k]!,
      orgId: DEMO_ORG_ID,
      customerId: customer.id,
      imei1: imei(),
      imei2: imei(),
      enrolledAt: new Date(),
      secretHash: 'x',
      sims,
    })),
  );
  return ids;
};

/** One command per device, in `state`, created `ageMs` ago; returns their ids in device order. */
const createCommands = async (deviceIds: string[], name: string, state: string, ageMs = 0) => {
  const rows = deviceIds.map((deviceId) => ({
    id: uuidv7(),
    orgId: DEMO_ORG_ID,
    deviceId,
    name,
    state,
    createdAt: new Date(Date.now() - ageMs),
  }));
  await db.insert(deviceCommands).values(rows);
  return rows.map((row) => row.id);
};

const ack = (
  deviceId: string,
  commandId: string,
  status: 'received' | 'done' | 'failed' | 'dropped',
  extra: Record<string, unknown> = {},
) =>
  recorder.handleEvent(
    evtTopic(deviceId),
    Buffer.from(
      JSON.stringify({
        v: PROTOCOL_VERSION,
        type: 'ack',
        commandId,
        status,
        state: { isLocked: status === 'done' },
        at: new Date().toISOString(),
        ...extra,
      }),
    ),
  );

const hello = (deviceId: string, state: Record<string, unknown> = { isLocked: false }) =>
  recorder.handleEvent(
    evtTopic(deviceId),
    Buffer.from(
      JSON.stringify({
        v: PROTOCOL_VERSION,
        type: 'hello',
        state,
        at: new Date().toISOString(),
        connectionId: `c-${deviceId}`,
      }),
    ),
  );

/** The bodies of the signed messages published to a device, in order (device protocol §5). */
const bodiesTo = (deviceId: string) =>
  published
    .filter((m) => m.topic.includes(deviceId))
    .map((m) => JSON.parse(JSON.parse(m.payload).body) as Record<string, unknown> & { type: string });

const statesOf = async (ids: string[]) =>
  new Map(
    (
      await db
        .select({ id: deviceCommands.id, state: deviceCommands.state, error: deviceCommands.error })
        .from(deviceCommands)
        .where(inArray(deviceCommands.id, ids))
    ).map((row) => [row.id, row]),
  );

describe('CommandDispatcher batching', () => {
  it('records received and done acks of many phones at once in a few statements', async () => {
    const deviceIds = await createDevices(60);
    const commandIds = await createCommands(deviceIds, 'lock', 'sent');
    const query = vi.spyOn(pglite, 'query');
    await Promise.all(
      deviceIds.flatMap((deviceId, k) => [
        ack(deviceId, commandIds[k]!, 'received'),
        ack(deviceId, commandIds[k]!, 'done'),
      ]),
    );
    // Two rounds (received, then done), each: devices, their state, commands, one transition.
    expect(query.mock.calls.length).toBeGreaterThan(0);
    expect(query.mock.calls.length).toBeLessThanOrEqual(10);
    const states = await statesOf(commandIds);
    expect([...states.values()].every((row) => row.state === 'done')).toBe(true);
    const rows = await db.select().from(devices).where(inArray(devices.id, deviceIds));
    expect(rows.every((row) => row.reportedLocked && row.isOnline && row.lastSeenAt !== null)).toBe(true);
  });

  it('never moves a command backwards on duplicate or out-of-order acks in one batch', async () => {
    const [a, b, c, d] = await createDevices(4);
    const [lockA, lockB, lockC, lockD] = await createCommands([a!, b!, c!, d!], 'lock', 'sent');
    await Promise.all([
      // a: done, then a late received and a duplicate done.
      ack(a!, lockA!, 'done'),
      ack(a!, lockA!, 'received'),
      ack(a!, lockA!, 'done'),
      // b: received twice.
      ack(b!, lockB!, 'received'),
      ack(b!, lockB!, 'received'),
      // c: failed, then a late done.
      ack(c!, lockC!, 'failed', { error: 'no device admin' }),
      ack(c!, lockC!, 'done'),
      // d: done, then failed.
      ack(d!, lockD!, 'done'),
      ack(d!, lockD!, 'failed'),
    ]);
    const states = await statesOf([lockA!, lockB!, lockC!, lockD!]);
    expect(states.get(lockA!)).toMatchObject({ state: 'done', error: null });
    expect(states.get(lockB!)).toMatchObject({ state: 'received' });
    expect(states.get(lockC!)).toMatchObject({ state: 'failed', error: 'no device admin' });
    expect(states.get(lockD!)).toMatchObject({ state: 'done', error: null });
  });

  it('accepts acks only for commands that were sent: a forged done leaves a queued or scheduled one queued', async () => {
    const [device] = await createDevices(1);
    const [queued, scheduled, stale] = await createCommands([device!, device!, device!], 'reboot', 'queued');
    await db
      .update(deviceCommands)
      .set({ runAt: new Date(Date.now() + 3_600_000) })
      .where(eq(deviceCommands.id, scheduled!));
    await db.update(deviceCommands).set({ state: 'sent' }).where(eq(deviceCommands.id, stale!));
    await Promise.all([
      ack(device!, queued!, 'done'),
      ack(device!, scheduled!, 'received'),
      ack(device!, scheduled!, 'done'),
      // A phone drops a command past its notAfter: it ends expired, with the reason.
      ack(device!, stale!, 'dropped', { error: 'past notAfter' }),
    ]);
    const states = await statesOf([queued!, scheduled!, stale!]);
    expect(states.get(queued!)).toMatchObject({ state: 'queued' });
    expect(states.get(scheduled!)).toMatchObject({ state: 'queued' });
    expect(states.get(stale!)).toMatchObject({
      state: 'expired',
      error: 'dropped by the phone: past notAfter',
    });
  });

  it('ignores, with a warning, an ack for another device’s command or an unknown one', async () => {
    const [mine, other] = await createDevices(2);
    const [otherLock] = await createCommands([other!], 'lock', 'sent');
    await Promise.all([ack(mine!, otherLock!, 'done'), ack(mine!, uuidv7(), 'done')]);
    expect((await statesOf([otherLock!])).get(otherLock!)!.state).toBe('sent');
    expect(warnings.filter((w) => w === 'ack for an unknown command ignored')).toHaveLength(2);
  });

  it('keeps each device’s order: the last event’s state stands and a SIM change is seen once', async () => {
    const deviceIds = await createDevices(5);
    const commandIds = await createCommands(deviceIds, 'lock', 'sent');
    const changes: { before: TSimSlot[]; after: TSimSlot[] }[] = [];
    recorder.hooks.simChanged = async ({ before, after }) => void changes.push({ before, after });
    await Promise.all(
      deviceIds.flatMap((deviceId, k) => [
        hello(deviceId, { isLocked: false, sims: SIMS_A }),
        ack(deviceId, commandIds[k]!, 'received', { state: { isLocked: false, sims: SIMS_B } }),
        ack(deviceId, commandIds[k]!, 'done', { state: { isLocked: true, sims: SIMS_B } }),
      ]),
    );
    const rows = await db.select().from(devices).where(inArray(devices.id, deviceIds));
    expect(rows.every((row) => row.reportedLocked && row.sims![0]!.iccid === SIMS_B[0]!.iccid)).toBe(true);
    expect(changes).toHaveLength(5);
    expect(changes.every((c) => c.before[0]!.iccid === SIMS_A[0]!.iccid)).toBe(true);
    expect(await db.select().from(simChanges).where(inArray(simChanges.deviceId, deviceIds))).toHaveLength(5);
  });

  it('keeps the state of the highest seq when another process recorded a newer event first', async () => {
    const [deviceId] = await createDevices(1);
    const [commandId] = await createCommands([deviceId!], 'lock', 'sent');
    // The done ack (seq 200, locked) was recorded first, as another server process may do; the
    // received ack (seq 100, the state before the lock) arrives late and must not roll it back.
    await ack(deviceId!, commandId!, 'done', { seq: 200, state: { isLocked: true, sims: SIMS_B } });
    const changes: unknown[] = [];
    recorder.hooks.simChanged = async (change) => void changes.push(change);
    await ack(deviceId!, commandId!, 'received', { seq: 100, state: { isLocked: false, sims: SIMS_A } });
    const [row] = await db.select().from(devices).where(eq(devices.id, deviceId!));
    expect(row).toMatchObject({ reportedLocked: true, reportedSeq: 200 });
    expect(row!.sims![0]!.iccid).toBe(SIMS_B[0]!.iccid);
    expect(changes).toEqual([]);
    expect((await statesOf([commandId!])).get(commandId!)!.state).toBe('done');
    // Events without a seq (an older device) are taken in arrival order, as before.
    await ack(deviceId!, commandId!, 'done', { state: { isLocked: false } });
    expect((await db.select().from(devices).where(eq(devices.id, deviceId!)))[0]!.reportedLocked).toBe(false);
  });

  it('marks a device offline on the gone will of its current connection only', async () => {
    const [deviceId] = await createDevices(1);
    const event = (body: Record<string, unknown>) =>
      recorder.handleEvent(
        evtTopic(deviceId!),
        Buffer.from(JSON.stringify({ v: PROTOCOL_VERSION, at: new Date().toISOString(), ...body })),
      );
    const rowOf = async () => (await db.select().from(devices).where(eq(devices.id, deviceId!)))[0]!;
    await event({ type: 'hello', state: { isLocked: false }, seq: 10, connectionId: 'c1' });
    expect(await rowOf()).toMatchObject({ isOnline: true, connectionId: 'c1' });
    // The phone reconnected (hello on c2) before the broker's will for c1 was handled: still online.
    await event({ type: 'hello', state: { isLocked: false }, seq: 20, connectionId: 'c2' });
    await event({ type: 'gone', connectionId: 'c1' });
    expect(await rowOf()).toMatchObject({ isOnline: true, connectionId: 'c2' });
    await event({ type: 'gone', connectionId: 'c2' });
    expect(await rowOf()).toMatchObject({ isOnline: false, connectionId: null });
    // A late ack sent on c2 records its state but does not bring the phone back online.
    await event({
      type: 'ack',
      commandId: uuidv7(),
      status: 'received',
      state: { isLocked: true },
      seq: 30,
      connectionId: 'c2',
    });
    expect(await rowOf()).toMatchObject({ isOnline: false, reportedLocked: true });
  });

  it('calls commandDone once per command that became done, and stores a location result', async () => {
    const deviceIds = await createDevices(3);
    const locks = await createCommands(deviceIds, 'lock', 'sent');
    const [where] = await createCommands([deviceIds[0]!], 'location', 'sent');
    const done: string[] = [];
    recorder.hooks.commandDone = async ({ device, command }) => {
      expect(command.deviceId).toBe(device.id);
      done.push(command.id);
    };
    const fix = { latitude: '12.97', longitude: '77.59', accuracyM: 12.4, at: new Date().toISOString() };
    await Promise.all([
      ...deviceIds.flatMap((deviceId, k) => [
        ack(deviceId, locks[k]!, 'done'),
        ack(deviceId, locks[k]!, 'done'),
      ]),
      ack(deviceIds[0]!, where!, 'done', { result: fix }),
    ]);
    expect(done.sort()).toEqual([...locks, where!].sort());
    const [command] = await db.select().from(deviceCommands).where(eq(deviceCommands.id, where!));
    expect(command!.result).toMatchObject({ latitude: '12.97' });
    const [device] = await db.select().from(devices).where(eq(devices.id, deviceIds[0]!));
    expect(device!.lastLocation).toMatchObject({ latitude: '12.97', longitude: '77.59' });
  });

  it('re-sends each device’s pending commands, oldest first, on hello', async () => {
    const [a, b] = await createDevices(2);
    const [older] = await createCommands([a!], 'lock', 'queued', 2_000);
    const [newer] = await createCommands([a!], 'wallpaper_on', 'sent', 1_000);
    const [ofB] = await createCommands([b!], 'unlock', 'received');
    await createCommands([b!], 'lock', 'done');
    await Promise.all([hello(a!), hello(b!)]);
    // A sync for the hello's connection: the policy carries the lock and unlock, the one-shot
    // command follows it.
    expect(bodiesTo(a!)).toMatchObject([
      {
        type: 'sync',
        connectionId: `c-${a}`,
        policy: { commands: [{ id: older, name: 'lock' }] },
        commandIds: [newer],
      },
      { type: 'command', id: newer },
    ]);
    expect(bodiesTo(b!)).toMatchObject([
      { type: 'sync', policy: { commands: [{ id: ofB, name: 'unlock' }] }, commandIds: [] },
    ]);
    const rows = await db
      .select()
      .from(deviceCommands)
      .where(inArray(deviceCommands.id, [older!, newer!, ofB!]));
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(older!)).toMatchObject({ state: 'sent', deliveryAttempts: 1 });
    expect(byId.get(newer!)).toMatchObject({ state: 'sent', deliveryAttempts: 1 });
    expect(byId.get(ofB!)).toMatchObject({ state: 'received', deliveryAttempts: 1 });
  });

  it('leaves a scheduled command to the scheduler on hello, even once its time has come', async () => {
    const [device] = await createDevices(1);
    const [due, later] = await createCommands([device!, device!], 'lock', 'queued');
    await db
      .update(deviceCommands)
      .set({ runAt: new Date(Date.now() - 1_000) })
      .where(inArray(deviceCommands.id, [due!]));
    await db
      .update(deviceCommands)
      .set({ runAt: new Date(Date.now() + 3_600_000) })
      .where(inArray(deviceCommands.id, [later!]));
    await hello(device!);
    // The scheduler supersedes the opposite command and records the desired state first.
    expect(bodiesTo(device!)).toMatchObject([{ type: 'sync', policy: { commands: [] }, commandIds: [] }]);
    const states = await statesOf([due!, later!]);
    expect([states.get(due!)?.state, states.get(later!)?.state]).toEqual(['queued', 'queued']);
  });

  it('ignores malformed events and unknown devices without holding up the rest of the batch', async () => {
    const [known] = await createDevices(1);
    const [lock] = await createCommands([known!], 'lock', 'sent');
    await Promise.all([
      recorder.handleEvent(evtTopic(known!), Buffer.from('{not json')),
      recorder.handleEvent(evtTopic(known!), Buffer.from(JSON.stringify({ v: 1, type: 'ack' }))),
      hello(uuidv7()),
      hello('not-a-uuid'),
      ack(known!, lock!, 'done'),
    ]);
    expect((await statesOf([lock!])).get(lock!)!.state).toBe('done');
    expect(warnings.filter((w) => w === 'malformed device event ignored')).toHaveLength(2);
    expect(warnings.filter((w) => w === 'event from unknown device ignored')).toHaveLength(2);
  });
});
