import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { customers, deviceCommands, devices, mdmCommands } from '../../db/schema';

/** The channel of managed-Android phones (devices.channel). */
export const AMAPI_CHANNEL = 'android_management';

export type MdmCommandRow = typeof mdmCommands.$inferSelect;

/** Records a command (or policy step) handed to the Android Management API; a known id changes nothing. */
export const insertMdmCommand = async (db: DbOrTx, row: typeof mdmCommands.$inferInsert): Promise<void> => {
  await db.insert(mdmCommands).values(row).onConflictDoNothing();
};

/** The API commands already issued for these Kisht device commands (re-deliveries issue nothing twice). */
export const findMdmCommandsOfCommands = (db: DbOrTx, commandIds: string[]): Promise<MdmCommandRow[]> =>
  commandIds.length === 0
    ? Promise.resolve([])
    : db.select().from(mdmCommands).where(inArray(mdmCommands.commandId, commandIds));

/** Issued API commands still waiting for their operation, oldest first (at most `limit`). */
export const findSentMdmCommands = (db: DbOrTx, limit: number): Promise<MdmCommandRow[]> =>
  db
    .select({ row: mdmCommands })
    .from(mdmCommands)
    .innerJoin(devices, eq(devices.id, mdmCommands.deviceId))
    .where(and(eq(mdmCommands.status, 'sent'), eq(devices.channel, AMAPI_CHANNEL)))
    .orderBy(asc(mdmCommands.createdAt))
    .limit(limit)
    .then((rows) => rows.map((r) => r.row));

/**
 * Moves an issued command from `sent` to its outcome with the API's answer; returns false when
 * another poll settled it first (so its ack is sent once).
 */
export const settleMdmCommand = async (
  db: DbOrTx,
  id: string,
  status: 'acknowledged' | 'error',
  result: Record<string, unknown>,
): Promise<boolean> => {
  const rows = await db
    .update(mdmCommands)
    .set({ status, result, updatedAt: new Date() })
    .where(and(eq(mdmCommands.id, id), eq(mdmCommands.status, 'sent')))
    .returning({ id: mdmCommands.id });
  return rows.length > 0;
};

/** Managed-Android devices with their customer's status, of these Kisht device ids. */
export const findAmapiDevicesByIds = (db: DbOrTx, ids: string[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .select({ device: devices, customerStatus: customers.status })
        .from(devices)
        .innerJoin(customers, eq(customers.id, devices.customerId))
        .where(and(eq(devices.channel, AMAPI_CHANNEL), sql`${devices.id}::text = any(${sql.param(ids)})`));

/** Every enrolled managed-Android device (its AMAPI name in mdm_id) with its customer's status. */
export const findEnrolledAmapiDevices = (db: DbOrTx) =>
  db
    .select({ device: devices, customerStatus: customers.status })
    .from(devices)
    .innerJoin(customers, eq(customers.id, devices.customerId))
    .where(and(eq(devices.channel, AMAPI_CHANNEL), isNotNull(devices.mdmId), isNotNull(devices.enrolledAt)));

export type AmapiDeviceRow = typeof devices.$inferSelect;

/** One device by id, or null. */
export const findDevice = async (db: DbOrTx, id: string): Promise<AmapiDeviceRow | null> =>
  (await db.select().from(devices).where(eq(devices.id, id)).limit(1))[0] ?? null;

/** One device command by id, or null. */
export const findCommand = async (db: DbOrTx, id: string) =>
  (await db.select().from(deviceCommands).where(eq(deviceCommands.id, id)).limit(1))[0] ?? null;

export const updateDevice = async (db: DbOrTx, id: string, values: Partial<typeof devices.$inferInsert>) => {
  await db.update(devices).set(values).where(eq(devices.id, id));
};

/**
 * A newly enrolled phone: its AMAPI name and information, enrolled now, holding the initial
 * policy (unlocked, nothing restricted) as a new policy version, as enrolDevice does for an MQTT phone.
 */
export const markDeviceEnrolled = async (
  db: DbOrTx,
  id: string,
  values: { mdmId: string; mdmInfo: Record<string, unknown>; enrolledAt: Date; lastSeenAt: Date; at: Date },
) => {
  await db
    .update(devices)
    .set({
      mdmId: values.mdmId,
      mdmInfo: values.mdmInfo,
      mdmInfoAt: values.at,
      enrolledAt: values.enrolledAt,
      lastSeenAt: values.lastSeenAt,
      isOnline: true,
      reportedLocked: false,
      reportedPolicyVersion: 0,
      reportedControls: {},
    })
    .where(eq(devices.id, id));
};
