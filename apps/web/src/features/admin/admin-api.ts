import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import type { joiningContract } from '@kisht/domain/contract/joining';
import type { ledgerContract } from '@kisht/domain/contract/ledger';
import type { paymentsContract } from '@kisht/domain/contract/payments';
import type { plansContract } from '@kisht/domain/contract/plans';
import type { TSignupStatus } from '@kisht/domain/joining/joining.schema';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';
import { plansApi, type TPlansFilter } from '../../lib/http/plans-api';
import { NETWORK_TAG } from '../../lib/http/tags';

const SIGNUP_LIST_TAG = { type: 'SignupRequest', id: 'LIST' } as const;

type TListSignupRequests = (typeof joiningContract)['listSignupRequests'];
type TDecideSignup = (typeof joiningContract)['decideSignup'];
type TCreditKeys = (typeof ledgerContract)['creditKeys'];
type TGetKeyPrices = (typeof paymentsContract)['getKeyPrices'];
type TSaveKeyPrices = (typeof paymentsContract)['saveKeyPrices'];
type TSavePlan = (typeof plansContract)['save'];

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
    listSignupRequests: build.query<TContractData<TListSignupRequests>, TSignupStatus | 'all'>({
      query: (status) =>
        contractRequest<TListSignupRequests>(
          { path: paths.admin.signupRequests, method: 'GET' },
          { params: { status } },
        ),
      providesTags: (_result, _error, status) => [SIGNUP_LIST_TAG, { type: 'SignupRequest', id: status }],
    }),
    /** Approve (creates the retailer, SMS) or decline (SMS); the lists and the retailer search change. */
    decideSignupRequest: build.mutation<TContractData<TDecideSignup>, TContractBody<TDecideSignup>>({
      query: (body) =>
        contractRequest<TDecideSignup>({ path: paths.admin.decideSignup, method: 'POST' }, { body }),
      invalidatesTags: [SIGNUP_LIST_TAG, { type: 'AdminRetailer', id: 'LIST' }, NETWORK_TAG],
    }),
    /** Credits keys of an app_type to a retailer (a top-up in its ledger). */
    creditKeys: build.mutation<TContractData<TCreditKeys>, TContractBody<TCreditKeys>>({
      query: (body) =>
        contractRequest<TCreditKeys>({ path: paths.admin.creditKeys, method: 'POST' }, { body }),
    }),
    getKeyPrices: build.query<TContractData<TGetKeyPrices>, void>({
      query: () => contractRequest<TGetKeyPrices>({ path: paths.admin.keyPrices, method: 'GET' }),
      providesTags: ['KeyPrices'],
    }),
    saveKeyPrices: build.mutation<TContractData<TSaveKeyPrices>, TContractBody<TSaveKeyPrices>>({
      query: (body) =>
        contractRequest<TSaveKeyPrices>({ path: paths.admin.keyPrices, method: 'PUT' }, { body }),
      invalidatesTags: ['KeyPrices'],
    }),
    /** Creates (no id) or edits a plan; the saved plan replaces its row in the admin's list (ALL_PLANS). */
    savePlan: build.mutation<TContractData<TSavePlan>, TContractBody<TSavePlan>>({
      query: (body) => contractRequest<TSavePlan>({ path: paths.plans.list, method: 'PUT' }, { body }),
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
  useCreditKeysMutation,
  useGetKeyPricesQuery,
  useSaveKeyPricesMutation,
  useSavePlanMutation,
} = adminApi;
