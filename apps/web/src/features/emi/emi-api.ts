import type { TDeviceCommand } from '@kisht/domain/devices/devices.schema';
import type {
  TCustomerEmiPin,
  TEmiDetails,
  TMyLoan,
  TPaymentReceipt,
  TRotateEmiPinRequest,
  TSendEmiAlertRequest,
  TSendPenaltyRequest,
  TUpcomingEmiCounts,
  TUpcomingEmiPage,
  TUpdateEmiStatusRequest,
} from '@kisht/domain/emi/emi.schema';
import { IDEMPOTENCY_KEY_HEADER } from '@kisht/domain/emi/idempotency-key-header';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { fileRequest } from '../../lib/http/base-query';
import type { TUpcomingRange } from '../../lib/paths';
import type { TPaymentAttempt } from './record-payment-form';

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
    /** emi_details / view_emi_details: one customer's schedule, totals and payments. */
    getEmiDetails: build.query<TEmiDetails, number>({
      query: (customerId) => ({ url: paths.emi.details, params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => [{ type: 'Emi', id: customerId }],
    }),
    /**
     * Records a payment against the chosen instalments, with the attempt's Idempotency-Key (see
     * paymentAttemptFor): a retry of the attempt answers the first receipt and records nothing
     * again. It changes the customer's schedule, their details and list row (status 5 once paid
     * off), the dashboard figures and the upcoming EMIs.
     */
    recordPayment: build.mutation<TPaymentReceipt, TPaymentAttempt>({
      query: ({ request, idempotencyKey }) => ({
        url: paths.emi.pay,
        method: 'POST',
        body: request,
        headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
      }),
      invalidatesTags: (_result, _error, { request }) => [...moneyChangedTags(request.customer_id)],
    }),
    /**
     * send_penalty: levies the organisation's penalty (the row's penaltyDuePaise) on one overdue
     * instalment. Answers the fresh schedule; the cached one is refetched. PENALTY_NOT_DUE (409)
     * when none is due any more.
     */
    sendPenalty: build.mutation<TEmiDetails, TSendPenaltyRequest>({
      query: (body) => ({ url: paths.customers.sendPenalty, method: 'POST', body }),
      invalidatesTags: (_result, _error, { customer_id }) => [...moneyChangedTags(customer_id)],
    }),
    /**
     * update_emi_status: waives what is still owed on an instalment ('waived') or only its unpaid
     * penalty ('penalty_waived'), with a reason. Answers the fresh schedule; NOTHING_TO_WAIVE (409).
     */
    updateEmiStatus: build.mutation<TEmiDetails, TUpdateEmiStatusRequest>({
      query: (body) => ({ url: paths.emi.updateStatus, method: 'POST', body }),
      invalidatesTags: (_result, _error, { customer_id }) => [...moneyChangedTags(customer_id)],
    }),
    /**
     * send_emialert: queues the emi_alert command (the reminder of what is due) for the customer's
     * phone and answers the command. DEVICE_NOT_ENROLLED or NOTHING_DUE (409). The customer's
     * details show the device's newest command, so they are refetched; the schedule is unchanged.
     */
    sendEmiAlert: build.mutation<TDeviceCommand, TSendEmiAlertRequest>({
      query: (body) => ({ url: paths.emi.sendAlert, method: 'POST', body }),
      invalidatesTags: (result, _error, { customer_id }) =>
        result ? [{ type: 'Customer', id: customer_id }] : [],
    }),
    /** customer_emi_pin: the customer's 6-digit EMI PIN; the server issues one on the first ask. */
    getCustomerEmiPin: build.query<TCustomerEmiPin, number>({
      query: (customerId) => ({ url: paths.emi.emiPin, params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => [emiPinTag(customerId)],
    }),
    /**
     * Issues a new EMI PIN (the old one stops matching). The PIN is fetched again, and so is the
     * customer list, as its search finds customers by PIN.
     */
    rotateEmiPin: build.mutation<TCustomerEmiPin, TRotateEmiPinRequest>({
      query: (body) => ({ url: paths.emi.emiPin, method: 'POST', body }),
      invalidatesTags: (result, _error, { customer_id }) =>
        result ? [emiPinTag(customer_id), { type: 'Customer', id: 'LIST' }] : [],
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
  useSendPenaltyMutation,
  useUpdateEmiStatusMutation,
  useSendEmiAlertMutation,
  useGetCustomerEmiPinQuery,
  useRotateEmiPinMutation,
} = emiApi;
