import type {
  TEmiDetails,
  TMyLoan,
  TPaymentReceipt,
  TRecordPaymentRequest,
  TUpcomingEmiCounts,
  TUpcomingEmiPage,
} from '@kisht/domain/emi/emi.schema';
import { paths } from '@kisht/domain/paths';
import type { TUpcomingRange } from '../../app/paths';
import { api } from '../../lib/http/api';
import { fileRequest } from '../../lib/http/base-query';

/** Rows per page of the upcoming-EMI list ("Load more" fetches the next page). */
export const UPCOMING_PAGE_SIZE = 20;

const UPCOMING_TAG = 'UpcomingEmi' as const;
const MY_LOANS_TAG = { type: 'Emi', id: 'MINE' } as const;

export const emiApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** emi_details / view_emi_details: one customer's schedule, totals and payments. */
    getEmiDetails: build.query<TEmiDetails, number>({
      query: (customerId) => ({ url: paths.emi.details, params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => [{ type: 'Emi', id: customerId }],
    }),
    /**
     * Records a payment against the chosen instalments. It changes the customer's schedule, their
     * details and list row (status 5 once paid off), the dashboard figures and the upcoming EMIs.
     */
    recordPayment: build.mutation<TPaymentReceipt, TRecordPaymentRequest>({
      query: (body) => ({ url: paths.emi.pay, method: 'POST', body }),
      invalidatesTags: (_result, _error, { customer_id }) => [
        { type: 'Emi', id: customer_id },
        { type: 'Customer', id: customer_id },
        { type: 'Customer', id: 'LIST' },
        'Dashboard',
        UPCOMING_TAG,
        'Outstanding',
      ],
    }),
    /** The schedule as a CSV file (text), with the same headers as every call. Never cached. */
    getEmiScheduleCsv: build.query<string, number>({
      query: (customerId) => fileRequest(paths.emi.scheduleCsv, { customer_id: customerId }),
      keepUnusedDataFor: 0,
    }),
    /** Unpaid instalments due today, this week and overdue. */
    getUpcomingEmiCounts: build.query<TUpcomingEmiCounts, void>({
      query: () => paths.emi.upcomingCounts,
      providesTags: [UPCOMING_TAG],
    }),
    /** One tab of up_coming_emi, page by page ("Load more"); the cache key is the range. */
    getUpcomingEmi: build.infiniteQuery<TUpcomingEmiPage, TUpcomingRange, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage) =>
          lastPage.page * lastPage.pageSize < lastPage.total ? lastPage.page + 1 : undefined,
      },
      query: ({ queryArg, pageParam }) => ({
        url: paths.emi.upcoming,
        params: { range: queryArg, page: pageParam, pageSize: UPCOMING_PAGE_SIZE },
      }),
      providesTags: [UPCOMING_TAG],
    }),
    /** A customer user's own loans and how to pay (spec §4 user type customer). */
    getMyLoans: build.query<TMyLoan[], void>({
      query: () => paths.emi.myLoans,
      providesTags: [MY_LOANS_TAG],
    }),
  }),
});

export const {
  useGetEmiDetailsQuery,
  useRecordPaymentMutation,
  useLazyGetEmiScheduleCsvQuery,
  useGetUpcomingEmiCountsQuery,
  useGetUpcomingEmiInfiniteQuery,
  useGetMyLoansQuery,
} = emiApi;
