import { and, eq } from 'drizzle-orm';
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
