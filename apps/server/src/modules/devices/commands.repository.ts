import { type TAuditEvent, ZBulkSkipped } from '@kisht/domain/audit/audit-events';
import { COMMAND_TRANSITIONS, type TCommandEvent } from '@kisht/domain/devices/command-life';
import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { type DbOrTx, queryRows } from '../../db/client';
import { rowsFromJson } from '../../db/json-rows';
import { auditLog, customers, deviceCommands, devices, users } from '../../db/schema';
import { isAnyUuid } from './devices.repository';

/*
 * Command rows (design §5): reads, and moves along the command transition table (domain
 * command-life; every state change names its event). Inserting rows is the command gate's alone
 * (gate.repository).
 */

export type CommandRow = typeof deviceCommands.$inferSelect;

const PENDING = ['queued', 'sent', 'received'];

/** A command is due once it has no scheduled time or its time has come (at `now`). */
const isDue = (now: Date = new Date()) => or(isNull(deviceCommands.runAt), lte(deviceCommands.runAt, now));

/**
 * A device's pending due commands (newest first) and its newest command of any state, in one
 * statement (issue 26: the customer's screen shows both).
 */
export const findPendingAndNewestCommand = async (
  db: DbOrTx,
  deviceId: string,
): Promise<{ pending: CommandRow[]; newest: CommandRow | null }> => {
  const now = new Date().toISOString();
  const [row] = await queryRows<{ pending: unknown; newest: unknown }>(
    db,
    sql`select
          (select coalesce(jsonb_agg(to_jsonb(c) order by c.created_at desc, c.id desc), '[]'::jsonb)
             from device_commands c
            where c.device_id = ${deviceId}::uuid and c.state = any(${sql.param(PENDING)}::text[])
              and (c.run_at is null or c.run_at <= ${now}::timestamptz)) as pending,
          (select to_jsonb(c) from device_commands c where c.device_id = ${deviceId}::uuid
            order by c.created_at desc, c.id desc limit 1) as newest`,
  );
  return {
    pending: rowsFromJson(deviceCommands, row?.pending),
    newest: row?.newest ? (rowsFromJson(deviceCommands, [row.newest])[0] ?? null) : null,
  };
};

export const findCommand = async (db: DbOrTx, id: string) => {
  const rows = await db.select().from(deviceCommands).where(eq(deviceCommands.id, id)).limit(1);
  return rows[0] ?? null;
};

/** A device's commands, newest first, with who created them (command history). */
export const findCommandHistory = (db: DbOrTx, deviceId: string, limit: number) =>
  db
    .select({ command: deviceCommands, createdByName: users.name })
    .from(deviceCommands)
    .leftJoin(users, eq(users.id, deviceCommands.createdBy))
    .where(eq(deviceCommands.deviceId, deviceId))
    .orderBy(desc(deviceCommands.createdAt), desc(deviceCommands.id))
    .limit(limit);

/** Pending commands of a device that are due (not scheduled for later), newest first. */
export const findPendingCommandsNewestFirst = (db: DbOrTx, deviceId: string) =>
  db
    .select()
    .from(deviceCommands)
    .where(and(eq(deviceCommands.deviceId, deviceId), inArray(deviceCommands.state, PENDING), isDue()))
    .orderBy(desc(deviceCommands.createdAt), desc(deviceCommands.id));

/**
 * Pending commands whose customers are in scope, with the customer: `offline` — due commands of
 * offline devices, oldest first (offline command log); `scheduled` — commands waiting for a run_at
 * still ahead, soonest first.
 */
export const findPendingInScope = (
  db: DbOrTx,
  scope: { orgId: number; retailerIds: number[] },
  kind: 'offline' | 'scheduled',
  limit: number,
) => {
  const now = new Date();
  return db
    .select({
      command: deviceCommands,
      createdByName: users.name,
      customerId: customers.id,
      firstName: customers.firstName,
      lastName: customers.lastName,
    })
    .from(deviceCommands)
    .innerJoin(devices, eq(devices.id, deviceCommands.deviceId))
    .innerJoin(customers, eq(customers.id, devices.customerId))
    .leftJoin(users, eq(users.id, deviceCommands.createdBy))
    .where(
      and(
        eq(customers.orgId, scope.orgId),
        inArray(customers.retailerId, scope.retailerIds),
        inArray(deviceCommands.state, PENDING),
        kind === 'offline'
          ? and(eq(devices.isOnline, false), isDue(now))
          : sql`${deviceCommands.runAt} > ${now}`,
      ),
    )
    .orderBy(
      ...(kind === 'offline'
        ? [asc(deviceCommands.createdAt), asc(deviceCommands.id)]
        : [asc(deviceCommands.runAt), asc(deviceCommands.id)]),
    )
    .limit(limit);
};

/**
 * The commands of a bulk request whose customers are in scope, with the customers' names; with
 * `updatedSince`, only those whose row changed (state or error) at or after it.
 */
export const findBatchCommands = (
  db: DbOrTx,
  scope: { orgId: number; retailerIds: number[] },
  batchId: string,
  updatedSince?: Date,
) =>
  db
    .select({
      // Only what the progress shows: a bulk of 10,000 phones is polled every few seconds.
      command: {
        id: deviceCommands.id,
        name: deviceCommands.name,
        state: deviceCommands.state,
        error: deviceCommands.error,
      },
      customerId: customers.id,
      firstName: customers.firstName,
      lastName: customers.lastName,
    })
    .from(deviceCommands)
    .innerJoin(devices, eq(devices.id, deviceCommands.deviceId))
    .innerJoin(customers, eq(customers.id, devices.customerId))
    .where(
      and(
        eq(deviceCommands.batchId, batchId),
        eq(customers.orgId, scope.orgId),
        inArray(customers.retailerId, scope.retailerIds),
        updatedSince ? gte(deviceCommands.updatedAt, updatedSince) : undefined,
      ),
    )
    .orderBy(asc(customers.id));

/**
 * How many commands of a bulk request whose customers are in scope are in each state, by command
 * name: one aggregate (GROUP BY) on the batch index, never returning the rows (issue 17).
 */
export const countBatchCommandsInScope = (
  db: DbOrTx,
  scope: { orgId: number; retailerIds: number[] },
  batchId: string,
): Promise<{ name: string; state: string; count: number }[]> =>
  db
    .select({
      name: deviceCommands.name,
      state: deviceCommands.state,
      count: sql<number>`count(*)::int`.mapWith(Number),
    })
    .from(deviceCommands)
    .innerJoin(devices, eq(devices.id, deviceCommands.deviceId))
    .innerJoin(customers, eq(customers.id, devices.customerId))
    .where(
      and(
        eq(deviceCommands.batchId, batchId),
        eq(customers.orgId, scope.orgId),
        inArray(customers.retailerId, scope.retailerIds),
      ),
    )
    .groupBy(deviceCommands.name, deviceCommands.state);

/**
 * How many commands of a batch of the organisation are in each state: one aggregate (GROUP BY
 * state) over device_commands by batch_id, never reading the rows (issue 17). States without a
 * command are left out.
 */
export const countBatchCommandsByState = async (
  db: DbOrTx,
  orgId: number,
  batchId: string,
): Promise<Map<string, number>> => {
  const rows = await db
    .select({ state: deviceCommands.state, count: sql<number>`count(*)::int`.mapWith(Number) })
    .from(deviceCommands)
    .where(and(eq(deviceCommands.orgId, orgId), eq(deviceCommands.batchId, batchId)))
    .groupBy(deviceCommands.state);
  return new Map(rows.map((row) => [row.state, row.count]));
};

/** What a bulk's progress reads of its audit entry (device.bulk_<name>, entity batch): the skipped customers. */
const ZBatchSkippedRead = z.object({ skipped: ZBulkSkipped });

/** The customers a bulk request skipped, from its audit entry (none when its details are not of that shape). */
export const findBatchSkipped = async (
  db: DbOrTx,
  orgId: number,
  batchId: string,
): Promise<{ customerId: number; reason: string }[]> => {
  const rows = await db
    .select({ details: auditLog.details })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.orgId, orgId),
        eq(auditLog.entity, 'batch' satisfies TAuditEvent['entity']),
        eq(auditLog.entityId, batchId),
      ),
    )
    .limit(1);
  const read = ZBatchSkippedRead.safeParse(rows[0]?.details);
  return read.success ? read.data.skipped : [];
};

/** The newest command of a device with this name that the phone acknowledged done, or null. */
export const findNewestDoneCommand = async (db: DbOrTx, deviceId: string, name: string) => {
  const rows = await db
    .select()
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.deviceId, deviceId),
        eq(deviceCommands.name, name),
        eq(deviceCommands.state, 'done'),
      ),
    )
    .orderBy(desc(deviceCommands.createdAt), desc(deviceCommands.id))
    .limit(1);
  return rows[0] ?? null;
};

/**
 * The lock/unlock and toggle commands of many devices that their current policy carries out
 * (pending and released), by device, oldest first.
 */
export const findPendingPolicyCommandsOfDevices = async (
  db: DbOrTx,
  deviceIds: string[],
  policyNames: readonly string[],
): Promise<Map<string, CommandRow[]>> => {
  const byDevice = new Map<string, CommandRow[]>();
  if (deviceIds.length === 0) return byDevice;
  const rows = await db
    .select()
    .from(deviceCommands)
    .where(
      and(
        isAnyUuid(deviceCommands.deviceId, deviceIds),
        inArray(deviceCommands.state, PENDING),
        isNull(deviceCommands.runAt),
        inArray(deviceCommands.name, [...policyNames]),
      ),
    )
    .orderBy(asc(deviceCommands.createdAt), asc(deviceCommands.id));
  for (const row of rows) {
    const list = byDevice.get(row.deviceId) ?? [];
    list.push(row);
    byDevice.set(row.deviceId, list);
  }
  return byDevice;
};

/**
 * The pending commands of many devices that may go out, in one statement, by device, each device's
 * oldest first (the order they must be applied in). A scheduled command is left out until the
 * scheduler has taken it (dispatchDueScheduledCommands clears run_at after superseding the
 * opposite command and recording the desired state), even once its time has come.
 */
export const findPendingCommandsOfDevices = (db: DbOrTx, deviceIds: string[]): Promise<CommandRow[]> =>
  deviceIds.length === 0
    ? Promise.resolve([])
    : db
        .select()
        .from(deviceCommands)
        .where(
          and(
            isAnyUuid(deviceCommands.deviceId, deviceIds),
            inArray(deviceCommands.state, PENDING),
            isNull(deviceCommands.runAt),
          ),
        )
        .orderBy(asc(deviceCommands.deviceId), asc(deviceCommands.createdAt), asc(deviceCommands.id));

/**
 * Moves one command along the transition table (domain command-life): to the event's state, only
 * from one of its `from` states, so concurrent acks, sends and cancels never move a command
 * backwards. Returns the updated row, or null when it was in no such state.
 */
export const transitionCommand = async (
  db: DbOrTx,
  id: string,
  event: TCommandEvent,
  extra: { error?: string | null } = {},
): Promise<CommandRow | null> => {
  const { from, to } = COMMAND_TRANSITIONS[event];
  const rows = await db
    .update(deviceCommands)
    .set({ state: to, updatedAt: new Date(), ...extra })
    .where(and(eq(deviceCommands.id, id), inArray(deviceCommands.state, [...from])))
    .returning();
  return rows[0] ?? null;
};

/**
 * Pending commands past their expiry (where the organisation sets one) or their notAfter take the
 * event `expire`.
 */
export const expireOverdueCommands = (db: DbOrTx, now: Date): Promise<CommandRow[]> =>
  db
    .update(deviceCommands)
    .set({ state: COMMAND_TRANSITIONS.expire.to, error: 'expired before the phone took it', updatedAt: now })
    .where(
      and(
        inArray(deviceCommands.state, [...COMMAND_TRANSITIONS.expire.from]),
        or(lt(deviceCommands.expiresAt, now), lt(deviceCommands.notAfter, now)),
      ),
    )
    .returning();

/**
 * Takes the scheduled commands that are due (queued, run_at ≤ now), at most `limit`, skipping rows
 * another process holds (FOR UPDATE SKIP LOCKED). Call inside a transaction, then release each
 * (releaseScheduledCommands) or end it (endScheduledCommands), so no process takes them again.
 */
export const lockDueScheduledCommands = (db: DbOrTx, now: Date, limit: number): Promise<CommandRow[]> =>
  db
    .select()
    .from(deviceCommands)
    .where(and(eq(deviceCommands.state, 'queued'), lte(deviceCommands.runAt, now)))
    .orderBy(asc(deviceCommands.runAt))
    .limit(limit)
    .for('update', { skipLocked: true });

/**
 * Ends scheduled commands that the rules refuse now they are due (lockDueScheduledCommands took
 * them): event `refuse_when_due` (queued → cancelled), run_at cleared, `error` saying why, one
 * statement. They never edited a policy, so nothing is taken back.
 */
export const refuseScheduledCommands = async (
  db: DbOrTx,
  ended: { id: string; error: string }[],
  now: Date,
) => {
  if (ended.length === 0) return;
  const { from, to } = COMMAND_TRANSITIONS.refuse_when_due;
  await queryRows(
    db,
    sql`update device_commands c set state = ${to}, error = v.error, run_at = null,
          updated_at = ${now.toISOString()}::timestamptz
        from unnest(
          ${sql.param(ended.map((e) => e.id))}::uuid[],
          ${sql.param(ended.map((e) => e.error))}::text[]
        ) as v (id, error)
        where c.id = v.id and c.state = any(${sql.param([...from])}::text[])
        returning c.id`,
  );
};

/**
 * Counts one more delivery of many commands, published at `at` (lastSentAt); the queued ones take
 * the event `publish` (→ sent), a re-sent one keeps its state. One statement per 1,000.
 */
export const markManySent = async (db: DbOrTx, ids: string[], at: Date = new Date()) => {
  for (let i = 0; i < ids.length; i += 1000) {
    await db
      .update(deviceCommands)
      .set({
        deliveryAttempts: sql`${deviceCommands.deliveryAttempts} + 1`,
        state: sql`case when ${deviceCommands.state} = any(${sql.param([...COMMAND_TRANSITIONS.publish.from])}::text[])
                   then ${COMMAND_TRANSITIONS.publish.to} else ${deviceCommands.state} end`,
        lastSentAt: at,
        updatedAt: new Date(),
      })
      .where(inArray(deviceCommands.id, ids.slice(i, i + 1000)));
  }
};

/** A pending command unacknowledged this long after its first publish is re-sent, ms (design §5). */
export const REDELIVERY_FIRST_AFTER_MS = 60_000;

/** Each later re-send waits twice as long as the one before, up to this, ms. */
export const REDELIVERY_MAX_AFTER_MS = 3_600_000;

/**
 * Claims the pending commands (released by the scheduler, not acknowledged done or failed) of
 * connected, enrolled devices that went unacknowledged too long: REDELIVERY_FIRST_AFTER_MS after
 * the last publish (or after the row was written, if no publish ever went out), doubling with each
 * attempt up to REDELIVERY_MAX_AFTER_MS. Sets their lastSentAt to `now`, taking the rows FOR UPDATE SKIP LOCKED,
 * so two server processes never claim the same command and the next claim waits a full interval.
 * Returns the ids of the devices concerned (distinct), at most `limit` commands' worth.
 */
export const claimUnacknowledgedCommands = async (
  db: DbOrTx,
  now: Date,
  limit: number,
): Promise<string[]> => {
  const rows = await queryRows<{ device_id: string }>(
    db,
    sql`
      with stale as (
        select c.id
        from ${deviceCommands} c
        join ${devices} d on d.id = c.device_id
        where c.state in ('queued', 'sent', 'received')
          and c.run_at is null
          and d.is_online
          and d.enrolled_at is not null
          and d.secret_hash is not null
          and coalesce(c.last_sent_at, c.created_at) <= ${now.toISOString()}::timestamptz - least(
            ${REDELIVERY_MAX_AFTER_MS}::double precision,
            ${REDELIVERY_FIRST_AFTER_MS}::double precision * power(2, greatest(c.delivery_attempts - 1, 0))
          ) * interval '1 millisecond'
        order by c.created_at, c.id
        limit ${limit}
        for update of c skip locked
      )
      update ${deviceCommands} set last_sent_at = ${now.toISOString()}::timestamptz
      from stale where ${deviceCommands}.id = stale.id
      returning ${deviceCommands}.device_id
    `,
  );
  return [...new Set(rows.map((row) => row.device_id))];
};

/**
 * The creation times of the device's `name` commands since `since`, oldest first, leaving out
 * those cancelled (they never reached the phone): what a per-phone rate limit counts (issue 16).
 */
export const findCommandTimesSince = async (
  db: DbOrTx,
  deviceId: string,
  name: string,
  since: Date,
): Promise<Date[]> =>
  (
    await db
      .select({ createdAt: deviceCommands.createdAt })
      .from(deviceCommands)
      .where(
        and(
          eq(deviceCommands.deviceId, deviceId),
          eq(deviceCommands.name, name),
          gte(deviceCommands.createdAt, since),
          ne(deviceCommands.state, 'cancelled'),
        ),
      )
      .orderBy(asc(deviceCommands.createdAt))
  ).map((row) => row.createdAt);

/**
 * True when the device already has a reminder (set_wallpaper) for the instalment. Run after
 * lockDevicesForReminder took the device: a new statement sees a reminder another server process
 * committed while this one waited for the row (the NOT EXISTS inside the locking query still sees
 * its own older snapshot).
 */
export const hasReminderFor = async (db: DbOrTx, deviceId: string, emiId: number): Promise<boolean> => {
  const rows = await db
    .select({ id: deviceCommands.id })
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.deviceId, deviceId),
        eq(deviceCommands.name, 'set_wallpaper'),
        sql`${deviceCommands.args}->>'emiId' = ${String(emiId)}`,
      ),
    )
    .limit(1);
  return rows.length > 0;
};
