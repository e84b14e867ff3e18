import { lockStatusLabel, statusWord } from '@kisht/domain/common/enums';
import { formatCalendarDate, formatIstDateTime } from '@kisht/domain/common/time';
import { emiContract } from '@kisht/domain/contract/emi';
import { parseIdempotencyKey } from '@kisht/domain/emi/idempotency-key';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { TActor } from '../../lib/actor';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
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

  r.route({
    ...contractRoute(emiContract.details, {
      tags: ['emi'],
      summary: "A customer's EMI schedule with paid, outstanding and status, totals and payments",
    }),
    handler: async (request) => ok(await getEmiDetails(ctx.db, request.actor, request.query.customer_id)),
  });

  const payRoute = contractRoute(emiContract.pay, {
    tags: ['emi'],
    summary: 'Record a payment against one or several instalments (partial allowed)',
    description:
      'Safe to retry with an Idempotency-Key header (IETF draft "The Idempotency-Key HTTP Header ' +
      'Field"): the same key with the same request answers the first receipt and records nothing ' +
      'again; the same key with a different request answers 422 IDEMPOTENCY_KEY_REUSED; a ' +
      'malformed key answers 400 naming Idempotency-Key. Keys are per organisation.',
  });
  r.route({
    ...payRoute,
    handler: async (request) => {
      const rawKey = request.headers['idempotency-key'];
      const receipt = await recordPayment(ctx, {
        actor: request.actor,
        request: request.body,
        idempotencyKey: rawKey === undefined ? undefined : (parseIdempotencyKey(rawKey) ?? undefined),
        autoUnlock: true,
      });
      return ok(receipt, 'Payment recorded');
    },
  });

  r.route({
    ...contractRoute(emiContract.editTerms, {
      tags: ['emi'],
      summary: 'Edit the loan terms before the first payment; the schedule is rebuilt (EMI_EDIT)',
    }),
    handler: async (request) => {
      await editEmiTerms(ctx, { actor: request.actor, request: request.body });
      return ok(await getEmiDetails(ctx.db, request.actor, request.body.customer_id), 'EMI terms updated');
    },
  });

  r.route({
    ...contractRoute(emiContract.sendPenalty, {
      tags: ['emi'],
      summary: "Levy the organisation's late-payment penalty on an overdue instalment",
    }),
    handler: async (request) => {
      await sendPenalty(ctx.db, { actor: request.actor, request: request.body });
      return ok(await getEmiDetails(ctx.db, request.actor, request.body.customer_id), 'Penalty added');
    },
  });

  r.route({
    ...contractRoute(emiContract.updateStatus, {
      tags: ['emi'],
      summary: 'Waive what is owed on an instalment, or only its penalty, with a reason',
    }),
    handler: async (request) => {
      await updateEmiStatus(ctx, { actor: request.actor, request: request.body });
      await unlockIfCleared(request.actor, request.body.customer_id);
      return ok(await getEmiDetails(ctx.db, request.actor, request.body.customer_id), 'Instalment updated');
    },
  });

  r.route({
    ...contractRoute(emiContract.sendAlert, {
      tags: ['emi'],
      summary: "Show the EMI reminder on the customer's phone (emi_alert command)",
    }),
    handler: async (request) =>
      ok(await sendEmiAlert(ctx, { actor: request.actor, request: request.body }), 'Reminder sent'),
  });

  r.route({
    ...contractRoute(emiContract.emiPin, {
      tags: ['emi'],
      summary: "The loan's EMI PIN (issued on first ask)",
    }),
    handler: async (request) =>
      ok(
        await getEmiPin(ctx.db, {
          actor: request.actor,
          customerId: request.query.customer_id,
          rotate: false,
        }),
      ),
  });

  r.route({
    ...contractRoute(emiContract.rotateEmiPin, {
      tags: ['emi'],
      summary: 'Issue a new EMI PIN for the loan (the old one stops matching)',
    }),
    handler: async (request) =>
      ok(
        await getEmiPin(ctx.db, { actor: request.actor, customerId: request.body.customer_id, rotate: true }),
        'New EMI PIN issued',
      ),
  });

  r.route({
    ...contractRoute(emiContract.upcoming, {
      tags: ['emi'],
      summary: 'Unpaid instalments due today, this week, or overdue',
    }),
    handler: async (request) => ok(await listUpcomingEmis(ctx.db, request.actor, request.query)),
  });

  r.route({
    ...contractRoute(emiContract.upcomingCounts, {
      tags: ['emi'],
      summary: 'Counts of unpaid instalments by range',
    }),
    handler: async (request) => ok(await countUpcomingEmis(ctx.db, request.actor)),
  });

  r.route({
    ...contractRoute(emiContract.totalOutstanding, {
      tags: ['stats'],
      summary: 'Outstanding, overdue and collected money',
    }),
    handler: async (request) => ok(await getTotalOutstanding(ctx.db, request.actor)),
  });

  r.route({
    ...contractRoute(emiContract.myLoans, { tags: ['emi'], summary: "The logged-in customer's own loans" }),
    handler: async (request) => ok(await listMyLoans(ctx.db, request.actor)),
  });

  r.route({
    ...contractRoute(emiContract.scheduleCsv, { tags: ['emi'], summary: "A customer's EMI schedule as CSV" }),
    handler: async (request, reply) => {
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
  });

  r.route({
    ...contractRoute(emiContract.customersCsv, {
      tags: ['customers'],
      summary: 'The customer list (same filters) as CSV',
    }),
    handler: async (request, reply) => {
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
  });
};
