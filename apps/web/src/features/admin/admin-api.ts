import type {
  TDecideSignupRequest,
  TSignupRequestItem,
  TSignupStatus,
} from '@kisht/domain/joining/joining.schema';
import type { TAdminRetailer, TCreditKeysRequest, TLedgerMovement } from '@kisht/domain/ledger/ledger.schema';
import { paths } from '@kisht/domain/paths';
import type { TKeyPrices } from '@kisht/domain/payments/payments.schema';
import { api } from '../../lib/http/api';

const SIGNUP_LIST_TAG = { type: 'SignupRequest', id: 'LIST' } as const;

/**
 * The organisation admin's screens (issue 13): join requests (approve or decline), the
 * organisation's retailers (credit keys) and the key prices. Everyone else gets 403.
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
  }),
});

export const {
  useListSignupRequestsQuery,
  useDecideSignupRequestMutation,
  useListAdminRetailersQuery,
  useCreditKeysMutation,
  useGetKeyPricesQuery,
  useSaveKeyPricesMutation,
} = adminApi;
