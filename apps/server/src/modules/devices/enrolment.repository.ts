import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { devices, orgSigningKeys } from '../../db/schema';

/*
 * Enrolment storage (issue 25: devices.repository split by role): the one-time enrolment token and
 * the link-based family's enrolment code of a device.
 */

/** The columns of a device an enrolment code works with. */
const codeColumns = {
  id: devices.id,
  orgId: devices.orgId,
  customerId: devices.customerId,
  channel: devices.channel,
  enrolmentTokenHash: devices.enrolmentTokenHash,
  enrolmentExpiresAt: devices.enrolmentExpiresAt,
  enrolmentCodeHash: devices.enrolmentCodeHash,
  enrolledAt: devices.enrolledAt,
};

/** The organisation's device whose enrolment code hashes to `codeHash`, or null. */
export const findDeviceByCodeHash = async (db: DbOrTx, orgId: number, codeHash: string) => {
  const [row] = await db
    .select(codeColumns)
    .from(devices)
    .where(and(eq(devices.orgId, orgId), eq(devices.enrolmentCodeHash, codeHash)))
    .limit(1);
  return row ?? null;
};

/** Stores the hash of a device's enrolment code (null clears it). */
export const setEnrolmentCodeHash = async (db: DbOrTx, deviceId: string, codeHash: string | null) => {
  await db.update(devices).set({ enrolmentCodeHash: codeHash }).where(eq(devices.id, deviceId));
};

/**
 * Replaces the enrolment token of a device that has not enrolled and still holds the code
 * `codeHash` (the row lock orders it against an enrolment or another exchange). Returns false,
 * changing nothing, when the phone enrolled or the code changed first.
 */
export const replaceTokenOfCode = async (
  db: DbOrTx,
  deviceId: string,
  codeHash: string,
  tokenHash: string,
): Promise<boolean> => {
  const rows = await db
    .update(devices)
    .set({ enrolmentTokenHash: tokenHash })
    .where(and(eq(devices.id, deviceId), eq(devices.enrolmentCodeHash, codeHash), isNull(devices.enrolledAt)))
    .returning({ id: devices.id });
  return rows.length === 1;
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
