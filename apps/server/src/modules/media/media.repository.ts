import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { advertisements, customers, media, users } from '../../db/schema';

/** Every column but the bytes, with the uploader's name. */
const listColumns = {
  id: media.id,
  orgId: media.orgId,
  customerId: media.customerId,
  kind: media.kind,
  documentType: media.documentType,
  path: media.path,
  mimeType: media.mimeType,
  sizeBytes: media.sizeBytes,
  createdAt: media.createdAt,
  uploadedByName: users.name,
};

export type MediaListRow = {
  id: number;
  orgId: number;
  /** Null for a retailer's own files (owner_user_id). */
  customerId: number | null;
  kind: string;
  documentType: string | null;
  path: string;
  mimeType: string;
  sizeBytes: number;
  createdAt: Date;
  uploadedByName: string | null;
};

export const insertMedia = async (db: DbOrTx, row: typeof media.$inferInsert): Promise<number> => {
  const [inserted] = await db.insert(media).values(row).returning({ id: media.id });
  return inserted!.id;
};

/** A customer's live (not deleted) files without their bytes, newest first. */
export const findMediaOfCustomer = (db: DbOrTx, orgId: number, customerId: number): Promise<MediaListRow[]> =>
  db
    .select(listColumns)
    .from(media)
    .leftJoin(users, eq(users.id, media.uploadedBy))
    .where(and(eq(media.orgId, orgId), eq(media.customerId, customerId), isNull(media.deletedAt)))
    .orderBy(desc(media.createdAt), desc(media.id));

export const findMediaById = async (db: DbOrTx, orgId: number, id: number): Promise<MediaListRow | null> => {
  const rows = await db
    .select(listColumns)
    .from(media)
    .leftJoin(users, eq(users.id, media.uploadedBy))
    .where(and(eq(media.orgId, orgId), eq(media.id, id), isNull(media.deletedAt)))
    .limit(1);
  return rows[0] ?? null;
};

/** A live file of the organisation by its path, with its bytes, or null. */
export const findMediaFile = async (db: DbOrTx, orgId: number, path: string) => {
  const rows = await db
    .select({
      customerId: media.customerId,
      mimeType: media.mimeType,
      content: media.content,
    })
    .from(media)
    .where(and(eq(media.orgId, orgId), eq(media.path, path), isNull(media.deletedAt)))
    .limit(1);
  return rows[0] ?? null;
};

export const markMediaDeleted = async (db: DbOrTx, id: number): Promise<void> => {
  await db.update(media).set({ deletedAt: new Date() }).where(eq(media.id, id));
};

/**
 * A page of the organisation's live files (no bytes) that belong to customers of `retailerIds` or
 * are owned by `ownerUserId`, newest first, with the total and, for an advertisement image, its ad.
 */
export const findMediaPage = async (
  db: DbOrTx,
  options: { orgId: number; retailerIds: number[]; ownerUserId: number; limit: number; offset: number },
) => {
  const where = and(
    eq(media.orgId, options.orgId),
    isNull(media.deletedAt),
    or(
      eq(media.ownerUserId, options.ownerUserId),
      inArray(
        media.customerId,
        db
          .select({ id: customers.id })
          .from(customers)
          .where(and(eq(customers.orgId, options.orgId), inArray(customers.retailerId, options.retailerIds))),
      ),
    ),
  );
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        id: media.id,
        kind: media.kind,
        documentType: media.documentType,
        path: media.path,
        mimeType: media.mimeType,
        sizeBytes: media.sizeBytes,
        createdAt: media.createdAt,
        customerId: media.customerId,
        ownerUserId: media.ownerUserId,
        advertisementId: advertisements.id,
      })
      .from(media)
      .leftJoin(advertisements, eq(advertisements.imageMediaId, media.id))
      .where(where)
      .orderBy(desc(media.createdAt), desc(media.id))
      .limit(options.limit)
      .offset(options.offset),
    db
      .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(media)
      .where(where),
  ]);
  return { rows, total: counted?.n ?? 0 };
};
