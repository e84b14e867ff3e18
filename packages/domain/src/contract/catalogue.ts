import { z } from 'zod';
import { ZBrand, ZProduct, ZProductsQuery } from '../catalogue/catalogue.schema';
import { ZCitiesQuery, ZCity, ZCountry, ZFinancer, ZState, ZStatesQuery } from '../catalogue/csc.schema';
import { paths } from '../paths';
import { defineRoutes } from './define';

/** The catalogue routes of the wire contract (contract/define.ts): products, brands, financers, places. Session required. */
export const catalogueContract = defineRoutes({
  /** Phone models and prices; with device_type only the phones of that device family. */
  products: {
    method: 'GET',
    path: paths.catalogue.products,
    query: ZProductsQuery,
    response: z.array(ZProduct),
  },
  /** Phone brands of the catalogue, with their model counts. */
  brands: { method: 'GET', path: paths.catalogue.brands, response: z.array(ZBrand) },
  /** The organisation's financers (spec §7: a POST without a body). */
  financers: { method: 'POST', path: paths.catalogue.financers, response: z.array(ZFinancer) },
  /** Countries. */
  countries: { method: 'GET', path: paths.catalogue.countries, response: z.array(ZCountry) },
  /** States of a country. */
  states: { method: 'GET', path: paths.catalogue.states, query: ZStatesQuery, response: z.array(ZState) },
  /** Cities of a state. */
  cities: { method: 'GET', path: paths.catalogue.cities, query: ZCitiesQuery, response: z.array(ZCity) },
});
