import { paths } from '@kisht/domain/paths';
import type { TPlan, TSellPlanRequest, TSellPlanResponseItem } from '@kisht/domain/plans/plans.schema';
import { api, PLANS_CACHE_SECONDS } from '../../lib/http/api';

/**
 * The protection plans add_customer offers with a new customer (issue 14): the plans for the
 * customer's product (cached 5 s, spec §7; the cache key is the product) and the sale.
 */
export const customerPlansApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The active plans that apply to a product (GET plans?product_id=). */
    listPlansForProduct: build.query<TPlan[], number>({
      query: (productId) => ({ url: paths.plans.list, params: { product_id: productId } }),
      keepUnusedDataFor: PLANS_CACHE_SECONDS,
    }),
    /** Sells a plan to the customer (spec §3): data[0].antihacking_code is the activation code. */
    sellPlanToCustomer: build.mutation<TSellPlanResponseItem, TSellPlanRequest>({
      query: (body) => ({ url: paths.plans.sell, method: 'POST', body }),
      transformResponse: (items: TSellPlanResponseItem[]) => items[0]!,
    }),
  }),
});

export const { useListPlansForProductQuery, useSellPlanToCustomerMutation } = customerPlansApi;
