import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { deviceCommands, devices } from '../../db/schema';

const PENDING = ['queued', 'sent', 'received'];

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

export const updateDevice = async (db: DbOrTx, id: string, values: Partial<typeof devices.$inferInsert>) => {
  await db.update(devices).set(values).where(eq(devices.id, id));
};

/** Pending commands of a device, oldest first (the order they must be applied in). */
export const findPendingCommands = (db: DbOrTx, deviceId: string) =>
  db
    .select()
    .from(deviceCommands)
    .where(and(eq(deviceCommands.deviceId, deviceId), inArray(deviceCommands.state, PENDING)))
    .orderBy(asc(deviceCommands.createdAt), asc(deviceCommands.id));

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

export const insertCommand = async (db: DbOrTx, row: typeof deviceCommands.$inferInsert) => {
  const [inserted] = await db.insert(deviceCommands).values(row).returning();
  return inserted!;
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

/** Cancels a device's pending commands with the given names (supersede, design §5). */
export const cancelPendingCommands = (db: DbOrTx, deviceId: string, names: string[], reason: string) =>
  db
    .update(deviceCommands)
    .set({ state: 'cancelled', error: reason, updatedAt: new Date() })
    .where(
      and(
        eq(deviceCommands.deviceId, deviceId),
        inArray(deviceCommands.name, names),
        inArray(deviceCommands.state, PENDING),
      ),
    )
    .returning({ id: deviceCommands.id });

export const countDeliveryAttempt = async (db: DbOrTx, id: string, attempts: number) => {
  await db.update(deviceCommands).set({ deliveryAttempts: attempts }).where(eq(deviceCommands.id, id));
};
