import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { addDays, istDate, istMonthStart } from '@kisht/domain/common/time';
import {
  allocatePayment,
  buildEmiSchedule,
  instalmentStatus,
  outstandingPaise,
} from '@kisht/domain/emi/emi.rules';
import type {
  TEmiDetails,
  TInstalmentRow,
  TPayment,
  TPaymentReceipt,
  TTotalOutstanding,
  TUpcomingEmiCounts,
  TUpcomingEmiPage,
  ZEditEmiTermsRequest,
  ZRecordPaymentRequest,
  ZUpcomingEmiQuery,
} from '@kisht/domain/emi/emi.schema';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import { findCustomerForActor, markLoanCompleted, scopeOf } from '../customers/customers.service';
import * as repo from './emi.repository';

/** An instalment row with today's status and what is still owed. */
export const toInstalmentRow = (emi: repo.EmiRow, today: string): TInstalmentRow => ({
  id: emi.id,
  instalmentNo: emi.instalmentNo,
  dueDate: emi.dueDate,
  amountPaise: emi.amountPaise,
  principalPaise: emi.principalPaise,
  interestPaise: emi.interestPaise,
  paidPaise: emi.paidPaise,
  outstandingPaise: outstandingPaise(emi),
  status: instalmentStatus(emi, today),
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
  const [emiRows, paymentRows] = await Promise.all([
    repo.findEmisOfCustomer(db, customer.id),
    repo.findPaymentsOfCustomer(db, customer.id),
  ]);
  const instalments = emiRows.map((e) => toInstalmentRow(e, today));
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
 * Records a payment (multiple_emi_paid): in one transaction the chosen instalments are locked, the
 * amount applied earliest first (allocatePayment), the payment, its allocations and an audit entry
 * written; when nothing is left unpaid the customer moves to EMIs completed (5).
 * Throws CUSTOMER_NOT_FOUND outside scope, INVALID_PAYMENT for instalments not of this customer or
 * an amount above what they owe.
 */
export const recordPayment = async (
  db: Db,
  options: { actor: TActor; request: z.output<typeof ZRecordPaymentRequest> },
): Promise<TPaymentReceipt> => {
  const { actor, request } = options;
  const { customer } = await findCustomerForActor(db, actor, request.customer_id);
  const emiIds = [...new Set(request.emi_ids)];
  const paymentId = await db.transaction(async (tx) => {
    const chosen = await repo.lockEmis(tx, customer.id, emiIds);
    if (chosen.length !== emiIds.length) {
      throw new AppError(AppErrorCode.INVALID_PAYMENT, 'Choose instalments of this customer', [
        { field: 'emi_ids', message: 'Some instalments do not belong to this customer' },
      ]);
    }
    const allocations = allocatePayment(chosen, request.amountPaise);
    const payment = await repo.insertPayment(tx, {
      orgId: customer.orgId,
      customerId: customer.id,
      amountPaise: request.amountPaise,
      mode: request.mode,
      reference: request.reference || null,
      recordedBy: actor.userId,
    });
    for (const allocation of allocations)
      await repo.addToPaid(tx, allocation.instalmentId, allocation.amountPaise);
    await repo.insertAllocations(
      tx,
      allocations.map((a) => ({ paymentId: payment.id, emiId: a.instalmentId, amountPaise: a.amountPaise })),
    );
    const isPaidOff = (await repo.countUnpaidOfCustomer(tx, customer.id)) === 0;
    if (isPaidOff) await markLoanCompleted(tx, customer.orgId, customer.id, actor.userId);
    await insertAudit(tx, {
      orgId: customer.orgId,
      actorUserId: actor.userId,
      action: 'emi.payment',
      entity: 'customer',
      entityId: String(customer.id),
      details: {
        paymentId: payment.id,
        amountPaise: request.amountPaise,
        mode: request.mode,
        allocations,
        isPaidOff,
      },
    });
    return payment.id;
  });
  const payments = await repo.findPaymentsOfCustomer(db, customer.id);
  const receipt = payments.find((p) => p.payment.id === paymentId)!;
  const { customer: after } = await findCustomerForActor(db, actor, customer.id);
  return { ...toPayment(receipt), customerStatus: after.status };
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
 * EMI_EDIT: replaces the loan terms and rebuilds the schedule, only while nothing has been paid.
 * Throws CUSTOMER_NOT_FOUND outside scope, EMI_ALREADY_PAID after any payment, INVALID_LOAN_TERMS
 * when the loan exceeds price − down payment.
 */
export const editEmiTerms = async (
  db: Db,
  options: { actor: TActor; request: z.output<typeof ZEditEmiTermsRequest> },
): Promise<void> => {
  const { actor, request } = options;
  const { customer } = await findCustomerForActor(db, actor, request.customer_id);
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
  await db.transaction(async (tx) => {
    const current = await repo.lockEmis(
      tx,
      customer.id,
      (await repo.findEmisOfCustomer(tx, customer.id)).map((e) => e.id),
    );
    if (current.some((e) => e.paidPaise > 0)) {
      throw new AppError(
        AppErrorCode.EMI_ALREADY_PAID,
        'EMI terms can only be changed before the first payment',
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
  });
};
