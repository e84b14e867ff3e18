import { ZProduct } from '@kisht/domain/catalogue/catalogue.schema';
import { zEnvelope } from '@kisht/domain/common/envelope';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../lib/context';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { listProducts } from './catalogue.service';

export const catalogueRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  app.withTypeProvider<ZodTypeProvider>().get(
    paths.catalogue.products,
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Phone models and prices',
        response: { 200: zEnvelope(z.array(ZProduct)) },
      },
    },
    async (request) => ok(await listProducts(ctx.db, request.actor)),
  );
};
