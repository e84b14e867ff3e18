import {
  AUTOPAY_FREQUENCY,
  chargesDue,
  defaultMandateMaxPaise,
  isChargeWindowOpen,
  MIN_CHARGE_PAISE,
  mandateExpiry,
  mandateTransition,
  type TMandateEvent,
  type TMandateState,
} from '@kisht/domain/autopay/autopay.rules';
import type {
  TInstalmentQr,
  TInstalmentQrRequest,
  TMandate,
  TSetUpMandateRequest,
} from '@kisht/domain/autopay/autopay.schema';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { formatRupees } from '@kisht/domain/common/format';
import { istDate } from '@kisht/domain/common/time';
import { instalmentReference, parseInstalmentReference } from '@kisht/domain/users/upi';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import type { CommandDispatcher } from '../devices/device-outbox.service';
import { recordPayment } from '../emi/emi.service';
import type { TGatewayProvider } from '../payments/gateway-provider';
import { verifiedWebhookEvent } from '../payments/payment-gateway';
import { findCustomerForActor, isOwnLoanOfCustomerUser } from '../scope/scope.service';
import * as repo from './autopay.repository';

/** What the AutoPay operations need: the database, the device outbox (auto-unlock), the gateway. */
export type TAutopayDeps = {
  db: Db;
  dispatcher: CommandDispatcher;
  gateways: TGatewayProvider;
  log: FastifyBaseLogger;
};

/** The authorisation order's amount, paise: ₹1, the smallest order the gateway takes (docs/autopay.md). */
const AUTHORISATION_AMOUNT_PAISE = MIN_CHARGE_PAISE;

/** How long a charge may wait for its gateway payment before the job asks the gateway, ms. */
const STRANDED_AFTER_MS = 30 * 60_000;

const customerNotFound = () => new AppError(AppErrorCode.CUSTOMER_NOT_FOUND, 'Customer not found');

/**
 * The customer `customerId` as the actor may reach it: a retailer or mini-retailer within its
 * scope (findCustomerForActor), the organisation admin within its organisation, or a customer user
 * for their own loan when `canCustomer`.
 * Throws CUSTOMER_NOT_FOUND (404) outside it (another organisation or retailer subtree included),
 * FORBIDDEN for a customer where only shops may act.
 */
const reachCustomer = async (
  db: DbOrTx,
  actor: TActor,
  customerId: number,
  canCustomer: boolean,
): Promise<{ id: number; orgId: number; name: string; mobile: string; retailerId: number }> => {
  if (actor.userType === 'customer') {
    if (!canCustomer)
      throw new AppError(AppErrorCode.FORBIDDEN, 'Your shop sets up AutoPay; you can see and cancel it');
    const user = await repo.findUser(db, actor.orgId, actor.userId);
    const isOwn =
      user !== null &&
      (await isOwnLoanOfCustomerUser(db, { orgId: actor.orgId, customerId, mobile: user.mobile }));
    if (!isOwn) throw customerNotFound();
  } else if (actor.userType !== 'admin') {
    await findCustomerForActor(db, actor, customerId);
  }
  // The organisation admin (who has no retailer scope) reaches any customer of its organisation.
  const customer = await repo.findCustomer(db, customerId);
  if (!customer || customer.orgId !== actor.orgId) throw customerNotFound();
  return {
    id: customer.id,
    orgId: customer.orgId,
    name: `${customer.firstName} ${customer.lastName}`.trim(),
    mobile: customer.mobile,
    retailerId: customer.retailerId,
  };
};

/** Throws PAYMENT_GATEWAY_DISABLED (409) unless the organisation's paymentGateway flag is on. */
const requireGatewayOn = async (db: DbOrTx, orgId: number) => {
  if (!(await repo.isGatewayOn(db, orgId)))
    throw new AppError(
      AppErrorCode.PAYMENT_GATEWAY_DISABLED,
      'Online payment is not available for your organisation',
    );
};

/** The customer's retailer as the actor a payment is recorded by (as payments does for online payments). */
const shopOf = async (db: DbOrTx, customer: { orgId: number; retailerId: number }, session: string) => {
  const retailer = await repo.findUser(db, customer.orgId, customer.retailerId);
  if (!retailer) throw customerNotFound();
  return {
    userId: retailer.id,
    orgId: customer.orgId,
    userType: retailer.userType,
    sessionId: session,
  } satisfies TActor;
};

/** The answer for a mandate row, with its newest charges. */
const mandateOf = async (db: DbOrTx, row: repo.TMandateRow): Promise<TMandate> => ({
  id: row.id,
  customerId: row.customerId,
  state: row.status,
  maxAmountPaise: row.maxAmountPaise,
  frequency: row.frequency,
  expireAt: row.expireAt.toISOString(),
  authorisationLink: row.status === 'created' ? row.authLink : null,
  endedBy: row.endedBy ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  charges: (await repo.listChargesOfMandate(db, row.id)).map((c) => ({
    ...c,
    receiptNo: c.receiptNo ?? null,
    failureReason: c.failureReason ?? null,
  })),
});

const auditMandate = (
  db: DbOrTx,
  row: repo.TMandateRow,
  move: { event: TMandateEvent | 'set_up'; from: TMandateState | null; by: 'customer' | 'shop' | 'gateway' },
  actorUserId: number | null,
) =>
  insertAudit(db, {
    orgId: row.orgId,
    actorUserId,
    action: 'autopay.mandate',
    entity: 'autopay_mandate',
    entityId: String(row.id),
    details: {
      customerId: row.customerId,
      event: move.event,
      from: move.from,
      to: row.status,
      maxAmountPaise: row.maxAmountPaise,
      by: move.by,
    },
  });

const auditCharge = (db: DbOrTx, row: repo.TChargeRow, receiptNo: string | null = null) =>
  insertAudit(db, {
    orgId: row.orgId,
    actorUserId: null,
    action: 'autopay.charge',
    entity: 'autopay_charge',
    entityId: String(row.id),
    details: {
      customerId: row.customerId,
      emiId: row.emiId,
      attempt: row.attempt,
      amountPaise: row.amountPaise,
      status: row.status,
      gatewayOrderId: row.gatewayOrderId,
      gatewayPaymentId: row.gatewayPaymentId,
      failureReason: row.failureReason,
      receiptNo,
    },
  });

/**
 * The customer's mandate (paths.autopay.mandate GET): the live one, else the newest ended one,
 * else null. Shops within scope and the customer user for their own loan; others' → 404.
 */
export const getMandate = async (
  deps: Pick<TAutopayDeps, 'db'>,
  options: { actor: TActor; customerId: number },
): Promise<TMandate | null> => {
  const customer = await reachCustomer(deps.db, options.actor, options.customerId, true);
  const row = await repo.findNewestMandate(deps.db, customer.id);
  return row ? mandateOf(deps.db, row) : null;
};

/**
 * Sets up UPI AutoPay for a customer (paths.autopay.mandate POST; shops only, a customer user gets
 * 403): at the gateway a customer, the authorisation order with the recurring token (max_amount
 * `maxAmountPaise` or by default the largest instalment owed, expire_at 30 days after the last due
 * date, frequency as_presented) and its UPI intent; then the mandate row (created) and an audit
 * entry. A customer with a live mandate gets it back and nothing is made. Throws CUSTOMER_NOT_FOUND
 * (404) outside the actor's scope, PAYMENT_GATEWAY_DISABLED (409) when the organisation's flag is
 * off, INVALID_PAYMENT (400, customer_id) when nothing is owed, PAYMENT_GATEWAY_UNAVAILABLE (503,
 * nothing written).
 */
export const setUpMandate = async (
  deps: TAutopayDeps,
  options: { actor: TActor; request: TSetUpMandateRequest; requestHostname?: string },
): Promise<TMandate> => {
  const { actor, request } = options;
  const customer = await reachCustomer(deps.db, actor, request.customer_id, false);
  await requireGatewayOn(deps.db, customer.orgId);
  const live = await repo.findLiveMandate(deps.db, customer.id);
  if (live) return mandateOf(deps.db, live);
  const instalments = await repo.listInstalments(deps.db, customer.id);
  const defaultMax = defaultMandateMaxPaise(instalments);
  const lastDue = instalments.at(-1)?.dueDate;
  if (defaultMax === null || !lastDue)
    throw new AppError(AppErrorCode.INVALID_PAYMENT, 'Nothing is due on this loan', [
      { field: 'customer_id', message: 'Nothing is due on this loan' },
    ]);
  const maxAmountPaise = request.maxAmountPaise ?? defaultMax;
  const expireAt = mandateExpiry(lastDue);
  const gateway = await deps.gateways.get(options.requestHostname);
  const notes = { orgId: String(customer.orgId), customerId: String(customer.id), purpose: 'autopay' };
  const gatewayCustomer = await gateway.createCustomer({
    name: customer.name.slice(0, 50) || 'Customer',
    contact: customer.mobile,
    notes,
  });
  const order = await gateway.createMandateOrder({
    amountPaise: AUTHORISATION_AMOUNT_PAISE,
    customerId: gatewayCustomer.id,
    receipt: `autopay-${customer.id}-${Date.now()}`.slice(0, 40),
    notes,
    token: { maxAmountPaise, expireAt, frequency: AUTOPAY_FREQUENCY },
  });
  const intent = await gateway.createMandateIntent({
    orderId: order.id,
    customerId: gatewayCustomer.id,
    amountPaise: AUTHORISATION_AMOUNT_PAISE,
    contact: customer.mobile,
  });
  const row = await deps.db.transaction(async (tx) => {
    const inserted = await repo.insertMandate(tx, {
      orgId: customer.orgId,
      customerId: customer.id,
      maxAmountPaise,
      frequency: AUTOPAY_FREQUENCY,
      expireAt,
      gatewayCustomerId: gatewayCustomer.id,
      authOrderId: order.id,
      authLink: intent.link,
      createdBy: actor.userId,
    });
    if (inserted) await auditMandate(tx, inserted, { event: 'set_up', from: null, by: 'shop' }, actor.userId);
    return inserted;
  });
  // Two set-ups at once: the other one's mandate is the customer's.
  const mandate = row ?? (await repo.findLiveMandate(deps.db, customer.id));
  if (!mandate) throw customerNotFound();
  return mandateOf(deps.db, mandate);
};

/** How long a gateway UPI QR for an instalment stays payable, ms: the gateway closes it after. */
export const INSTALMENT_QR_TTL_MS = 24 * 60 * 60_000;

/**
 * A single-use gateway UPI QR for the customer's oldest unpaid instalment (paths.autopay.instalmentQr
 * POST; issue 29): for exactly what that instalment still owes, its notes carrying the instalment's
 * `tr` reference (instalmentReference) and the organisation, closed by the gateway after
 * INSTALMENT_QR_TTL_MS. Paid, the gateway's `qr_code.credited` records it against that instalment
 * and unlocks the phone (onReferencedPayment). Shops within scope and the customer user for their
 * own loan. Nothing is written here. Throws CUSTOMER_NOT_FOUND (404) outside the actor's scope,
 * PAYMENT_GATEWAY_DISABLED (409) when the organisation's flag is off, NOTHING_DUE (409,
 * customer_id) when nothing is owed, PAYMENT_GATEWAY_UNAVAILABLE (503).
 */
export const createInstalmentQr = async (
  deps: TAutopayDeps,
  options: { actor: TActor; request: TInstalmentQrRequest; requestHostname?: string },
): Promise<TInstalmentQr> => {
  const customer = await reachCustomer(deps.db, options.actor, options.request.customer_id, true);
  await requireGatewayOn(deps.db, customer.orgId);
  const oldest = (await repo.listInstalments(deps.db, customer.id)).find((i) => i.paidPaise < i.amountPaise);
  const owedPaise = oldest ? oldest.amountPaise - oldest.paidPaise : 0;
  if (!oldest || owedPaise < MIN_CHARGE_PAISE)
    throw new AppError(AppErrorCode.NOTHING_DUE, 'Nothing is due on this loan', [
      { field: 'customer_id', message: 'Nothing is due on this loan' },
    ]);
  const reference = instalmentReference(customer.id, oldest.instalmentNo);
  const closeBy = new Date(Date.now() + INSTALMENT_QR_TTL_MS);
  const gateway = await deps.gateways.get(options.requestHostname);
  const qr = await gateway.createUpiQr({
    amountPaise: owedPaise,
    name: customer.name.slice(0, 50) || 'Customer',
    description: `EMI ${oldest.instalmentNo}`,
    closeBy,
    notes: { tr: reference, orgId: String(customer.orgId), customerId: String(customer.id) },
  });
  if (!qr.imageUrl)
    throw new AppError(AppErrorCode.PAYMENT_GATEWAY_UNAVAILABLE, 'The gateway answered no QR image');
  return {
    qrId: qr.id,
    imageUrl: qr.imageUrl,
    instalmentNo: oldest.instalmentNo,
    amountPaise: owedPaise,
    reference,
    closeBy: closeBy.toISOString(),
  };
};

/**
 * Cancels the customer's live mandate (paths.autopay.mandate DELETE): shops within scope, or the
 * customer user for their own. A confirmed token is cancelled at the gateway first (a gateway that
 * does not answer: 503 PAYMENT_GATEWAY_UNAVAILABLE, nothing changed); then the mandate is
 * cancelled (ended by customer or shop) with an audit entry, and is never charged again. With no
 * live mandate nothing changes and the newest one is answered as it stands (or null): a repeated
 * cancel is harmless. Throws CUSTOMER_NOT_FOUND (404) outside scope.
 */
export const cancelMandate = async (
  deps: TAutopayDeps,
  options: { actor: TActor; customerId: number },
): Promise<TMandate | null> => {
  const { actor } = options;
  const customer = await reachCustomer(deps.db, actor, options.customerId, true);
  const live = await repo.findLiveMandate(deps.db, customer.id);
  if (!live) {
    const newest = await repo.findNewestMandate(deps.db, customer.id);
    return newest ? mandateOf(deps.db, newest) : null;
  }
  if (live.tokenId) {
    const gateway = await deps.gateways.get();
    await gateway.cancelToken(live.gatewayCustomerId, live.tokenId);
  }
  const by = actor.userType === 'customer' ? 'customer' : 'shop';
  await deps.db.transaction(async (tx) => {
    const moved = await repo.moveMandate(tx, live.id, live.status, 'cancelled', {
      endedBy: by,
      endReason: `cancelled by the ${by}`,
    });
    if (moved) await auditMandate(tx, moved, { event: 'cancelled', from: live.status, by }, actor.userId);
  });
  return mandateOf(deps.db, (await repo.findNewestMandate(deps.db, customer.id))!);
};

/**
 * Records a captured charge once: the payment goes through emi recordPayment as an online payment
 * by the customer's retailer (receipt, allocation earliest first over all the customer's
 * instalments, audit) with `autopay:<charge id>` as its Idempotency-Key and autoUnlock, so a
 * repeated webhook records once; then the charge is marked captured with its payment. A loan that
 * no longer owes the amount (paid meanwhile) keeps the charge captured with the reason, for a
 * refund by hand.
 */
/**
 * What a captured debit comes to when the loan owed less than it (the customer paid at the shop
 * after the charge was made): what the loan owes is recorded, the rest refunded at the gateway once
 * (X-Refund-Idempotency `autopay-refund-<charge id>`). Answers the words kept on the charge, or
 * null when nothing was refunded. A refund the gateway refuses or cannot take now is logged as an
 * error and said on the charge, for a person to refund from the gateway's dashboard.
 */
const refundExcess = async (
  deps: TAutopayDeps,
  charge: repo.TChargeRow,
  gatewayPaymentId: string,
  excessPaise: number,
): Promise<string | null> => {
  if (excessPaise <= 0) return null;
  const amount = formatRupees(excessPaise);
  if (excessPaise < MIN_CHARGE_PAISE) return `${amount} more than the loan owed; too little to refund`;
  try {
    const refund = await (await deps.gateways.get()).refundPayment({
      paymentId: gatewayPaymentId,
      amountPaise: excessPaise,
      idempotencyKey: `autopay-refund-${charge.id}`,
      notes: { orgId: String(charge.orgId), customerId: String(charge.customerId), reason: 'more than owed' },
    });
    deps.log.warn(
      { chargeId: charge.id, refundId: refund.refundId, excessPaise },
      'AutoPay debit refunded in part',
    );
    return `Refunded ${amount}: the loan owed less than the debit (${refund.refundId})`;
  } catch (error) {
    deps.log.error(
      { chargeId: charge.id, err: error, excessPaise },
      'AutoPay debit over what was owed not refunded',
    );
    return `${amount} more than the loan owed; refund it from the gateway's dashboard`;
  }
};

const captureCharge = async (deps: TAutopayDeps, charge: repo.TChargeRow, gatewayPaymentId: string) => {
  const customer = await repo.findCustomer(deps.db, charge.customerId);
  if (!customer) return;
  const shop = await shopOf(deps.db, customer, `autopay-charge:${charge.id}`);
  const instalments = await repo.listInstalments(deps.db, customer.id);
  const owedPaise = instalments.reduce((total, i) => total + Math.max(0, i.amountPaise - i.paidPaise), 0);
  const recordPaise = Math.min(charge.amountPaise, owedPaise);
  let receipt: { id: number; receiptNo: string } | null = null;
  let failureReason: string | null = null;
  try {
    if (recordPaise > 0)
      receipt = await recordPayment(deps, {
        actor: shop,
        request: {
          customer_id: customer.id,
          emi_ids: instalments.map((i) => i.id),
          amountPaise: recordPaise,
          mode: 'online',
          reference: gatewayPaymentId,
        },
        idempotencyKey: `autopay:${charge.id}`,
        autoUnlock: true,
      });
    failureReason = await refundExcess(deps, charge, gatewayPaymentId, charge.amountPaise - recordPaise);
  } catch (error) {
    // A shop payment recorded between the read above and this one left less owed: nothing is
    // recorded and the whole debit is refunded.
    if (!(error instanceof AppError && error.code === AppErrorCode.INVALID_PAYMENT)) throw error;
    deps.log.error({ chargeId: charge.id, err: error }, 'AutoPay charge captured but not recorded');
    receipt = null;
    failureReason = await refundExcess(deps, charge, gatewayPaymentId, charge.amountPaise);
  }
  await deps.db.transaction(async (tx) => {
    const settled = await repo.settleCharge(tx, charge.id, {
      status: 'captured',
      gatewayPaymentId,
      paymentId: receipt?.id ?? null,
      failureReason: failureReason?.slice(0, 200) ?? null,
    });
    if (settled) await auditCharge(tx, settled, receipt?.receiptNo ?? null);
  });
};

/** Marks a charge failed once (the retry rule then decides the next attempt), with an audit entry. */
const failCharge = async (
  deps: TAutopayDeps,
  charge: repo.TChargeRow,
  gatewayPaymentId: string | null,
  reason: string,
) => {
  await deps.db.transaction(async (tx) => {
    const settled = await repo.settleCharge(tx, charge.id, {
      status: 'failed',
      gatewayPaymentId,
      failureReason: reason.slice(0, 200),
    });
    if (settled) await auditCharge(tx, settled);
  });
};

/**
 * Creates one charge: claims the (instalment, attempt) row first (unique: two runs or two
 * processes claim once), then the gateway order and the recurring payment. A gateway that takes no
 * order gives the claim back (the next run tries again); once the order exists the charge stays
 * and is reconciled (reconcileStrandedCharges), so a lost answer never becomes a second debit.
 */
const createCharge = async (
  deps: TAutopayDeps,
  mandate: repo.TMandateRow,
  due: { emiId: number; attempt: number; amountPaise: number; instalmentNo: number },
  now: Date,
): Promise<boolean> => {
  const charge = await repo.claimCharge(deps.db, {
    orgId: mandate.orgId,
    mandateId: mandate.id,
    customerId: mandate.customerId,
    emiId: due.emiId,
    attempt: due.attempt,
    amountPaise: due.amountPaise,
    chargeDate: istDate(now),
    // The run's instant, not the database's clock: reconciliation measures "stranded" from it, so
    // a run as of another instant (the job clock, tests) never takes a charge another run is
    // still making for stranded.
    createdAt: now,
  });
  if (!charge) return false;
  const gateway = await deps.gateways.get();
  const reference = instalmentReference(mandate.customerId, due.instalmentNo);
  const notes = {
    orgId: String(mandate.orgId),
    chargeId: String(charge.id),
    purpose: 'autopay',
    tr: reference,
  };
  let orderId: string;
  try {
    orderId = (
      await gateway.createOrder({
        amountPaise: due.amountPaise,
        currency: 'INR',
        receipt: `autopay-${charge.id}`,
        notes,
        paymentCapture: true,
      })
    ).id;
  } catch (error) {
    await repo.releaseCharge(deps.db, charge.id);
    throw error;
  }
  await repo.setChargeGatewayIds(deps.db, charge.id, { gatewayOrderId: orderId });
  const customer = await repo.findCustomer(deps.db, mandate.customerId);
  const { paymentId } = await gateway.createRecurringPayment({
    orderId,
    customerId: mandate.gatewayCustomerId,
    tokenId: mandate.tokenId!,
    amountPaise: due.amountPaise,
    contact: customer?.mobile ?? '',
    description: `EMI ${due.instalmentNo} (${reference})`,
    notes,
  });
  await deps.db.transaction(async (tx) => {
    await repo.setChargeGatewayIds(tx, charge.id, { gatewayPaymentId: paymentId });
    await auditCharge(tx, { ...charge, gatewayOrderId: orderId, gatewayPaymentId: paymentId });
  });
  return true;
};

/**
 * Charges whose order was made but whose payment's answer was lost: asked of the gateway (the
 * order's payments); captured → recorded, failed → failed, none after STRANDED_AFTER_MS → failed
 * ("no payment"), so the retry rule takes over.
 */
const reconcileStrandedCharges = async (deps: TAutopayDeps, now: Date) => {
  const stranded = await repo.listStrandedCharges(deps.db, new Date(now.getTime() - STRANDED_AFTER_MS));
  if (stranded.length === 0) return;
  const gateway = await deps.gateways.get();
  for (const charge of stranded) {
    const found = await gateway.fetchOrderPayments(charge.gatewayOrderId!);
    const captured = found.find((p) => p.status === 'captured' && p.amount === charge.amountPaise);
    if (captured) await captureCharge(deps, charge, captured.id);
    else if (found.every((p) => p.status === 'failed'))
      await failCharge(deps, charge, found[0]?.id ?? null, found.length ? 'payment failed' : 'no payment');
  }
};

/**
 * The "autopay charges" job (docs/autopay.md): in the charge window (09:00–21:00 +05:30) of `now`,
 * for every active mandate, creates the charges autopay.rules chargesDue names (an instalment due
 * today, or a retry of a failed one), each once; marks mandates past expire_at expired; reconciles
 * stranded charges. A charge the gateway refuses is logged and left to the next run. Answers how
 * many charges it created.
 */
export const runAutopayCharges = async (deps: TAutopayDeps, now: Date = new Date()): Promise<number> => {
  for (const expired of await repo.listExpiredMandates(deps.db, now)) {
    await deps.db.transaction(async (tx) => {
      const moved = await repo.moveMandate(tx, expired.id, expired.status, 'expired', {
        endedBy: 'gateway',
        endReason: 'past expire_at',
      });
      if (moved)
        await auditMandate(tx, moved, { event: 'expired', from: expired.status, by: 'gateway' }, null);
    });
  }
  if (!isChargeWindowOpen(now)) return 0;
  const today = istDate(now);
  let created = 0;
  for (const mandate of await repo.listActiveMandates(deps.db)) {
    if (!mandate.tokenId) continue;
    const [instalments, attempts] = await Promise.all([
      repo.listInstalments(deps.db, mandate.customerId),
      repo.listAttempts(deps.db, mandate.customerId),
    ]);
    const due = chargesDue({
      today,
      mandate: { state: mandate.status, maxAmountPaise: mandate.maxAmountPaise },
      instalments,
      attempts,
    });
    for (const charge of due) {
      const instalmentNo = instalments.find((i) => i.id === charge.emiId)!.instalmentNo;
      try {
        if (await createCharge(deps, mandate, { ...charge, instalmentNo }, now)) created += 1;
      } catch (error) {
        deps.log.warn(
          { mandateId: mandate.id, emiId: charge.emiId, err: error },
          'AutoPay charge not created',
        );
      }
    }
  }
  try {
    await reconcileStrandedCharges(deps, now);
  } catch (error) {
    deps.log.warn({ err: error }, 'AutoPay reconciliation skipped');
  }
  return created;
};

/** The part of a gateway webhook AutoPay reads (Razorpay token.*, payment.*, qr_code.credited). */
const ZNotes = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional();
const ZAutopayEvent = z.object({
  event: z.string(),
  payload: z.object({
    token: z
      .object({ entity: z.object({ id: z.string(), customer_id: z.string().nullable().optional() }) })
      .optional(),
    payment: z
      .object({
        entity: z.object({
          id: z.string(),
          order_id: z.string().nullable().optional(),
          amount: z.number().int(),
          token_id: z.string().nullable().optional(),
          notes: ZNotes,
          description: z.string().nullable().optional(),
          error_description: z.string().nullable().optional(),
          error_reason: z.string().nullable().optional(),
        }),
      })
      .optional(),
    qr_code: z.object({ entity: z.object({ id: z.string(), notes: ZNotes }) }).optional(),
  }),
});
type TAutopayEvent = z.infer<typeof ZAutopayEvent>;

/** What a token event does to a mandate in a state (resumed: a paused mandate confirmed again). */
const TOKEN_EVENTS: Record<string, (from: TMandateState) => TMandateEvent> = {
  'token.confirmed': (from) => (from === 'paused' ? 'resumed' : 'confirmed'),
  'token.rejected': () => 'rejected',
  'token.paused': () => 'paused',
  'token.cancelled': () => 'cancelled',
};

const noteOf = (notes: z.infer<typeof ZNotes>, key: string): string | null => {
  if (!notes || Array.isArray(notes)) return null;
  const value = notes[key];
  return typeof value === 'string' ? value : null;
};

/**
 * Moves a mandate by a token event along the transition table once (recording the token), with an
 * audit entry; an illegal move or a repeat is ignored.
 */
const applyTokenEvent = async (
  deps: TAutopayDeps,
  mandate: repo.TMandateRow,
  gatewayEvent: string,
  tokenId: string,
): Promise<'applied' | 'ignored'> => {
  const toEvent = TOKEN_EVENTS[gatewayEvent];
  if (!toEvent) return 'ignored';
  const event = toEvent(mandate.status);
  const to = mandateTransition(mandate.status, event);
  if (!to || (to === mandate.status && mandate.tokenId === tokenId)) return 'ignored';
  const isEnd = to === 'cancelled' || to === 'rejected';
  const moved = await deps.db.transaction(async (tx) => {
    const row = await repo.moveMandate(tx, mandate.id, mandate.status, to, {
      tokenId,
      ...(isEnd
        ? {
            endedBy: to === 'cancelled' ? ('customer' as const) : ('gateway' as const),
            endReason: gatewayEvent,
          }
        : {}),
    });
    if (row)
      await auditMandate(
        tx,
        row,
        { event, from: mandate.status, by: to === 'rejected' ? 'gateway' : 'customer' },
        null,
      );
    return row;
  });
  return moved ? 'applied' : 'ignored';
};

/**
 * A token event: its mandate is the one holding the token, else the only one of the gateway
 * customer still waiting without a token (never a guess between two).
 */
const onTokenEvent = async (deps: TAutopayDeps, parsed: TAutopayEvent) => {
  const token = parsed.payload.token?.entity;
  if (!token || !TOKEN_EVENTS[parsed.event]) return 'ignored' as const;
  const mandate =
    (await repo.findMandateByToken(deps.db, token.id)) ??
    (token.customer_id
      ? await repo.findOnlyWaitingMandateOfGatewayCustomer(deps.db, token.customer_id)
      : null);
  if (!mandate) return 'ignored' as const;
  return applyTokenEvent(deps, mandate, parsed.event, token.id);
};

/**
 * The authorisation payment of a mandate was captured: its `token_id` is the mandate's token, and
 * the token's status is read from the gateway (GET /v1/customers/{id}/tokens), so a mandate whose
 * token.confirmed could not be placed (or was lost) is activated all the same.
 */
const onAuthorisationPayment = async (deps: TAutopayDeps, mandate: repo.TMandateRow, tokenId: string) => {
  await repo.setMandateToken(deps.db, mandate.id, tokenId);
  const gateway = await deps.gateways.get();
  const token = (await gateway.fetchTokens(mandate.gatewayCustomerId)).find((t) => t.id === tokenId);
  const status = token?.recurring_details?.status;
  const gatewayEvent =
    status === 'confirmed'
      ? 'token.confirmed'
      : status === 'rejected'
        ? 'token.rejected'
        : status === 'paused'
          ? 'token.paused'
          : status === 'cancelled'
            ? 'token.cancelled'
            : null;
  const fresh = await repo.findMandateByAuthOrder(deps.db, mandate.authOrderId);
  if (!gatewayEvent || !fresh) return 'applied' as const;
  await applyTokenEvent(deps, fresh, gatewayEvent, tokenId);
  return 'applied' as const;
};

/**
 * A payment carrying an instalment reference `tr` (KSH<customer>I<instalment>, upi.ts) in its or
 * its QR code's notes: recorded against that instalment once (Idempotency-Key `upi-tr:<payment
 * id>`, autoUnlock) by the customer's retailer. An unknown reference, another organisation's, or an
 * amount below ₹1 or above what the instalment owes is ignored.
 */
const onReferencedPayment = async (
  deps: TAutopayDeps,
  payment: NonNullable<TAutopayEvent['payload']['payment']>['entity'],
  notes: z.infer<typeof ZNotes>[],
) => {
  const reference = notes.map((n) => noteOf(n, 'tr')).find((r) => r !== null) ?? null;
  const parsedRef = reference ? parseInstalmentReference(reference) : null;
  if (!parsedRef) return 'ignored' as const;
  const customer = await repo.findCustomer(deps.db, parsedRef.customerId);
  const orgNote = notes.map((n) => noteOf(n, 'orgId')).find((r) => r !== null);
  if (!customer || (orgNote && orgNote !== String(customer.orgId))) return 'ignored' as const;
  const instalment = await repo.findInstalment(deps.db, customer.id, parsedRef.instalmentNo);
  if (!instalment) return 'ignored' as const;
  const owed = instalment.amountPaise - instalment.paidPaise;
  if (payment.amount < MIN_CHARGE_PAISE || payment.amount > owed) {
    deps.log.warn(
      { reference, amount: payment.amount, owed },
      'referenced payment amount does not fit its instalment',
    );
    return 'ignored' as const;
  }
  const shop = await shopOf(deps.db, customer, `upi-reference:${payment.id}`);
  await recordPayment(deps, {
    actor: shop,
    request: {
      customer_id: customer.id,
      emi_ids: [instalment.id],
      amountPaise: payment.amount,
      mode: 'online',
      reference: `${reference} ${payment.id}`.slice(0, 80),
    },
    idempotencyKey: `upi-tr:${payment.id}`,
    autoUnlock: true,
  });
  return 'applied' as const;
};

/**
 * The AutoPay webhook (paths.autopay.webhook, public): X-Razorpay-Signature must be the HMAC of the
 * raw body under the webhook secret (else 400 PAYMENT_SIGNATURE_INVALID). token.confirmed /
 * rejected / paused / cancelled move the mandate (a customer's cancellation in their UPI app is
 * honoured: no charge after it); payment.captured / payment.failed of a charge record it once or
 * mark it failed; payment.captured of the authorisation order notes the token; qr_code.credited,
 * or a payment.captured of no known order, carrying an instalment reference `tr` is recorded
 * against that instalment. Everything else is acknowledged and ignored.
 */
export const handleAutopayWebhook = async (
  deps: TAutopayDeps,
  options: { rawBody: Buffer; signature: string | undefined },
): Promise<{ outcome: 'applied' | 'ignored' }> => {
  const parsed = verifiedWebhookEvent(await deps.gateways.get(), options, ZAutopayEvent);
  if (!parsed) return { outcome: 'ignored' };
  if (parsed.event.startsWith('token.')) return { outcome: await onTokenEvent(deps, parsed) };
  const payment = parsed.payload.payment?.entity;
  if (!payment) return { outcome: 'ignored' };
  if (parsed.event === 'qr_code.credited')
    return {
      outcome: await onReferencedPayment(deps, payment, [
        parsed.payload.qr_code?.entity.notes,
        payment.notes,
      ]),
    };
  if (parsed.event !== 'payment.captured' && parsed.event !== 'payment.failed') return { outcome: 'ignored' };
  const charge = payment.order_id ? await repo.findChargeByGatewayOrder(deps.db, payment.order_id) : null;
  if (charge) {
    if (payment.amount !== charge.amountPaise) {
      deps.log.warn(
        { chargeId: charge.id, amount: payment.amount },
        'webhook amount differs from the charge',
      );
      return { outcome: 'ignored' };
    }
    if (parsed.event === 'payment.captured') await captureCharge(deps, charge, payment.id);
    else
      await failCharge(
        deps,
        charge,
        payment.id,
        payment.error_description ?? payment.error_reason ?? 'payment failed',
      );
    return { outcome: 'applied' };
  }
  const authorised = payment.order_id ? await repo.findMandateByAuthOrder(deps.db, payment.order_id) : null;
  if (authorised) {
    if (parsed.event !== 'payment.captured' || !payment.token_id) return { outcome: 'ignored' };
    return { outcome: await onAuthorisationPayment(deps, authorised, payment.token_id) };
  }
  if (parsed.event === 'payment.captured')
    return { outcome: await onReferencedPayment(deps, payment, [payment.notes]) };
  return { outcome: 'ignored' };
};
