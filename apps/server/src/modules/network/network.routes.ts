import { networkContract } from '@kisht/domain/contract/network';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { getNetwork, saveNetworkSettings } from './network.service';

/** The distribution network (issue 30, docs/distribution-network.md). */
export const networkRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const docs = (summary: string) => ({ tags: ['network'], summary });
  r.route({
    ...contractRoute(networkContract.list, docs('The nodes below the actor, or below one of its subtree')),
    handler: async (request) => ok(await getNetwork(ctx.db, request.actor, request.query.parent_id)),
  });
  r.route({
    ...contractRoute(networkContract.saveSettings, docs("Set the organisation's distributor levels")),
    handler: async (request) =>
      ok(
        await saveNetworkSettings(ctx.db, request.actor, request.body.distributorLevels),
        'Network settings saved',
      ),
  });
};
