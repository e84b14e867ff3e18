import type { TCustomerStatusWord } from '@kisht/domain/common/enums';

/** Query parameter of customer_navigate and path parameter of customer_details (spec §2, §3). */
export const CUSTOMER_ID_PARAM = 'customer_id';

export type TCustomerListFilters = {
  status?: TCustomerStatusWord | 'all' | undefined;
  search?: string | undefined;
  page?: number | undefined;
};

const withQuery = (path: string, query: Record<string, string | number | undefined>): string => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
};

/**
 * The app's route table (spec §2 route segments). Each route has the `path` the router matches and
 * an `href(...)` that builds a link to it; nobody writes a URL by hand.
 */
export const appPaths = {
  root: { path: '/', href: () => '/' },
  login: { path: '/login', href: () => '/login' },
  otp: { path: '/otp', href: () => '/otp' },
  dashboard: { path: '/dashboard', href: () => '/dashboard' },
  customerList: {
    path: '/customer_list',
    href: (filters: TCustomerListFilters = {}) =>
      withQuery('/customer_list', {
        status: filters.status === 'all' ? undefined : filters.status,
        search: filters.search,
        page: filters.page && filters.page > 1 ? filters.page : undefined,
      }),
  },
  addCustomer: { path: '/add_customer', href: () => '/add_customer' },
  customerNavigate: {
    path: '/customer_navigate',
    href: (customerId: number) => withQuery('/customer_navigate', { [CUSTOMER_ID_PARAM]: customerId }),
  },
  customerDetails: {
    path: `/customer_details/:${CUSTOMER_ID_PARAM}`,
    href: (customerId: number) => `/customer_details/${customerId}`,
  },
} as const;

/** Parses a customer id from a URL parameter: a positive integer, or null. */
export const parseCustomerId = (value: string | null | undefined): number | null => {
  if (!value || !/^\d+$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
};
