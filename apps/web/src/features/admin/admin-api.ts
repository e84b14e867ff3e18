import type {
  TDecideSignupRequest,
  TSignupRequestItem,
  TSignupStatus,
} from '@kisht/domain/joining/joining.schema';
import type { TAdminRetailer, TCreditKeysRequest, TLedgerMovement } from '@kisht/domain/ledger/ledger.schema';
import { paths } from '@kisht/domain/paths';
import type { TKeyPrices } from '@kisht/domain/payments/payments.schema';
import type { TPlan, TSavePlanRequest } from '@kisht/domain/plans/plans.schema';
import { api } from '../../lib/http/api';
import { plansApi, type TPlansFilter } from '../../lib/http/plans-api';

const SIGNUP_LIST_TAG = { type: 'SignupRequest', id: 'LIST' } as const;

/**
 * The organisation's plans (issue 14), inactive ones too (the admin edits them): lib/http/plans-api's
 * listPlans without a filter, cached 5 s (spec §7).
 */
export const ALL_PLANS: TPlansFilter = {};

/**
 * The organisation admin's screens (issue 13): join requests (approve or decline), the
 * organisation's retailers (credit keys), the key prices, and the plans catalogue (issue 14).
 * Everyone else gets 403.
 */
export const adminApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Join requests of one status or all, pending first then newest. */
    listSignupRequests: build.query<TSignupRequestItem[], TSignupStatus | 'all'>({
      query: (status) => ({ url: paths.admin.signupRequests, params: { status } }),
      providesTags: (_result, _error, status) => [SIGNUP_LIST_TAG, { type: 'SignupRequest', id: status }],
    }),
    /** Approve (creates the retailer, SMS) or decline (SMS); the lists and the retailer search change. */
    decideSignupRequest: build.mutation<TSignupRequestItem, TDecideSignupRequest>({
      query: (body) => ({ url: paths.admin.decideSignup, method: 'POST', body }),
      invalidatesTags: [SIGNUP_LIST_TAG, { type: 'AdminRetailer', id: 'LIST' }],
    }),
    /** The organisation's retailers matching a name, shop or mobile fragment. */
    listAdminRetailers: build.query<TAdminRetailer[], string>({
      query: (search) => ({ url: paths.admin.retailers, params: search ? { search } : {} }),
      providesTags: (_result, _error, search) => [
        { type: 'AdminRetailer', id: 'LIST' },
        { type: 'AdminRetailer', id: `search:${search}` },
      ],
    }),
    /** Credits keys of an app_type to a retailer (a top-up in its ledger). */
    creditKeys: build.mutation<TLedgerMovement, TCreditKeysRequest>({
      query: (body) => ({ url: paths.admin.creditKeys, method: 'POST', body }),
    }),
    getKeyPrices: build.query<TKeyPrices, void>({
      query: () => paths.admin.keyPrices,
      providesTags: ['KeyPrices'],
    }),
    saveKeyPrices: build.mutation<TKeyPrices, TKeyPrices>({
      query: (body) => ({ url: paths.admin.keyPrices, method: 'PUT', body }),
      invalidatesTags: ['KeyPrices'],
    }),
    /** Creates (no id) or edits a plan; the saved plan replaces its row in the admin's list (ALL_PLANS). */
    savePlan: build.mutation<TPlan, TSavePlanRequest>({
      query: (body) => ({ url: paths.plans.list, method: 'PUT', body }),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data: saved } = await queryFulfilled.catch(() => ({ data: null }));
        if (!saved) return;
        dispatch(
          plansApi.util.updateQueryData('listPlans', ALL_PLANS, (plans) => {
            const at = plans.findIndex((plan) => plan.id === saved.id);
            if (at === -1) plans.push(saved);
            else plans[at] = saved;
            plans.sort((a, b) => a.appType - b.appType || a.pricePaise - b.pricePaise || a.id - b.id);
          }),
        );
      },
    }),
  }),
});

export const {
  useListSignupRequestsQuery,
  useDecideSignupRequestMutation,
  useListAdminRetailersQuery,
  useCreditKeysMutation,
  useGetKeyPricesQuery,
  useSaveKeyPricesMutation,
  useSavePlanMutation,
} = adminApi;
