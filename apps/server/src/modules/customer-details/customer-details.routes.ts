import { zEnvelope } from '@kisht/domain/common/envelope';
import {
  ZCreateCustomerRequest,
  ZCustomerDetails,
  ZCustomerIdQuery,
  ZUpdateImeiRequest,
  ZUpdateStatusRequest,
} from '@kisht/domain/customers/customers.schema';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
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

  r.post(
    paths.customers.create,
    {
      schema: {
        tags: ['customers'],
        summary: 'Add a customer, their phone and EMI schedule (status inactive)',
        body: ZCreateCustomerRequest,
        response: { 200: zEnvelope(ZCustomerDetails) },
      },
    },
    async (request) => {
      const id = await createCustomer(ctx.db, { actor: request.actor, request: request.body });
      return ok(await getCustomerDetails(ctx.db, request.actor, id), 'Customer added');
    },
  );

  r.get(
    paths.customers.details,
    {
      schema: {
        tags: ['customers'],
        summary: 'A customer with loan, EMI schedule and device state',
        querystring: ZCustomerIdQuery,
        response: { 200: zEnvelope(ZCustomerDetails) },
      },
    },
    async (request) => ok(await getCustomerDetails(ctx.db, request.actor, request.query.customer_id)),
  );

  r.post(
    paths.customers.updateStatus,
    {
      schema: {
        tags: ['customers'],
        summary: 'Deactivate or reactivate a customer, with a reason for the audit trail',
        body: ZUpdateStatusRequest,
        response: { 200: zEnvelope(ZCustomerDetails) },
      },
    },
    async (request) => {
      const { customer_id: customerId, status, reason } = request.body;
      await changeCustomerStatus(ctx.db, { actor: request.actor, customerId, status, reason });
      return ok(await getCustomerDetails(ctx.db, request.actor, customerId), 'Status changed');
    },
  );

  r.post(
    paths.customers.updateImei,
    {
      schema: {
        tags: ['customers'],
        summary: "Correct the phone's IMEIs and serial number (IMEI_EDIT)",
        body: ZUpdateImeiRequest,
        response: { 200: zEnvelope(ZCustomerDetails) },
      },
    },
    async (request) => {
      await updateCustomerImeis(ctx.db, { actor: request.actor, request: request.body });
      return ok(await getCustomerDetails(ctx.db, request.actor, request.body.customer_id), 'IMEI updated');
    },
  );
};
