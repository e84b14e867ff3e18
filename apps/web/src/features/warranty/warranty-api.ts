import type { TProduct } from '@kisht/domain/catalogue/catalogue.schema';
import { AppType } from '@kisht/domain/common/enums';
import { paths } from '@kisht/domain/paths';
import type {
  TPlan,
  TPlanActivation,
  TSellPlanRequest,
  TSellPlanResponseItem,
} from '@kisht/domain/plans/plans.schema';
import type { TCertificateLanguage } from '@kisht/domain/plans/warranty.schema';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { api, appBaseQuery, PLANS_CACHE_SECONDS } from '../../lib/http/api';
import { blobRequest, type TApiError } from '../../lib/http/base-query';
import { KEY_BALANCES_TAG } from '../../lib/http/tags';

/**
 * extended_warranty (app_type 5): the organisation's warranty plans (cached 5 s, spec §7 plans),
 * its products, the warranties the signed-in person may see (a seller its own and its
 * mini-retailers' sales, a customer their own), and a sale. A sale answers the new activation,
 * which goes to the top of the cached list, and spends a key, so the key balances are refetched.
 */
export const warrantyApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/plans?app_type=5. */
    listWarrantyPlans: build.query<TPlan[], void>({
      query: () => ({ url: paths.plans.list, params: { app_type: AppType.EXTENDED_WARRANTY } }),
      keepUnusedDataFor: PLANS_CACHE_SECONDS,
    }),
    /** GET /api/products: the phones a warranty can cover. */
    listWarrantyProducts: build.query<TProduct[], void>({
      query: () => paths.catalogue.products,
      providesTags: ['Product'],
    }),
    /** GET /api/plans/activations?app_type=5: warranties sold, newest first. */
    listWarranties: build.query<TPlanActivation[], void>({
      query: () => ({
        url: paths.plans.activations,
        params: { app_type: String(AppType.EXTENDED_WARRANTY) },
      }),
    }),
    /** POST /api/customer/add_plan_customer: data[0].antihacking_code is the code, data[0].activation the sale. */
    sellWarranty: build.mutation<TSellPlanResponseItem, TSellPlanRequest>({
      query: (body) => ({ url: paths.plans.sell, method: 'POST', body }),
      transformResponse: (data: TSellPlanResponseItem[]) => data[0]!,
      invalidatesTags: (result) => (result ? [KEY_BALANCES_TAG] : []),
      onQueryStarted: async (_request, { dispatch, queryFulfilled }) => {
        const answer = await queryFulfilled.catch(() => null);
        if (!answer) return;
        const { activation } = answer.data;
        dispatch(
          warrantyApi.util.updateQueryData('listWarranties', undefined, (warranties) => {
            if (!warranties.some((warranty) => warranty.id === activation.id)) warranties.unshift(activation);
          }),
        );
      },
    }),
  }),
});

export const {
  useListWarrantyPlansQuery,
  useListWarrantyProductsQuery,
  useListWarrantiesQuery,
  useSellWarrantyMutation,
} = warrantyApi;

/** The store parts a direct base-query call needs: its state (the request context) and dispatch. */
type TStoreAccess = Pick<BaseQueryApi, 'getState' | 'dispatch'>;

/**
 * Fetches a warranty's PDF certificate (GET paths.plans.warrantyCertificate) in `language` through
 * the app's base query, so it carries the same spec §7 headers, 511 handling and error messages as
 * every call; a blob request (the PDF is binary, which a text file request would garble). Resolves
 * to the PDF's Blob or the TApiError; never throws. The Blob stays out of the store.
 */
export const fetchWarrantyCertificate = async (
  options: { activationId: number; language: TCertificateLanguage },
  store: TStoreAccess,
): Promise<{ blob: Blob } | { error: TApiError }> => {
  const queryApi: BaseQueryApi = {
    signal: new AbortController().signal,
    abort: () => undefined,
    dispatch: store.dispatch,
    getState: store.getState,
    extra: undefined,
    endpoint: 'warrantyCertificate',
    type: 'query',
  };
  const result = await appBaseQuery(
    blobRequest(paths.plans.warrantyCertificate, {
      activation_id: options.activationId,
      lang: options.language,
    }),
    queryApi,
    {},
  );
  if (result.error) return { error: result.error };
  return { blob: result.data as Blob };
};
