import { paths } from '@kisht/domain/paths';
import type {
  TPlan,
  TPlanActivation,
  TSellPlanRequest,
  TSellPlanResponseItem,
} from '@kisht/domain/plans/plans.schema';
import { ANTI_THEFT_APP_TYPES } from '@kisht/domain/plans/plans.schema';
import { api, PLANS_CACHE_SECONDS } from '../../lib/http/api';
import { KEY_BALANCES_TAG } from '../../lib/http/tags';

/** The `app_type` query of the anti-theft list: both anti-theft app_types (4, 9), comma-separated. */
export const ANTI_THEFT_APP_TYPE_QUERY = ANTI_THEFT_APP_TYPES.join(',');

/**
 * anti_theft: the organisation's anti-theft plans (app_types 4 and 9, one list each, cached 5 s as
 * spec §7 says of plans), the anti-theft sales the signed-in seller may see (own and
 * mini-retailers'), and a sale. A sale answers the new activation, which goes to the top of the
 * cached list, and spends a key, so the key balances are refetched.
 */
export const antiTheftApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/plans?app_type=: the active plans of one anti-theft app_type. */
    listAntiTheftPlans: build.query<TPlan[], (typeof ANTI_THEFT_APP_TYPES)[number]>({
      query: (appType) => ({ url: paths.plans.list, params: { app_type: appType } }),
      keepUnusedDataFor: PLANS_CACHE_SECONDS,
    }),
    /** GET /api/plans/activations?app_type=4,9: anti-theft sales, newest first. */
    listAntiTheftSales: build.query<TPlanActivation[], void>({
      query: () => ({ url: paths.plans.activations, params: { app_type: ANTI_THEFT_APP_TYPE_QUERY } }),
    }),
    /** POST /api/plans/sell: data[0].antihacking_code is the code, data[0].activation the sale. */
    sellAntiTheftPlan: build.mutation<TSellPlanResponseItem, TSellPlanRequest>({
      query: (body) => ({ url: paths.plans.sell, method: 'POST', body }),
      transformResponse: (data: TSellPlanResponseItem[]) => data[0]!,
      invalidatesTags: (result) => (result ? [KEY_BALANCES_TAG] : []),
      onQueryStarted: async (_request, { dispatch, queryFulfilled }) => {
        const answer = await queryFulfilled.catch(() => null);
        if (!answer) return;
        const { activation } = answer.data;
        dispatch(
          antiTheftApi.util.updateQueryData('listAntiTheftSales', undefined, (sales) => {
            if (!sales.some((sale) => sale.id === activation.id)) sales.unshift(activation);
          }),
        );
      },
    }),
  }),
});

export const { useListAntiTheftPlansQuery, useListAntiTheftSalesQuery, useSellAntiTheftPlanMutation } =
  antiTheftApi;
