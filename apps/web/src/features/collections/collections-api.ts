import type { TDpdBucket } from '@kisht/domain/collections/collections.rules';
import type { collectionsContract } from '@kisht/domain/contract/collections';
import type { TContractData } from '@kisht/domain/contract/define';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import type { TApiError } from '../../lib/http/base-query';
import { contractBlobRequest, contractFileRequest } from '../../lib/http/contract-download';
import { contractRequest } from '../../lib/http/contract-request';
import { fetchBlob, type TStoreAccess } from '../../lib/http/direct-blob';

type TSummary = (typeof collectionsContract)['summary'];
type TCustomers = (typeof collectionsContract)['customers'];
type TExport = (typeof collectionsContract)['export'];

/** Loans per page of a bucket's list ("Load more" fetches the next). */
export const COLLECTIONS_PAGE_SIZE = 20;

/** The collections view's filters: a shop (undefined: all the actor's) and the efficiency period. */
export type TCollectionsFilter = {
  retailerId?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
};

const filterParams = ({ retailerId, from, to }: TCollectionsFilter) => ({
  ...(retailerId === undefined ? {} : { retailer_id: retailerId }),
  ...(from ? { from } : {}),
  ...(to ? { to } : {}),
});

/**
 * The collections view (issue 29). Money changes (a payment, a waiver) invalidate 'Outstanding',
 * so the figures are fetched afresh after one.
 */
export const collectionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Buckets, PAR 30, collection efficiency, roll rates and shops. */
    getCollectionsSummary: build.query<TContractData<TSummary>, TCollectionsFilter>({
      query: (filter) =>
        contractRequest<TSummary>(
          { path: paths.collections.summary, method: 'GET' },
          { params: filterParams(filter) },
        ),
      providesTags: ['Outstanding'],
    }),
    /** The open loans of one DPD bucket, most days past due first, page by page. */
    getCollectionsLoans: build.infiniteQuery<
      TContractData<TCustomers>,
      { bucket: TDpdBucket; retailerId?: number | undefined },
      number
    >({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage) =>
          lastPage.page * lastPage.pageSize < lastPage.total ? lastPage.page + 1 : undefined,
      },
      query: ({ queryArg, pageParam }) =>
        contractRequest<TCustomers>(
          { path: paths.collections.customers, method: 'GET' },
          {
            params: {
              bucket: queryArg.bucket,
              page: pageParam,
              pageSize: COLLECTIONS_PAGE_SIZE,
              ...filterParams({ retailerId: queryArg.retailerId }),
            },
          },
        ),
      providesTags: ['Outstanding'],
    }),
    /** Every open loan as CSV text. */
    getCollectionsCsv: build.query<string, TCollectionsFilter>({
      query: (filter) =>
        contractFileRequest<TExport>(
          { path: paths.collections.export, method: 'GET' },
          { format: 'csv', ...filterParams(filter) },
        ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const {
  useGetCollectionsSummaryQuery,
  useGetCollectionsLoansInfiniteQuery,
  useLazyGetCollectionsCsvQuery,
} = collectionsApi;

/**
 * The workbook (Buckets, Shops, Roll rates and Loans sheets) through the app's base query, kept
 * out of the store (lib/http fetchBlob). Resolves to the Blob or the TApiError; never throws.
 */
export const fetchCollectionsWorkbook = (
  filter: TCollectionsFilter,
  store: TStoreAccess,
): Promise<{ blob: Blob } | { error: TApiError }> =>
  fetchBlob(
    contractBlobRequest<TExport>(
      { path: paths.collections.export, method: 'GET' },
      { format: 'xlsx', ...filterParams(filter) },
    ),
    store,
    'collectionsWorkbook',
  );
