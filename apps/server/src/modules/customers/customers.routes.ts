import { zEnvelope } from '@kisht/domain/common/envelope';
import {
  ZConsentText,
  ZConsentTextQuery,
  ZCustomerConsent,
  ZCustomerConsentAnswer,
  ZMyConsent,
  ZRecordConsentRequest,
} from '@kisht/domain/customers/consent.schema';
import {
  ZCustomerIdQuery,
  ZCustomerListQuery,
  ZCustomerPage,
  ZLoanDefaults,
  ZStatusChange,
} from '@kisht/domain/customers/customers.schema';
import { paths } from '@kisht/domain/paths';
import { ZDashboard, ZDashboardQuery } from '@kisht/domain/stats/stats.schema';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../lib/context';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { getConsentText, getCustomerConsent, listMyConsents, recordCustomerConsent } from './consent.service';
import { getDashboard, getLoanDefaults, getStatusHistory, listCustomers } from './customers.service';

export const customersRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    paths.customers.list,
    {
      schema: {
        tags: ['customers'],
        summary: 'Customers of the retailer (and their mini-retailers), newest first',
        querystring: ZCustomerListQuery,
        response: { 200: zEnvelope(ZCustomerPage) },
      },
    },
    async (request) => ok(await listCustomers(ctx.db, { actor: request.actor, query: request.query })),
  );

  r.get(
    paths.customers.statusHistory,
    {
      schema: {
        tags: ['customers'],
        summary: "A customer's status changes, newest first",
        querystring: ZCustomerIdQuery,
        response: { 200: zEnvelope(z.array(ZStatusChange)) },
      },
    },
    async (request) => ok(await getStatusHistory(ctx.db, request.actor, request.query.customer_id)),
  );

  r.get(
    paths.customers.loanDefaults,
    {
      schema: {
        tags: ['customers'],
        summary: "The organisation's loan terms add_customer starts with (annual interest rate)",
        response: { 200: zEnvelope(ZLoanDefaults) },
      },
    },
    async (request) => ok(await getLoanDefaults(ctx.db, request.actor)),
  );

  r.get(
    paths.customers.consentText,
    {
      schema: {
        tags: ['customers'],
        summary:
          "The consent to remote locking in the customer's language, to show before they sign (with its version)",
        querystring: ZConsentTextQuery,
        response: { 200: zEnvelope(ZConsentText) },
      },
    },
    async (request) =>
      ok(
        await getConsentText(ctx.db, {
          actor: request.actor,
          customerId: request.query.customer_id,
          language: request.query.language,
        }),
      ),
  );

  r.get(
    paths.customers.consent,
    {
      schema: {
        tags: ['customers'],
        summary: "The customer's recorded consent to remote locking (null while none is recorded)",
        querystring: ZCustomerIdQuery,
        response: { 200: zEnvelope(ZCustomerConsentAnswer) },
      },
    },
    async (request) => ok(await getCustomerConsent(ctx.db, request.actor, request.query.customer_id)),
  );

  r.post(
    paths.customers.consent,
    {
      schema: {
        tags: ['customers'],
        summary:
          'Record the customer’s signed consent to remote locking (needed before the enrolment QR); recorded once, a repeat answers the consent that stands',
        body: ZRecordConsentRequest,
        response: { 200: zEnvelope(ZCustomerConsent) },
      },
    },
    async (request) => {
      const { consent, isNew } = await recordCustomerConsent(ctx.db, {
        actor: request.actor,
        request: request.body,
      });
      return ok(consent, isNew ? 'Consent recorded' : 'Consent was already recorded');
    },
  );

  r.get(
    paths.customers.myConsents,
    {
      schema: {
        tags: ['customers'],
        summary: "The logged-in customer's own consents to remote locking",
        response: { 200: zEnvelope(z.array(ZMyConsent)) },
      },
    },
    async (request) => ok(await listMyConsents(ctx.db, request.actor)),
  );

  r.get(
    paths.stats.dashboard,
    {
      schema: {
        tags: ['stats'],
        summary: 'Customer counts by status (all your retailers, or one with retailer_id)',
        querystring: ZDashboardQuery,
        response: { 200: zEnvelope(ZDashboard) },
      },
    },
    async (request) => ok(await getDashboard(ctx.db, request.actor, request.query.retailer_id)),
  );
};
