import { oauthContract } from '@kisht/domain/contract/oauth';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { clientInfoFrom } from '../../lib/client-info';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { completeGoogleSignIn, finishGoogleSignIn, startGoogleSignIn } from './oauth.service';

/** Per client address, as the OTP routes: 10 sign-ins started and 20 tickets tried a minute. */
const START_RATE_LIMIT = { rateLimit: { max: 10, timeWindow: '1 minute' } };
const CHECK_RATE_LIMIT = { rateLimit: { max: 20, timeWindow: '1 minute' } };

/** The web app's public origin: PUBLIC_BASE_URL, else PUBLIC_URL, else this request's own origin. */
const baseUrlOf = (ctx: AppContext, request: FastifyRequest): string =>
  ctx.config.PUBLIC_BASE_URL ?? ctx.config.PUBLIC_URL ?? `${request.protocol}://${request.host}`;

/** Sign in with Google (spec §7 getOauthUrl; OpenID Connect, docs/google-sign-in.md). Public. */
export const oauthRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = { db: ctx.db, config: ctx.config, log: app.log };
  r.route({
    ...contractRoute(oauthContract.url, {
      tags: ['auth'],
      summary: 'Start Sign in with Google: the authorization URL (404 when Google sign-in is not set up)',
    }),
    config: START_RATE_LIMIT,
    handler: async (request, reply) => {
      const started = await startGoogleSignIn(deps, {
        orgId: request.query.org_id,
        baseUrl: baseUrlOf(ctx, request),
      });
      reply.header('set-cookie', started.setCookie);
      reply.header('cache-control', 'no-store');
      return ok({ url: started.url });
    },
  });
  r.route({
    ...contractRoute(oauthContract.callback, {
      tags: ['auth'],
      summary: "The provider's redirect back: 302 to the login page with a one-time ticket or an error",
    }),
    config: CHECK_RATE_LIMIT,
    handler: async (request, reply) => {
      const finished = await finishGoogleSignIn(deps, {
        baseUrl: baseUrlOf(ctx, request),
        query: request.query,
        cookie: request.headers.cookie,
        client: clientInfoFrom(request),
      });
      reply.header('set-cookie', finished.setCookie);
      reply.header('cache-control', 'no-store');
      return reply.redirect(finished.location, 302);
    },
  });
  r.route({
    ...contractRoute(oauthContract.complete, {
      tags: ['auth'],
      summary: 'Exchange the one-time Google sign-in ticket for a session',
    }),
    config: CHECK_RATE_LIMIT,
    handler: async (request) => ok(await completeGoogleSignIn(deps, request.body), 'Logged in'),
  });
};
