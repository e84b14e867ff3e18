import { customersContract } from '@kisht/domain/contract/customers';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { getConsentText, getCustomerConsent, listMyConsents, recordCustomerConsent } from './consent.service';
import { getDashboard, getLoanDefaults, getStatusHistory, listCustomers } from './customers.service';

export const customersRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...contractRoute(customersContract.list, {
      tags: ['customers'],
      summary: 'Customers of the retailer (and their mini-retailers), newest first',
    }),
    handler: async (request) =>
      ok(await listCustomers(ctx.db, { actor: request.actor, query: request.query })),
  });

  r.route({
    ...contractRoute(customersContract.statusHistory, {
      tags: ['customers'],
      summary: "A customer's status changes, newest first",
    }),
    handler: async (request) => ok(await getStatusHistory(ctx.db, request.actor, request.query.customer_id)),
  });

  r.route({
    ...contractRoute(customersContract.loanDefaults, {
      tags: ['customers'],
      summary: "The organisation's loan terms add_customer starts with (annual interest rate)",
    }),
    handler: async (request) => ok(await getLoanDefaults(ctx.db, request.actor)),
  });

  r.route({
    ...contractRoute(customersContract.consentText, {
      tags: ['customers'],
      summary:
        "The consent to remote locking in the customer's language, to show before they sign (with its version)",
    }),
    handler: async (request) =>
      ok(
        await getConsentText(ctx.db, {
          actor: request.actor,
          customerId: request.query.customer_id,
          language: request.query.language,
        }),
      ),
  });

  r.route({
    ...contractRoute(customersContract.consent, {
      tags: ['customers'],
      summary: "The customer's recorded consent to remote locking (null while none is recorded)",
    }),
    handler: async (request) =>
      ok(await getCustomerConsent(ctx.db, request.actor, request.query.customer_id)),
  });

  r.route({
    ...contractRoute(customersContract.recordConsent, {
      tags: ['customers'],
      summary:
        'Record the customer’s signed consent to remote locking (needed before the enrolment QR); recorded once, a repeat answers the consent that stands',
    }),
    handler: async (request) => {
      const { consent, isNew } = await recordCustomerConsent(ctx.db, {
        actor: request.actor,
        request: request.body,
      });
      return ok(consent, isNew ? 'Consent recorded' : 'Consent was already recorded');
    },
  });

  r.route({
    ...contractRoute(customersContract.myConsents, {
      tags: ['customers'],
      summary: "The logged-in customer's own consents to remote locking",
    }),
    handler: async (request) => ok(await listMyConsents(ctx.db, request.actor)),
  });

  r.route({
    ...contractRoute(customersContract.dashboard, {
      tags: ['stats'],
      summary: 'Customer counts by status (all your retailers, or one with retailer_id)',
    }),
    handler: async (request) => ok(await getDashboard(ctx.db, request.actor, request.query.retailer_id)),
  });
};
