import { catalogueContract } from '@kisht/domain/contract/catalogue';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { listBrands, listFinancers, listProducts } from './catalogue.service';
import { listCities, listCountries, listStates } from './csc.service';

/**
 * The catalogue (session required): the organisation's products and brands, its financers, and the
 * country, state and city lists of the address forms.
 */
export const catalogueRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...contractRoute(catalogueContract.products, {
      tags: ['catalogue'],
      summary: 'Phone models and prices; with device_type only the phones of that device family',
    }),
    handler: async (request) => ok(await listProducts(ctx.db, request.actor, request.query.device_type)),
  });
  r.route({
    ...contractRoute(catalogueContract.brands, {
      tags: ['catalogue'],
      summary: 'Phone brands of the catalogue, with their model counts',
    }),
    handler: async (request) => ok(await listBrands(ctx.db, request.actor)),
  });
  r.route({
    ...contractRoute(catalogueContract.financers, {
      tags: ['catalogue'],
      summary: "The organisation's financers",
    }),
    handler: async (request) => ok(await listFinancers(ctx.db, request.actor)),
  });
  r.route({
    ...contractRoute(catalogueContract.countries, { tags: ['catalogue'], summary: 'Countries' }),
    handler: async () => ok(listCountries()),
  });
  r.route({
    ...contractRoute(catalogueContract.states, { tags: ['catalogue'], summary: 'States of a country' }),
    handler: async (request) => ok(listStates(request.query.country)),
  });
  r.route({
    ...contractRoute(catalogueContract.cities, { tags: ['catalogue'], summary: 'Cities of a state' }),
    handler: async (request) => ok(listCities(request.query.country, request.query.state)),
  });
};
