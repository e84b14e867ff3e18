import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { partnerApiContract } from '@kisht/domain/contract/partner-api';
import { parseIdempotencyKey } from '@kisht/domain/emi/idempotency-key';
import { parsePartnerKey, type TPartnerKeyScope } from '@kisht/domain/partner-api/partner-api.rules';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { publicBaseUrl } from '../../lib/base-url';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { getConsentTextForNewLoan } from '../customers/consent.service';
import { listCustomers } from '../customers/customers.service';
import {
  createPartnerLoan,
  getPartnerEnrolmentQr,
  getPartnerLoan,
  recordPartnerPayment,
  sendPartnerCommand,
} from './partner-api.service';
import { authenticatePartnerKey } from './partner-keys.service';
import { partnerOpenApiDocument } from './partner-openapi';

/**
 * The partner API, version 1 (issue 30, docs/partner-api.md): a lender's server with an API key.
 * Each route names the scope it needs; the key is read on every request (one statement with all
 * its actor needs), so a revoked key answers 401 at once on every process. Each key may make
 * PARTNER_RATE_LIMIT_PER_MINUTE requests a minute per process (429 with Retry-After beyond), a
 * request without a well-formed key counted by its address.
 */
export const partnerApiRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const rateLimit = {
    max: ctx.config.PARTNER_RATE_LIMIT_PER_MINUTE,
    timeWindow: '1 minute',
    keyGenerator: (request: FastifyRequest) => {
      const header = request.headers.authorization ?? '';
      const key = parsePartnerKey(header.startsWith('Bearer ') ? header.slice(7).trim() : '');
      return key ? `partner_key:${key.publicId}` : `partner_ip:${request.ip}`;
    },
  };
  /** The onRequest hook of a route needing `scope`: the key's actor, or 401 (with WWW-Authenticate) / 403. */
  const withKey = (scope: TPartnerKeyScope) => ({
    config: { rateLimit },
    onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        request.actor = await authenticatePartnerKey(ctx.db, request.headers.authorization, scope);
      } catch (error) {
        if (error instanceof AppError && error.code === AppErrorCode.API_KEY_INVALID)
          reply.header('www-authenticate', 'Bearer realm="kisht-partner-api"');
        throw error;
      }
    },
  });
  const docs = (summary: string, scope: TPartnerKeyScope) => ({
    tags: ['partner-api'],
    summary,
    description: `Needs an API key with scope \`${scope}\`.`,
    security: [{ partnerKey: [] }],
  });

  r.route({
    ...contractRoute(partnerApiContract.openapi, {
      tags: ['partner-api'],
      summary: "The partner API's OpenAPI document (no key needed)",
    }),
    config: { rateLimit },
    handler: async () => partnerOpenApiDocument(app),
  });

  r.route({
    ...contractRoute(
      partnerApiContract.consentText,
      docs(
        'The consent text to show the customer before they sign, for the loan about to be created',
        'devices',
      ),
    ),
    ...withKey('devices'),
    handler: async (request) =>
      ok(
        await getConsentTextForNewLoan(ctx.db, request.actor, {
          language: request.query.language,
          productId: request.query.product_id,
          firstName: request.query.first_name,
          lastName: request.query.last_name,
        }),
      ),
  });

  r.route({
    ...contractRoute(
      partnerApiContract.loans,
      docs("The organisation's customers, newest first, a page at a time (the app's filters)", 'read'),
    ),
    ...withKey('read'),
    handler: async (request) =>
      ok(await listCustomers(ctx.db, { actor: request.actor, query: request.query })),
  });

  r.route({
    ...contractRoute(
      partnerApiContract.createLoan,
      docs('Create the customer, phone and loan with the consent the lender recorded', 'devices'),
    ),
    ...withKey('devices'),
    handler: async (request) =>
      ok(await createPartnerLoan(ctx, request.actor, request.body), 'Customer and loan created'),
  });

  r.route({
    ...contractRoute(
      partnerApiContract.loan,
      docs("A customer's loan, instalments, paid-through date and phone state", 'read'),
    ),
    ...withKey('read'),
    handler: async (request) => ok(await getPartnerLoan(ctx.db, request.actor, request.params.customer_id)),
  });

  r.route({
    ...contractRoute(
      partnerApiContract.enrolmentQr,
      docs('The enrolment QR the phone scans at set-up (reserves an enrolment key)', 'devices'),
    ),
    ...withKey('devices'),
    handler: async (request) =>
      ok(
        await getPartnerEnrolmentQr(ctx, {
          actor: request.actor,
          customerId: request.params.customer_id,
          baseUrl: publicBaseUrl(ctx.config, request),
        }),
      ),
  });

  r.route({
    ...contractRoute(
      partnerApiContract.command,
      docs('Lock, unlock or release the phone, through the same command gate as the app', 'devices'),
    ),
    ...withKey('devices'),
    handler: async (request) =>
      ok(
        await sendPartnerCommand(ctx, {
          actor: request.actor,
          customerId: request.params.customer_id,
          request: request.body,
        }),
        'Command sent',
      ),
  });

  r.route({
    ...contractRoute(
      partnerApiContract.payment,
      docs('Record a payment, oldest instalments first (Idempotency-Key required)', 'payments'),
    ),
    ...withKey('payments'),
    handler: async (request) =>
      ok(
        await recordPartnerPayment(ctx, {
          actor: request.actor,
          customerId: request.params.customer_id,
          request: request.body,
          idempotencyKey: parseIdempotencyKey(request.headers['idempotency-key'])!,
        }),
        'Payment recorded',
      ),
  });
};
