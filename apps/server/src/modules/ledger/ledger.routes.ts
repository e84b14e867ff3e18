import { zEnvelope } from '@kisht/domain/common/envelope';
import {
  ZAdminRetailer,
  ZAdminRetailersQuery,
  ZBalancesQuery,
  ZCreditKeysRequest,
  ZKeyBalances,
  ZLedgerMovement,
  ZTransactionPage,
  ZTransactionQuery,
  ZTransferKeysRequest,
} from '@kisht/domain/ledger/ledger.schema';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../lib/context';
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

  r.get(
    paths.ledger.balances,
    {
      schema: {
        tags: ['ledger'],
        summary: "Keys per app_type: yours, or your mini-retailer's with user_id",
        querystring: ZBalancesQuery,
        response: { 200: zEnvelope(ZKeyBalances) },
      },
    },
    async (request) =>
      ok(await getKeyBalances(ctx.db, { actor: request.actor, userId: request.query.user_id })),
  );

  r.post(
    paths.ledger.transfer,
    {
      schema: {
        tags: ['ledger'],
        summary: 'Transfer keys to one of your mini-retailers, or take them back (retailers only)',
        body: ZTransferKeysRequest,
        response: { 200: zEnvelope(ZLedgerMovement) },
      },
    },
    async (request) =>
      ok(await transferKeys(ctx.db, { actor: request.actor, request: request.body }), 'Keys transferred'),
  );

  r.get(
    paths.ledger.transactions,
    {
      schema: {
        tags: ['ledger'],
        summary:
          'Key movements of your account (or your mini-retailer’s), newest first: from/to are +05:30 days YYYY-MM-DD',
        querystring: ZTransactionQuery,
        response: { 200: zEnvelope(ZTransactionPage) },
      },
    },
    async (request) => ok(await listTransactions(ctx.db, { actor: request.actor, query: request.query })),
  );

  r.get(
    paths.ledger.transactionsCsv,
    {
      schema: {
        tags: ['ledger'],
        summary: 'The same key movements (same filters) as CSV',
        querystring: ZTransactionQuery,
      },
    },
    async (request, reply) => {
      const csv = await transactionsCsv(ctx.db, { actor: request.actor, query: request.query });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="top-up-history.csv"')
        .send(csv);
    },
  );

  r.post(
    paths.admin.creditKeys,
    {
      schema: {
        tags: ['admin'],
        summary: 'Credit keys to a retailer of your organisation (organisation admin only)',
        body: ZCreditKeysRequest,
        response: { 200: zEnvelope(ZLedgerMovement) },
      },
    },
    async (request) =>
      ok(await creditKeys(ctx.db, { actor: request.actor, request: request.body }), 'Keys credited'),
  );

  r.get(
    paths.admin.retailers,
    {
      schema: {
        tags: ['admin'],
        summary: "Your organisation's retailers, by name, shop or mobile (organisation admin only)",
        querystring: ZAdminRetailersQuery,
        response: { 200: zEnvelope(z.array(ZAdminRetailer)) },
      },
    },
    async (request) =>
      ok(await listRetailersForAdmin(ctx.db, { actor: request.actor, search: request.query.search })),
  );
};
