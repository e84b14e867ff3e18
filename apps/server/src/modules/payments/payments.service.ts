import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import {
  keyPricesFromMap,
  keyPricesToMap,
  PAYMENT_CURRENCY,
  PRICES_NOT_SET_MESSAGE,
  type TCheckoutOrder,
  type TCheckoutResult,
  type TInstalmentOrderRequest,
  type TKeyPrices,
  type TPaymentOrderStatus,
  type TPaymentQuote,
  type TPaymentQuoteRequest,
} from '@kisht/domain/payments/payments.schema';
import type { FastifyBaseLogger } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import { autoUnlockIfCleared } from '../devices/auto-lock.service';
import type { CommandDispatcher } from '../devices/device-outbox.service';
import { getEmiDetails, recordPayment } from '../emi/emi.service';
import { listMyLoans } from '../emi/my-loans.service';
import { creditPurchasedKeys } from '../ledger/ledger.service';
import { findCustomerForActor } from '../scope/scope.service';
import type { TGatewayProvider } from './gateway-provider';
import { type TPaymentGateway, verifiedWebhookEvent } from './payment-gateway';
import * as repo from './payments.repository';

/** What the payment operations need: the database, the device outbox (auto-unlock), the gateway. */
export type TPaymentsDeps = {
  db: Db;
  dispatcher: CommandDispatcher;
  gateways: TGatewayProvider;
  log: FastifyBaseLogger;
};

/** The smallest amount the gateway takes, paise (₹1). */
const MIN_GATEWAY_AMOUNT_PAISE = 100;

const notFound = () => new AppError(AppErrorCode.NOT_FOUND, 'Payment order not found');

const requireAdmin = (actor: TActor) => {
  if (actor.userType !== 'admin')
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only the organisation admin sets key prices');
};

const requireShop = (actor: TActor) => {
  if (actor.userType !== 'retailer' && actor.userType !== 'miniretailer')
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only retailers buy keys');
};

/** The organisation's gateway flag and prices; throws PAYMENT_GATEWAY_DISABLED when the flag is off. */
const requireGatewayOn = async (db: DbOrTx, orgId: number) => {
  const org = await repo.findOrgPayments(db, orgId);
  if (!org?.isGatewayOn)
    throw new AppError(
      AppErrorCode.PAYMENT_GATEWAY_DISABLED,
      'Online payment is not available for your organisation',
    );
  return org;
};

/**
 * The organisation's key prices (admin: paths.admin.keyPrices GET), one per priced app_type,
 * ordered by app_type; unit prices in paise. Throws FORBIDDEN unless the actor is an admin.
 */
export const getKeyPrices = async (db: DbOrTx, actor: TActor): Promise<TKeyPrices> => {
  requireAdmin(actor);
  const org = await repo.findOrgPayments(db, actor.orgId);
  return keyPricesFromMap(org?.pricesPaise);
};

/**
 * Replaces the organisation's key prices (admin: paths.admin.keyPrices PUT; settings.keyPricesPaise)
 * with an audit entry of before and after, in one transaction. An app_type left out can no longer
 * be bought online ('Please contact admin for prices'). Throws FORBIDDEN unless admin.
 */
export const saveKeyPrices = async (db: Db, actor: TActor, request: TKeyPrices): Promise<TKeyPrices> => {
  requireAdmin(actor);
  const before = await getKeyPrices(db, actor);
  const pricesPaise = keyPricesToMap(request);
  await db.transaction(async (tx) => {
    await repo.updateKeyPrices(tx, actor.orgId, pricesPaise);
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'payments.key_prices',
      entity: 'organization',
      entityId: String(actor.orgId),
      details: { before: before.prices, after: request.prices },
    });
  });
  return getKeyPrices(db, actor);
};

/**
 * What `quantity` keys of `appType` cost (paths.payments.validate): unit price × quantity, paise.
 * Throws FORBIDDEN unless a retailer or mini-retailer, PAYMENT_GATEWAY_DISABLED (409) when the
 * organisation's paymentGateway flag is off, PRICES_NOT_SET (409, 'Please contact admin for
 * prices', spec §5) when the app_type has no price.
 */
export const quoteKeyPurchase = async (
  db: DbOrTx,
  actor: TActor,
  request: TPaymentQuoteRequest,
): Promise<TPaymentQuote> => {
  requireShop(actor);
  const org = await requireGatewayOn(db, actor.orgId);
  const unitPricePaise = org.pricesPaise[String(request.appType)];
  if (!unitPricePaise) throw new AppError(AppErrorCode.PRICES_NOT_SET, PRICES_NOT_SET_MESSAGE);
  return {
    appType: request.appType,
    quantity: request.quantity,
    unitPricePaise,
    amountPaise: unitPricePaise * request.quantity,
    currency: PAYMENT_CURRENCY,
  };
};

/**
 * Creates the gateway order first and only then our payment_orders row (with an audit entry), so
 * a gateway that does not answer (503 PAYMENT_GATEWAY_UNAVAILABLE) leaves nothing written.
 * Answers what the checkout needs.
 */
const openOrder = async (
  deps: TPaymentsDeps,
  options: {
    actor: TActor;
    gateway: TPaymentGateway;
    purpose: 'keys' | 'instalment';
    amountPaise: number;
    appType?: number;
    quantity?: number;
    customerId?: number;
    description: string;
  },
): Promise<TCheckoutOrder> => {
  const { actor, gateway } = options;
  const [user, org] = await Promise.all([
    repo.findUserOfOrg(deps.db, actor.orgId, actor.userId),
    repo.findOrgPayments(deps.db, actor.orgId),
  ]);
  if (!user || !org)
    throw new AppError(AppErrorCode.SESSION_INVALID, 'Your session has ended. Please log in again');
  const orderId = uuidv7();
  const gatewayOrder = await gateway.createOrder({
    amountPaise: options.amountPaise,
    currency: PAYMENT_CURRENCY,
    receipt: orderId,
    notes: { orderId, orgId: String(actor.orgId), purpose: options.purpose },
  });
  await deps.db.transaction(async (tx) => {
    await repo.insertPaymentOrder(tx, {
      id: orderId,
      orgId: actor.orgId,
      userId: actor.userId,
      purpose: options.purpose,
      appType: options.appType ?? null,
      quantity: options.quantity ?? null,
      customerId: options.customerId ?? null,
      amountPaise: options.amountPaise,
      currency: PAYMENT_CURRENCY,
      gatewayOrderId: gatewayOrder.id,
    });
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'payments.order',
      entity: 'payment_order',
      entityId: orderId,
      details: {
        purpose: options.purpose,
        amountPaise: options.amountPaise,
        appType: options.appType ?? null,
        quantity: options.quantity ?? null,
        customerId: options.customerId ?? null,
        gatewayOrderId: gatewayOrder.id,
      },
    });
  });
  return {
    orderId,
    gatewayOrderId: gatewayOrder.id,
    amountPaise: options.amountPaise,
    currency: PAYMENT_CURRENCY,
    keyId: gateway.keyId,
    checkoutScriptUrl: gateway.checkoutScriptUrl,
    name: org.name,
    description: options.description,
    prefill: { name: user.name, contact: user.mobile },
  };
};

/**
 * Buys keys online (paths.payments.create): quotes them (quoteKeyPurchase's errors), creates the
 * gateway order and our order. The keys are credited when the payment is verified
 * (verifyCheckout) or its webhook arrives (handleWebhook), once. Throws PAYMENT_GATEWAY_UNAVAILABLE
 * (503, nothing written) when the gateway does not answer.
 */
export const createKeyOrder = async (
  deps: TPaymentsDeps,
  options: { actor: TActor; request: TPaymentQuoteRequest; requestHostname?: string },
): Promise<TCheckoutOrder> => {
  const quote = await quoteKeyPurchase(deps.db, options.actor, options.request);
  const gateway = await deps.gateways.get(options.requestHostname);
  return openOrder(deps, {
    actor: options.actor,
    gateway,
    purpose: 'keys',
    amountPaise: quote.amountPaise,
    appType: quote.appType,
    quantity: quote.quantity,
    description: `${quote.quantity} ${quote.quantity === 1 ? 'key' : 'keys'}`,
  });
};

/**
 * A customer pays their own loan online (paths.payments.instalment): `customerId` must be one of
 * the customer user's own loans (listMyLoans; another's → 404 CUSTOMER_NOT_FOUND). The amount is
 * `amountPaise`, or by default what is due now (overdue and due today, else the next instalment),
 * and never more than is owed (400 INVALID_PAYMENT naming amountPaise). Throws FORBIDDEN for other
 * user types, PAYMENT_GATEWAY_DISABLED (409) when the flag is off, PAYMENT_GATEWAY_UNAVAILABLE (503).
 */
export const createInstalmentOrder = async (
  deps: TPaymentsDeps,
  options: { actor: TActor; request: TInstalmentOrderRequest; requestHostname?: string },
): Promise<TCheckoutOrder> => {
  const { actor, request } = options;
  if (actor.userType !== 'customer')
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only the customer pays their instalments online');
  const loan = (await listMyLoans(deps.db, actor)).find((l) => l.customerId === request.customerId);
  if (!loan) throw new AppError(AppErrorCode.CUSTOMER_NOT_FOUND, 'Customer not found');
  await requireGatewayOn(deps.db, actor.orgId);
  const owed = loan.totals.outstandingPaise;
  const unpaid = loan.instalments.filter((i) => i.outstandingPaise > 0);
  const dueNow = unpaid
    .filter((i) => i.status === 'overdue' || i.status === 'due_today')
    .reduce((total, i) => total + i.outstandingPaise, 0);
  const amountPaise = request.amountPaise ?? (dueNow > 0 ? dueNow : (unpaid[0]?.outstandingPaise ?? 0));
  if (owed === 0)
    throw new AppError(AppErrorCode.INVALID_PAYMENT, 'Nothing is due on this loan', [
      { field: 'customerId', message: 'Nothing is due on this loan' },
    ]);
  if (amountPaise > owed)
    throw new AppError(AppErrorCode.INVALID_PAYMENT, 'Amount is more than the loan owes', [
      { field: 'amountPaise', message: `At most ${owed} paise is owed` },
    ]);
  if (amountPaise < MIN_GATEWAY_AMOUNT_PAISE)
    throw new AppError(AppErrorCode.INVALID_PAYMENT, 'Pay at least ₹1.00 online', [
      { field: 'amountPaise', message: `At least ${MIN_GATEWAY_AMOUNT_PAISE} paise` },
    ]);
  const gateway = await deps.gateways.get(options.requestHostname);
  return openOrder(deps, {
    actor,
    gateway,
    purpose: 'instalment',
    amountPaise,
    customerId: loan.customerId,
    description: `EMI – ${loan.productName}`,
  });
};

/** The answer for one of our orders (status, amount, keys bought, receipt of an instalment). */
const statusOf = async (db: DbOrTx, order: repo.TPaymentOrderRow): Promise<TPaymentOrderStatus> => {
  const receiptNo = order.paymentId ? await repo.findReceiptNo(db, order.paymentId) : null;
  return {
    orderId: order.id,
    status: order.status,
    purpose: order.purpose,
    amountPaise: order.amountPaise,
    ...(order.appType === null ? {} : { appType: order.appType }),
    ...(order.quantity === null ? {} : { quantity: order.quantity }),
    ...(receiptNo ? { receiptNo } : {}),
  };
};

/**
 * Settles a paid order exactly once, whoever reports it (callback, webhook, reconciliation, or
 * several at once). Keys: in one transaction the order is marked paid (only while 'created') and
 * the keys credited (creditPurchasedKeys, itself once per order), with an audit entry. Instalment:
 * the payment is recorded as a retailer-recorded one (emi recordPayment: receipt, allocation
 * earliest first, paid-off status) with the order id as Idempotency-Key, so two reports record
 * once; then the order is marked paid with its payment, audited, and the auto-lock ladder's
 * unlock runs.
 */
const settleOrder = async (
  deps: TPaymentsDeps,
  order: repo.TPaymentOrderRow,
  gatewayPaymentId: string,
  source: 'callback' | 'webhook' | 'reconcile',
): Promise<void> => {
  if (order.status === 'paid') return;
  const audit = (
    tx: DbOrTx,
    settled:
      | { appType: number; quantity: number; isCredited: boolean }
      | { customerId: number; paymentId: number; receiptNo: string },
  ) =>
    insertAudit(tx, {
      orgId: order.orgId,
      actorUserId: order.userId,
      action: 'payments.paid',
      entity: 'payment_order',
      entityId: order.id,
      details: {
        purpose: order.purpose,
        amountPaise: order.amountPaise,
        gatewayOrderId: order.gatewayOrderId,
        gatewayPaymentId,
        source,
        ...settled,
      },
    });
  if (order.purpose === 'keys') {
    await deps.db.transaction(async (tx) => {
      const marked = await repo.markOrderPaid(tx, order.id, { gatewayPaymentId });
      if (!marked) return;
      const { isCredited } = await creditPurchasedKeys(tx, {
        orgId: order.orgId,
        userId: order.userId,
        appType: order.appType!,
        quantity: order.quantity!,
        paymentOrderId: order.id,
      });
      await audit(tx, { appType: order.appType!, quantity: order.quantity!, isCredited });
    });
    return;
  }
  const customerId = order.customerId!;
  const retailer = await repo.findRetailerOfCustomer(deps.db, order.orgId, customerId);
  if (!retailer) throw new AppError(AppErrorCode.CUSTOMER_NOT_FOUND, 'Customer not found');
  // Recorded for the customer's retailer, as if the shop had taken the money (mode 'online').
  const shop: TActor = {
    userId: retailer.id,
    orgId: order.orgId,
    userType: retailer.userType,
    sessionId: `payment-order:${order.id}`,
  };
  const loan = await getEmiDetails(deps.db, shop, customerId);
  const receipt = await recordPayment(deps, {
    actor: shop,
    request: {
      customer_id: customerId,
      // Every instalment, in a fixed set: allocation skips the paid ones, and a repeat of this
      // payment (the webhook after the callback) has the same request, so the key answers it.
      emi_ids: loan.instalments.map((i) => i.id),
      amountPaise: order.amountPaise,
      mode: 'online',
      reference: gatewayPaymentId,
    },
    idempotencyKey: order.id,
  });
  const marked = await deps.db.transaction(async (tx) => {
    const row = await repo.markOrderPaid(tx, order.id, { gatewayPaymentId, paymentId: receipt.id });
    if (row) await audit(tx, { customerId, paymentId: receipt.id, receiptNo: receipt.receiptNo });
    return row;
  });
  if (!marked) return;
  const { customer, device } = await findCustomerForActor(deps.db, shop, customerId);
  await autoUnlockIfCleared(deps, { orgId: customer.orgId, customerId: customer.id, deviceId: device.id });
};

/**
 * The checkout's success callback (paths.payments.verify): the actor's own order with this gateway
 * order id (another's → 404 NOT_FOUND), whose razorpay_signature must be HMAC-SHA256(key secret,
 * `order_id|payment_id`) (else 400 PAYMENT_SIGNATURE_INVALID, nothing written); then the order is
 * settled once (settleOrder). A repeat answers the same status and credits nothing more.
 */
export const verifyCheckout = async (
  deps: TPaymentsDeps,
  options: { actor: TActor; result: TCheckoutResult },
): Promise<TPaymentOrderStatus> => {
  const { actor, result } = options;
  const order = await repo.findOwnOrderByGatewayId(deps.db, actor, result.razorpay_order_id);
  if (!order) throw notFound();
  const gateway = await deps.gateways.get();
  const isGenuine = gateway.verifyCheckoutSignature({
    // The order id we stored, never one taken from the callback alone.
    orderId: order.gatewayOrderId,
    paymentId: result.razorpay_payment_id,
    signature: result.razorpay_signature,
  });
  if (!isGenuine)
    throw new AppError(AppErrorCode.PAYMENT_SIGNATURE_INVALID, 'The payment could not be verified', [
      { field: 'razorpay_signature', message: 'Signature does not match' },
    ]);
  await settleOrder(deps, order, result.razorpay_payment_id, 'callback');
  return statusOf(deps.db, (await repo.findOrder(deps.db, order.id))!);
};

/** The part of a gateway webhook Kisht reads (Razorpay payment.captured / order.paid). */
const ZWebhookEvent = z.object({
  event: z.string(),
  payload: z.object({
    payment: z
      .object({
        entity: z.object({
          id: z.string(),
          order_id: z.string().nullable().optional(),
          amount: z.number().int(),
          status: z.string().optional(),
        }),
      })
      .optional(),
  }),
});

/** Events that mean the money of an order arrived. */
const PAID_EVENTS = new Set(['payment.captured', 'order.paid']);

/**
 * A gateway webhook (paths.payments.webhook, public): the raw body must carry a good
 * X-Razorpay-Signature (HMAC-SHA256 of the exact bytes under the webhook secret), else 400
 * PAYMENT_SIGNATURE_INVALID. payment.captured and order.paid settle the order once (settleOrder);
 * an unknown order, another event or an amount that is not the order's is acknowledged and ignored.
 */
export const handleWebhook = async (
  deps: TPaymentsDeps,
  options: { rawBody: Buffer; signature: string | undefined },
): Promise<{ outcome: 'settled' | 'ignored' }> => {
  const parsed = verifiedWebhookEvent(await deps.gateways.get(), options, ZWebhookEvent);
  if (!parsed) return { outcome: 'ignored' };
  const payment = parsed.payload.payment?.entity;
  if (!PAID_EVENTS.has(parsed.event) || !payment?.order_id) return { outcome: 'ignored' };
  const order = await repo.findOrderByGatewayId(deps.db, payment.order_id);
  if (!order) return { outcome: 'ignored' };
  if (payment.amount !== order.amountPaise) {
    deps.log.warn({ orderId: order.id, amount: payment.amount }, 'webhook amount differs from the order');
    return { outcome: 'ignored' };
  }
  await settleOrder(deps, order, payment.id, 'webhook');
  return { outcome: 'settled' };
};

/**
 * One of the actor's own orders (paths.payments.status; another's → 404 NOT_FOUND). An order still
 * 'created' is checked with the gateway (its captured payments), so a payment whose callback and
 * webhook were both lost is settled now; a gateway that does not answer leaves it as it is.
 */
export const getOrderStatus = async (
  deps: TPaymentsDeps,
  options: { actor: TActor; orderId: string },
): Promise<TPaymentOrderStatus> => {
  const order = await repo.findOwnOrder(deps.db, options.actor, options.orderId);
  if (!order) throw notFound();
  if (order.status === 'created') {
    try {
      const gateway = await deps.gateways.get();
      const captured = (await gateway.fetchOrderPayments(order.gatewayOrderId)).find(
        (p) => p.status === 'captured' && p.amount === order.amountPaise,
      );
      if (captured) await settleOrder(deps, order, captured.id, 'reconcile');
    } catch (error) {
      if (!(error instanceof AppError && error.code === AppErrorCode.PAYMENT_GATEWAY_UNAVAILABLE))
        throw error;
    }
  }
  return statusOf(deps.db, (await repo.findOrder(deps.db, order.id))!);
};
