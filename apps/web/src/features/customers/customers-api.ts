import type { TProduct } from '@kisht/domain/catalogue/catalogue.schema';
import type { TCity, TCountry, TFinancer, TState } from '@kisht/domain/catalogue/csc.schema';
import type { TCustomerStatusWord } from '@kisht/domain/common/enums';
import type {
  TCreateCustomerRequest,
  TCustomerDetails,
  TCustomerPage,
  TEnrolmentQr,
} from '@kisht/domain/customers/customers.schema';
import type { TDeviceCommand, TDeviceCommandRequest } from '@kisht/domain/devices/devices.schema';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { fileRequest } from '../../lib/http/base-query';

/** Rows per page of the customer list (each page the infinite scroll loads). */
export const CUSTOMER_PAGE_SIZE = 20;

/**
 * The country-state-city data does not change while the app runs, so it stays cached for a day
 * rather than the spec §7 default of 300 s.
 */
export const CSC_CACHE_SECONDS = 24 * 60 * 60;

/** What the customer list is filtered by; each filter is its own cached list of loaded pages. */
export type TCustomerListArgs = {
  search: string;
  status: TCustomerStatusWord | 'all';
};

/** What the customer-list CSV export is filtered by: the list's own search and status. */
export type TCustomerCsvArgs = TCustomerListArgs;

/** The states of a country (csc states route). */
export type TStatesArgs = { country: string };
/** The cities of a state of a country (csc cities route). */
export type TCitiesArgs = { country: string; state: string };

const LIST_TAG = { type: 'Customer', id: 'LIST' } as const;

export const customersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * customer_list, page by page as the person scrolls (infinite scroll). The cache key is the
     * filter (search and status); the pages loaded so far and the total live in its entry, so a
     * person who comes back finds the list as they left it (spec §3 client state: data, total).
     */
    listCustomers: build.infiniteQuery<TCustomerPage, TCustomerListArgs, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage) =>
          lastPage.page * lastPage.pageSize < lastPage.total ? lastPage.page + 1 : undefined,
      },
      query: ({ queryArg: { search, status }, pageParam }) => ({
        url: paths.customers.list,
        params: { page: pageParam, pageSize: CUSTOMER_PAGE_SIZE, status, ...(search ? { search } : {}) },
      }),
      providesTags: (result) => [
        LIST_TAG,
        ...(result?.pages.flatMap((page) =>
          page.items.map((item) => ({ type: 'Customer' as const, id: item.id })),
        ) ?? []),
      ],
    }),
    /** The list, filtered like the screen, as a CSV file (text), with the same headers as every call. */
    getCustomersCsv: build.query<string, TCustomerCsvArgs>({
      query: ({ search, status }) =>
        fileRequest(paths.customers.listCsv, { status, ...(search ? { search } : {}) }),
      keepUnusedDataFor: 0,
    }),
    getCustomerDetails: build.query<TCustomerDetails, number>({
      query: (customerId) => ({ url: paths.customers.details, params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => [{ type: 'Customer', id: customerId }],
    }),
    /** Each call issues a fresh one-time enrolment token, so it is never refetched behind the user's back. */
    getEnrolmentQr: build.query<TEnrolmentQr, number>({
      query: (customerId) => ({ url: paths.customers.qrCode, params: { customer_id: customerId } }),
      keepUnusedDataFor: 0,
    }),
    createCustomer: build.mutation<TCustomerDetails, TCreateCustomerRequest>({
      query: (body) => ({ url: paths.customers.create, method: 'POST', body }),
      // A new loan adds to what is outstanding and to the EMIs coming up.
      invalidatesTags: [LIST_TAG, 'Dashboard', 'Outstanding', 'UpcomingEmi'],
    }),
    listProducts: build.query<TProduct[], void>({
      query: () => paths.catalogue.products,
      providesTags: ['Product'],
    }),
    /** financer_list: the organisation's financers. Spec §7: a POST with no body. */
    listFinancers: build.query<TFinancer[], void>({
      query: () => ({ url: paths.catalogue.financers, method: 'POST' }),
      providesTags: ['Financer'],
    }),
    listCountries: build.query<TCountry[], void>({
      query: () => paths.catalogue.countries,
      keepUnusedDataFor: CSC_CACHE_SECONDS,
    }),
    /** The cache key is the country code. */
    listStates: build.query<TState[], TStatesArgs>({
      query: ({ country }) => ({ url: paths.catalogue.states, params: { country } }),
      keepUnusedDataFor: CSC_CACHE_SECONDS,
    }),
    /** The cache key is the country and state codes. */
    listCities: build.query<TCity[], TCitiesArgs>({
      query: ({ country, state }) => ({ url: paths.catalogue.cities, params: { country, state } }),
      keepUnusedDataFor: CSC_CACHE_SECONDS,
    }),
    lockDevice: build.mutation<TDeviceCommand, TDeviceCommandRequest>({
      query: (body) => ({ url: paths.devices.lock, method: 'POST', body }),
      invalidatesTags: (_result, _error, { customer_id }) => [
        { type: 'Customer', id: customer_id },
        LIST_TAG,
      ],
    }),
    unlockDevice: build.mutation<TDeviceCommand, TDeviceCommandRequest>({
      query: (body) => ({ url: paths.devices.unlock, method: 'POST', body }),
      invalidatesTags: (_result, _error, { customer_id }) => [
        { type: 'Customer', id: customer_id },
        LIST_TAG,
      ],
    }),
  }),
});

export const {
  useListCustomersInfiniteQuery,
  useLazyGetCustomersCsvQuery,
  useGetCustomerDetailsQuery,
  useGetEnrolmentQrQuery,
  useCreateCustomerMutation,
  useListProductsQuery,
  useListFinancersQuery,
  useListCountriesQuery,
  useListStatesQuery,
  useListCitiesQuery,
  useLockDeviceMutation,
  useUnlockDeviceMutation,
} = customersApi;
