import { lockStatusLabel, statusWord } from '@kisht/domain/common/enums';
import { zEnvelope } from '@kisht/domain/common/envelope';
import { formatCalendarDate, formatIstDateTime } from '@kisht/domain/common/time';
import { ZCustomerIdQuery, ZCustomerListQuery } from '@kisht/domain/customers/customers.schema';
import { ZDeviceCommand } from '@kisht/domain/devices/devices.schema';
import {
  ZCustomerEmiPin,
  ZEditEmiTermsRequest,
  ZEmiDetails,
  ZMyLoan,
  ZPaymentReceipt,
  ZRecordPaymentRequest,
  ZRotateEmiPinRequest,
  ZSendEmiAlertRequest,
  ZSendPenaltyRequest,
  ZTotalOutstanding,
  ZUpcomingEmiCounts,
  ZUpcomingEmiPage,
  ZUpcomingEmiQuery,
  ZUpdateEmiStatusRequest,
} from '@kisht/domain/emi/emi.schema';
import { parseIdempotencyKey, ZIdempotencyKeyHeaders } from '@kisht/domain/emi/idempotency-key';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TActor } from '../../lib/actor';
import type { AppContext } from '../../lib/context';
import { rupees, toCsv } from '../../lib/csv';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { listCustomers } from '../customers/customers.service';
import { autoUnlockIfCleared } from '../devices/auto-lock.service';
import { findCustomerForActor } from '../scope/scope.service';
import {
  countUpcomingEmis,
  editEmiTerms,
  getEmiDetails,
  getEmiPin,
  getTotalOutstanding,
  listUpcomingEmis,
  recordPayment,
  sendEmiAlert,
  sendPenalty,
  updateEmiStatus,
} from './emi.service';
import { listMyLoans } from './my-loans.service';

/** Most rows one CSV export holds. */
const CSV_MAX_ROWS = 50_000;

export const emiRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  /** The auto-lock ladder's unlock rung, after money clears the overdue instalments. */
  const unlockIfCleared = async (actor: TActor, customerId: number) => {
    const { customer, device } = await findCustomerForActor(ctx.db, actor, customerId);
    await autoUnlockIfCleared(ctx, { orgId: customer.orgId, customerId: customer.id, deviceId: device.id });
  };

  r.get(
    paths.emi.details,
    {
      schema: {
        tags: ['emi'],
        summary: "A customer's EMI schedule with paid, outstanding and status, totals and payments",
        querystring: ZCustomerIdQuery,
        response: { 200: zEnvelope(ZEmiDetails) },
      },
    },
    async (request) => ok(await getEmiDetails(ctx.db, request.actor, request.query.customer_id)),
  );

  r.post(
    paths.emi.pay,
    {
      schema: {
        tags: ['emi'],
        summary: 'Record a payment against one or several instalments (partial allowed)',
        description:
          'Safe to retry with an Idempotency-Key header (IETF draft "The Idempotency-Key HTTP Header ' +
          'Field"): the same key with the same request answers the first receipt and records nothing ' +
          'again; the same key with a different request answers 422 IDEMPOTENCY_KEY_REUSED; a ' +
          'malformed key answers 400 naming Idempotency-Key. Keys are per organisation.',
        headers: ZIdempotencyKeyHeaders,
        body: ZRecordPaymentRequest,
        response: { 200: zEnvelope(ZPaymentReceipt) },
      },
    },
    async (request) => {
      const rawKey = request.headers['idempotency-key'];
      const receipt = await recordPayment(ctx, {
        actor: request.actor,
        request: request.body,
        idempotencyKey: rawKey === undefined ? undefined : (parseIdempotencyKey(rawKey) ?? undefined),
        autoUnlock: true,
      });
      return ok(receipt, 'Payment recorded');
    },
  );

  r.post(
    paths.emi.editTerms,
    {
      schema: {
        tags: ['emi'],
        summary: 'Edit the loan terms before the first payment; the schedule is rebuilt (EMI_EDIT)',
        body: ZEditEmiTermsRequest,
        response: { 200: zEnvelope(ZEmiDetails) },
      },
    },
    async (request) => {
      await editEmiTerms(ctx.db, { actor: request.actor, request: request.body });
      return ok(await getEmiDetails(ctx.db, request.actor, request.body.customer_id), 'EMI terms updated');
    },
  );

  r.post(
    paths.customers.sendPenalty,
    {
      schema: {
        tags: ['emi'],
        summary: "Levy the organisation's late-payment penalty on an overdue instalment",
        body: ZSendPenaltyRequest,
        response: { 200: zEnvelope(ZEmiDetails) },
      },
    },
    async (request) => {
      await sendPenalty(ctx.db, { actor: request.actor, request: request.body });
      return ok(await getEmiDetails(ctx.db, request.actor, request.body.customer_id), 'Penalty added');
    },
  );

  r.post(
    paths.emi.updateStatus,
    {
      schema: {
        tags: ['emi'],
        summary: 'Waive what is owed on an instalment, or only its penalty, with a reason',
        body: ZUpdateEmiStatusRequest,
        response: { 200: zEnvelope(ZEmiDetails) },
      },
    },
    async (request) => {
      await updateEmiStatus(ctx, { actor: request.actor, request: request.body });
      await unlockIfCleared(request.actor, request.body.customer_id);
      return ok(await getEmiDetails(ctx.db, request.actor, request.body.customer_id), 'Instalment updated');
    },
  );

  r.post(
    paths.emi.sendAlert,
    {
      schema: {
        tags: ['emi'],
        summary: "Show the EMI reminder on the customer's phone (emi_alert command)",
        body: ZSendEmiAlertRequest,
        response: { 200: zEnvelope(ZDeviceCommand) },
      },
    },
    async (request) =>
      ok(await sendEmiAlert(ctx, { actor: request.actor, request: request.body }), 'Reminder sent'),
  );

  r.get(
    paths.emi.emiPin,
    {
      schema: {
        tags: ['emi'],
        summary: "The loan's EMI PIN (issued on first ask)",
        querystring: ZCustomerIdQuery,
        response: { 200: zEnvelope(ZCustomerEmiPin) },
      },
    },
    async (request) =>
      ok(
        await getEmiPin(ctx.db, {
          actor: request.actor,
          customerId: request.query.customer_id,
          rotate: false,
        }),
      ),
  );

  r.post(
    paths.emi.emiPin,
    {
      schema: {
        tags: ['emi'],
        summary: 'Issue a new EMI PIN for the loan (the old one stops matching)',
        body: ZRotateEmiPinRequest,
        response: { 200: zEnvelope(ZCustomerEmiPin) },
      },
    },
    async (request) =>
      ok(
        await getEmiPin(ctx.db, { actor: request.actor, customerId: request.body.customer_id, rotate: true }),
        'New EMI PIN issued',
      ),
  );

  r.get(
    paths.emi.upcoming,
    {
      schema: {
        tags: ['emi'],
        summary: 'Unpaid instalments due today, this week, or overdue',
        querystring: ZUpcomingEmiQuery,
        response: { 200: zEnvelope(ZUpcomingEmiPage) },
      },
    },
    async (request) => ok(await listUpcomingEmis(ctx.db, request.actor, request.query)),
  );

  r.get(
    paths.emi.upcomingCounts,
    {
      schema: {
        tags: ['emi'],
        summary: 'Counts of unpaid instalments by range',
        response: { 200: zEnvelope(ZUpcomingEmiCounts) },
      },
    },
    async (request) => ok(await countUpcomingEmis(ctx.db, request.actor)),
  );

  r.get(
    paths.stats.totalOutstanding,
    {
      schema: {
        tags: ['stats'],
        summary: 'Outstanding, overdue and collected money',
        response: { 200: zEnvelope(ZTotalOutstanding) },
      },
    },
    async (request) => ok(await getTotalOutstanding(ctx.db, request.actor)),
  );

  r.get(
    paths.emi.myLoans,
    {
      schema: {
        tags: ['emi'],
        summary: "The logged-in customer's own loans",
        response: { 200: zEnvelope(z.array(ZMyLoan)) },
      },
    },
    async (request) => ok(await listMyLoans(ctx.db, request.actor)),
  );

  r.get(
    paths.emi.scheduleCsv,
    { schema: { tags: ['emi'], summary: "A customer's EMI schedule as CSV", querystring: ZCustomerIdQuery } },
    async (request, reply) => {
      const details = await getEmiDetails(ctx.db, request.actor, request.query.customer_id);
      const csv = toCsv(
        [
          'Instalment',
          'Due date',
          'Amount (₹)',
          'Principal (₹)',
          'Interest (₹)',
          'Penalty (₹)',
          'Paid (₹)',
          'Waived (₹)',
          'Outstanding (₹)',
          'Status',
        ],
        details.instalments.map((i) => [
          i.instalmentNo,
          formatCalendarDate(i.dueDate),
          rupees(i.amountPaise),
          rupees(i.principalPaise),
          rupees(i.interestPaise),
          rupees(i.penaltyPaise),
          rupees(i.paidPaise),
          rupees(i.waivedPaise),
          rupees(i.outstandingPaise),
          i.status,
        ]),
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="emi-schedule-${details.customerId}.csv"`)
        .send(csv);
    },
  );

  r.get(
    paths.customers.listCsv,
    {
      schema: {
        tags: ['customers'],
        summary: 'The customer list (same filters) as CSV',
        querystring: ZCustomerListQuery.omit({ page: true, pageSize: true }),
      },
    },
    async (request, reply) => {
      const page = await listCustomers(ctx.db, {
        actor: request.actor,
        query: { ...request.query, page: 1, pageSize: CSV_MAX_ROWS },
      });
      const csv = toCsv(
        [
          'Customer id',
          'First name',
          'Last name',
          'Mobile',
          'IMEI 1',
          'Product',
          'Status',
          'Lock status',
          'Added on',
        ],
        page.items.map((c) => [
          c.id,
          c.firstName,
          c.lastName,
          c.mobile,
          c.imei1,
          c.productName,
          statusWord(c.status),
          lockStatusLabel(c.lockStatus),
          formatIstDateTime(c.createdAt),
        ]),
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="customers.csv"')
        .send(csv);
    },
  );
};
