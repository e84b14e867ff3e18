import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { customers, media, users } from '../../db/schema';

/**
 * The UPI-relevant part of one user row: their name, the payee name set for UPI (null: the name),
 * UPI ID and the uploaded QR image (null when none), without its bytes.
 */
export type TPayeeRow = {
  name: string;
  upiPayeeName: string | null;
  upiId: string | null;
  qrImage: { mediaId: number; mimeType: string; sizeBytes: number; createdAt: Date } | null;
};

/** The user's UPI settings, only within their organisation; null for an unknown user. */
export const findPayee = async (db: DbOrTx, orgId: number, userId: number): Promise<TPayeeRow | null> => {
  const rows = await db
    .select({
      name: users.name,
      upiPayeeName: users.upiPayeeName,
      upiId: users.upiId,
      mediaId: media.id,
      mimeType: media.mimeType,
      sizeBytes: media.sizeBytes,
      createdAt: media.createdAt,
    })
    .from(users)
    .leftJoin(
      media,
      and(
        eq(media.id, users.paymentQrMediaId),
        eq(media.ownerUserId, users.id),
        isNull(media.customerId),
        isNull(media.deletedAt),
      ),
    )
    .where(and(eq(users.orgId, orgId), eq(users.id, userId)))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  return {
    name: row.name,
    upiPayeeName: row.upiPayeeName,
    upiId: row.upiId,
    qrImage:
      row.mediaId !== null && row.mimeType !== null && row.sizeBytes !== null && row.createdAt !== null
        ? { mediaId: row.mediaId, mimeType: row.mimeType, sizeBytes: row.sizeBytes, createdAt: row.createdAt }
        : null,
  };
};

/**
 * Sets the user's UPI ID (users.upi_id) and, when given, the payee name (users.upi_payee_name;
 * null: the account name), only within their organisation; returns rows changed.
 */
export const updateUpiSettings = async (
  db: DbOrTx,
  orgId: number,
  userId: number,
  values: { upiId: string; upiPayeeName?: string | null },
): Promise<number> => {
  const rows = await db
    .update(users)
    .set(values)
    .where(and(eq(users.orgId, orgId), eq(users.id, userId)))
    .returning({ id: users.id });
  return rows.length;
};

/** Inserts the user's own media row (customer_id null, owner_user_id the user); returns its id. */
export const insertOwnMedia = async (db: DbOrTx, row: typeof media.$inferInsert): Promise<number> => {
  const [inserted] = await db.insert(media).values(row).returning({ id: media.id });
  return inserted!.id;
};

/** Points users.payment_qr_media_id at a media row (or null), within the organisation. */
export const setPaymentQrMedia = async (
  db: DbOrTx,
  orgId: number,
  userId: number,
  mediaId: number | null,
): Promise<void> => {
  await db
    .update(users)
    .set({ paymentQrMediaId: mediaId })
    .where(and(eq(users.orgId, orgId), eq(users.id, userId)));
};

/** Marks a user's own media row deleted (kept in the database). */
export const markOwnMediaDeleted = async (db: DbOrTx, orgId: number, userId: number, mediaId: number) => {
  await db
    .update(media)
    .set({ deletedAt: new Date() })
    .where(and(eq(media.orgId, orgId), eq(media.id, mediaId), eq(media.ownerUserId, userId)));
};

/**
 * The uploaded QR image (bytes) of the retailer of a customer record of the organisation. Null
 * when there is no such customer or the retailer has no image.
 */
export const findRetailerQrImageOfCustomer = async (
  db: DbOrTx,
  options: { orgId: number; customerId: number },
): Promise<{ mimeType: string; content: Uint8Array } | null> => {
  const rows = await db
    .select({ mimeType: media.mimeType, content: media.content })
    .from(customers)
    .innerJoin(users, eq(users.id, customers.retailerId))
    .innerJoin(
      media,
      and(
        eq(media.id, users.paymentQrMediaId),
        eq(media.ownerUserId, users.id),
        isNull(media.customerId),
        isNull(media.deletedAt),
      ),
    )
    .where(and(eq(customers.orgId, options.orgId), eq(customers.id, options.customerId)))
    .limit(1);
  return rows[0] ?? null;
};
