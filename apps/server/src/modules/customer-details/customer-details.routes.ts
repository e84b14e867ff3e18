import { customerDetailsContract } from '@kisht/domain/contract/customer-details';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { changeCustomerStatus, createCustomer, updateCustomerImeis } from '../customers/customers.service';
import { getCustomerDetails } from './customer-details.service';

/**
 * The routes that answer with customer_details (spec §2): the customer (customers) with the phone's
 * summary (devices), composed here, above both modules (issue 25: no module cycle).
 */
export const customerDetailsRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...contractRoute(customerDetailsContract.create, {
      tags: ['customers'],
      summary: 'Add a customer, their phone and EMI schedule (status inactive)',
    }),
    handler: async (request) => {
      const id = await createCustomer(ctx.db, { actor: request.actor, request: request.body });
      return ok(await getCustomerDetails(ctx.db, request.actor, id), 'Customer added');
    },
  });

  r.route({
    ...contractRoute(customerDetailsContract.details, {
      tags: ['customers'],
      summary: 'A customer with loan, EMI schedule and device state',
    }),
    handler: async (request) =>
      ok(await getCustomerDetails(ctx.db, request.actor, request.query.customer_id)),
  });

  r.route({
    ...contractRoute(customerDetailsContract.updateStatus, {
      tags: ['customers'],
      summary: 'Deactivate or reactivate a customer, with a reason for the audit trail',
    }),
    handler: async (request) => {
      const { customer_id: customerId, status, reason } = request.body;
      await changeCustomerStatus(ctx.db, { actor: request.actor, customerId, status, reason });
      return ok(await getCustomerDetails(ctx.db, request.actor, customerId), 'Status changed');
    },
  });

  r.route({
    ...contractRoute(customerDetailsContract.updateImei, {
      tags: ['customers'],
      summary: "Correct the phone's IMEIs and serial number (IMEI_EDIT)",
    }),
    handler: async (request) => {
      await updateCustomerImeis(ctx.db, { actor: request.actor, request: request.body });
      return ok(await getCustomerDetails(ctx.db, request.actor, request.body.customer_id), 'IMEI updated');
    },
  });
};
