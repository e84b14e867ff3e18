import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { advertisementSends, advertisements, customers, media, users } from '../../db/schema';

/** An advertisement with its image's content type (null without an image). */
export type AdRow = {
  id: number;
  orgId: number;
  retailerId: number;
  title: string;
  body: string;
  imageMediaId: number | null;
  imageMimeType: string | null;
  createdAt: Date;
};

const adColumns = {
  id: advertisements.id,
  orgId: advertisements.orgId,
  retailerId: advertisements.retailerId,
  title: advertisements.title,
  body: advertisements.body,
  imageMediaId: advertisements.imageMediaId,
  imageMimeType: media.mimeType,
  createdAt: advertisements.createdAt,
};

const selectAds = (db: DbOrTx) =>
  db
    .select(adColumns)
    .from(advertisements)
    .leftJoin(media, and(eq(media.id, advertisements.imageMediaId), isNull(media.deletedAt)));

/** Stores an advertisement image as a media row owned by the retailer (customer_id null); its id. */
export const insertAdImage = async (
  db: DbOrTx,
  row: Omit<typeof media.$inferInsert, 'customerId' | 'kind'> & { ownerUserId: number },
): Promise<number> => {
  const [inserted] = await db
    .insert(media)
    .values({ ...row, kind: 'advertisement' })
    .returning({ id: media.id });
  return inserted!.id;
};

/** Writes an advertisement; its id. */
export const insertAd = async (db: DbOrTx, row: typeof advertisements.$inferInsert): Promise<number> => {
  const [inserted] = await db.insert(advertisements).values(row).returning({ id: advertisements.id });
  return inserted!.id;
};

/** An advertisement of the organisation, or null. */
export const findAd = async (db: DbOrTx, orgId: number, id: number): Promise<AdRow | null> => {
  const rows = await selectAds(db)
    .where(and(eq(advertisements.orgId, orgId), eq(advertisements.id, id)))
    .limit(1);
  return rows[0] ?? null;
};

/** A retailer's advertisements, newest first (at most `limit`). */
export const findAdsOfRetailer = (
  db: DbOrTx,
  orgId: number,
  retailerId: number,
  limit: number,
): Promise<AdRow[]> =>
  selectAds(db)
    .where(and(eq(advertisements.orgId, orgId), eq(advertisements.retailerId, retailerId)))
    .orderBy(desc(advertisements.createdAt), desc(advertisements.id))
    .limit(limit);

/** The retailer of a customer user's newest loan in the organisation (matched by mobile), or null. */
export const findRetailerOfCustomerUser = async (
  db: DbOrTx,
  orgId: number,
  userId: number,
): Promise<number | null> => {
  const rows = await db
    .select({ retailerId: customers.retailerId })
    .from(customers)
    .innerJoin(users, and(eq(users.id, userId), eq(users.mobile, customers.mobile)))
    .where(eq(customers.orgId, orgId))
    .orderBy(desc(customers.createdAt), desc(customers.id))
    .limit(1);
  return rows[0]?.retailerId ?? null;
};

/** A live advertisement image by media id, with its bytes, or null. */
export const findAdImage = async (db: DbOrTx, mediaId: number) => {
  const rows = await db
    .select({ orgId: media.orgId, mimeType: media.mimeType, content: media.content })
    .from(media)
    .where(and(eq(media.id, mediaId), eq(media.kind, 'advertisement'), isNull(media.deletedAt)))
    .limit(1);
  return rows[0] ?? null;
};

/** Writes a send of an advertisement (its id is the commands' batch id). */
export const insertSend = async (db: DbOrTx, row: typeof advertisementSends.$inferInsert): Promise<void> => {
  await db.insert(advertisementSends).values(row);
};

export type SendRow = typeof advertisementSends.$inferSelect;

/** The sends of these advertisements, newest first. */
export const findSendsOfAds = (db: DbOrTx, orgId: number, adIds: number[]): Promise<SendRow[]> =>
  adIds.length === 0
    ? Promise.resolve([])
    : db
        .select()
        .from(advertisementSends)
        .where(and(eq(advertisementSends.orgId, orgId), inArray(advertisementSends.advertisementId, adIds)))
        .orderBy(desc(advertisementSends.createdAt));

/** A send of the organisation with its advertisement's retailer, or null. */
export const findSend = async (db: DbOrTx, orgId: number, sendId: string) => {
  const rows = await db
    .select({ send: advertisementSends, retailerId: advertisements.retailerId })
    .from(advertisementSends)
    .innerJoin(advertisements, eq(advertisements.id, advertisementSends.advertisementId))
    .where(and(eq(advertisementSends.orgId, orgId), eq(advertisementSends.id, sendId)))
    .limit(1);
  return rows[0] ?? null;
};

/** The name a user's ads go out under: the shop's name, else the user's name; null for no such user. */
export const findSenderName = async (db: DbOrTx, orgId: number, userId: number): Promise<string | null> => {
  const rows = await db
    .select({ name: users.name, shopName: users.shopName })
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.id, userId)))
    .limit(1);
  const row = rows[0];
  return row ? row.shopName?.trim() || row.name : null;
};
