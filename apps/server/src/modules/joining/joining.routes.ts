import { joiningContract } from '@kisht/domain/contract/joining';
import { SIGNUP_REQUESTED_MESSAGE } from '@kisht/domain/joining/joining.schema';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { decideSignupRequest, listSignupRequests, requestSignup } from './joining.service';

/** Join requests per client address: as many as OTP sends (@fastify/rate-limit, per route). */
const SIGNUP_RATE_LIMIT = { rateLimit: { max: 10, timeWindow: '1 minute' } };

/** The public join request of the login screen (spec §7 /api/user/signup_request). */
export const joiningPublicRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...contractRoute(joiningContract.requestSignup, {
      tags: ['auth'],
      summary: 'A shop asks to join the organisation as a retailer (the admin approves or declines)',
    }),
    config: SIGNUP_RATE_LIMIT,
    handler: async (request) => {
      await requestSignup(ctx, request.body);
      return ok(null, SIGNUP_REQUESTED_MESSAGE);
    },
  });
};

/** The organisation admin's join-request screens (session required; admins only, others 403). */
export const joiningAdminRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...contractRoute(joiningContract.listSignupRequests, {
      tags: ['admin'],
      summary: "The organisation's join requests, pending first then newest (organisation admin)",
    }),
    handler: async (request) =>
      ok(await listSignupRequests(ctx, { actor: request.actor, status: request.query.status })),
  });
  r.route({
    ...contractRoute(joiningContract.decideSignup, {
      tags: ['admin'],
      summary: 'Approve (creates the retailer, SMS) or decline (SMS) a join request (organisation admin)',
    }),
    handler: async (request) => {
      const item = await decideSignupRequest(ctx, { actor: request.actor, ...request.body });
      return ok(
        item,
        item.status === 'approved' ? 'Request approved. The shop can now log in' : 'Request declined',
      );
    },
  });
};
