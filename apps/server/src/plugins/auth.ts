import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TActor } from '../lib/actor';
import type { AppContext } from '../lib/context';
import { authenticateToken } from '../modules/auth/auth.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; set on every protected route (design §6). */
    actor: TActor;
  }
}

const bearer = (request: FastifyRequest): string | undefined => {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined;
};

/**
 * Makes every route registered in `scope` require a live session: the bearer JWT must name a
 * session that is neither revoked nor expired, else 511 (spec §8).
 */
export const requireSession = (scope: FastifyInstance, ctx: AppContext): void => {
  scope.addHook('onRequest', async (request) => {
    request.actor = await authenticateToken(ctx, bearer(request));
  });
};
