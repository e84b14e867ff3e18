import { ledgerContract } from '@kisht/domain/contract/ledger';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import {
  creditKeys,
  getKeyBalances,
  listRetailersForAdmin,
  listTransactions,
  transactionsCsv,
  transferKeys,
} from './ledger.service';

/**
 * Keys, balance and transactions (issue 13; spec §7 "Money"; session required): balances per
 * app_type, transfers between a retailer and its mini-retailers, top_up_history and its CSV, and
 * the organisation admin's credits. A retailer may name its own mini-retailer with `user_id`;
 * any other user's id answers 404.
 */
export const ledgerRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...contractRoute(ledgerContract.balances, {
      tags: ['ledger'],
      summary: "Keys per app_type: yours, or your mini-retailer's with user_id",
    }),
    handler: async (request) =>
      ok(await getKeyBalances(ctx.db, { actor: request.actor, userId: request.query.user_id })),
  });

  r.route({
    ...contractRoute(ledgerContract.transfer, {
      tags: ['ledger'],
      summary: 'Transfer keys to one of your mini-retailers, or take them back (retailers only)',
    }),
    handler: async (request) =>
      ok(await transferKeys(ctx.db, { actor: request.actor, request: request.body }), 'Keys transferred'),
  });

  r.route({
    ...contractRoute(ledgerContract.transactions, {
      tags: ['ledger'],
      summary:
        'Key movements of your account (or your mini-retailer’s), newest first: from/to are +05:30 days YYYY-MM-DD',
    }),
    handler: async (request) =>
      ok(await listTransactions(ctx.db, { actor: request.actor, query: request.query })),
  });

  r.route({
    ...contractRoute(ledgerContract.transactionsCsv, {
      tags: ['ledger'],
      summary: 'The same key movements (same filters) as CSV',
    }),
    handler: async (request, reply) => {
      const csv = await transactionsCsv(ctx.db, { actor: request.actor, query: request.query });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="top-up-history.csv"')
        .send(csv);
    },
  });

  r.route({
    ...contractRoute(ledgerContract.creditKeys, {
      tags: ['admin'],
      summary: 'Credit keys to a retailer of your organisation (organisation admin only)',
    }),
    handler: async (request) =>
      ok(await creditKeys(ctx.db, { actor: request.actor, request: request.body }), 'Keys credited'),
  });

  r.route({
    ...contractRoute(ledgerContract.adminRetailers, {
      tags: ['admin'],
      summary: "Your organisation's retailers, by name, shop or mobile (organisation admin only)",
    }),
    handler: async (request) =>
      ok(await listRetailersForAdmin(ctx.db, { actor: request.actor, search: request.query.search })),
  });
};
