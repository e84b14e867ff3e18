import { zEnvelope } from '@kisht/domain/common/envelope';
import { ZAppConfig, ZOrgAppConfig, ZOrgAppConfigQuery } from '@kisht/domain/orgs/orgs.schema';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { ok } from '../../lib/envelope';
import { getClientConfig, getOrgAppConfig } from './orgs.service';

/** Public: the white-label config the app loads before login. */
export const orgsRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    paths.orgs.appConfig,
    {
      schema: {
        tags: ['organisations'],
        summary: 'White-label app configuration of an organisation',
        querystring: ZOrgAppConfigQuery,
        response: { 200: zEnvelope(ZOrgAppConfig) },
      },
    },
    async (request) => ok(await getOrgAppConfig(ctx.db, request.query.org_id)),
  );
  app.withTypeProvider<ZodTypeProvider>().get(
    paths.orgs.clientConfig,
    {
      schema: {
        tags: ['organisations'],
        summary: 'Client-contract settings (request-token secret, header window, cache times)',
        response: { 200: zEnvelope(ZAppConfig) },
      },
    },
    async () => ok(getClientConfig(ctx.config)),
  );
};
