import type { TProduct } from '@kisht/domain/catalogue/catalogue.schema';
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

/** Rows per page of the customer list. */
export const CUSTOMER_PAGE_SIZE = 20;

/** What the customer-list CSV export is filtered by: the list's own search and status. */
export type TCustomerCsvArgs = Pick<TCustomerListArgs, 'search' | 'status'>;

export type TCustomerListArgs = {
  page: number;
  search: string;
  status: TCustomerStatusWord | 'all';
};

const LIST_TAG = { type: 'Customer', id: 'LIST' } as const;

export const customersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The cache key is the whole args object: page, search and status all separate entries. */
    listCustomers: build.query<TCustomerPage, TCustomerListArgs>({
      query: ({ page, search, status }) => ({
        url: paths.customers.list,
        params: { page, pageSize: CUSTOMER_PAGE_SIZE, status, ...(search ? { search } : {}) },
      }),
      providesTags: (result) => [
        LIST_TAG,
        ...(result?.items.map((item) => ({ type: 'Customer' as const, id: item.id })) ?? []),
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
  useListCustomersQuery,
  useLazyGetCustomersCsvQuery,
  useGetCustomerDetailsQuery,
  useGetEnrolmentQrQuery,
  useCreateCustomerMutation,
  useListProductsQuery,
  useLockDeviceMutation,
  useUnlockDeviceMutation,
} = customersApi;
