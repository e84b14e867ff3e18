import type { TContractBody, TContractData, TContractQuery } from '@kisht/domain/contract/define';
import type { keyRefundContract } from '@kisht/domain/contract/key-refund';
import type { ledgerContract } from '@kisht/domain/contract/ledger';
import type { TLedgerMovementKind } from '@kisht/domain/ledger/ledger.schema';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractFileRequest } from '../../lib/http/contract-download';
import { contractRequest } from '../../lib/http/contract-request';
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

type TBalances = (typeof ledgerContract)['balances'];
type TTransfer = (typeof ledgerContract)['transfer'];
type TTransactions = (typeof ledgerContract)['transactions'];
type TTransactionsCsv = (typeof ledgerContract)['transactionsCsv'];
type TRefundKey = (typeof keyRefundContract)['refundKey'];

/** The query of both history routes (the list and its CSV) for a filter; the list adds its cursor. */
const paramsOf = ({ from, to, type, userId }: TTransactionFilters) =>
  ({
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(type ? { type } : {}),
    ...(userId === undefined ? {} : { user_id: userId }),
  }) satisfies TContractQuery<TTransactionsCsv>;

/**
 * Keys, balance and transactions (issue 13): balances per app_type, transfers between a retailer
 * and its mini-retailers, the transaction history page by page and as CSV. A transfer changes
 * balances and histories, so it invalidates the key-balances tag (the history lists carry it too).
 */
export const ledgerApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Keys per app_type: the signed-in person's, or a mini-retailer's (its parent only). */
    getKeyBalances: build.query<TContractData<TBalances>, number | undefined>({
      query: (userId) =>
        contractRequest<TBalances>(
          { path: paths.ledger.balances, method: 'GET' },
          { params: userId === undefined ? {} : { user_id: userId } },
        ),
      providesTags: (_result, _error, userId) => [
        KEY_BALANCES_TAG,
        { type: KEY_BALANCES_TAG, id: userId ?? 'ME' },
      ],
    }),
    /** Keys to a mini-retailer (`to_child`) or back from it (`from_child`). */
    transferKeys: build.mutation<TContractData<TTransfer>, TContractBody<TTransfer>>({
      query: (body) => contractRequest<TTransfer>({ path: paths.ledger.transfer, method: 'POST' }, { body }),
      invalidatesTags: [KEY_BALANCES_TAG],
    }),
    /**
     * Gives back the key a customer's enrolment QR spent (the phone never enrolled): the QR shown
     * stops working; balances and histories change.
     */
    refundKey: build.mutation<TContractData<TRefundKey>, TContractBody<TRefundKey>>({
      query: (body) =>
        contractRequest<TRefundKey>({ path: paths.ledger.refundKey, method: 'POST' }, { body }),
      invalidatesTags: [KEY_BALANCES_TAG],
    }),
    /**
     * top_up_history, newest first, page by page as the person scrolls (a keyset cursor). The
     * cache key is the filter; its entry keeps the pages loaded so far.
     */
    listTransactions: build.infiniteQuery<TContractData<TTransactions>, TTransactionFilters, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
      },
      query: ({ queryArg, pageParam }) =>
        contractRequest<TTransactions>(
          { path: paths.ledger.transactions, method: 'GET' },
          { params: { ...paramsOf(queryArg), ...(pageParam ? { cursor: pageParam } : {}) } },
        ),
      providesTags: [KEY_BALANCES_TAG, TRANSACTIONS_TAG],
    }),
    /** The same history (same filters) as a CSV file (text). */
    getTransactionsCsv: build.query<string, TTransactionFilters>({
      query: (filters) =>
        contractFileRequest<TTransactionsCsv>(
          { path: paths.ledger.transactionsCsv, method: 'GET' },
          paramsOf(filters),
        ),
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
