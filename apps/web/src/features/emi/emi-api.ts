import type { TContractBody, TContractData, TContractHeaders } from '@kisht/domain/contract/define';
import type { emiContract } from '@kisht/domain/contract/emi';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractFileRequest } from '../../lib/http/contract-download';
import { contractRequest } from '../../lib/http/contract-request';
import { READABLE_OFFLINE } from '../../lib/http/offline-reads';
import type { TUpcomingRange } from '../../lib/paths';
import type { TPaymentAttempt } from './record-payment-form';

type TDetails = (typeof emiContract)['details'];
type TPay = (typeof emiContract)['pay'];
type TSendPenalty = (typeof emiContract)['sendPenalty'];
type TUpdateStatus = (typeof emiContract)['updateStatus'];
type TSendAlert = (typeof emiContract)['sendAlert'];
type TEmiPin = (typeof emiContract)['emiPin'];
type TRotateEmiPin = (typeof emiContract)['rotateEmiPin'];
type TScheduleCsv = (typeof emiContract)['scheduleCsv'];
type TUpcomingCounts = (typeof emiContract)['upcomingCounts'];
type TUpcoming = (typeof emiContract)['upcoming'];
type TMyLoans = (typeof emiContract)['myLoans'];

/** Rows per page of the upcoming-EMI list ("Load more" fetches the next page). */
export const UPCOMING_PAGE_SIZE = 20;

const UPCOMING_TAG = 'UpcomingEmi' as const;
const MY_LOANS_TAG = { type: 'Emi', id: 'MINE' } as const;
/** A customer's EMI PIN; kept under the Emi tag type with an id of its own, apart from the schedule. */
const emiPinTag = (customerId: number) => ({ type: 'Emi', id: `PIN-${customerId}` }) as const;

/**
 * What a change to a customer's money (a payment, a penalty, a waiver) makes stale: their schedule,
 * their details and list row, the dashboard figures and the upcoming EMIs. Also used when the
 * change fails (RTK Query invalidates on a rejected mutation too), so a schedule the server found
 * out of date (PENALTY_NOT_DUE, NOTHING_TO_WAIVE) is fetched afresh.
 */
const moneyChangedTags = (customerId: number) =>
  [
    { type: 'Emi', id: customerId },
    { type: 'Customer', id: customerId },
    { type: 'Customer', id: 'LIST' },
    'Dashboard',
    UPCOMING_TAG,
    'Outstanding',
  ] as const;

export const emiApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * emi_details / view_emi_details: one customer's schedule, totals and payments; readable
     * offline as last fetched (issue 28).
     */
    getEmiDetails: build.query<TContractData<TDetails>, number>({
      query: (customerId) =>
        contractRequest<TDetails>(
          { path: paths.emi.details, method: 'GET' },
          { params: { customer_id: customerId } },
        ),
      providesTags: (_result, _error, customerId) => [{ type: 'Emi', id: customerId }],
      extraOptions: READABLE_OFFLINE,
    }),
    /**
     * Records a payment against the chosen instalments, with the attempt's Idempotency-Key (see
     * paymentAttemptFor): a retry of the attempt answers the first receipt and records nothing
     * again. It changes the customer's schedule, their details and list row (status 5 once paid
     * off), the dashboard figures and the upcoming EMIs.
     */
    recordPayment: build.mutation<TContractData<TPay>, TPaymentAttempt>({
      query: ({ request, idempotencyKey }) => ({
        ...contractRequest<TPay>({ path: paths.emi.pay, method: 'POST' }, { body: request }),
        // IDEMPOTENCY_KEY_HEADER as the contract names it (lower case, as Fastify reads headers), so the
        // compiler checks it against the route's headers; header names are case-insensitive.
        headers: { 'idempotency-key': idempotencyKey } satisfies TContractHeaders<TPay>,
      }),
      invalidatesTags: (_result, _error, { request }) => [...moneyChangedTags(request.customer_id)],
    }),
    /**
     * send_penalty: levies the organisation's penalty (the row's penaltyDuePaise) on one overdue
     * instalment. Answers the fresh schedule; the cached one is refetched. PENALTY_NOT_DUE (409)
     * when none is due any more.
     */
    sendPenalty: build.mutation<TContractData<TSendPenalty>, TContractBody<TSendPenalty>>({
      query: (body) =>
        contractRequest<TSendPenalty>({ path: paths.customers.sendPenalty, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, { customer_id }) => [...moneyChangedTags(customer_id)],
    }),
    /**
     * update_emi_status: waives what is still owed on an instalment ('waived') or only its unpaid
     * penalty ('penalty_waived'), with a reason. Answers the fresh schedule; NOTHING_TO_WAIVE (409).
     */
    updateEmiStatus: build.mutation<TContractData<TUpdateStatus>, TContractBody<TUpdateStatus>>({
      query: (body) =>
        contractRequest<TUpdateStatus>({ path: paths.emi.updateStatus, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, { customer_id }) => [...moneyChangedTags(customer_id)],
    }),
    /**
     * send_emialert: queues the emi_alert command (the reminder of what is due) for the customer's
     * phone and answers the command. DEVICE_NOT_ENROLLED or NOTHING_DUE (409). The customer's
     * details show the device's newest command, so they are refetched; the schedule is unchanged.
     */
    sendEmiAlert: build.mutation<TContractData<TSendAlert>, TContractBody<TSendAlert>>({
      query: (body) => contractRequest<TSendAlert>({ path: paths.emi.sendAlert, method: 'POST' }, { body }),
      invalidatesTags: (result, _error, { customer_id }) =>
        result ? [{ type: 'Customer', id: customer_id }] : [],
    }),
    /** customer_emi_pin: the customer's 6-digit EMI PIN; the server issues one on the first ask. */
    getCustomerEmiPin: build.query<TContractData<TEmiPin>, number>({
      query: (customerId) =>
        contractRequest<TEmiPin>(
          { path: paths.emi.emiPin, method: 'GET' },
          { params: { customer_id: customerId } },
        ),
      providesTags: (_result, _error, customerId) => [emiPinTag(customerId)],
    }),
    /**
     * Issues a new EMI PIN (the old one stops matching). The PIN is fetched again, and so is the
     * customer list, as its search finds customers by PIN.
     */
    rotateEmiPin: build.mutation<TContractData<TRotateEmiPin>, TContractBody<TRotateEmiPin>>({
      query: (body) => contractRequest<TRotateEmiPin>({ path: paths.emi.emiPin, method: 'POST' }, { body }),
      invalidatesTags: (result, _error, { customer_id }) =>
        result ? [emiPinTag(customer_id), { type: 'Customer', id: 'LIST' }] : [],
    }),
    /** The schedule as a CSV file (text), with the same headers as every call. Never cached. */
    getEmiScheduleCsv: build.query<string, number>({
      query: (customerId) =>
        contractFileRequest<TScheduleCsv>(
          { path: paths.emi.scheduleCsv, method: 'GET' },
          { customer_id: customerId },
        ),
      keepUnusedDataFor: 0,
    }),
    /** Unpaid instalments due today, this week and overdue; readable offline (issue 28). */
    getUpcomingEmiCounts: build.query<TContractData<TUpcomingCounts>, void>({
      query: () => contractRequest<TUpcomingCounts>({ path: paths.emi.upcomingCounts, method: 'GET' }),
      providesTags: [UPCOMING_TAG],
      extraOptions: READABLE_OFFLINE,
    }),
    /**
     * One tab of up_coming_emi, page by page ("Load more"); the cache key is the range. Each page
     * is readable offline as last fetched (issue 28).
     */
    getUpcomingEmi: build.infiniteQuery<TContractData<TUpcoming>, TUpcomingRange, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage) =>
          lastPage.page * lastPage.pageSize < lastPage.total ? lastPage.page + 1 : undefined,
      },
      query: ({ queryArg, pageParam }) =>
        contractRequest<TUpcoming>(
          { path: paths.emi.upcoming, method: 'GET' },
          { params: { range: queryArg, page: pageParam, pageSize: UPCOMING_PAGE_SIZE } },
        ),
      providesTags: [UPCOMING_TAG],
      extraOptions: READABLE_OFFLINE,
    }),
    /** A customer user's own loans and how to pay (spec §4 user type customer). */
    getMyLoans: build.query<TContractData<TMyLoans>, void>({
      query: () => contractRequest<TMyLoans>({ path: paths.emi.myLoans, method: 'GET' }),
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
  useSendPenaltyMutation,
  useUpdateEmiStatusMutation,
  useSendEmiAlertMutation,
  useGetCustomerEmiPinQuery,
  useRotateEmiPinMutation,
} = emiApi;
