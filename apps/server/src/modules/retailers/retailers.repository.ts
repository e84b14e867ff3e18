import {
  aliasedTable,
  and,
  count,
  desc,
  eq,
  ilike,
  inArray,
  isNull,
  ne,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { customers, media, sessions, users } from '../../db/schema';

const parents = aliasedTable(users, 'parents');

/** Customers enrolled by each user: a correlated count, so list pages stay one query. */
const customerCount = sql<number>`(select count(*)::int from ${customers} where ${customers.retailerId} = ${users.id})`;

const retailerColumns = {
  id: users.id,
  orgId: users.orgId,
  userType: users.userType,
  parentId: users.parentId,
  parentName: parents.name,
  name: users.name,
  shopName: users.shopName,
  mobile: users.mobile,
  email: users.email,
  gstNumber: users.gstNumber,
  address: users.address,
  profileImageMediaId: users.profileImageMediaId,
  signatureMediaId: users.signatureMediaId,
  paymentQrMediaId: users.paymentQrMediaId,
  isActive: users.isActive,
  deactivatedAt: users.deactivatedAt,
  access: users.access,
  dateOfBirth: users.dateOfBirth,
  createdAt: users.createdAt,
  customerCount,
};

/** A retailer or mini-retailer row as the retailers module reads it, with its parent's name. */
export type TRetailerRow = {
  id: number;
  orgId: number;
  userType: 'retailer' | 'miniretailer' | 'customer' | 'admin';
  parentId: number | null;
  parentName: string | null;
  name: string;
  shopName: string | null;
  mobile: string;
  email: string | null;
  gstNumber: string | null;
  address: typeof users.$inferSelect.address;
  profileImageMediaId: number | null;
  signatureMediaId: number | null;
  paymentQrMediaId: number | null;
  isActive: boolean;
  deactivatedAt: Date | null;
  access: typeof users.$inferSelect.access;
  /** YYYY-MM-DD, or null (issue 16: the dashboard's birthday celebration). */
  dateOfBirth: string | null;
  createdAt: Date;
  customerCount: number;
};

const SHOP_TYPES = ['retailer', 'miniretailer'] as const;

/** A retailer or mini-retailer of the organisation by id, or null (customers and admins too). */
export const findShopUser = async (db: DbOrTx, orgId: number, id: number): Promise<TRetailerRow | null> => {
  const rows = await db
    .select(retailerColumns)
    .from(users)
    .leftJoin(parents, eq(parents.id, users.parentId))
    .where(and(eq(users.orgId, orgId), eq(users.id, id), inArray(users.userType, [...SHOP_TYPES])))
    .limit(1);
  return rows[0] ?? null;
};

/** Filters of one page of a retailer's mini-retailers. */
export type TMiniRetailerFilter = {
  search?: string | undefined;
  isActive?: boolean | undefined;
  limit: number;
  offset: number;
};

/**
 * One page of the mini-retailers of `parentId` in the organisation, newest first (ties by id), and
 * how many match in all. `search` matches name, shop name or mobile (case-insensitive, substring).
 */
export const listMiniRetailers = async (
  db: DbOrTx,
  orgId: number,
  parentId: number,
  filter: TMiniRetailerFilter,
): Promise<{ rows: TRetailerRow[]; total: number }> => {
  const conditions: SQL[] = [
    eq(users.orgId, orgId),
    eq(users.parentId, parentId),
    eq(users.userType, 'miniretailer'),
  ];
  if (filter.isActive !== undefined) conditions.push(eq(users.isActive, filter.isActive));
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(
      or(ilike(users.name, pattern), ilike(users.shopName, pattern), ilike(users.mobile, pattern))!,
    );
  }
  const where = and(...conditions);
  const [rows, totals] = await Promise.all([
    db
      .select(retailerColumns)
      .from(users)
      .leftJoin(parents, eq(parents.id, users.parentId))
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
};

/**
 * Whether a retailer, mini-retailer or admin of the organisation other than `exceptId` has the
 * mobile: one number logs in as one shop user (a customer with the same number is allowed).
 */
export const isShopMobileTaken = async (
  db: DbOrTx,
  orgId: number,
  mobile: string,
  exceptId?: number,
): Promise<boolean> => {
  const conditions: SQL[] = [
    eq(users.orgId, orgId),
    eq(users.mobile, mobile),
    inArray(users.userType, ['retailer', 'miniretailer', 'admin']),
  ];
  if (exceptId !== undefined) conditions.push(ne(users.id, exceptId));
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(...conditions))
    .limit(1);
  return rows.length > 0;
};

/** Inserts a mini-retailer; returns its id. */
export const insertMiniRetailer = async (
  db: DbOrTx,
  values: Omit<typeof users.$inferInsert, 'userType'>,
): Promise<number> => {
  const [row] = await db
    .insert(users)
    .values({ ...values, userType: 'miniretailer' })
    .returning({ id: users.id });
  return row!.id;
};

/** Sets columns of a shop user within the organisation. */
export const updateShopUser = async (
  db: DbOrTx,
  orgId: number,
  id: number,
  values: Partial<
    Pick<
      typeof users.$inferInsert,
      | 'name'
      | 'shopName'
      | 'mobile'
      | 'email'
      | 'gstNumber'
      | 'address'
      | 'access'
      | 'isActive'
      | 'deactivatedAt'
      | 'profileImageMediaId'
      | 'signatureMediaId'
      | 'dateOfBirth'
    >
  >,
): Promise<void> => {
  if (Object.keys(values).length === 0) return;
  await db
    .update(users)
    .set(values)
    .where(and(eq(users.orgId, orgId), eq(users.id, id)));
};

/** Ends every live session of the user at once (their next call answers 511); returns how many. */
export const revokeAllSessionsOf = async (db: DbOrTx, userId: number): Promise<number> => {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length;
};

/** Stores a file a user owns (customer_id null); returns its id. */
export const insertUserMedia = async (
  db: DbOrTx,
  row: Omit<typeof media.$inferInsert, 'customerId'> & { ownerUserId: number },
): Promise<number> => {
  const [inserted] = await db
    .insert(media)
    .values({ ...row, customerId: null })
    .returning({ id: media.id });
  return inserted!.id;
};

/** The bytes and type of a live file owned by the user, or null. */
export const findUserMediaFile = async (
  db: DbOrTx,
  orgId: number,
  ownerUserId: number,
  mediaId: number,
): Promise<{ mimeType: string; content: Uint8Array } | null> => {
  const rows = await db
    .select({ mimeType: media.mimeType, content: media.content })
    .from(media)
    .where(
      and(
        eq(media.orgId, orgId),
        eq(media.id, mediaId),
        eq(media.ownerUserId, ownerUserId),
        isNull(media.customerId),
        isNull(media.deletedAt),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
};
