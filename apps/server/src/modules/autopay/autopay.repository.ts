import type { TUserType } from '@kisht/domain/common/enums';
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  autopayCharges,
  autopayMandates,
  customers,
  emis,
  organizations,
  payments,
  users,
} from '../../db/schema';

/** One autopay_mandates row. */
export type TMandateRow = typeof autopayMandates.$inferSelect;
/** One autopay_charges row. */
export type TChargeRow = typeof autopayCharges.$inferSelect;
type TMandateStatus = TMandateRow['status'];

/** Whether the organisation's paymentGateway flag is on. */
export const isGatewayOn = async (db: DbOrTx, orgId: number): Promise<boolean> => {
  const [row] = await db
    .select({ features: organizations.features })
    .from(organizations)
    .where(eq(organizations.id, orgId))
    .limit(1);
  return row?.features.paymentGateway === true;
};

/** A customer's id, organisation, name, mobile and retailer, of any organisation (webhooks), or null. */
export const findCustomer = async (db: DbOrTx, customerId: number) => {
  const [row] = await db
    .select({
      id: customers.id,
      orgId: customers.orgId,
      firstName: customers.firstName,
      lastName: customers.lastName,
      mobile: customers.mobile,
      retailerId: customers.retailerId,
    })
    .from(customers)
    .where(eq(customers.id, customerId))
    .limit(1);
  return row ?? null;
};

/** A user's mobile and type within the organisation, or null. */
export const findUser = async (
  db: DbOrTx,
  orgId: number,
  userId: number,
): Promise<{ id: number; mobile: string; userType: TUserType } | null> => {
  const [row] = await db
    .select({ id: users.id, mobile: users.mobile, userType: users.userType })
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.id, userId)))
    .limit(1);
  return (row as { id: number; mobile: string; userType: TUserType } | undefined) ?? null;
};

/** The customer's newest mandate (live or ended), or null. */
export const findNewestMandate = async (db: DbOrTx, customerId: number) => {
  const [row] = await db
    .select()
    .from(autopayMandates)
    .where(eq(autopayMandates.customerId, customerId))
    .orderBy(desc(autopayMandates.id))
    .limit(1);
  return row ?? null;
};

/** The customer's live mandate (created, active or paused), or null. */
export const findLiveMandate = async (db: DbOrTx, customerId: number) => {
  const [row] = await db
    .select()
    .from(autopayMandates)
    .where(
      and(
        eq(autopayMandates.customerId, customerId),
        inArray(autopayMandates.status, ['created', 'active', 'paused']),
      ),
    )
    .limit(1);
  return row ?? null;
};

/**
 * Inserts a mandate; null when the customer already has a live one (autopay_mandates_live_uq), so
 * two set-ups at once make one.
 */
export const insertMandate = async (db: DbOrTx, row: typeof autopayMandates.$inferInsert) => {
  const [inserted] = await db
    .insert(autopayMandates)
    .values(row)
    .onConflictDoNothing({
      target: autopayMandates.customerId,
      where: sql`status in ('created', 'active', 'paused')`,
    })
    .returning();
  return inserted ?? null;
};

/**
 * Moves a mandate from `from` to `to` (with the token id, who ended it and why): only while it is
 * still in `from`, so of two events at once one wins. Returns the row when this call moved it.
 */
export const moveMandate = async (
  db: DbOrTx,
  id: number,
  from: TMandateStatus,
  to: TMandateStatus,
  patch: { tokenId?: string; endedBy?: TMandateRow['endedBy']; endReason?: string | null } = {},
) => {
  const [row] = await db
    .update(autopayMandates)
    .set({ status: to, updatedAt: sql`now()`, ...patch })
    .where(and(eq(autopayMandates.id, id), eq(autopayMandates.status, from)))
    .returning();
  return row ?? null;
};

/** The mandate holding this gateway token, or null. */
export const findMandateByToken = async (db: DbOrTx, tokenId: string) => {
  const [row] = await db.select().from(autopayMandates).where(eq(autopayMandates.tokenId, tokenId)).limit(1);
  return row ?? null;
};

/**
 * The one mandate of this gateway customer still waiting for approval (created) and without a
 * token yet, or null when there is none or more than one (two loans of one mobile share a gateway
 * customer: a token event naming only the customer is then not guessed at).
 */
export const findOnlyWaitingMandateOfGatewayCustomer = async (db: DbOrTx, gatewayCustomerId: string) => {
  const rows = await db
    .select()
    .from(autopayMandates)
    .where(
      and(
        eq(autopayMandates.gatewayCustomerId, gatewayCustomerId),
        eq(autopayMandates.status, 'created'),
        sql`${autopayMandates.tokenId} is null`,
      ),
    )
    .limit(2);
  return rows.length === 1 ? rows[0]! : null;
};

/** The mandate whose authorisation order this is, or null. */
export const findMandateByAuthOrder = async (db: DbOrTx, authOrderId: string) => {
  const [row] = await db
    .select()
    .from(autopayMandates)
    .where(eq(autopayMandates.authOrderId, authOrderId))
    .limit(1);
  return row ?? null;
};

/** Records the token of a mandate whose authorisation payment arrived before its token event. */
export const setMandateToken = async (db: DbOrTx, id: number, tokenId: string) => {
  await db
    .update(autopayMandates)
    .set({ tokenId, updatedAt: sql`now()` })
    .where(and(eq(autopayMandates.id, id), sql`${autopayMandates.tokenId} is null`));
};

/** Every active mandate (the charge job), oldest first. */
export const listActiveMandates = (db: DbOrTx) =>
  db.select().from(autopayMandates).where(eq(autopayMandates.status, 'active')).orderBy(autopayMandates.id);

/** The customer's instalments (id, number, due date, amount and paid, paise), by number. */
export const listInstalments = (db: DbOrTx, customerId: number) =>
  db
    .select({
      id: emis.id,
      instalmentNo: emis.instalmentNo,
      dueDate: emis.dueDate,
      amountPaise: emis.amountPaise,
      paidPaise: emis.paidPaise,
    })
    .from(emis)
    .where(eq(emis.customerId, customerId))
    .orderBy(emis.instalmentNo);

/** The customer's instalment with this number, or null. */
export const findInstalment = async (db: DbOrTx, customerId: number, instalmentNo: number) => {
  const [row] = await db
    .select()
    .from(emis)
    .where(and(eq(emis.customerId, customerId), eq(emis.instalmentNo, instalmentNo)))
    .limit(1);
  return row ?? null;
};

/** Every charge attempt of the customer's instalments. */
export const listAttempts = (db: DbOrTx, customerId: number) =>
  db.select().from(autopayCharges).where(eq(autopayCharges.customerId, customerId));

/** The mandate's newest charges (at most 24) with their instalment number and receipt. */
export const listChargesOfMandate = (db: DbOrTx, mandateId: number) =>
  db
    .select({
      instalmentNo: emis.instalmentNo,
      attempt: autopayCharges.attempt,
      amountPaise: autopayCharges.amountPaise,
      status: autopayCharges.status,
      chargeDate: autopayCharges.chargeDate,
      receiptNo: payments.receiptNo,
      failureReason: autopayCharges.failureReason,
    })
    .from(autopayCharges)
    .innerJoin(emis, eq(emis.id, autopayCharges.emiId))
    .leftJoin(payments, eq(payments.id, autopayCharges.paymentId))
    .where(eq(autopayCharges.mandateId, mandateId))
    .orderBy(desc(autopayCharges.id))
    .limit(24);

/**
 * Claims one attempt of one instalment: inserts the charge row unless that (emi, attempt) exists
 * (autopay_charges_emi_attempt_uq), so two runs or two processes charge once. Returns the row when
 * this call claimed it.
 */
export const claimCharge = async (db: DbOrTx, row: typeof autopayCharges.$inferInsert) => {
  const [inserted] = await db
    .insert(autopayCharges)
    .values(row)
    .onConflictDoNothing({ target: [autopayCharges.emiId, autopayCharges.attempt] })
    .returning();
  return inserted ?? null;
};

/** Gives a claim back when the gateway took no order for it (the next run tries again). */
export const releaseCharge = async (db: DbOrTx, id: number) => {
  await db
    .delete(autopayCharges)
    .where(and(eq(autopayCharges.id, id), sql`${autopayCharges.gatewayOrderId} is null`));
};

/** Records the gateway order and, once made, the payment of a charge. */
export const setChargeGatewayIds = async (
  db: DbOrTx,
  id: number,
  ids: { gatewayOrderId?: string; gatewayPaymentId?: string },
) => {
  await db.update(autopayCharges).set(ids).where(eq(autopayCharges.id, id));
};

/** The charge of this gateway order, or null. */
export const findChargeByGatewayOrder = async (db: DbOrTx, gatewayOrderId: string) => {
  const [row] = await db
    .select()
    .from(autopayCharges)
    .where(eq(autopayCharges.gatewayOrderId, gatewayOrderId))
    .limit(1);
  return row ?? null;
};

/**
 * Settles a charge: captured (from created or failed: a late authorisation still pays) or failed
 * (from created only). Only one caller wins; returns the row when this call moved it.
 */
export const settleCharge = async (
  db: DbOrTx,
  id: number,
  outcome:
    | {
        status: 'captured';
        gatewayPaymentId: string;
        paymentId: number | null;
        failureReason?: string | null;
      }
    | { status: 'failed'; gatewayPaymentId: string | null; failureReason: string },
) => {
  const from: TChargeRow['status'][] = outcome.status === 'captured' ? ['created', 'failed'] : ['created'];
  const [row] = await db
    .update(autopayCharges)
    .set({ ...outcome, settledAt: sql`now()` })
    .where(and(eq(autopayCharges.id, id), inArray(autopayCharges.status, from)))
    .returning();
  return row ?? null;
};

/** Charges still 'created' with a gateway order but no payment, made before `before` (reconciliation). */
export const listStrandedCharges = (db: DbOrTx, before: Date) =>
  db
    .select()
    .from(autopayCharges)
    .where(
      and(
        eq(autopayCharges.status, 'created'),
        sql`${autopayCharges.gatewayOrderId} is not null`,
        sql`${autopayCharges.gatewayPaymentId} is null`,
        lt(autopayCharges.createdAt, before),
      ),
    );

/** Active or paused mandates past their expire_at. */
export const listExpiredMandates = (db: DbOrTx, now: Date) =>
  db
    .select()
    .from(autopayMandates)
    .where(
      and(
        inArray(autopayMandates.status, ['active', 'paused', 'created']),
        lt(autopayMandates.expireAt, now),
      ),
    );
