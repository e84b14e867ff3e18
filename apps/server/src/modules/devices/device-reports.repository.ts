import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { customers, deviceCommands, devices, locations, simChanges } from '../../db/schema';
import { isAnyUuid } from './devices.repository';

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

/**
 * Records what many devices reported, in one statement; each device id must appear once. Every
 * event sets last_seen_at. The reported state (lock, toggles, SIMs) and reported_seq change only
 * for an event newer than the one the state came from (higher seq; events without seq always
 * count), so events that several server processes record out of order never roll it back. A
 * fresh hello makes its connection the current one; an event marks the device online when it
 * names no connection, the current one, or is that fresh hello (a late event of a connection
 * that is gone does not).
 */
export const recordReportedStates = async (db: DbOrTx, states: TReportedStateRow[], seenAt: Date) => {
  if (states.length === 0) return;
  const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
  const fresh = sql`(v.seq is null or d.reported_seq is null or v.seq > d.reported_seq)`;
  await db.execute(sql`
    update devices d
    set last_seen_at = ${seenAt.toISOString()}::timestamptz,
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
    from unnest(
      ${sql.param(states.map((s) => s.deviceId))}::uuid[],
      ${sql.param(states.map((s) => s.isLocked))}::boolean[],
      ${sql.param(states.map((s) => json(s.controls)))}::text[],
      ${sql.param(states.map((s) => json(s.sims)))}::text[],
      ${sql.param(states.map((s) => s.seq ?? null))}::bigint[],
      ${sql.param(states.map((s) => s.connectionId ?? null))}::text[],
      ${sql.param(states.map((s) => s.isHello))}::boolean[],
      ${sql.param(states.map((s) => s.policyVersion ?? null))}::bigint[],
      ${sql.param(states.map((s) => s.pushToken ?? null))}::text[]
    ) as v (id, is_locked, controls, sims, seq, connection_id, is_hello, policy_version, push_token)
    where d.id = v.id`);
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

/** Records what a done command returned. */
export const setCommandResult = async (db: DbOrTx, id: string, result: Record<string, unknown>) => {
  await db.update(deviceCommands).set({ result }).where(eq(deviceCommands.id, id));
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
