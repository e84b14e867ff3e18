import { istDate } from '@kisht/domain/common/time';
import { COMMAND_STALE_AFTER_MS, editPolicy, isPolicyCommand } from '@kisht/domain/devices/device-policy';
import { lockScreenFor, type TLockRuleInstalment } from '@kisht/domain/devices/devices.rules';
import type { TLockScreen } from '@kisht/domain/devices/protocol.schema';
import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type DbOrTx, queryRows } from '../../db/client';
import {
  auditLog,
  customers,
  deviceCommands,
  devices,
  emis,
  locations,
  organizations,
  orgSigningKeys,
  simChanges,
  users,
} from '../../db/schema';

const PENDING = ['queued', 'sent', 'received'];

/** A command is due once it has no scheduled time or its time has come (at `now`). */
const isDue = (now: Date = new Date()) => or(isNull(deviceCommands.runAt), lte(deviceCommands.runAt, now));

export type DeviceRow = typeof devices.$inferSelect;
export type CommandRow = typeof deviceCommands.$inferSelect;

export const findDeviceById = async (db: DbOrTx, id: string) => {
  const rows = await db.select().from(devices).where(eq(devices.id, id)).limit(1);
  return rows[0] ?? null;
};

export const findDeviceByEnrolmentTokenHash = async (db: DbOrTx, tokenHash: string) => {
  const rows = await db.select().from(devices).where(eq(devices.enrolmentTokenHash, tokenHash)).limit(1);
  return rows[0] ?? null;
};

/**
 * Clears the enrolment token of a device that has not enrolled, in one UPDATE (the row lock orders
 * it with an enrolment); returns false when the device enrolled meanwhile (nothing changed).
 */
export const voidTokenOfUnenrolledDevice = async (db: DbOrTx, id: string): Promise<boolean> => {
  const rows = await db
    .update(devices)
    .set({ enrolmentTokenHash: null, enrolmentExpiresAt: null })
    .where(and(eq(devices.id, id), isNull(devices.enrolledAt)))
    .returning({ id: devices.id });
  return rows.length === 1;
};

/**
 * Updates a device only while it still holds the enrolment token `tokenHash` (not voided by a key
 * refund meanwhile); returns whether it did.
 */
export const updateDeviceHoldingToken = async (
  db: DbOrTx,
  id: string,
  tokenHash: string,
  values: Partial<typeof devices.$inferInsert>,
): Promise<boolean> => {
  const rows = await db
    .update(devices)
    .set(values)
    .where(and(eq(devices.id, id), eq(devices.enrolmentTokenHash, tokenHash)))
    .returning({ id: devices.id });
  return rows.length === 1;
};

export const updateDevice = async (db: DbOrTx, id: string, values: Partial<typeof devices.$inferInsert>) => {
  await db.update(devices).set(values).where(eq(devices.id, id));
};

/** The newest pending command of a device, or null. */
export const findNewestPendingCommand = async (db: DbOrTx, deviceId: string) => {
  const rows = await db
    .select()
    .from(deviceCommands)
    .where(and(eq(deviceCommands.deviceId, deviceId), inArray(deviceCommands.state, PENDING)))
    .orderBy(desc(deviceCommands.createdAt), desc(deviceCommands.id))
    .limit(1);
  return rows[0] ?? null;
};

/** The newest command of a device in any state, or null. */
export const findNewestCommand = async (db: DbOrTx, deviceId: string) => {
  const rows = await db
    .select()
    .from(deviceCommands)
    .where(eq(deviceCommands.deviceId, deviceId))
    .orderBy(desc(deviceCommands.createdAt), desc(deviceCommands.id))
    .limit(1);
  return rows[0] ?? null;
};

export const findCommand = async (db: DbOrTx, id: string) => {
  const rows = await db.select().from(deviceCommands).where(eq(deviceCommands.id, id)).limit(1);
  return rows[0] ?? null;
};

/**
 * Writes a command row. A lock/unlock or toggle command that goes out now (no run_at) is an edit of
 * its device's policy: the edit and a new policy version are written with it (device protocol §6).
 */
export const insertCommand = async (db: DbOrTx, row: typeof deviceCommands.$inferInsert) => {
  const [inserted] = await db.insert(deviceCommands).values(withNotAfter(row)).returning();
  await editPoliciesFor(db, [inserted!]);
  return inserted!;
};

/**
 * A one-shot command that goes out now gets its notAfter (device protocol §7): its expiry, else
 * COMMAND_STALE_AFTER_MS from `now`. Scheduled ones get theirs when the scheduler releases them.
 */
const withNotAfter = <T extends typeof deviceCommands.$inferInsert>(row: T, now: Date = new Date()): T =>
  row.runAt || row.notAfter || isPolicyCommand(row.name)
    ? row
    : { ...row, notAfter: row.expiresAt ?? new Date(now.getTime() + COMMAND_STALE_AFTER_MS) };

/**
 * The policy edits of released lock/unlock and toggle commands (oldest first), one per device,
 * written as a new policy version each. A device locked by its edit gets a new lock screen (device
 * protocol §9.2): its retailer, what is overdue on `today` (+05:30) and the organisation's
 * how-to-pay text.
 */
const editPoliciesFor = async (db: DbOrTx, commands: CommandRow[], today: string = istDate()) => {
  const edits = new Map<string, TPolicyEdit>();
  for (const command of commands) {
    if (command.runAt !== null || !isPolicyCommand(command.name)) continue;
    const edit = policyEditOf(command.name, command.args);
    const before = edits.get(command.deviceId);
    edits.set(command.deviceId, {
      deviceId: command.deviceId,
      locked: edit.locked ?? before?.locked,
      controls: before?.controls || edit.controls ? { ...before?.controls, ...edit.controls } : undefined,
    });
  }
  const locking = [...edits.values()].filter((edit) => edit.locked === true);
  const screens = await findLockScreensOfDevices(
    db,
    locking.map((edit) => edit.deviceId),
    today,
  );
  for (const edit of locking) edit.lockScreen = screens.get(edit.deviceId);
  await editPolicies(db, [...edits.values()]);
};

/**
 * The lock screen (lockScreenFor) of each device, for a lock made on `today` (`YYYY-MM-DD`,
 * +05:30): its customer's retailer (name, mobile), the unpaid part of the instalments due before
 * today (paise), and its organisation's lockScreenText. Devices not found are left out.
 */
export const findLockScreensOfDevices = async (
  db: DbOrTx,
  deviceIds: string[],
  today: string,
): Promise<Map<string, TLockScreen>> => {
  const screens = new Map<string, TLockScreen>();
  if (deviceIds.length === 0) return screens;
  const rows = await db
    .select({
      deviceId: devices.id,
      retailerName: users.name,
      retailerPhone: users.mobile,
      overduePaise: sql<number>`coalesce((select sum(e.amount_paise - e.paid_paise) from ${emis} e
        where e.customer_id = ${customers.id} and e.paid_paise < e.amount_paise
          and e.due_date < ${today}), 0)::bigint`.mapWith(Number),
      howToPay: sql<string | null>`${organizations.settings}->>'lockScreenText'`,
    })
    .from(devices)
    .innerJoin(customers, eq(customers.id, devices.customerId))
    .innerJoin(users, eq(users.id, customers.retailerId))
    .innerJoin(organizations, eq(organizations.id, devices.orgId))
    .where(isAnyUuid(devices.id, deviceIds));
  for (const { deviceId, ...facts } of rows) screens.set(deviceId, lockScreenFor(facts));
  return screens;
};

/**
 * What the lock rule (lockRuleFor) needs for each device's customer: the customer's id and status
 * and the instalments unpaid and due before `today` (`YYYY-MM-DD`, +05:30), by device id. Devices
 * not found are left out.
 */
export const findLockFactsOfDevices = async (
  db: DbOrTx,
  deviceIds: string[],
  today: string,
): Promise<Map<string, { customerId: number; status: number; instalments: TLockRuleInstalment[] }>> => {
  const facts = new Map<string, { customerId: number; status: number; instalments: TLockRuleInstalment[] }>();
  if (deviceIds.length === 0) return facts;
  const rows = await db
    .select({
      deviceId: devices.id,
      customerId: customers.id,
      status: customers.status,
      dueDate: emis.dueDate,
      amountPaise: emis.amountPaise,
      paidPaise: emis.paidPaise,
    })
    .from(devices)
    .innerJoin(customers, eq(customers.id, devices.customerId))
    .leftJoin(
      emis,
      and(
        eq(emis.customerId, customers.id),
        sql`${emis.paidPaise} < ${emis.amountPaise}`,
        sql`${emis.dueDate} < ${today}`,
      ),
    )
    .where(isAnyUuid(devices.id, deviceIds));
  for (const row of rows) {
    const entry = facts.get(row.deviceId) ?? {
      customerId: row.customerId,
      status: row.status,
      instalments: [],
    };
    if (row.dueDate !== null && row.amountPaise !== null && row.paidPaise !== null) {
      entry.instalments.push({
        dueDate: row.dueDate,
        amountPaise: row.amountPaise,
        paidPaise: row.paidPaise,
      });
    }
    facts.set(row.deviceId, entry);
  }
  return facts;
};

/** The policy edit of one lock/unlock or toggle command. */
const policyEditOf = (
  name: string,
  args: Record<string, unknown>,
): Pick<TPolicyEdit, 'locked' | 'controls'> => {
  const edited = editPolicy({ locked: false, controls: {} }, name, args);
  const [feature, control] = Object.entries(edited.controls)[0] ?? [];
  return feature ? { controls: { [feature]: control! } } : { locked: edited.locked };
};

/**
 * Moves a command to `to` only from one of the `from` states, so concurrent acks and sends never
 * move a command backwards. Returns the updated row, or null when it was not in a `from` state.
 */
export const transitionCommand = async (
  db: DbOrTx,
  id: string,
  from: string[],
  to: string,
  extra: { error?: string | null } = {},
) => {
  const rows = await db
    .update(deviceCommands)
    .set({ state: to, updatedAt: new Date(), ...extra })
    .where(and(eq(deviceCommands.id, id), inArray(deviceCommands.state, from)))
    .returning();
  return rows[0] ?? null;
};

/**
 * Cancels a device's pending commands with the given names (supersede, design §5); commands
 * scheduled for later stay, they are a separate intent.
 */
export const cancelPendingCommands = (db: DbOrTx, deviceId: string, names: string[], reason: string) =>
  db
    .update(deviceCommands)
    .set({ state: 'cancelled', error: reason, updatedAt: new Date() })
    .where(
      and(
        eq(deviceCommands.deviceId, deviceId),
        inArray(deviceCommands.name, names),
        inArray(deviceCommands.state, PENDING),
        isDue(),
      ),
    )
    .returning({ id: deviceCommands.id });

/** Ids of the organisation's phones that are enrolled and hold live credentials (not released). */
export const findEnrolledDeviceIdsOfOrg = async (db: DbOrTx, orgId: number): Promise<string[]> =>
  (
    await db
      .select({ id: devices.id })
      .from(devices)
      .where(
        and(
          eq(devices.orgId, orgId),
          sql`${devices.enrolledAt} is not null`,
          sql`${devices.secretHash} is not null`,
        ),
      )
  ).map((row) => row.id);

/**
 * insertCommands for any number of rows, 1,000 to a statement (which keeps each INSERT's parameter
 * count well inside PostgreSQL's limit); the inserted rows in order.
 */
export const insertCommandsInChunks = async (db: DbOrTx, rows: (typeof deviceCommands.$inferInsert)[]) => {
  const inserted = [];
  for (let i = 0; i < rows.length; i += 1000)
    inserted.push(...(await insertCommands(db, rows.slice(i, i + 1000))));
  return inserted;
};

/** insertCommand for many rows in one statement (at most ~1,000 at a time), with their policy edits. */
export const insertCommands = async (db: DbOrTx, rows: (typeof deviceCommands.$inferInsert)[]) => {
  if (rows.length === 0) return [];
  const inserted = await db
    .insert(deviceCommands)
    .values(rows.map((row) => withNotAfter(row)))
    .returning();
  await editPoliciesFor(db, inserted);
  return inserted;
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

/** Records what a done command returned. */
export const setCommandResult = async (db: DbOrTx, id: string, result: Record<string, unknown>) => {
  await db.update(deviceCommands).set({ result }).where(eq(deviceCommands.id, id));
};

export const insertLocation = async (db: DbOrTx, row: typeof locations.$inferInsert) => {
  await db.insert(locations).values(row);
};

export const insertSimChange = async (db: DbOrTx, row: typeof simChanges.$inferInsert) => {
  await db.insert(simChanges).values(row);
};

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

/** Marks pending commands past their expiry as expired (only organisations that set an expiry). */
export const expireOverdueCommands = (db: DbOrTx, now: Date): Promise<CommandRow[]> =>
  db
    .update(deviceCommands)
    .set({ state: 'expired', error: 'expired before the phone took it', updatedAt: now })
    .where(
      and(
        inArray(deviceCommands.state, PENDING),
        or(lt(deviceCommands.expiresAt, now), lt(deviceCommands.notAfter, now)),
      ),
    )
    .returning();

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
 * One change of a device's policy (device protocol §6): the lock state and/or some toggle features
 * (feature → its new entry). Left out: unchanged.
 */
export type TPolicyEdit = {
  deviceId: string;
  locked?: boolean | undefined;
  controls?: Record<string, { on: boolean; args?: Record<string, unknown> }> | undefined;
  /** The offline limit in ms, null for none; undefined leaves it. */
  offlineLockAfterMs?: number | null | undefined;
  /** What the lock screen shows from this version on (device protocol §9.2); undefined leaves it. */
  lockScreen?: TLockScreen | undefined;
};

/**
 * Edits the desired policy of many devices in one statement per 1,000 and makes each a new policy
 * version (one more, never back; policy_updated_at = now), even when nothing changed, so a re-sent
 * intent always reaches the phone. Each device id must appear once. Call in the transaction that
 * writes the commands the edit belongs to.
 */
export const editPolicies = async (db: DbOrTx, edits: TPolicyEdit[], at: Date = new Date()) => {
  for (let i = 0; i < edits.length; i += 1000) {
    const chunk = edits.slice(i, i + 1000);
    await db.execute(sql`
      update devices d
      set desired_locked = coalesce(v.locked, d.desired_locked),
          desired_controls = d.desired_controls || coalesce(v.controls::jsonb, '{}'::jsonb),
          desired_offline_lock_after_ms = case when v.sets_offline then v.offline_ms
                                               else d.desired_offline_lock_after_ms end,
          desired_lock_screen = coalesce(v.lock_screen::jsonb, d.desired_lock_screen),
          policy_version = d.policy_version + 1,
          policy_updated_at = ${at.toISOString()}::timestamptz
      from unnest(
        ${sql.param(chunk.map((e) => e.deviceId))}::uuid[],
        ${sql.param(chunk.map((e) => e.locked ?? null))}::boolean[],
        ${sql.param(chunk.map((e) => (e.controls ? JSON.stringify(e.controls) : null)))}::text[],
        ${sql.param(chunk.map((e) => e.offlineLockAfterMs !== undefined))}::boolean[],
        ${sql.param(chunk.map((e) => e.offlineLockAfterMs ?? null))}::bigint[],
        ${sql.param(chunk.map((e) => (e.lockScreen ? JSON.stringify(e.lockScreen) : null)))}::text[]
      ) as v (id, locked, controls, sets_offline, offline_ms, lock_screen)
      where d.id = v.id`);
  }
};

/**
 * A new policy version that is the initial policy (unlocked, every feature off) with the
 * organisation's offline limit (ms, null for none), for a new enrolment.
 */
export const resetPolicy = async (
  db: DbOrTx,
  deviceId: string,
  offlineLockAfterMs: number | null,
  at: Date = new Date(),
) => {
  await db
    .update(devices)
    .set({
      desiredLocked: false,
      desiredControls: {},
      desiredOfflineLockAfterMs: offlineLockAfterMs,
      policyVersion: sql`${devices.policyVersion} + 1`,
      policyUpdatedAt: at,
    })
    .where(eq(devices.id, deviceId));
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

/** The newest signing key of an organisation (device protocol §5), or null before its first. */
export const findSigningKey = async (db: DbOrTx, orgId: number) => {
  const rows = await db.select().from(orgSigningKeys).where(eq(orgSigningKeys.orgId, orgId)).limit(1);
  return rows[0] ?? null;
};

/**
 * Stores an organisation's first signing key unless another process stored one first; returns the
 * key in force either way.
 */
export const insertSigningKeyOnce = async (db: DbOrTx, row: typeof orgSigningKeys.$inferInsert) => {
  await db.insert(orgSigningKeys).values(row).onConflictDoNothing({ target: orgSigningKeys.orgId });
  return (await findSigningKey(db, row.orgId))!;
};

/** The customers a bulk request skipped, from its audit entry. */
export const findBatchSkipped = async (
  db: DbOrTx,
  orgId: number,
  batchId: string,
): Promise<{ customerId: number; reason: string }[]> => {
  const rows = await db
    .select({ details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.orgId, orgId), eq(auditLog.entity, 'batch'), eq(auditLog.entityId, batchId)))
    .limit(1);
  const skipped = rows[0]?.details.skipped;
  return Array.isArray(skipped) ? (skipped as { customerId: number; reason: string }[]) : [];
};

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
 * Ends scheduled commands that must not go out (lockDueScheduledCommands took them): state `to`,
 * run_at cleared, `error` saying why. They never edited a policy, so nothing is taken back.
 */
export const endScheduledCommands = async (
  db: DbOrTx,
  ended: { id: string; error: string }[],
  to: 'cancelled' | 'expired',
  now: Date,
) => {
  for (const { id, error } of ended) {
    await db
      .update(deviceCommands)
      .set({ state: to, error, runAt: null, updatedAt: now })
      .where(and(eq(deviceCommands.id, id), eq(deviceCommands.state, 'queued')));
  }
};

/**
 * Releases scheduled commands that are due (lockDueScheduledCommands took them): clears their
 * run_at, gives one-shot commands their notAfter and writes the policy edits of locks and toggles.
 * Publish after commit (a crash in between leaves them queued, and they go out on the device's next
 * hello). Returns the released rows.
 */
export const releaseScheduledCommands = async (db: DbOrTx, due: CommandRow[], now: Date) => {
  if (due.length === 0) return [];
  await db
    .update(deviceCommands)
    .set({ runAt: null, updatedAt: now })
    .where(
      inArray(
        deviceCommands.id,
        due.map((c) => c.id),
      ),
    );
  // One-shot commands are stale COMMAND_STALE_AFTER_MS after they go out, not after they were written.
  const released = due.map((c) => withNotAfter({ ...c, runAt: null }, now));
  for (const command of released.filter((c) => c.notAfter !== null)) {
    await db
      .update(deviceCommands)
      .set({ notAfter: command.notAfter })
      .where(eq(deviceCommands.id, command.id));
  }
  await editPoliciesFor(db, released, istDate(now));
  return released;
};

/**
 * Enrolled, unlocked-by-intent devices of an organisation whose customer has an unpaid instalment
 * due on or before `dueOnOrBefore`, locked for update (SKIP LOCKED: two server processes never
 * take the same device), with no pending lock already.
 */
export const lockDevicesForAutoLock = (db: DbOrTx, orgId: number, dueOnOrBefore: string) =>
  db
    .select({ device: devices, customerId: customers.id })
    .from(devices)
    .innerJoin(customers, eq(customers.id, devices.customerId))
    .where(
      and(
        eq(devices.orgId, orgId),
        sql`${devices.enrolledAt} is not null`,
        eq(devices.desiredLocked, false),
        inArray(customers.status, [1, 6]),
        sql`exists (select 1 from emis e where e.customer_id = ${customers.id}
              and e.paid_paise < e.amount_paise and e.due_date <= ${dueOnOrBefore})`,
        sql`not exists (select 1 from device_commands c where c.device_id = ${devices.id}
              and c.name = 'lock' and c.state in ('queued', 'sent', 'received'))`,
      ),
    )
    .for('update', { of: devices, skipLocked: true });

/**
 * Unpaid instalments due exactly on `dueDate` whose enrolled device has had no reminder for that
 * instalment yet (a set_wallpaper command carrying its emiId), with the device locked for update.
 */
export const lockDevicesForReminder = (db: DbOrTx, orgId: number, dueDate: string) =>
  db
    .select({
      device: devices,
      customerId: customers.id,
      emiId: emis.id,
      owedPaise: sql<number>`(${emis.amountPaise} - ${emis.paidPaise})::bigint`.mapWith(Number),
    })
    .from(emis)
    .innerJoin(customers, eq(customers.id, emis.customerId))
    .innerJoin(devices, eq(devices.customerId, customers.id))
    .where(
      and(
        eq(emis.orgId, orgId),
        eq(emis.dueDate, dueDate),
        sql`${emis.paidPaise} < ${emis.amountPaise}`,
        sql`${devices.enrolledAt} is not null`,
        eq(devices.reportedLocked, false),
        sql`not exists (select 1 from device_commands c where c.device_id = ${devices.id}
              and c.name = 'set_wallpaper' and c.args->>'emiId' = ${emis.id}::text)`,
      ),
    )
    .for('update', { of: devices, skipLocked: true });

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

/**
 * The device locked for update when we intend it locked (or it reports locked) and its customer
 * has no unpaid instalment due before `today`; null otherwise.
 */
export const lockDeviceIfClearedAndLocked = async (db: DbOrTx, deviceId: string, today: string) => {
  const rows = await db
    .select()
    .from(devices)
    .where(
      and(
        eq(devices.id, deviceId),
        or(eq(devices.desiredLocked, true), eq(devices.reportedLocked, true)),
        sql`not exists (select 1 from emis e where e.customer_id = ${devices.customerId}
              and e.paid_paise < e.amount_paise and e.due_date < ${today})`,
      ),
    )
    .for('update');
  return rows[0] ?? null;
};

/** A device locked for update (FOR UPDATE), or null. */
export const lockDeviceForUpdate = async (db: DbOrTx, deviceId: string): Promise<DeviceRow | null> => {
  const rows = await db.select().from(devices).where(eq(devices.id, deviceId)).for('update');
  return rows[0] ?? null;
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

/** The customer and retailer of a device (for notifications). */
export const findOwnersOfDevice = async (db: DbOrTx, deviceId: string) => {
  const rows = await db
    .select({
      customerId: customers.id,
      firstName: customers.firstName,
      lastName: customers.lastName,
      retailerMobile: users.mobile,
      retailerName: users.name,
      retailerUpiId: users.upiId,
    })
    .from(devices)
    .innerJoin(customers, eq(customers.id, devices.customerId))
    .innerJoin(users, eq(users.id, customers.retailerId))
    .where(eq(devices.id, deviceId))
    .limit(1);
  return rows[0] ?? null;
};

/**
 * Cancels a device's pending commands with the given names, those scheduled for later too, with
 * `reason` as their error. Returns the cancelled rows.
 */
export const cancelPendingAndScheduledCommands = (
  db: DbOrTx,
  deviceId: string,
  names: readonly string[],
  reason: string,
): Promise<CommandRow[]> =>
  db
    .update(deviceCommands)
    .set({ state: 'cancelled', error: reason, updatedAt: new Date() })
    .where(
      and(
        eq(deviceCommands.deviceId, deviceId),
        inArray(deviceCommands.name, [...names]),
        inArray(deviceCommands.state, PENDING),
      ),
    )
    .returning();

/** Cancels every pending command of a device (it was released). */
export const cancelAllPendingCommands = (db: DbOrTx, deviceId: string, reason: string) =>
  db
    .update(deviceCommands)
    .set({ state: 'cancelled', error: reason, updatedAt: new Date() })
    .where(and(eq(deviceCommands.deviceId, deviceId), inArray(deviceCommands.state, PENDING)))
    .returning({ id: deviceCommands.id });

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

/**
 * Counts one more delivery of many commands, published at `at` (lastSentAt), and moves the queued
 * ones to sent, in one statement per 1,000.
 */
export const markManySent = async (db: DbOrTx, ids: string[], at: Date = new Date()) => {
  for (let i = 0; i < ids.length; i += 1000) {
    await db
      .update(deviceCommands)
      .set({
        deliveryAttempts: sql`${deviceCommands.deliveryAttempts} + 1`,
        state: sql`case when ${deviceCommands.state} = 'queued' then 'sent' else ${deviceCommands.state} end`,
        lastSentAt: at,
        updatedAt: new Date(),
      })
      .where(inArray(deviceCommands.id, ids.slice(i, i + 1000)));
  }
};

/** cancelPendingCommands for many devices at once (bulk supersede), in statements of 1,000 devices. */
export const cancelPendingCommandsOfDevices = async (
  db: DbOrTx,
  deviceIds: string[],
  names: string[],
  reason: string,
) => {
  for (let i = 0; i < deviceIds.length; i += 1000) {
    await db
      .update(deviceCommands)
      .set({ state: 'cancelled', error: reason, updatedAt: new Date() })
      .where(
        and(
          inArray(deviceCommands.deviceId, deviceIds.slice(i, i + 1000)),
          inArray(deviceCommands.name, names),
          inArray(deviceCommands.state, PENDING),
          isDue(),
        ),
      );
  }
};

/*
 * The set-based statements below take their rows as array parameters and read them with
 * unnest(...): a handful of parameters whatever the row count, and, unlike jsonb_to_recordset, a
 * row count the planner knows, so a few rows are found through the primary key, not a scan.
 */

/** `column = any($ids::uuid[])`: one array parameter for any number of ids (duplicates dropped). */
const isAnyUuid = (column: AnyPgColumn, ids: string[]) =>
  sql`${column} = any(${sql.param([...new Set(ids)])}::uuid[])`;

/** The devices with these ids (any order; unknown ids are left out). */
export const findDevicesByIds = (db: DbOrTx, ids: string[]): Promise<DeviceRow[]> =>
  ids.length === 0 ? Promise.resolve([]) : db.select().from(devices).where(isAnyUuid(devices.id, ids));

/** The commands with these ids (any order; unknown ids are left out). */
export const findCommandsByIds = (db: DbOrTx, ids: string[]): Promise<CommandRow[]> =>
  ids.length === 0
    ? Promise.resolve([])
    : db.select().from(deviceCommands).where(isAnyUuid(deviceCommands.id, ids));

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

/**
 * transitionCommand for many commands in one statement: moves each listed command to `to` only
 * from one of the `from` states (so duplicate or out-of-order acks never move a command
 * backwards). An item's `error` is stored when given (null clears it) and left alone when
 * undefined. Each id must appear once. Returns the ids that moved.
 */
export const transitionCommands = async (
  db: DbOrTx,
  items: { id: string; error?: string | null }[],
  from: string[],
  to: string,
): Promise<string[]> => {
  if (items.length === 0) return [];
  const rows = await queryRows<{ id: string }>(
    db,
    sql`
      update device_commands c
      set state = ${to},
          updated_at = ${new Date().toISOString()}::timestamptz,
          error = case when v.keeps_error then c.error else v.error end
      from unnest(
        ${sql.param(items.map((item) => item.id))}::uuid[],
        ${sql.param(items.map((item) => item.error === undefined))}::boolean[],
        ${sql.param(items.map((item) => item.error ?? null))}::text[]
      ) as v (id, keeps_error, error)
      where c.id = v.id and c.state = any(${sql.param(from)}::text[])
      returning c.id`,
  );
  return rows.map((row) => row.id);
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
