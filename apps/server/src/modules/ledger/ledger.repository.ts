import { and, asc, desc, eq, gte, ilike, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import {
  customers,
  ledgerAccounts,
  ledgerBalances,
  ledgerEntries,
  ledgerMovements,
  organizations,
  users,
} from '../../db/schema';

export type TSystemAccountKind = 'issuance' | 'sales' | 'reserved' | 'consumption';
export type TMovementKind = (typeof ledgerMovements.$inferSelect)['kind'];

/** The ledger account of a retailer or mini-retailer, created on first use. Returns its id. */
export const ensureUserAccount = async (db: DbOrTx, orgId: number, userId: number): Promise<number> => {
  await db.insert(ledgerAccounts).values({ orgId, kind: 'user', userId }).onConflictDoNothing();
  const [row] = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.userId, userId), eq(ledgerAccounts.orgId, orgId)));
  return row!.id;
};

/** An organisation's system account (issuance, sales or consumption), created on first use. */
export const ensureSystemAccount = async (
  db: DbOrTx,
  orgId: number,
  kind: TSystemAccountKind,
): Promise<number> => {
  await db.insert(ledgerAccounts).values({ orgId, kind }).onConflictDoNothing();
  const [row] = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(
      and(eq(ledgerAccounts.orgId, orgId), eq(ledgerAccounts.kind, kind), isNull(ledgerAccounts.userId)),
    );
  return row!.id;
};

/** The user (retailer or mini-retailer) a user account belongs to; 0 for a system account. */
export const findAccountUserId = async (db: DbOrTx, accountId: number): Promise<number> => {
  const [row] = await db
    .select({ userId: ledgerAccounts.userId })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.id, accountId));
  return row?.userId ?? 0;
};

export const findAccountKind = async (db: DbOrTx, accountId: number) => {
  const [row] = await db
    .select({ kind: ledgerAccounts.kind })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.id, accountId));
  return row?.kind ?? null;
};

/**
 * Takes `quantity` keys of `appType` off a user account's balance, only if it holds that many
 * (one guarded UPDATE, so two spends at once never take the same key). Returns false otherwise.
 */
export const debitBalance = async (
  db: DbOrTx,
  accountId: number,
  appType: number,
  quantity: number,
): Promise<boolean> => {
  const rows = await db
    .update(ledgerBalances)
    .set({ balance: sql`${ledgerBalances.balance} - ${quantity}` })
    .where(
      and(
        eq(ledgerBalances.accountId, accountId),
        eq(ledgerBalances.appType, appType),
        gte(ledgerBalances.balance, quantity),
      ),
    )
    .returning({ balance: ledgerBalances.balance });
  return rows.length === 1;
};

/** Adds `quantity` keys of `appType` to a user account's balance. */
export const creditBalance = async (db: DbOrTx, accountId: number, appType: number, quantity: number) => {
  await db
    .insert(ledgerBalances)
    .values({ accountId, appType, balance: quantity })
    .onConflictDoUpdate({
      target: [ledgerBalances.accountId, ledgerBalances.appType],
      set: { balance: sql`${ledgerBalances.balance} + ${quantity}` },
    });
};

/**
 * Inserts a movement, or nothing when its unique key (payment order, or key use of the IMEI and
 * app_type) already has one. Returns the new id, or null when it already existed.
 */
export const insertMovement = async (
  db: DbOrTx,
  row: typeof ledgerMovements.$inferInsert,
): Promise<number | null> => {
  const inserted = await db
    .insert(ledgerMovements)
    .values(row)
    .onConflictDoNothing()
    .returning({ id: ledgerMovements.id });
  return inserted[0]?.id ?? null;
};

export const insertEntries = async (db: DbOrTx, rows: (typeof ledgerEntries.$inferInsert)[]) => {
  await db.insert(ledgerEntries).values(rows);
};

/** The ledger account id of a user, or null when the user never held keys. */
export const findUserAccountId = async (
  db: DbOrTx,
  orgId: number,
  userId: number,
): Promise<number | null> => {
  const [row] = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.userId, userId), eq(ledgerAccounts.orgId, orgId)));
  return row?.id ?? null;
};

/** An account's balance rows (every app_type it ever held), ordered by app_type. */
export const findBalances = (db: DbOrTx, accountId: number) =>
  db
    .select({ appType: ledgerBalances.appType, balance: ledgerBalances.balance })
    .from(ledgerBalances)
    .where(eq(ledgerBalances.accountId, accountId))
    .orderBy(asc(ledgerBalances.appType));

/** Keys of one app_type an account holds now (0 without a row). */
export const findBalance = async (db: DbOrTx, accountId: number, appType: number): Promise<number> => {
  const [row] = await db
    .select({ balance: ledgerBalances.balance })
    .from(ledgerBalances)
    .where(and(eq(ledgerBalances.accountId, accountId), eq(ledgerBalances.appType, appType)));
  return row?.balance ?? 0;
};

/** True when a key of `appType` was already spent (and not refunded) on this IMEI in the organisation. */
export const hasKeyUse = async (
  db: DbOrTx,
  orgId: number,
  imei: string,
  appType: number,
): Promise<boolean> => {
  const rows = await db
    .select({ id: ledgerMovements.id })
    .from(ledgerMovements)
    .where(
      and(
        eq(ledgerMovements.orgId, orgId),
        eq(ledgerMovements.kind, 'key_use'),
        eq(ledgerMovements.imei, imei),
        eq(ledgerMovements.appType, appType),
        isNull(ledgerMovements.refundedAt),
      ),
    )
    .limit(1);
  return rows.length > 0;
};

/**
 * The customer's key_use movement not yet refunded, locked FOR UPDATE (two refunds at once: the
 * second waits, then finds none), or null.
 */
export const findUnrefundedKeyUseForUpdate = async (db: DbOrTx, orgId: number, customerId: number) => {
  const [row] = await db
    .select({
      id: ledgerMovements.id,
      appType: ledgerMovements.appType,
      fromAccountId: ledgerMovements.fromAccountId,
      toAccountId: ledgerMovements.toAccountId,
      imei: ledgerMovements.imei,
    })
    .from(ledgerMovements)
    .where(
      and(
        eq(ledgerMovements.orgId, orgId),
        eq(ledgerMovements.kind, 'key_use'),
        eq(ledgerMovements.customerId, customerId),
        isNull(ledgerMovements.refundedAt),
      ),
    )
    .orderBy(desc(ledgerMovements.id))
    .limit(1)
    .for('update');
  return row ?? null;
};

/** The open reservation's columns a spend, a return or a refund needs. */
const reservationColumns = {
  id: ledgerMovements.id,
  orgId: ledgerMovements.orgId,
  appType: ledgerMovements.appType,
  fromAccountId: ledgerMovements.fromAccountId,
  toAccountId: ledgerMovements.toAccountId,
  customerId: ledgerMovements.customerId,
  imei: ledgerMovements.imei,
};

/** An open (not yet settled) `reserve` movement, as reservationColumns reads it. */
export type TOpenReservation = {
  id: number;
  orgId: number;
  appType: number;
  fromAccountId: number;
  toAccountId: number;
  customerId: number | null;
  imei: string | null;
};

const isOpenReservation = and(eq(ledgerMovements.kind, 'reserve'), isNull(ledgerMovements.settledAt));

/**
 * The open key reservation (issue 27) of a customer, or of its phone's IMEI 1 (a reservation made
 * for another customer record of the same phone), locked FOR UPDATE so that an enrolment, a return
 * and a refund at once settle it once; null when there is none.
 */
export const findOpenReservationForUpdate = async (
  db: DbOrTx,
  orgId: number,
  phone: { customerId: number; imei: string },
): Promise<TOpenReservation | null> => {
  const [row] = await db
    .select(reservationColumns)
    .from(ledgerMovements)
    .where(
      and(
        eq(ledgerMovements.orgId, orgId),
        isOpenReservation,
        or(eq(ledgerMovements.customerId, phone.customerId), eq(ledgerMovements.imei, phone.imei)),
      ),
    )
    .orderBy(desc(ledgerMovements.id))
    .limit(1)
    .for('update');
  return row ?? null;
};

/**
 * Up to `limit` open reservations whose QR can no longer enrol a phone: no device of the
 * organisation with the reservation's customer or IMEI 1 is waiting to enrol with a token that
 * expires after `before` (UTC). Locked FOR UPDATE SKIP LOCKED, so server processes side by side
 * take different rows and an enrolment holding one is not waited for.
 */
export const findLapsedReservationsForUpdate = (
  db: DbOrTx,
  before: Date,
  limit: number,
): Promise<TOpenReservation[]> =>
  db
    .select(reservationColumns)
    .from(ledgerMovements)
    .where(
      and(
        isOpenReservation,
        sql`NOT EXISTS (SELECT 1 FROM devices d WHERE d.org_id = ${ledgerMovements.orgId}
          AND (d.customer_id = ${ledgerMovements.customerId} OR d.imei1 = ${ledgerMovements.imei})
          AND d.enrolled_at IS NULL AND d.enrolment_expires_at > ${before.toISOString()})`,
      ),
    )
    .orderBy(asc(ledgerMovements.id))
    .limit(limit)
    .for('update', { skipLocked: true });

/** Marks an open reservation settled now (spent by an enrolment, or returned). */
export const markReservationSettled = async (db: DbOrTx, movementId: number) => {
  await db
    .update(ledgerMovements)
    .set({ settledAt: new Date() })
    .where(and(eq(ledgerMovements.id, movementId), isNull(ledgerMovements.settledAt)));
};

/** Marks a key_use movement refunded now (its phone may then be charged again). */
export const markKeyUseRefunded = async (db: DbOrTx, movementId: number) => {
  await db
    .update(ledgerMovements)
    .set({ refundedAt: new Date() })
    .where(and(eq(ledgerMovements.id, movementId), isNull(ledgerMovements.refundedAt)));
};

/** A user of the organisation (any type), or null. */
export const findOrgUser = async (db: DbOrTx, orgId: number, userId: number) => {
  const [row] = await db
    .select({
      id: users.id,
      orgId: users.orgId,
      userType: users.userType,
      parentId: users.parentId,
      name: users.name,
      shopName: users.shopName,
      mobile: users.mobile,
      isActive: users.isActive,
    })
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.id, userId)));
  return row ?? null;
};

/** A user of the organisation by mobile (E.164) and type, or null. */
export const findOrgUserByMobile = async (
  db: DbOrTx,
  orgId: number,
  mobile: string,
  userType: 'retailer' | 'miniretailer' | 'admin',
) => {
  const [row] = await db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.mobile, mobile), eq(users.userType, userType)));
  return row ?? null;
};

/** Inserts a user (the admin CLI), returning its id. */
export const insertUser = async (db: DbOrTx, row: typeof users.$inferInsert): Promise<number> => {
  const [inserted] = await db.insert(users).values(row).returning({ id: users.id });
  return inserted!.id;
};

/** The organisation's retailers (not mini-retailers) matching a name, shop or mobile fragment. */
export const searchRetailers = (db: DbOrTx, orgId: number, search: string | undefined, limit: number) => {
  const pattern = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return db
    .select({
      id: users.id,
      name: users.name,
      shopName: users.shopName,
      mobile: users.mobile,
      isActive: users.isActive,
    })
    .from(users)
    .where(
      and(
        eq(users.orgId, orgId),
        eq(users.userType, 'retailer'),
        pattern
          ? or(ilike(users.name, pattern), ilike(users.shopName, pattern), ilike(users.mobile, pattern))
          : undefined,
      ),
    )
    .orderBy(asc(users.name), asc(users.id))
    .limit(limit);
};

const otherAccounts = alias(ledgerAccounts, 'other_account');
const otherUsers = alias(users, 'other_user');

/**
 * Movements touching an account, newest (highest id) first: each with the entry's delta on that
 * account (negative: keys left it), the other account's user name (null for a system account) and
 * the customer's name. Filters: created at or after `fromAt`, before `toAt` (UTC instants), kind,
 * and ids below `beforeId` (the keyset cursor). At most `limit` rows.
 */
export const listAccountMovements = (
  db: DbOrTx,
  options: {
    accountId: number;
    fromAt?: Date | undefined;
    toAt?: Date | undefined;
    kind?: TMovementKind | undefined;
    beforeId?: number | undefined;
    limit: number;
  },
) => {
  const conditions: (SQL | undefined)[] = [
    eq(ledgerEntries.accountId, options.accountId),
    options.fromAt ? gte(ledgerMovements.createdAt, options.fromAt) : undefined,
    options.toAt ? lt(ledgerMovements.createdAt, options.toAt) : undefined,
    options.kind ? eq(ledgerMovements.kind, options.kind) : undefined,
    options.beforeId !== undefined ? lt(ledgerMovements.id, options.beforeId) : undefined,
  ];
  return db
    .select({
      id: ledgerMovements.id,
      kind: ledgerMovements.kind,
      appType: ledgerMovements.appType,
      quantity: ledgerMovements.quantity,
      delta: ledgerEntries.delta,
      counterpartyName: otherUsers.name,
      customerId: ledgerMovements.customerId,
      customerFirstName: customers.firstName,
      customerLastName: customers.lastName,
      note: ledgerMovements.note,
      createdAt: ledgerMovements.createdAt,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerMovements, eq(ledgerMovements.id, ledgerEntries.movementId))
    .innerJoin(
      otherAccounts,
      eq(
        otherAccounts.id,
        sql`case when ${ledgerEntries.delta} < 0 then ${ledgerMovements.toAccountId} else ${ledgerMovements.fromAccountId} end`,
      ),
    )
    .leftJoin(otherUsers, eq(otherUsers.id, otherAccounts.userId))
    .leftJoin(customers, eq(customers.id, ledgerMovements.customerId))
    .where(and(...conditions))
    .orderBy(desc(ledgerMovements.id))
    .limit(options.limit);
};

export type TAccountMovementRow = Awaited<ReturnType<typeof listAccountMovements>>[number];

/** True when the organisation exists. */
export const hasOrganization = async (db: DbOrTx, orgId: number): Promise<boolean> => {
  const rows = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  return rows.length > 0;
};
