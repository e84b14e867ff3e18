import { PENDING_COMMAND_STATES } from '@kisht/domain/common/enums';
import { COMMAND_TRANSITIONS, type TCommandEvent } from '@kisht/domain/devices/command-life';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { rowsFromJson } from '../../db/json-rows';
import { customers, deviceCommands, devices, locations, simChanges } from '../../db/schema';
import type { CommandRow } from './commands.repository';
import { type DeviceRow, isAnyUuid } from './devices.repository';

/*
 * What phones report (design §5): their state, presence, SIMs, locations, command results and
 * push tokens.
 */

/** What one device event says about the device (protocol ZReportedState); undefined keeps the stored value. */
export type TReportedStateRow = {
  deviceId: string;
  isLocked: boolean;
  controls?: Record<string, boolean> | undefined;
  sims?: { slot: number; iccid: string | null; operator: string | null }[] | undefined;
  /** The event's seq (protocol §4); undefined for a device that sends none. */
  seq?: number | undefined;
  /** The connection the event names; undefined for a device that sends none. */
  connectionId?: string | undefined;
  /** A hello: a fresh one makes its connection the device's current one. */
  isHello: boolean;
  /** The policy version the device applied (protocol §6); undefined keeps the stored value. */
  policyVersion?: number | undefined;
  /** A hello's FCM token (protocol §14); undefined keeps the stored one. */
  pushToken?: string | undefined;
};

/** One event of a round (one per device) as recordRound stores it: its state, and an ack's move. */
export type TRoundRow = TReportedStateRow & {
  /** When the phone says the event happened (a SIM change is dated by it). */
  at: Date;
  /** An ack: the command, the event it takes (domain command-life), the error and a done ack's result. */
  ack?:
    | {
        commandId: string;
        event: Extract<TCommandEvent, 'ack_received' | 'ack_done' | 'ack_failed' | 'ack_dropped'>;
        /** undefined keeps the command's error. */
        error?: string | null | undefined;
        result?: Record<string, unknown> | undefined;
      }
    | undefined;
};

/** What recordRound wrote: the devices as they now are, the commands it moved, a hello's pending ones. */
export type TRoundWritten = {
  /** Enrolled devices of the round, after the update (an unknown or unenrolled device is absent). */
  devices: DeviceRow[];
  /** Ids of the acked commands that are the acking device's own (moved or not). */
  ownCommandIds: Set<string>;
  /** Commands the acks moved, as they now are. */
  acked: CommandRow[];
  /** The pending due commands of devices that said hello, marked sent (their sync carries them). */
  synced: CommandRow[];
  /**
   * The devices that said hello as the statement's snapshot saw them, the one `synced` was read
   * in: their syncs' policies. On PostgreSQL a command committed while the round waited for a
   * device's row lock is in `devices` (the locked row's newest version, with its policy version)
   * but not in `synced` (the snapshot); a sync built from `devices` would carry that version
   * without the command, and the phone, holding the command's own policy message of the same
   * version, would apply the sync's and never acknowledge it. From the snapshot the sync carries
   * the version before, the held message is newer and is applied and acknowledged.
   */
  helloDevices: Map<string, DeviceRow>;
  /** SIM changes recorded: the device and its slots before and after. */
  simChanges: { deviceId: string; before: TSimSlots; after: TSimSlots }[];
};

type TSimSlots = { slot: number; iccid: string | null; operator: string | null }[];

/** A SIM list's cards in slot order as one text (`slot:iccid|…`), to tell a SIM change in SQL. */
const simKey = (list: ReturnType<typeof sql>) =>
  sql`(select coalesce(string_agg((s->>'slot') || ':' || coalesce(s->>'iccid', ''), '|'
        order by (s->>'slot')::int), '') from jsonb_array_elements(${list}) s)`;

/**
 * Records a round of device events (one per device) in one statement (issue 26). Every event sets
 * last_seen_at; the reported state (lock, toggles, SIMs) and reported_seq change only for an event
 * newer than the one the state came from (higher seq; events without seq always count), so events
 * that several server processes record out of order never roll it back; a fresh hello makes its
 * connection the current one, and an event marks the device online when it names no connection,
 * the current one, or is that fresh hello. Also recorded: a SIM change against what the device reported before (for
 * an event newer than that report), acks moving their commands along the transition table (only
 * the device's own, never backwards; a done ack of a command cancelled after it was sent ends it
 * done, "ran before the cancel"; a done ack's result stored), and for a hello the device's pending
 * due commands marked sent, as its sync will carry them (an MQTT phone with its secret), with the
 * device as the same snapshot saw it (`helloDevices`, the sync's policy). Devices
 * not enrolled change nothing. The round's devices are locked in id order first, so rounds of two
 * processes never deadlock each other (a deadlock with another writer is run again by the pool: db/client.ts).
 */
export const recordRound = async (db: DbOrTx, rows: TRoundRow[], seenAt: Date): Promise<TRoundWritten> => {
  const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
  const at = sql`${seenAt.toISOString()}::timestamptz`;
  const fresh = sql`(v.seq is null or o.reported_seq is null or v.seq > o.reported_seq)`;
  const ranBeforeCancel = COMMAND_TRANSITIONS.ran_before_cancel;
  const [result] = await queryRows<{
    devices: unknown;
    seen: unknown;
    own: string[] | null;
    acked: unknown;
    synced: unknown;
    changes: { device_id: string; before: TSimSlots; after: TSimSlots }[] | null;
  }>(
    db,
    sql`
    with v as (
      select * from unnest(
        ${sql.param(rows.map((r) => r.deviceId))}::uuid[],
        ${sql.param(rows.map((r) => r.isLocked))}::boolean[],
        ${sql.param(rows.map((r) => json(r.controls)))}::text[],
        ${sql.param(rows.map((r) => json(r.sims)))}::text[],
        ${sql.param(rows.map((r) => r.seq ?? null))}::bigint[],
        ${sql.param(rows.map((r) => r.connectionId ?? null))}::text[],
        ${sql.param(rows.map((r) => r.isHello))}::boolean[],
        ${sql.param(rows.map((r) => r.policyVersion ?? null))}::bigint[],
        ${sql.param(rows.map((r) => r.pushToken ?? null))}::text[],
        ${sql.param(rows.map((r) => r.at.toISOString()))}::timestamptz[],
        ${sql.param(rows.map((r) => r.ack?.commandId ?? null))}::uuid[],
        ${sql.param(rows.map((r) => (r.ack ? COMMAND_TRANSITIONS[r.ack.event].to : null)))}::text[],
        ${sql.param(rows.map((r) => (r.ack ? COMMAND_TRANSITIONS[r.ack.event].from.join(',') : null)))}::text[],
        ${sql.param(rows.map((r) => r.ack?.error === undefined))}::boolean[],
        ${sql.param(rows.map((r) => r.ack?.error ?? null))}::text[],
        ${sql.param(rows.map((r) => json(r.ack?.result)))}::text[]
      ) as v (id, is_locked, controls, sims, seq, connection_id, is_hello, policy_version, push_token,
              at, command_id, ack_to, ack_from, keeps_error, error, result)
    ),
    -- The round's devices locked in id order before anything is written: two processes recording
    -- rounds that share phones then wait for each other instead of deadlocking.
    o as (select d.* from devices d join v on v.id = d.id where d.enrolled_at is not null
          order by d.id for update of d),
    -- The same rows unlocked: as the statement's snapshot saw them, like the commands below.
    seen as (select d.* from devices d join v on v.id = d.id where v.is_hello and d.enrolled_at is not null),
    updated as (
      update devices d
      set last_seen_at = ${at},
          reported_locked = case when ${fresh} then v.is_locked else d.reported_locked end,
          reported_controls = case when ${fresh} then coalesce(v.controls::jsonb, d.reported_controls)
                                   else d.reported_controls end,
          sims = case when ${fresh} then coalesce(v.sims::jsonb, d.sims) else d.sims end,
          reported_seq = case when ${fresh} then coalesce(v.seq, d.reported_seq) else d.reported_seq end,
          reported_policy_version = greatest(d.reported_policy_version, v.policy_version),
          push_token = coalesce(v.push_token, d.push_token),
          connection_id = case when v.is_hello and ${fresh} and v.connection_id is not null
                               then v.connection_id else d.connection_id end,
          is_online = case when v.connection_id is null or v.connection_id = d.connection_id
                                 or (v.is_hello and ${fresh})
                           then true else d.is_online end
      from v join o on o.id = v.id
      where d.id = v.id
      returning d.*
    ),
    changed as (
      insert into sim_changes (org_id, device_id, customer_id, before, after, detected_at)
      select o.org_id, o.id, o.customer_id, o.sims, v.sims::jsonb, v.at
      from v join o on o.id = v.id
      where v.sims is not null and o.sims is not null and ${fresh}
        and ${simKey(sql`o.sims`)} <> ${simKey(sql`v.sims::jsonb`)}
      returning device_id, before, after
    ),
    own as (
      select c.id, c.state, c.last_sent_at, v.ack_to, v.ack_from
      from device_commands c join v on c.id = v.command_id and c.device_id = v.id join o on o.id = v.id
    ),
    acked as (
      update device_commands c
      set state = case when c.state = any(string_to_array(w.ack_from, ',')) then w.ack_to
                       else ${ranBeforeCancel.to} end,
          error = case when c.state = any(string_to_array(w.ack_from, ','))
                       then (case when v.keeps_error then c.error else v.error end)
                       else 'the phone ran it before the cancel arrived' end,
          result = case when w.ack_to = 'done' then coalesce(v.result::jsonb, c.result) else c.result end,
          updated_at = ${at}
      from own w join v on v.command_id = w.id
      where c.id = w.id
        and (w.state = any(string_to_array(w.ack_from, ','))
             or (w.ack_to = 'done' and w.state = any(${sql.param([...ranBeforeCancel.from])}::text[])
                 and w.last_sent_at is not null))
      returning c.*
    ),
    synced as (
      update device_commands c
      set state = case when c.state = any(${sql.param([...COMMAND_TRANSITIONS.publish.from])}::text[])
                       then ${COMMAND_TRANSITIONS.publish.to} else c.state end,
          delivery_attempts = c.delivery_attempts + 1, last_sent_at = ${at}, updated_at = ${at}
      from v join o on o.id = v.id
      where v.is_hello and c.device_id = v.id and o.channel = 'mqtt' and o.secret_hash is not null
        and c.state = any(${sql.param([...PENDING_COMMAND_STATES])}::text[]) and c.run_at is null
      returning c.*
    )
    select (select coalesce(jsonb_agg(to_jsonb(u)), '[]'::jsonb) from updated u) as devices,
           (select coalesce(jsonb_agg(to_jsonb(s)), '[]'::jsonb) from seen s) as seen,
           (select array_agg(w.id) from own w) as own,
           (select coalesce(jsonb_agg(to_jsonb(a)), '[]'::jsonb) from acked a) as acked,
           (select coalesce(jsonb_agg(to_jsonb(s) order by s.device_id, s.created_at, s.id), '[]'::jsonb)
              from synced s) as synced,
           (select jsonb_agg(to_jsonb(c)) from changed c) as changes`,
  );
  return {
    devices: rowsFromJson(devices, result?.devices),
    ownCommandIds: new Set(result?.own ?? []),
    acked: rowsFromJson(deviceCommands, result?.acked),
    synced: rowsFromJson(deviceCommands, result?.synced),
    helloDevices: new Map(rowsFromJson(devices, result?.seen).map((device) => [device.id, device])),
    simChanges: (result?.changes ?? []).map((c) => ({
      deviceId: c.device_id,
      before: c.before,
      after: c.after,
    })),
  };
};

/**
 * Devices whose connection is gone (their `gone` will): each is marked offline, and its connection
 * forgotten, only while that connection is still its current one (a will of an older connection,
 * handled after the device said hello again, changes nothing).
 */
export const recordGoneConnections = async (
  db: DbOrTx,
  gone: { deviceId: string; connectionId: string }[],
) => {
  if (gone.length === 0) return;
  await db.execute(sql`
    update devices d
    set is_online = false, connection_id = null
    from unnest(
      ${sql.param(gone.map((g) => g.deviceId))}::uuid[],
      ${sql.param(gone.map((g) => g.connectionId))}::text[]
    ) as v (id, connection_id)
    where d.id = v.id and d.connection_id = v.connection_id`);
};

export const insertSimChanges = async (db: DbOrTx, rows: (typeof simChanges.$inferInsert)[]) => {
  for (let i = 0; i < rows.length; i += 1000) await db.insert(simChanges).values(rows.slice(i, i + 1000));
};

export const insertLocation = async (db: DbOrTx, row: typeof locations.$inferInsert) => {
  await db.insert(locations).values(row);
};

/** SIM changes of customers in scope (optionally one customer), newest first, with names and a total. */
export const findSimChanges = async (
  db: DbOrTx,
  scope: { orgId: number; retailerIds: number[] },
  filter: { customerId?: number; limit: number; offset: number },
) => {
  const where = and(
    eq(customers.orgId, scope.orgId),
    inArray(customers.retailerId, scope.retailerIds),
    filter.customerId === undefined ? undefined : eq(customers.id, filter.customerId),
  );
  const [rows, totals] = await Promise.all([
    db
      .select({ change: simChanges, firstName: customers.firstName, lastName: customers.lastName })
      .from(simChanges)
      .innerJoin(customers, eq(customers.id, simChanges.customerId))
      .where(where)
      .orderBy(desc(simChanges.detectedAt), desc(simChanges.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(simChanges)
      .innerJoin(customers, eq(customers.id, simChanges.customerId))
      .where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
};

/** Wake-up pushes go to a phone at most this often, ms. */
export const WAKE_EVERY_MS = 60_000;

/**
 * Of these devices, those to wake now (device protocol §14): enrolled, not released, offline, with
 * an FCM token, and not woken in the last WAKE_EVERY_MS. Marks them woken at `now` in the same
 * statement, so two server processes never wake a phone twice. Returns their ids and tokens.
 */
export const claimWakes = async (db: DbOrTx, deviceIds: string[], now: Date = new Date()) =>
  deviceIds.length === 0
    ? []
    : queryRows<{ id: string; push_token: string }>(
        db,
        sql`update devices set last_woken_at = ${now.toISOString()}::timestamptz
            where ${isAnyUuid(devices.id, deviceIds)}
              and not is_online and push_token is not null
              and enrolled_at is not null and secret_hash is not null
              and (last_woken_at is null
                   or last_woken_at <= ${now.toISOString()}::timestamptz - ${WAKE_EVERY_MS} * interval '1 millisecond')
            returning id, push_token`,
      );

/** Forgets a device's FCM token that the push service called dead (unless a newer one came). */
export const clearPushToken = async (db: DbOrTx, deviceId: string, token: string) => {
  await db
    .update(devices)
    .set({ pushToken: null })
    .where(and(eq(devices.id, deviceId), eq(devices.pushToken, token)));
};
