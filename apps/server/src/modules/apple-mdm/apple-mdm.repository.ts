import type { TAuditAction } from '@kisht/domain/audit/audit-events';
import { and, desc, eq, gt, inArray, isNotNull, isNull, ne, notInArray, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { auditLog, customers, deviceCommands, devices, mdmCommands, users } from '../../db/schema';

export type MdmCommandRow = typeof mdmCommands.$inferSelect;
type DeviceRow = typeof devices.$inferSelect;
type CommandRow = typeof deviceCommands.$inferSelect;

/** The Apple device NanoMDM knows as `udid` (its enrolment id), or null. */
export const findAppleDeviceByUdid = async (db: DbOrTx, udid: string): Promise<DeviceRow | null> => {
  const [row] = await db
    .select()
    .from(devices)
    .where(and(eq(devices.channel, 'apple_mdm'), eq(devices.mdmId, udid)))
    .limit(1);
  return row ?? null;
};

/** The Apple device whose enrolment token has this SHA-256 (hex) and has not expired, or null. */
export const findAppleDeviceByTokenHash = async (
  db: DbOrTx,
  tokenHash: string,
  now: Date = new Date(),
): Promise<DeviceRow | null> => {
  const [row] = await db
    .select()
    .from(devices)
    .where(
      and(
        eq(devices.channel, 'apple_mdm'),
        eq(devices.enrolmentTokenHash, tokenHash),
        gt(devices.enrolmentExpiresAt, now),
      ),
    )
    .limit(1);
  return row ?? null;
};

/**
 * Ties NanoMDM's enrolment id to a device that has none yet (or already this one). Returns false
 * when the device is tied to another phone.
 */
export const bindUdid = async (db: DbOrTx, deviceId: string, udid: string): Promise<boolean> => {
  const rows = await db
    .update(devices)
    .set({ mdmId: udid })
    .where(and(eq(devices.id, deviceId), sql`(${devices.mdmId} is null or ${devices.mdmId} = ${udid})`))
    .returning({ id: devices.id });
  return rows.length > 0;
};

/**
 * Marks an Apple device enrolled (its first TokenUpdate) with a fresh initial policy (unlocked,
 * nothing restricted: what a newly enrolled iPhone holds), and spends its enrolment token. Only
 * while it is not enrolled; returns false (nothing changed) otherwise.
 */
export const markAppleDeviceEnrolled = async (db: DbOrTx, deviceId: string, at: Date): Promise<boolean> => {
  const rows = await db
    .update(devices)
    .set({
      enrolledAt: at,
      enrolmentTokenHash: null,
      enrolmentExpiresAt: null,
      reportedLocked: false,
      reportedControls: {},
      reportedPolicyVersion: 0,
      isOnline: true,
      lastSeenAt: at,
    })
    .where(and(eq(devices.id, deviceId), isNull(devices.enrolledAt)))
    .returning({ id: devices.id });
  return rows.length > 0;
};

/** The phone left MDM (CheckOut): it is no longer reachable through NanoMDM. */
export const markAppleDeviceCheckedOut = async (db: DbOrTx, deviceId: string): Promise<void> => {
  await db.update(devices).set({ isOnline: false }).where(eq(devices.id, deviceId));
};

/** Stores what the phone reported with DeviceInformation (and when). */
export const setMdmInfo = async (
  db: DbOrTx,
  deviceId: string,
  info: Record<string, unknown>,
  at: Date,
): Promise<void> => {
  await db.update(devices).set({ mdmInfo: info, mdmInfoAt: at }).where(eq(devices.id, deviceId));
};

/** Corrects the serial number on an Apple device's record (before enrolment). */
export const setSerialNumber = async (db: DbOrTx, deviceId: string, serialNumber: string): Promise<void> => {
  await db.update(devices).set({ serialNumber }).where(eq(devices.id, deviceId));
};

/** Writes the row of a command handed to NanoMDM. */
export const insertMdmCommand = async (
  db: DbOrTx,
  row: typeof mdmCommands.$inferInsert,
): Promise<MdmCommandRow> => {
  const [inserted] = await db.insert(mdmCommands).values(row).returning();
  return inserted!;
};

export const findMdmCommand = async (db: DbOrTx, id: string): Promise<MdmCommandRow | null> => {
  const [row] = await db.select().from(mdmCommands).where(eq(mdmCommands.id, id)).limit(1);
  return row ?? null;
};

/** Records NanoMDM's or the phone's answer to a command (status, and the decoded report). */
export const updateMdmCommand = async (
  db: DbOrTx,
  id: string,
  values: { status: string; result?: Record<string, unknown> | null },
): Promise<void> => {
  await db
    .update(mdmCommands)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(mdmCommands.id, id));
};

/** Which of these device commands already have an Apple command at NanoMDM (not failed to enqueue). */
export const findEnqueuedCommandIds = async (db: DbOrTx, commandIds: string[]): Promise<Set<string>> => {
  if (commandIds.length === 0) return new Set();
  const rows = await db
    .select({ commandId: mdmCommands.commandId })
    .from(mdmCommands)
    .where(
      and(
        inArray(mdmCommands.commandId, commandIds),
        notInArray(mdmCommands.status, ['enqueue_failed', 'lost']),
        isNotNull(mdmCommands.commandId),
      ),
    );
  return new Set(rows.map((r) => r.commandId!));
};

/** The newest enqueued Apple command of one of `requestTypes` for the device, or null. */
export const findNewestMdmCommandOfTypes = async (
  db: DbOrTx,
  deviceId: string,
  requestTypes: string[],
): Promise<MdmCommandRow | null> => {
  const [row] = await db
    .select()
    .from(mdmCommands)
    .where(
      and(
        eq(mdmCommands.deviceId, deviceId),
        inArray(mdmCommands.requestType, requestTypes),
        ne(mdmCommands.status, 'enqueue_failed'),
      ),
    )
    .orderBy(desc(mdmCommands.createdAt), desc(mdmCommands.id))
    .limit(1);
  return row ?? null;
};

/** Marks the mdm_commands rows that install or remove a device's Restrictions profile (result.profile). */
export const RESTRICTIONS_PROFILE_MARK = 'restrictions';

/**
 * The newest InstallProfile / RemoveProfile of the device's Restrictions profile that the phone
 * has run or will run (not refused by NanoMDM, not answered with an error), or null: it tells what
 * the phone ends up holding once its queue is empty.
 */
export const findNewestRestrictionsCommand = async (
  db: DbOrTx,
  deviceId: string,
): Promise<MdmCommandRow | null> => {
  const [row] = await db
    .select()
    .from(mdmCommands)
    .where(
      and(
        eq(mdmCommands.deviceId, deviceId),
        inArray(mdmCommands.requestType, ['InstallProfile', 'RemoveProfile']),
        notInArray(mdmCommands.status, ['enqueue_failed', 'error']),
        sql`${mdmCommands.result}->>'profile' = ${RESTRICTIONS_PROFILE_MARK}`,
      ),
    )
    .orderBy(desc(mdmCommands.createdAt), desc(mdmCommands.id))
    .limit(1);
  return row ?? null;
};

/** The device's newest command named `name` (a check_status for apple_details), or null. */
export const findNewestCommandNamed = async (
  db: DbOrTx,
  deviceId: string,
  name: string,
): Promise<CommandRow | null> => {
  const [row] = await db
    .select()
    .from(deviceCommands)
    .where(and(eq(deviceCommands.deviceId, deviceId), eq(deviceCommands.name, name)))
    .orderBy(desc(deviceCommands.createdAt), desc(deviceCommands.id))
    .limit(1);
  return row ?? null;
};

/** The pending (sent or received) command named `name` of the device, newest first, or null. */
export const findPendingCommandNamed = async (
  db: DbOrTx,
  deviceId: string,
  name: string,
): Promise<CommandRow | null> => {
  const [row] = await db
    .select()
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.deviceId, deviceId),
        eq(deviceCommands.name, name),
        inArray(deviceCommands.state, ['queued', 'sent', 'received']),
      ),
    )
    .orderBy(desc(deviceCommands.createdAt))
    .limit(1);
  return row ?? null;
};

/** When the newest Activation Lock bypass code of the device was stored, or null. */
export const findNewestBypassCodeAt = async (db: DbOrTx, deviceId: string): Promise<Date | null> => {
  const [row] = await db
    .select({ at: mdmCommands.updatedAt })
    .from(mdmCommands)
    .where(
      and(
        eq(mdmCommands.deviceId, deviceId),
        eq(mdmCommands.requestType, 'ActivationLockBypassCode'),
        eq(mdmCommands.status, 'acknowledged'),
      ),
    )
    .orderBy(desc(mdmCommands.updatedAt))
    .limit(1);
  return row?.at ?? null;
};

/** When the phone last checked out (its MDM profile was removed: audit apple.checkout), or null. */
export const findCheckOutAt = async (db: DbOrTx, orgId: number, customerId: number): Promise<Date | null> => {
  const [row] = await db
    .select({ at: auditLog.createdAt })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.orgId, orgId),
        eq(auditLog.action, 'apple.checkout' satisfies TAuditAction),
        eq(auditLog.entity, 'customer'),
        eq(auditLog.entityId, String(customerId)),
      ),
    )
    .orderBy(desc(auditLog.createdAt))
    .limit(1);
  return row?.at ?? null;
};

/** The retailer who financed the device's phone (name, E.164 mobile), or null. */
export const findRetailerOfDevice = async (
  db: DbOrTx,
  deviceId: string,
): Promise<{ name: string; mobile: string } | null> => {
  const [row] = await db
    .select({ name: users.name, mobile: users.mobile })
    .from(devices)
    .innerJoin(customers, eq(customers.id, devices.customerId))
    .innerJoin(users, eq(users.id, customers.retailerId))
    .where(eq(devices.id, deviceId))
    .limit(1);
  return row ? { name: row.name ?? 'Your retailer', mobile: row.mobile } : null;
};

/**
 * An Apple command `m` that went to NanoMDM before `before` and was never reported on, while the
 * Kisht command `c` it carries is still pending (sent or received): its report may be lost. The one
 * definition markLostMdmCommands and findAppleDevicesToAsk share.
 */
const isUnreported = (before: Date) =>
  sql`(m.status = 'sent' and m.updated_at < ${before.toISOString()}::timestamptz
       and c.state in ('sent', 'received'))`;

/**
 * Apple commands whose report was lost (NanoMDM posts each webhook once): rows `sent` before
 * `before` that carry a Kisht command still pending (sent or received) on an enrolled iPhone, and
 * that the phone has gone past (NanoMDM hands out a phone's queue in order, so a later command of
 * the phone answered means this one ran, or was answered, too). A command merely waiting for an
 * offline phone is never taken. At most `limit`, marked `lost` in one statement (FOR UPDATE SKIP
 * LOCKED: several processes never take the same row). A lost row stops counting as enqueued
 * (findEnqueuedCommandIds), so the next delivery enqueues its command again; it still counts as
 * possibly run where that matters (the lost-mode and restrictions safeguards). Returns the
 * distinct ids of the devices concerned.
 */
export const markLostMdmCommands = async (db: DbOrTx, before: Date, limit: number): Promise<string[]> => {
  const rows = await queryRows<{ device_id: string }>(
    db,
    sql`
      with stale as (
        select m.id
        from ${mdmCommands} m
        join ${devices} d on d.id = m.device_id
        join ${deviceCommands} c on c.id = m.command_id
        where ${isUnreported(before)}
          and d.channel = 'apple_mdm' and d.enrolled_at is not null and d.mdm_id is not null
          and exists (select 1 from ${mdmCommands} later
                      where later.device_id = m.device_id and later.created_at > m.created_at
                        and later.status in ('acknowledged', 'error'))
        order by m.created_at
        limit ${limit}
        for update of m skip locked
      )
      update ${mdmCommands} set status = 'lost', updated_at = now()
      from stale where ${mdmCommands}.id = stale.id
      returning ${mdmCommands}.device_id
    `,
  );
  return [...new Set(rows.map((row) => row.device_id))];
};

/**
 * Serialises the choice of iPhones to ask (findAppleDevicesToAsk) across server processes until the
 * caller's transaction ends (a transaction-scoped advisory lock): the next process to choose sees
 * the questions the first recorded, and asks none of those phones again.
 */
export const lockAppleQuestions = async (tx: DbOrTx): Promise<void> => {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('kisht:apple-device-information'))`);
};

/**
 * iPhones to ask for their state (DeviceInformation), as none was asked since `before` (nor left
 * unanswered within a day): enrolled
 * ones with a command `sent` before `before` and still pending (its report may be lost: the answer
 * to the question comes after it, and markLostMdmCommands then knows), and ones tied to their
 * customer by Authenticate (mdm_id set) but never enrolled, whose enrolment has not expired (their
 * TokenUpdate's webhook may be lost: the answer finishes the enrolment). At most `limit`. Read it
 * under lockAppleQuestions and record the questions in the same transaction.
 */
export const findAppleDevicesToAsk = async (
  db: DbOrTx,
  before: Date,
  limit: number,
  now: Date = new Date(),
): Promise<DeviceRow[]> =>
  db
    .select()
    .from(devices)
    .where(
      and(
        eq(devices.channel, 'apple_mdm'),
        isNotNull(devices.mdmId),
        sql`(
          (${devices.enrolledAt} is null
            and (${devices.enrolmentExpiresAt} is null
                 or ${devices.enrolmentExpiresAt} > ${now.toISOString()}::timestamptz))
          or (${devices.enrolledAt} is not null and exists (
            select 1 from ${mdmCommands} m join ${deviceCommands} c on c.id = m.command_id
            where m.device_id = ${devices.id} and ${isUnreported(before)})))`,
        // Asked since `before`, or asked within a day and not answered yet (an offline phone is not
        // asked again every round: its questions would pile up in NanoMDM's queue).
        sql`not exists (select 1 from ${mdmCommands} m where m.device_id = ${devices.id}
              and m.request_type = 'DeviceInformation'
              and (m.created_at >= ${before.toISOString()}::timestamptz
                   or (m.status = 'sent'
                       and m.created_at >= ${now.toISOString()}::timestamptz - interval '1 day')))`,
      ),
    )
    .orderBy(devices.createdAt)
    .limit(limit);
