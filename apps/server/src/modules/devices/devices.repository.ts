import { eq, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { customers, devices, users } from '../../db/schema';

/*
 * Device rows (issue 25: the device module's storage split by role; the others are
 * commands.repository, targets.repository, device-reports.repository, enrolment.repository and
 * the gate's own gate.repository).
 */

export type DeviceRow = typeof devices.$inferSelect;

/*
 * The set-based statements of this module take their rows as array parameters and read them with
 * unnest(...): a handful of parameters whatever the row count, and, unlike jsonb_to_recordset, a
 * row count the planner knows, so a few rows are found through the primary key, not a scan.
 */

/** `column = any($ids::uuid[])`: one array parameter for any number of ids (duplicates dropped). */
export const isAnyUuid = (column: AnyPgColumn, ids: string[]) =>
  sql`${column} = any(${sql.param([...new Set(ids)])}::uuid[])`;

export const findDeviceById = async (db: DbOrTx, id: string) => {
  const rows = await db.select().from(devices).where(eq(devices.id, id)).limit(1);
  return rows[0] ?? null;
};

/** The devices with these ids (any order; unknown ids are left out). */
export const findDevicesByIds = (db: DbOrTx, ids: string[]): Promise<DeviceRow[]> =>
  ids.length === 0 ? Promise.resolve([]) : db.select().from(devices).where(isAnyUuid(devices.id, ids));

export const updateDevice = async (db: DbOrTx, id: string, values: Partial<typeof devices.$inferInsert>) => {
  await db.update(devices).set(values).where(eq(devices.id, id));
};

/** A device locked for update (FOR UPDATE), or null. */
export const lockDeviceForUpdate = async (db: DbOrTx, deviceId: string): Promise<DeviceRow | null> => {
  const rows = await db.select().from(devices).where(eq(devices.id, deviceId)).for('update');
  return rows[0] ?? null;
};

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
