import type {
  TKeyBalances,
  TLedgerMovement,
  TLedgerMovementKind,
  TRefundKeyRequest,
  TTransactionPage,
  TTransferKeysRequest,
} from '@kisht/domain/ledger/ledger.schema';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { fileRequest } from '../../lib/http/base-query';
import { KEY_BALANCES_TAG } from '../../lib/http/tags';

/**
 * top_up_history's filters (spec §3 query parameters `from`, `to`): +05:30 calendar days
 * `YYYY-MM-DD` (empty: no bound), a movement kind (empty: every kind), and optionally a
 * mini-retailer whose history its parent views. Each combination is its own cached list.
 */
export type TTransactionFilters = {
  from: string;
  to: string;
  type: TLedgerMovementKind | '';
  userId?: number | undefined;
};

/** Tag of every transaction list (each filter): any key movement may join them. */
const TRANSACTIONS_TAG = { type: KEY_BALANCES_TAG, id: 'TRANSACTIONS' } as const;

const paramsOf = ({ from, to, type, userId }: TTransactionFilters) => ({
  ...(from ? { from } : {}),
  ...(to ? { to } : {}),
  ...(type ? { type } : {}),
  ...(userId === undefined ? {} : { user_id: userId }),
});

/**
 * Keys, balance and transactions (issue 13): balances per app_type, transfers between a retailer
 * and its mini-retailers, the transaction history page by page and as CSV. A transfer changes
 * balances and histories, so it invalidates the key-balances tag (the history lists carry it too).
 */
export const ledgerApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Keys per app_type: the signed-in person's, or a mini-retailer's (its parent only). */
    getKeyBalances: build.query<TKeyBalances, number | undefined>({
      query: (userId) => ({
        url: paths.ledger.balances,
        params: userId === undefined ? {} : { user_id: userId },
      }),
      providesTags: (_result, _error, userId) => [
        KEY_BALANCES_TAG,
        { type: KEY_BALANCES_TAG, id: userId ?? 'ME' },
      ],
    }),
    /** Keys to a mini-retailer (`to_child`) or back from it (`from_child`). */
    transferKeys: build.mutation<TLedgerMovement, TTransferKeysRequest>({
      query: (body) => ({ url: paths.ledger.transfer, method: 'POST', body }),
      invalidatesTags: [KEY_BALANCES_TAG],
    }),
    /**
     * Gives back the key a customer's enrolment QR spent (the phone never enrolled): the QR shown
     * stops working; balances and histories change.
     */
    refundKey: build.mutation<TLedgerMovement, TRefundKeyRequest>({
      query: (body) => ({ url: paths.ledger.refundKey, method: 'POST', body }),
      invalidatesTags: [KEY_BALANCES_TAG],
    }),
    /**
     * top_up_history, newest first, page by page as the person scrolls (a keyset cursor). The
     * cache key is the filter; its entry keeps the pages loaded so far.
     */
    listTransactions: build.infiniteQuery<TTransactionPage, TTransactionFilters, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
      },
      query: ({ queryArg, pageParam }) => ({
        url: paths.ledger.transactions,
        params: { ...paramsOf(queryArg), ...(pageParam ? { cursor: pageParam } : {}) },
      }),
      providesTags: [KEY_BALANCES_TAG, TRANSACTIONS_TAG],
    }),
    /** The same history (same filters) as a CSV file (text). */
    getTransactionsCsv: build.query<string, TTransactionFilters>({
      query: (filters) => fileRequest(paths.ledger.transactionsCsv, paramsOf(filters)),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const {
  useGetKeyBalancesQuery,
  useTransferKeysMutation,
  useRefundKeyMutation,
  useListTransactionsInfiniteQuery,
  useLazyGetTransactionsCsvQuery,
} = ledgerApi;
