import type { TCustomerStatusWord } from '@kisht/domain/common/enums';
import type { customersContract } from '@kisht/domain/contract/customers';
import type { TContractData } from '@kisht/domain/contract/define';
import { paths } from '@kisht/domain/paths';
import { api } from './api';
import { contractRequest } from './contract-request';
import { READABLE_OFFLINE } from './offline-reads';
import { CUSTOMER_LIST_TAG } from './tags';

type TList = (typeof customersContract)['list'];

/** Rows per page of the customer list (each page the infinite scroll loads). */
export const CUSTOMER_PAGE_SIZE = 20;

/** What the customer list is filtered by; each filter is its own cached list of loaded pages. */
export type TCustomerListArgs = {
  search: string;
  status: TCustomerStatusWord | 'all';
  /**
   * Only this shop's customers (`retailer_id`: the retailer itself or one of its mini-retailers);
   * undefined for all the shops the actor sees.
   */
  retailerId?: number | undefined;
};

/**
 * The customer list (customer_list), shared by the customers feature's list page and the devices
 * feature's bulk customer picker, which chooses from the same rows.
 */
export const customerListApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * customer_list, page by page as the person scrolls (infinite scroll). The cache key is the
     * filter (search, status and shop); the pages loaded so far and the total live in its entry, so a
     * person who comes back finds the list as they left it (spec §3 client state: data, total).
     * Each page is readable offline as last fetched (issue 28).
     */
    listCustomers: build.infiniteQuery<TContractData<TList>, TCustomerListArgs, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage) =>
          lastPage.page * lastPage.pageSize < lastPage.total ? lastPage.page + 1 : undefined,
      },
      query: ({ queryArg: { search, status, retailerId }, pageParam }) =>
        contractRequest<TList>(
          { path: paths.customers.list, method: 'GET' },
          {
            params: {
              page: pageParam,
              pageSize: CUSTOMER_PAGE_SIZE,
              status,
              ...(search ? { search } : {}),
              ...(retailerId === undefined ? {} : { retailer_id: retailerId }),
            },
          },
        ),
      providesTags: (result) => [
        CUSTOMER_LIST_TAG,
        ...(result?.pages.flatMap((page) =>
          page.items.map((item) => ({ type: 'Customer' as const, id: item.id })),
        ) ?? []),
      ],
      extraOptions: READABLE_OFFLINE,
    }),
  }),
});

export const { useListCustomersInfiniteQuery } = customerListApi;
