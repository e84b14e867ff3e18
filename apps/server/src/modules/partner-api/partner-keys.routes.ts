import { partnerKeysContract } from '@kisht/domain/contract/partner-keys';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { createPartnerKey, listPartnerKeys, revokePartnerKey } from './partner-keys.service';

/** The organisation admin's partner API keys (issue 30, docs/partner-api.md): list, make, revoke. */
export const partnerKeysRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const docs = (summary: string) => ({ tags: ['partner-api'], summary });
  r.route({
    ...contractRoute(partnerKeysContract.list, docs("The organisation's partner API keys (admin)")),
    handler: async (request) => ok(await listPartnerKeys(ctx.db, request.actor)),
  });
  r.route({
    ...contractRoute(
      partnerKeysContract.create,
      docs('Make a partner API key (admin): answers its whole text, shown this once'),
    ),
    handler: async (request) =>
      ok(await createPartnerKey(ctx.db, request.actor, request.body), 'API key made'),
  });
  r.route({
    ...contractRoute(
      partnerKeysContract.revoke,
      docs('Revoke a partner API key (admin): its next call answers 401'),
    ),
    handler: async (request) =>
      ok(await revokePartnerKey(ctx.db, request.actor, request.query.key_id), 'API key revoked'),
  });
};
