import { createHash, randomInt } from 'node:crypto';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { addDays, istDate, istMonthStart } from '@kisht/domain/common/time';
import { commandSpecOf } from '@kisht/domain/devices/command-catalogue';
import type { TDeviceCommand } from '@kisht/domain/devices/devices.schema';
import {
  allocatePayment,
  buildEmiSchedule,
  instalmentStatus,
  outstandingPaise,
  penaltyDuePaise,
  receiptNumber,
} from '@kisht/domain/emi/emi.rules';
import type {
  TCustomerEmiPin,
  TEmiDetails,
  TInstalmentRow,
  TPayment,
  TPaymentReceipt,
  TPenaltyRule,
  TRecordedPaymentMode,
  TTotalOutstanding,
  TUpcomingEmiCounts,
  TUpcomingEmiPage,
  ZEditEmiTermsRequest,
  ZRecordPaymentRequest,
  ZSendEmiAlertRequest,
  ZSendPenaltyRequest,
  ZUpcomingEmiQuery,
  ZUpdateEmiStatusRequest,
} from '@kisht/domain/emi/emi.schema';
import { IDEMPOTENCY_KEY_HEADER } from '@kisht/domain/emi/idempotency-key';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import { markLoanCompleted } from '../customers/customers.service';
import { autoUnlockIfCleared } from '../devices/auto-lock.service';
import { loadTargetForActor, sendOneShotCommand } from '../devices/control-commands.service';
import { accessFlagsFor, parseCommandArgs } from '../devices/devices.service';
import { refreshPaidThrough } from '../devices/paid-through.service';
import {
  freePhoneOnPayoff,
  publishAfterCommit,
  type TGateDeps,
  type TGateOutcome,
} from '../devices/payoff.service';
import { notifyAboutCustomer } from '../notifications/notifications.service';
import { getPenaltyRule } from '../orgs/orgs.service';
import { findCustomerForActor, scopeOf } from '../scope/scope.service';
import { enqueueSubscribedWebhookEvents, enqueueWebhookEvent } from '../webhooks/webhooks.service';
import * as repo from './emi.repository';

/**
 * An instalment row with today's status, what is still owed, and the penalty the organisation's
 * rule would levy today.
 */
export const toInstalmentRow = (emi: repo.EmiRow, today: string, rule: TPenaltyRule): TInstalmentRow => ({
  id: emi.id,
  instalmentNo: emi.instalmentNo,
  dueDate: emi.dueDate,
  amountPaise: emi.amountPaise,
  principalPaise: emi.principalPaise,
  interestPaise: emi.interestPaise,
  paidPaise: emi.paidPaise,
  outstandingPaise: outstandingPaise(emi),
  status: instalmentStatus(emi, today),
  penaltyPaise: emi.penaltyPaise,
  waivedPaise: emi.waivedPaise,
  penaltyDuePaise: penaltyDuePaise(emi, rule, today),
});

/** Totals of a schedule: amount, paid, outstanding and overdue (paise). */
export const scheduleTotals = (rows: TInstalmentRow[]) => ({
  amountPaise: rows.reduce((t, r) => t + r.amountPaise, 0),
  paidPaise: rows.reduce((t, r) => t + r.paidPaise, 0),
  outstandingPaise: rows.reduce((t, r) => t + r.outstandingPaise, 0),
  overduePaise: rows.filter((r) => r.status === 'overdue').reduce((t, r) => t + r.outstandingPaise, 0),
});

const toPayment = (row: Awaited<ReturnType<typeof repo.findPaymentsOfCustomer>>[number]): TPayment => ({
  id: row.payment.id,
  receiptNo: row.payment.receiptNo,
  amountPaise: row.payment.amountPaise,
  mode: row.payment.mode as TPayment['mode'],
  reference: row.payment.reference,
  receivedAt: row.payment.receivedAt.toISOString(),
  recordedByName: row.recordedByName,
  allocations: row.allocations.map((a) => ({ instalmentNo: a.instalmentNo, amountPaise: a.amountPaise })),
});

/**
 * emi_details: a customer's schedule with paid, outstanding and status per instalment, the totals
 * and the payments. Throws CUSTOMER_NOT_FOUND outside the actor's scope.
 */
export const getEmiDetails = async (db: DbOrTx, actor: TActor, customerId: number): Promise<TEmiDetails> => {
  const { customer } = await findCustomerForActor(db, actor, customerId);
  const today = istDate();
  const [emiRows, paymentRows, rule] = await Promise.all([
    repo.findEmisOfCustomer(db, customer.id),
    repo.findPaymentsOfCustomer(db, customer.id),
    getPenaltyRule(db, actor),
  ]);
  const instalments = emiRows.map((e) => toInstalmentRow(e, today, rule));
  return {
    customerId: customer.id,
    customerName: `${customer.firstName} ${customer.lastName}`,
    customerStatus: customer.status,
    instalments,
    totals: scheduleTotals(instalments),
    payments: paymentRows.map(toPayment),
  };
};

/**
 * A payment to record: a multiple_emi_paid request, whose mode may also be 'online' when the server
 * records a payment the customer made through the payment gateway (modules/payments).
 */
/**
 * A payment to record: the request of record_payment, its mode any recorded one; `emi_ids` may be
 * `'all'` (the partner API: the loan's oldest unpaid instalments first, without reading their ids).
 */
export type TPaymentToRecord = Omit<z.output<typeof ZRecordPaymentRequest>, 'mode' | 'emi_ids'> & {
  mode: TRecordedPaymentMode;
  emi_ids: number[] | 'all';
};

/**
 * SHA-256 (hex) of a payment request in canonical form, stored with its Idempotency-Key: the user
 * who sent it and the request's fields in a fixed order, instalments sorted and deduplicated, a
 * blank reference as none. So the same payment sent again matches whatever the order of its JSON,
 * and anything that changes what is recorded does not.
 */
const paymentFingerprint = (actor: TActor, request: TPaymentToRecord): string => {
  const canonical = JSON.stringify([
    actor.userId,
    request.customer_id,
    request.emi_ids === 'all' ? 'all' : [...new Set(request.emi_ids)].sort((a, b) => a - b),
    request.amountPaise,
    request.mode,
    request.reference || null,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
};

/** A payment's receipt, with the customer's status now. */
const receiptOf = async (
  db: Db,
  actor: TActor,
  customerId: number,
  paymentId: number,
): Promise<TPaymentReceipt> => {
  const payments = await repo.findPaymentsOfCustomer(db, customerId);
  const receipt = payments.find((p) => p.payment.id === paymentId)!;
  const { customer } = await findCustomerForActor(db, actor, customerId);
  return { ...toPayment(receipt), customerStatus: customer.status };
};

/** Idempotency-Key and request fingerprint of a payment. */
type TPaymentKey = { key: string; fingerprint: string };

/**
 * The answer to a payment whose Idempotency-Key the organisation already holds: the first
 * payment's receipt when the request is the same, else IDEMPOTENCY_KEY_REUSED (422). Null when the
 * key is not held.
 */
const answerRepeat = async (
  db: Db,
  options: { actor: TActor; orgId: number; key: TPaymentKey },
): Promise<TPaymentReceipt | null> => {
  const held = await repo.findPaymentByIdempotencyKey(db, options.orgId, options.key.key);
  if (!held) return null;
  if (held.idempotencyFingerprint !== options.key.fingerprint) {
    throw new AppError(
      AppErrorCode.IDEMPOTENCY_KEY_REUSED,
      'This Idempotency-Key was used for a different payment; send a new key for a new payment',
      [{ field: IDEMPOTENCY_KEY_HEADER, message: 'Already used for a different payment' }],
    );
  }
  return receiptOf(db, options.actor, held.customerId, held.id);
};

/** Thrown inside the payment's transaction to roll it back when the key turns out to be held. */
class KeyAlreadyHeld extends Error {}

/**
 * Records a payment (multiple_emi_paid): in one transaction the chosen instalments are locked, the
 * amount applied earliest first (allocatePayment), the payment with the organisation's next receipt
 * number (org_counters 'receipt', `KR-{orgId}-{000001}`), its allocations and an audit entry
 * written, and a `payment_received` notification to the retailer(s) and the customer user; when
 * nothing is left unpaid the customer moves to EMIs completed (5).
 * With an `idempotencyKey` (the request's Idempotency-Key, per organisation) a repeat of the same
 * request answers the first receipt and writes nothing; two at once record once (the key is
 * checked again under the instalments' locks, and payments_org_idempotency_uq settles the rest).
 * Throws CUSTOMER_NOT_FOUND outside scope, NOT_FOUND (naming emi_ids) for instalments not of this
 * customer, INVALID_PAYMENT for an amount above what they owe, IDEMPOTENCY_KEY_REUSED (422) for the key with another request.
 */
export const recordPayment = async (
  deps: TGateDeps,
  options: {
    actor: TActor;
    request: TPaymentToRecord;
    idempotencyKey?: string | undefined;
    /** After commit, unlock the phone when nothing is overdue any more (auto-lock ladder autoUnlock). */
    autoUnlock?: boolean | undefined;
  },
): Promise<TPaymentReceipt> => {
  const { db } = deps;
  const { actor, request } = options;
  const { customer, device } = await findCustomerForActor(db, actor, request.customer_id);
  const orgId = customer.orgId;
  let payoff: TGateOutcome | null = null;
  const key = options.idempotencyKey
    ? { key: options.idempotencyKey, fingerprint: paymentFingerprint(actor, request) }
    : null;
  if (key) {
    const repeat = await answerRepeat(db, { actor, orgId, key });
    if (repeat) return repeat;
  }
  const emiIds = request.emi_ids === 'all' ? 'all' : [...new Set(request.emi_ids)];
  let written: {
    payment: NonNullable<Awaited<ReturnType<typeof repo.insertPayment>>>;
    isPaidOff: boolean;
    allocations: { paymentId: number; amountPaise: number; instalmentNo: number }[];
  };
  try {
    written = await db.transaction(async (tx) => {
      const chosen = await repo.lockEmis(tx, customer.id, emiIds);
      // A request with the same key may have committed while we waited for the instalments.
      if (key && (await repo.findPaymentByIdempotencyKey(tx, orgId, key.key))) throw new KeyAlreadyHeld();
      if (emiIds !== 'all' && chosen.length !== emiIds.length) {
        // Another customer's or tenant's instalment is not there for this payment: 404 (design §6).
        throw new AppError(AppErrorCode.NOT_FOUND, 'Instalment not found for this customer', [
          { field: 'emi_ids', message: 'Some instalments do not belong to this customer' },
        ]);
      }
      const allocations = allocatePayment(chosen, request.amountPaise);
      const payment = await repo.insertPayment(tx, {
        orgId,
        customerId: customer.id,
        receiptNo: receiptNumber(orgId, await repo.takeReceiptSeq(tx, orgId)),
        amountPaise: request.amountPaise,
        mode: request.mode,
        reference: request.reference || null,
        recordedBy: actor.userId,
        idempotencyKey: key?.key ?? null,
        idempotencyFingerprint: key?.fingerprint ?? null,
      });
      if (!payment) throw new KeyAlreadyHeld();
      const { unpaid, settled } = await repo.applyAllocations(tx, {
        paymentId: payment.id,
        customerId: customer.id,
        allocations: allocations.map((a) => ({ emiId: a.instalmentId, amountPaise: a.amountPaise })),
      });
      await enqueueSubscribedWebhookEvents(db, tx, [
        {
          orgId,
          type: 'payment.recorded',
          orderingKey: `customer:${customer.id}`,
          data: {
            customerId: customer.id,
            paymentId: payment.id,
            receiptNo: payment.receiptNo,
            amountPaise: request.amountPaise,
            mode: request.mode,
            reference: request.reference || null,
          },
        },
      ]);
      const isPaidOff = unpaid === 0;
      if (isPaidOff)
        payoff = await completeLoan(tx, { orgId, customerId: customer.id, actorUserId: actor.userId });
      // A payment that settles an instalment moves the phone's paid-through date (issue 29, the
      // oldest unpaid due date) with a new policy version; one that settles none cannot move it.
      else if (device.enrolledAt && settled > 0)
        payoff = await refreshPaidThrough(tx, [device.id], deps.dispatcher.liveChannels);
      await notifyAboutCustomer(tx, {
        orgId,
        customerId: customer.id,
        kind: 'payment_received',
        params: { amountPaise: request.amountPaise, receiptNo: payment.receiptNo },
        dedupeKey: `payment:${payment.id}`,
      });
      await insertAudit(tx, {
        orgId,
        actorUserId: actor.userId,
        action: 'emi.payment',
        entity: 'customer',
        entityId: String(customer.id),
        details: {
          paymentId: payment.id,
          receiptNo: payment.receiptNo,
          amountPaise: request.amountPaise,
          mode: request.mode,
          allocations,
          isPaidOff,
        },
      });
      const instalmentNo = new Map(chosen.map((e) => [e.id, e.instalmentNo]));
      return {
        payment,
        isPaidOff,
        allocations: allocations.map((a) => ({
          paymentId: payment.id,
          amountPaise: a.amountPaise,
          instalmentNo: instalmentNo.get(a.instalmentId)!,
        })),
      };
    });
  } catch (error) {
    if (!(error instanceof KeyAlreadyHeld) || !key) throw error;
    const repeat = await answerRepeat(db, { actor, orgId, key });
    if (!repeat) throw new AppError(AppErrorCode.INTERNAL, 'The payment could not be recorded');
    return repeat;
  }
  if (payoff) await publishAfterCommit(deps.dispatcher, payoff);
  if (options.autoUnlock) {
    await autoUnlockIfCleared(deps, { orgId, customerId: customer.id, deviceId: device.id }, { actor });
  }
  // The receipt from what the transaction wrote; a payoff changed the status, so that one is read.
  const recorder = actor.known?.user;
  if (written.isPaidOff || !recorder || recorder.id !== actor.userId)
    return receiptOf(db, actor, customer.id, written.payment.id);
  return {
    ...toPayment({
      payment: written.payment,
      recordedByName: recorder.name,
      allocations: written.allocations,
    }),
    customerStatus: customer.status,
  };
};

/**
 * A loan paid off (by a payment or a waiver), in that transaction: the customer moves to EMIs
 * completed (5) and, as the same event, the phone is freed through the command gate
 * (freePhoneOnPayoff: every restriction off, no offline limit, pending restrictions cancelled);
 * the lender's webhooks hear `loan.completed`. Returns what to publish after commit.
 */
const completeLoan = async (
  tx: DbOrTx,
  loan: { orgId: number; customerId: number; actorUserId: number },
): Promise<TGateOutcome | null> => {
  const isCompleted = await markLoanCompleted(tx, loan.orgId, loan.customerId, loan.actorUserId);
  if (!isCompleted) return null;
  await enqueueWebhookEvent(tx, {
    orgId: loan.orgId,
    type: 'loan.completed',
    orderingKey: `customer:${loan.customerId}`,
    data: { customerId: loan.customerId },
  });
  return freePhoneOnPayoff(tx, loan);
};

const rangeOf = (range: 'today' | 'week' | 'overdue', today: string): repo.UpcomingRange => {
  if (range === 'today') return { from: today, to: today };
  if (range === 'week') return { from: today, to: addDays(today, 6) };
  return { before: today };
};

/** up_coming_emi: unpaid instalments due today, in the next 7 days, or overdue, earliest first. */
export const listUpcomingEmis = async (
  db: DbOrTx,
  actor: TActor,
  query: z.output<typeof ZUpcomingEmiQuery>,
): Promise<TUpcomingEmiPage> => {
  const today = istDate();
  const { rows, total } = await repo.listUnpaidEmis(
    db,
    await scopeOf(db, actor),
    rangeOf(query.range, today),
    {
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    },
  );
  return {
    items: rows.map((r) => ({
      emiId: r.emi.id,
      customerId: r.emi.customerId,
      customerName: `${r.firstName} ${r.lastName}`,
      mobile: r.mobile,
      instalmentNo: r.emi.instalmentNo,
      dueDate: r.emi.dueDate,
      outstandingPaise: outstandingPaise(r.emi),
      status: instalmentStatus(r.emi, today),
    })),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
};

/** upcoming_emi_counts: unpaid instalments due today, this week, and overdue. */
export const countUpcomingEmis = async (db: DbOrTx, actor: TActor): Promise<TUpcomingEmiCounts> => {
  const today = istDate();
  const scope = await scopeOf(db, actor);
  const [dueToday, week, overdue] = await Promise.all(
    (['today', 'week', 'overdue'] as const).map((range) =>
      repo.countUnpaidEmis(db, scope, rangeOf(range, today)),
    ),
  );
  return { today: dueToday!, week: week!, overdue: overdue! };
};

/** getTotalOutStanding: outstanding, overdue and collected money of the actor's customers. */
export const getTotalOutstanding = async (db: DbOrTx, actor: TActor): Promise<TTotalOutstanding> => {
  const scope = await scopeOf(db, actor);
  const [outstandingPaise, overduePaise, collectedPaise, collectedThisMonthPaise] = await Promise.all([
    repo.sumOutstanding(db, scope),
    repo.sumOutstanding(db, scope, istDate()),
    repo.sumCollected(db, scope),
    repo.sumCollected(db, scope, istMonthStart()),
  ]);
  return { outstandingPaise, overduePaise, collectedPaise, collectedThisMonthPaise };
};

/**
 * EMI_EDIT: replaces the loan terms and rebuilds the schedule, only while nothing has been paid;
 * an enrolled phone gets its paid-through date for the new schedule (issue 29).
 * Throws CUSTOMER_NOT_FOUND outside scope, EMI_ALREADY_PAID after any payment, INVALID_LOAN_TERMS
 * when the loan exceeds price − down payment.
 */
export const editEmiTerms = async (
  deps: TGateDeps,
  options: { actor: TActor; request: z.output<typeof ZEditEmiTermsRequest> },
): Promise<void> => {
  const { db } = deps;
  const { actor, request } = options;
  const { customer, device } = await findCustomerForActor(db, actor, request.customer_id);
  if (request.loanAmountPaise > customer.pricePaise - customer.downPaymentPaise) {
    throw new AppError(
      AppErrorCode.INVALID_LOAN_TERMS,
      'Loan amount cannot exceed price minus down payment',
      [{ field: 'loanAmountPaise', message: 'Loan amount cannot exceed price minus down payment' }],
    );
  }
  const schedule = buildEmiSchedule({
    principalPaise: request.loanAmountPaise,
    annualRateBps: request.annualRateBps,
    tenureMonths: request.tenureMonths,
    method: request.interestMethod,
    firstDueDate:
      request.firstDueDate ??
      (await repo.findEmisOfCustomer(db, customer.id))[0]?.dueDate ??
      addDays(istDate(), 30),
  });
  const moved = await db.transaction(async (tx) => {
    const current = await repo.lockEmis(
      tx,
      customer.id,
      (await repo.findEmisOfCustomer(tx, customer.id)).map((e) => e.id),
    );
    if (current.some((e) => e.paidPaise > 0 || e.penaltyPaise > 0)) {
      throw new AppError(
        AppErrorCode.EMI_ALREADY_PAID,
        'EMI terms can only be changed before the first payment or penalty',
      );
    }
    await repo.replaceSchedule(tx, { orgId: customer.orgId, customerId: customer.id }, schedule);
    await repo.updateLoanTerms(tx, customer.id, {
      loanAmountPaise: request.loanAmountPaise,
      annualRateBps: request.annualRateBps,
      tenureMonths: request.tenureMonths,
      interestMethod: request.interestMethod,
      emiPaise: schedule[0]!.amountPaise,
    });
    await insertAudit(tx, {
      orgId: customer.orgId,
      actorUserId: actor.userId,
      action: 'emi.edit_terms',
      entity: 'customer',
      entityId: String(customer.id),
      details: {
        before: {
          loanAmountPaise: customer.loanAmountPaise,
          annualRateBps: customer.annualRateBps,
          tenureMonths: customer.tenureMonths,
        },
        after: {
          loanAmountPaise: request.loanAmountPaise,
          annualRateBps: request.annualRateBps,
          tenureMonths: request.tenureMonths,
        },
      },
    });
    // The new schedule may move the phone's paid-through date (issue 29).
    return device.enrolledAt ? refreshPaidThrough(tx, [device.id], deps.dispatcher.liveChannels) : null;
  });
  if (moved) await publishAfterCommit(deps.dispatcher, moved);
};

const emiNotFound = () =>
  new AppError(AppErrorCode.NOT_FOUND, 'Instalment not found', [
    { field: 'emi_id', message: 'No such instalment for this customer' },
  ]);

/**
 * send_penalty: levies the organisation's late-payment penalty (penaltyDuePaise) on one overdue
 * instalment, in a transaction with an audit entry. Throws CUSTOMER_NOT_FOUND outside scope,
 * NOT_FOUND for an instalment of another customer, PENALTY_NOT_DUE when the rule gives nothing
 * today (penalties off, within the grace days, paid, or already penalised).
 */
export const sendPenalty = async (
  db: Db,
  options: { actor: TActor; request: z.output<typeof ZSendPenaltyRequest> },
): Promise<void> => {
  const { actor, request } = options;
  const { customer } = await findCustomerForActor(db, actor, request.customer_id);
  const rule = await getPenaltyRule(db, customer.orgId);
  await db.transaction(async (tx) => {
    const emi = await repo.lockEmi(tx, customer.id, request.emi_id);
    if (!emi) throw emiNotFound();
    const penalty = penaltyDuePaise(emi, rule, istDate());
    if (penalty === 0) {
      throw new AppError(AppErrorCode.PENALTY_NOT_DUE, 'No penalty is due on this instalment', [
        { field: 'emi_id', message: 'No penalty is due on this instalment under the organisation rule' },
      ]);
    }
    await repo.addPenalty(tx, emi.id, penalty);
    await insertAudit(tx, {
      orgId: customer.orgId,
      actorUserId: actor.userId,
      action: 'emi.penalty',
      entity: 'customer',
      entityId: String(customer.id),
      details: { emiId: emi.id, instalmentNo: emi.instalmentNo, penaltyPaise: penalty, rule },
    });
  });
};

/**
 * update_emi_status: waives what is still owed on an instalment ('waived') or only its unpaid
 * penalty ('penalty_waived'); the waived amount counts as paid but is never collected money. When
 * nothing is left unpaid the customer moves to EMIs completed (5). Throws CUSTOMER_NOT_FOUND
 * outside scope, NOT_FOUND for another customer's instalment, NOTHING_TO_WAIVE when there is none.
 */
export const updateEmiStatus = async (
  deps: TGateDeps,
  options: { actor: TActor; request: z.output<typeof ZUpdateEmiStatusRequest> },
): Promise<void> => {
  const { db } = deps;
  const { actor, request } = options;
  const { customer, device } = await findCustomerForActor(db, actor, request.customer_id);
  const payoff = await db.transaction(async (tx) => {
    const emi = await repo.lockEmi(tx, customer.id, request.emi_id);
    if (!emi) throw emiNotFound();
    const owed = outstandingPaise(emi);
    // Payments fill the instalment before its penalty, so the unpaid penalty is the last part owed.
    // While something is owed, the only earlier waiver can have been of the penalty.
    const waive =
      request.status === 'waived' ? owed : Math.max(0, Math.min(owed, emi.penaltyPaise - emi.waivedPaise));
    if (waive === 0) {
      throw new AppError(AppErrorCode.NOTHING_TO_WAIVE, 'Nothing is left to waive on this instalment', [
        { field: 'status', message: 'Nothing is left to waive on this instalment' },
      ]);
    }
    await repo.addWaiver(tx, emi.id, waive);
    const isPaidOff = (await repo.countUnpaidOfCustomer(tx, customer.id)) === 0;
    const payoff = isPaidOff
      ? await completeLoan(tx, { orgId: customer.orgId, customerId: customer.id, actorUserId: actor.userId })
      : device.enrolledAt
        ? await refreshPaidThrough(tx, [device.id], deps.dispatcher.liveChannels)
        : null;
    await insertAudit(tx, {
      orgId: customer.orgId,
      actorUserId: actor.userId,
      action: 'emi.waive',
      entity: 'customer',
      entityId: String(customer.id),
      details: {
        emiId: emi.id,
        instalmentNo: emi.instalmentNo,
        status: request.status,
        waivedPaise: waive,
        reason: request.reason,
        isPaidOff,
      },
    });
    return payoff;
  });
  if (payoff) await publishAfterCommit(deps.dispatcher, payoff);
};

/**
 * send_emialert: queues the emi_alert command to the customer's phone with the next amount due,
 * its due date and the retailer's words (args: amountPaise, dueDate, overduePaise, message).
 * Throws CUSTOMER_NOT_FOUND outside scope, NOTHING_DUE when the loan is paid off,
 * DEVICE_NOT_ENROLLED before enrolment.
 */
export const sendEmiAlert = async (
  deps: TGateDeps,
  options: { actor: TActor; request: z.output<typeof ZSendEmiAlertRequest> },
): Promise<TDeviceCommand> => {
  const { actor, request } = options;
  const target = await loadTargetForActor(deps, actor, request.customer_id);
  const today = istDate();
  const unpaid = (await repo.findEmisOfCustomer(deps.db, target.customerId)).filter(
    (e) => outstandingPaise(e) > 0,
  );
  const next = unpaid[0];
  if (!next) {
    throw new AppError(AppErrorCode.NOTHING_DUE, 'Nothing is due on this loan', [
      { field: 'customer_id', message: 'Nothing is due on this loan' },
    ]);
  }
  const overduePaise = unpaid
    .filter((e) => e.dueDate < today)
    .reduce((total, e) => total + outstandingPaise(e), 0);
  return sendOneShotCommand(deps, {
    actor,
    target,
    name: 'emi_alert',
    args: parseCommandArgs(commandSpecOf('emi_alert')!, {
      amountPaise: outstandingPaise(next),
      dueDate: next.dueDate,
      overduePaise,
      message: request.message ?? '',
    }),
    flags: accessFlagsFor('emi_alert', 'emi_alert'),
    availability: 'emi_alert',
  });
};

/** How many times an EMI PIN is drawn before giving up on finding a free one. */
const EMI_PIN_DRAWS = 20;

const issueEmiPin = async (db: Db, owner: { orgId: number; customerId: number }): Promise<void> => {
  for (let draw = 0; draw < EMI_PIN_DRAWS; draw += 1) {
    const pin = String(randomInt(0, 1_000_000)).padStart(6, '0');
    if (await db.transaction((tx) => repo.trySetEmiPin(tx, owner, pin))) return;
  }
  throw new AppError(AppErrorCode.INTERNAL, 'Could not issue an EMI PIN');
};

/**
 * customer_emi_pin: the loan's 6-digit EMI PIN, issued on first ask; with `rotate`, a new one (the
 * old stops matching; audited). Unique in the organisation. Throws CUSTOMER_NOT_FOUND outside scope.
 */
export const getEmiPin = async (
  db: Db,
  options: { actor: TActor; customerId: number; rotate: boolean },
): Promise<TCustomerEmiPin> => {
  const { customer } = await findCustomerForActor(db, options.actor, options.customerId);
  const owner = { orgId: customer.orgId, customerId: customer.id };
  if (options.rotate || !customer.emiPin) {
    await issueEmiPin(db, owner);
    if (options.rotate) {
      await insertAudit(db, {
        orgId: customer.orgId,
        actorUserId: options.actor.userId,
        action: 'emi.pin_rotated',
        entity: 'customer',
        entityId: String(customer.id),
        details: {},
      });
    }
  }
  const pin = (await repo.findEmiPin(db, customer.id))!;
  return { customerId: customer.id, emiPin: pin.emiPin!, updatedAt: pin.updatedAt!.toISOString() };
};
