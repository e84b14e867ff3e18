import type { TProduct } from '@kisht/domain/catalogue/catalogue.schema';
import { paths } from '@kisht/domain/paths';
import { api } from './api';

/**
 * The organisation's products (brand and model), which more than one feature offers: add_customer's
 * product step, a plan's products (the admin's catalogue, a plan screen's `product_id`, the phones
 * an extended warranty covers). One cached list for all of them.
 */
export const productsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/products. */
    listProducts: build.query<TProduct[], void>({
      query: () => paths.catalogue.products,
      providesTags: ['Product'],
    }),
  }),
});

export const { useListProductsQuery } = productsApi;
