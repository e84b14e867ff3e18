import type { catalogueContract } from '@kisht/domain/contract/catalogue';
import type { TContractData } from '@kisht/domain/contract/define';
import { paths } from '@kisht/domain/paths';
import { api } from './api';
import { contractRequest } from './contract-request';

type TProducts = (typeof catalogueContract)['products'];

/**
 * The organisation's products (brand and model), which more than one feature offers: add_customer's
 * product step, a plan's products (the admin's catalogue, a plan screen's `product_id`, the phones
 * an extended warranty covers). One cached list for all of them.
 */
export const productsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/products. */
    listProducts: build.query<TContractData<TProducts>, void>({
      query: () => contractRequest<TProducts>({ path: paths.catalogue.products, method: 'GET' }),
      providesTags: ['Product'],
    }),
  }),
});

export const { useListProductsQuery } = productsApi;
