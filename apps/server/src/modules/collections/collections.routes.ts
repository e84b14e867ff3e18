import { collectionsContract } from '@kisht/domain/contract/collections';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { collectionsCsv, collectionsWorkbook } from './collections.export';
import { getCollectionsExport, getCollectionsSummary, listCollectionsCustomers } from './collections.service';

/** The XLSX media type (ECMA-376). */
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The collections view's routes (issue 29): summary, a bucket's loans, and the exports. */
export const collectionsRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...contractRoute(collectionsContract.summary, {
      tags: ['collections'],
      summary: 'Loans by days past due, PAR 30, collection efficiency and roll rates',
    }),
    handler: async (request) => ok(await getCollectionsSummary(ctx.db, request.actor, request.query)),
  });

  r.route({
    ...contractRoute(collectionsContract.customers, {
      tags: ['collections'],
      summary: 'The open loans of one days-past-due bucket',
    }),
    handler: async (request) => ok(await listCollectionsCustomers(ctx.db, request.actor, request.query)),
  });

  r.route({
    ...contractRoute(collectionsContract.export, {
      tags: ['collections'],
      summary: 'The collections view as CSV (the loans) or XLSX (every figure and loan)',
    }),
    handler: async (request, reply) => {
      const { format, ...query } = request.query;
      const { summary, loans } = await getCollectionsExport(ctx.db, request.actor, query);
      const name = `collections-${summary.asOf}`;
      if (format === 'csv') {
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${name}.csv"`)
          .send(collectionsCsv(loans));
      }
      return reply
        .type(XLSX_TYPE)
        .header('content-disposition', `attachment; filename="${name}.xlsx"`)
        .send(await collectionsWorkbook(summary, loans));
    },
  });
};
