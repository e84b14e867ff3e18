import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import type { keyRequestsContract } from '@kisht/domain/contract/key-requests';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';
import { KEY_BALANCES_TAG } from '../../lib/http/tags';

type TList = (typeof keyRequestsContract)['list'];
type TCreate = (typeof keyRequestsContract)['create'];
type TDecide = (typeof keyRequestsContract)['decide'];
type TCancel = (typeof keyRequestsContract)['cancel'];
type TReturnKeys = (typeof keyRequestsContract)['returnKeys'];
type TPrices = (typeof keyRequestsContract)['prices'];
type TSavePrices = (typeof keyRequestsContract)['savePrices'];

/** Which requests a list holds: the actor's own to its parent, or those of the shops below it. */
export type TKeyRequestBox = 'sent' | 'received';

const KEY_REQUESTS_TAG = 'KeyRequests' as const;
/** One box's list (the session's actor: the box is the only parameter sent). */
const boxTag = (box: TKeyRequestBox) => ({ type: KEY_REQUESTS_TAG, id: box }) as const;
/** A retailer's prices to its mini-retailers. */
const PRICES_TAG = { type: KEY_REQUESTS_TAG, id: 'PRICES' } as const;

/**
 * Key requests and returns up the chain (issue 30): a shop asks its parent for keys (a
 * mini-retailer its retailer, a retailer its organisation), the parent approves or rejects, the
 * requester may withdraw a pending one, and unused keys go back up. An approval or a return moves
 * keys, so both invalidate the key balances (and the histories, which carry the same tag).
 */
export const keyRequestsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The actor's own requests (`sent`) or its shops' (`received`), newest first. */
    listKeyRequests: build.query<TContractData<TList>, TKeyRequestBox>({
      query: (box) =>
        contractRequest<TList>({ path: paths.keyRequests.list, method: 'GET' }, { params: { box } }),
      providesTags: (_result, _error, box) => [boxTag(box)],
    }),
    /** Asks the actor's parent for keys of one app_type; joins the `sent` list. */
    createKeyRequest: build.mutation<TContractData<TCreate>, TContractBody<TCreate>>({
      query: (body) => contractRequest<TCreate>({ path: paths.keyRequests.list, method: 'POST' }, { body }),
      invalidatesTags: (result) => (result ? [boxTag('sent')] : []),
    }),
    /**
     * The parent approves (the keys leave its balance) or rejects (with a note) a request of the
     * `received` list. A 409 (already decided) changes the list too, so it is fetched again either way.
     */
    decideKeyRequest: build.mutation<TContractData<TDecide>, TContractBody<TDecide>>({
      query: (body) => contractRequest<TDecide>({ path: paths.keyRequests.decide, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, body) =>
        body.decision === 'approve' ? [boxTag('received'), KEY_BALANCES_TAG] : [boxTag('received')],
    }),
    /** The requester withdraws a pending request of its `sent` list. */
    cancelKeyRequest: build.mutation<TContractData<TCancel>, TContractBody<TCancel>>({
      query: (body) => contractRequest<TCancel>({ path: paths.keyRequests.cancel, method: 'POST' }, { body }),
      invalidatesTags: [boxTag('sent')],
    }),
    /** Unused keys back to the actor's parent: one ledger movement out of its balance. */
    returnKeys: build.mutation<TContractData<TReturnKeys>, TContractBody<TReturnKeys>>({
      query: (body) =>
        contractRequest<TReturnKeys>({ path: paths.keyRequests.returnKeys, method: 'POST' }, { body }),
      invalidatesTags: (result) => (result ? [KEY_BALANCES_TAG] : []),
    }),
    /** A retailer's price per key to its mini-retailers, per app_type. */
    getShopKeyPrices: build.query<TContractData<TPrices>, void>({
      query: () => contractRequest<TPrices>({ path: paths.keyRequests.prices, method: 'GET' }),
      providesTags: [PRICES_TAG],
    }),
    /** Replaces a retailer's prices to its mini-retailers (a type left out costs the organisation's price). */
    saveShopKeyPrices: build.mutation<TContractData<TSavePrices>, TContractBody<TSavePrices>>({
      query: (body) =>
        contractRequest<TSavePrices>({ path: paths.keyRequests.prices, method: 'PUT' }, { body }),
      invalidatesTags: (result) => (result ? [PRICES_TAG] : []),
    }),
  }),
});

export const {
  useListKeyRequestsQuery,
  useCreateKeyRequestMutation,
  useDecideKeyRequestMutation,
  useCancelKeyRequestMutation,
  useReturnKeysMutation,
  useGetShopKeyPricesQuery,
  useSaveShopKeyPricesMutation,
} = keyRequestsApi;
