import type { TUserType } from '@kisht/domain/common/enums';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { customers, organizations, paymentOrders, payments, users } from '../../db/schema';

/** One payment_orders row. */
export type TPaymentOrderRow = typeof paymentOrders.$inferSelect;

/** The organisation's name, payment-gateway flag and key prices (settings.keyPricesPaise, paise by app_type). */
export const findOrgPayments = async (
  db: DbOrTx,
  orgId: number,
): Promise<{ name: string; isGatewayOn: boolean; pricesPaise: Record<string, number> } | null> => {
  const [row] = await db
    .select({ name: organizations.name, features: organizations.features, settings: organizations.settings })
    .from(organizations)
    .where(eq(organizations.id, orgId))
    .limit(1);
  if (!row) return null;
  return {
    name: row.name,
    isGatewayOn: row.features.paymentGateway === true,
    pricesPaise: row.settings?.keyPricesPaise ?? {},
  };
};

/** Replaces the organisation's key prices (settings.keyPricesPaise), leaving its other settings as they are. */
export const updateKeyPrices = async (db: DbOrTx, orgId: number, pricesPaise: Record<string, number>) => {
  await db
    .update(organizations)
    .set({
      settings: sql`coalesce(${organizations.settings}, '{}'::jsonb) || jsonb_build_object('keyPricesPaise', ${JSON.stringify(pricesPaise)}::jsonb)`,
    })
    .where(eq(organizations.id, orgId));
};

/** Inserts a payment order (status created). */
export const insertPaymentOrder = async (db: DbOrTx, row: typeof paymentOrders.$inferInsert) => {
  const [inserted] = await db.insert(paymentOrders).values(row).returning();
  return inserted!;
};

/** The order with this gateway order id, of any organisation (webhooks), or null. */
export const findOrderByGatewayId = async (db: DbOrTx, gatewayOrderId: string) => {
  const [row] = await db
    .select()
    .from(paymentOrders)
    .where(eq(paymentOrders.gatewayOrderId, gatewayOrderId))
    .limit(1);
  return row ?? null;
};

/** The user's own order with this gateway order id, or null (another's is as missing). */
export const findOwnOrderByGatewayId = async (
  db: DbOrTx,
  owner: { orgId: number; userId: number },
  gatewayOrderId: string,
) => {
  const [row] = await db
    .select()
    .from(paymentOrders)
    .where(
      and(
        eq(paymentOrders.gatewayOrderId, gatewayOrderId),
        eq(paymentOrders.orgId, owner.orgId),
        eq(paymentOrders.userId, owner.userId),
      ),
    )
    .limit(1);
  return row ?? null;
};

/** The user's own order by our id, or null (another's is as missing). */
export const findOwnOrder = async (db: DbOrTx, owner: { orgId: number; userId: number }, orderId: string) => {
  const [row] = await db
    .select()
    .from(paymentOrders)
    .where(
      and(
        eq(paymentOrders.id, orderId),
        eq(paymentOrders.orgId, owner.orgId),
        eq(paymentOrders.userId, owner.userId),
      ),
    )
    .limit(1);
  return row ?? null;
};

/** The order by our id (any owner), or null. */
export const findOrder = async (db: DbOrTx, orderId: string) => {
  const [row] = await db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)).limit(1);
  return row ?? null;
};

/**
 * Marks a created order paid (with the gateway payment and, for an instalment, our payment id).
 * Only one caller wins: the row is updated only while its status is still 'created' (a concurrent
 * caller waits for the row lock, then finds it paid). Returns the row when this call marked it.
 */
export const markOrderPaid = async (
  db: DbOrTx,
  orderId: string,
  paid: { gatewayPaymentId: string; paymentId?: number | null },
) => {
  const [row] = await db
    .update(paymentOrders)
    .set({
      status: 'paid',
      gatewayPaymentId: paid.gatewayPaymentId,
      paidAt: sql`now()`,
      ...(paid.paymentId ? { paymentId: paid.paymentId } : {}),
    })
    .where(and(eq(paymentOrders.id, orderId), eq(paymentOrders.status, 'created')))
    .returning();
  return row ?? null;
};

/** A user's name, mobile and type within the organisation, or null. */
export const findUserOfOrg = async (
  db: DbOrTx,
  orgId: number,
  userId: number,
): Promise<{ id: number; name: string; mobile: string; userType: TUserType } | null> => {
  const [row] = await db
    .select({ id: users.id, name: users.name, mobile: users.mobile, userType: users.userType })
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.id, userId)))
    .limit(1);
  return (row as { id: number; name: string; mobile: string; userType: TUserType } | undefined) ?? null;
};

/** The retailer (or mini-retailer) a customer record belongs to, or null. */
export const findRetailerOfCustomer = async (db: DbOrTx, orgId: number, customerId: number) => {
  const [row] = await db
    .select({ retailerId: customers.retailerId })
    .from(customers)
    .where(and(eq(customers.orgId, orgId), eq(customers.id, customerId)))
    .limit(1);
  return row ? findUserOfOrg(db, orgId, row.retailerId) : null;
};

/** The receipt number of one of our recorded payments, or null. */
export const findReceiptNo = async (db: DbOrTx, paymentId: number): Promise<string | null> => {
  const [row] = await db
    .select({ receiptNo: payments.receiptNo })
    .from(payments)
    .where(eq(payments.id, paymentId))
    .limit(1);
  return row?.receiptNo ?? null;
};
