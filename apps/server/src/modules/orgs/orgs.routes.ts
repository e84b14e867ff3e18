import { orgsContract } from '@kisht/domain/contract/orgs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { getClientConfig, getOrgAppConfig } from './orgs.service';

/** Public: the white-label config the app loads before login. */
export const orgsRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...contractRoute(orgsContract.appConfig, {
      tags: ['organisations'],
      summary: 'White-label app configuration of an organisation',
    }),
    handler: async (request) => ok(await getOrgAppConfig(ctx.db, request.query.org_id)),
  });
  r.route({
    ...contractRoute(orgsContract.clientConfig, {
      tags: ['organisations'],
      summary: 'Client-contract settings (request-token secret, header window, cache times)',
    }),
    handler: async () => ok(getClientConfig(ctx.config)),
  });
};
