import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { devices } from '../../db/schema';

/** The columns of a device the link-based enrolment works with. */
const linkColumns = {
  id: devices.id,
  orgId: devices.orgId,
  customerId: devices.customerId,
  channel: devices.channel,
  enrolmentTokenHash: devices.enrolmentTokenHash,
  enrolmentExpiresAt: devices.enrolmentExpiresAt,
  enrolmentCodeHash: devices.enrolmentCodeHash,
  enrolledAt: devices.enrolledAt,
};
export type TLinkDeviceRow = {
  id: string;
  orgId: number;
  customerId: number;
  channel: string;
  enrolmentTokenHash: string | null;
  enrolmentExpiresAt: Date | null;
  enrolmentCodeHash: string | null;
  enrolledAt: Date | null;
};

/** The organisation's device whose enrolment code hashes to `codeHash`, or null. */
export const findDeviceByCodeHash = async (
  db: DbOrTx,
  orgId: number,
  codeHash: string,
): Promise<TLinkDeviceRow | null> => {
  const [row] = await db
    .select(linkColumns)
    .from(devices)
    .where(and(eq(devices.orgId, orgId), eq(devices.enrolmentCodeHash, codeHash)))
    .limit(1);
  return row ?? null;
};

/** A device by id within an organisation, or null. */
export const findLinkDevice = async (
  db: DbOrTx,
  orgId: number,
  deviceId: string,
): Promise<TLinkDeviceRow | null> => {
  const [row] = await db
    .select(linkColumns)
    .from(devices)
    .where(and(eq(devices.orgId, orgId), eq(devices.id, deviceId)))
    .limit(1);
  return row ?? null;
};

/** The organisation's device holding enrolment token hash `tokenHash`, or null. */
export const findDeviceByTokenHash = async (
  db: DbOrTx,
  orgId: number,
  tokenHash: string,
): Promise<TLinkDeviceRow | null> => {
  const [row] = await db
    .select(linkColumns)
    .from(devices)
    .where(and(eq(devices.orgId, orgId), eq(devices.enrolmentTokenHash, tokenHash)))
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

/**
 * The link-based app was removed: where the phone was, its credentials revoked (it can no longer
 * connect) and it is marked offline.
 */
export const recordAppRemoval = async (
  db: DbOrTx,
  deviceId: string,
  location: { latitude: string; longitude: string; at: string },
) => {
  await db
    .update(devices)
    .set({ uninstallLocation: location, secretHash: null, isOnline: false })
    .where(eq(devices.id, deviceId));
};
