import { ZBrand, ZProduct, ZProductsQuery } from '@kisht/domain/catalogue/catalogue.schema';
import {
  ZCitiesQuery,
  ZCity,
  ZCountry,
  ZFinancer,
  ZState,
  ZStatesQuery,
} from '@kisht/domain/catalogue/csc.schema';
import { zEnvelope } from '@kisht/domain/common/envelope';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../lib/context';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { listBrands, listFinancers, listProducts } from './catalogue.service';
import { listCities, listCountries, listStates } from './csc.service';

export const catalogueRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  app.withTypeProvider<ZodTypeProvider>().get(
    paths.catalogue.products,
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Phone models and prices; with device_type only the phones of that device family',
        querystring: ZProductsQuery,
        response: { 200: zEnvelope(z.array(ZProduct)) },
      },
    },
    async (request) => ok(await listProducts(ctx.db, request.actor, request.query.device_type)),
  );
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    paths.catalogue.brands,
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Phone brands of the catalogue, with their model counts',
        response: { 200: zEnvelope(z.array(ZBrand)) },
      },
    },
    async (request) => ok(await listBrands(ctx.db, request.actor)),
  );
  r.post(
    paths.catalogue.financers,
    {
      schema: {
        tags: ['catalogue'],
        summary: "The organisation's financers",
        response: { 200: zEnvelope(z.array(ZFinancer)) },
      },
    },
    async (request) => ok(await listFinancers(ctx.db, request.actor)),
  );
  r.get(
    paths.catalogue.countries,
    {
      schema: { tags: ['catalogue'], summary: 'Countries', response: { 200: zEnvelope(z.array(ZCountry)) } },
    },
    async () => ok(listCountries()),
  );
  r.get(
    paths.catalogue.states,
    {
      schema: {
        tags: ['catalogue'],
        summary: 'States of a country',
        querystring: ZStatesQuery,
        response: { 200: zEnvelope(z.array(ZState)) },
      },
    },
    async (request) => ok(listStates(request.query.country)),
  );
  r.get(
    paths.catalogue.cities,
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Cities of a state',
        querystring: ZCitiesQuery,
        response: { 200: zEnvelope(z.array(ZCity)) },
      },
    },
    async (request) => ok(listCities(request.query.country, request.query.state)),
  );
};
