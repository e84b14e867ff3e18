import { keyRequestsContract } from '@kisht/domain/contract/key-requests';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import {
  cancelKeyRequest,
  createKeyRequest,
  decideKeyRequest,
  getShopKeyPrices,
  listKeyRequests,
  returnKeys,
  saveShopKeyPrices,
} from './key-requests.service';

/** Key requests and returns up the chain (issue 30, docs/key-requests.md). */
export const keyRequestsRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const docs = (summary: string) => ({ tags: ['ledger'], summary });
  r.route({
    ...contractRoute(keyRequestsContract.list, docs("The actor's key requests, or those it decides")),
    handler: async (request) => ok(await listKeyRequests(ctx.db, request.actor, request.query.box)),
  });
  r.route({
    ...contractRoute(keyRequestsContract.create, docs("Ask the actor's parent for keys")),
    handler: async (request) =>
      ok(await createKeyRequest(ctx.db, request.actor, request.body), 'Request sent'),
  });
  r.route({
    ...contractRoute(keyRequestsContract.decide, docs('Approve (the keys move) or reject a key request')),
    handler: async (request) =>
      ok(await decideKeyRequest(ctx.db, request.actor, request.body), 'Request decided'),
  });
  r.route({
    ...contractRoute(keyRequestsContract.cancel, docs('Withdraw a pending key request')),
    handler: async (request) =>
      ok(await cancelKeyRequest(ctx.db, request.actor, request.body.request_id), 'Request withdrawn'),
  });
  r.route({
    ...contractRoute(keyRequestsContract.returnKeys, docs('Return unused keys to the parent')),
    handler: async (request) => ok(await returnKeys(ctx.db, request.actor, request.body), 'Keys returned'),
  });
  r.route({
    ...contractRoute(keyRequestsContract.prices, docs("A retailer's price per key to its mini-retailers")),
    handler: async (request) => ok(await getShopKeyPrices(ctx.db, request.actor)),
  });
  r.route({
    ...contractRoute(keyRequestsContract.savePrices, docs("Set a retailer's prices to its mini-retailers")),
    handler: async (request) =>
      ok(await saveShopKeyPrices(ctx.db, request.actor, request.body), 'Prices saved'),
  });
};
