import type { TCustomerListItem, TCustomerPage } from '@kisht/domain/customers/customers.schema';
import type { TOrgAppConfig } from '@kisht/domain/orgs/orgs.schema';
import { paths } from '@kisht/domain/paths';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api as appApi } from '../../../lib/http/api';
import { CUSTOMER_PAGE_SIZE, customerListApi } from '../../../lib/http/customer-list-api';
import { CUSTOMER_LIST_TAG } from '../../../lib/http/tags';
import { appPaths } from '../../../lib/paths';
import { saveTextFile } from '../../../lib/save-file';
import { stubApi } from '../../../test/fake-api';
import { fakeOrgConfig, renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { CUSTOMER_ROW_ESTIMATE_PX } from '../components/virtual-customer-list';
import { CustomerListPage } from './customer-list-page';

vi.mock('../../../lib/save-file', () => ({ saveTextFile: vi.fn() }));

/**
 * Every row is this tall in these tests (jsdom lays nothing out): the list's estimate, as jsdom
 * has no ResizeObserver to correct an estimate later.
 */
const ROW_PX = CUSTOMER_ROW_ESTIMATE_PX;
/** jsdom's window height, px: about 8 rows on screen. */
const VIEWPORT_PX = window.innerHeight;

const customer = (id: number, overrides: Partial<TCustomerListItem> = {}): TCustomerListItem => ({
  id,
  firstName: `Customer`,
  lastName: `${id}`,
  mobile: '+919876543210',
  imei1: '356938035643809',
  productName: 'Redmi Note 14 5G',
  status: 1,
  lockStatus: 0,
  createdAt: '2026-01-15T06:45:00Z',
  ...overrides,
});

/** The page of `total` customers (ids 1…total) that the request asks for. */
const pageOf = (url: URL, total: number): TCustomerPage => {
  const page = Number(url.searchParams.get('page'));
  const pageSize = Number(url.searchParams.get('pageSize'));
  const start = (page - 1) * pageSize;
  const count = Math.max(0, Math.min(pageSize, total - start));
  return {
    items: Array.from({ length: count }, (_, index) => customer(start + index + 1)),
    total,
    page,
    pageSize,
  };
};

let i18n: TI18n;
let scrollY = 0;

/** Scrolls the window as a browser would: move, then a scroll event. */
const scrollWindowTo = (top: number) => {
  act(() => {
    scrollY = top;
    window.dispatchEvent(new Event('scroll'));
  });
};

beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  scrollY = 0;
  vi.spyOn(window, 'scrollY', 'get').mockImplementation(() => scrollY);
  // Like a browser: the window moves at once, and says so in a scroll event a moment later.
  vi.spyOn(window, 'scrollTo').mockImplementation(((options: ScrollToOptions) => {
    scrollY = options.top ?? scrollY;
    window.setTimeout(() => window.dispatchEvent(new Event('scroll')));
  }) as typeof window.scrollTo);
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(() => ROW_PX);
  // A page long enough to scroll anywhere in these lists, and laid out from its top: an element's
  // place on screen moves up as the window scrolls down.
  vi.spyOn(document.documentElement, 'scrollHeight', 'get').mockImplementation(() => 100 * ROW_PX);
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(() =>
    DOMRect.fromRect({ x: 0, y: -scrollY, width: 360, height: ROW_PX }),
  );
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const renderList = (url = appPaths.customerList.href(), orgConfig: TOrgAppConfig = fakeOrgConfig()) =>
  renderRoutes({
    i18n,
    url,
    orgConfig,
    routes: [
      { path: appPaths.customerList.path, element: <CustomerListPage /> },
      { path: appPaths.dashboard.path, element: <p>dashboard screen</p> },
      { path: appPaths.customerNavigate.path, element: <p>enrolment screen</p> },
      { path: appPaths.customerDetails.path, element: <p>customer details screen</p> },
    ],
  });

const pagesRequested = (api: ReturnType<typeof stubApi>) =>
  api.requestsTo(paths.customers.list).map((request) => new URL(request.url).searchParams.get('page'));

describe('opening an inactive customer from the list (spec §2)', () => {
  const inactivePage = (url: URL): TCustomerPage => ({
    ...pageOf(url, 1),
    items: [customer(9, { firstName: 'Anita', lastName: 'Rao', status: 0 })],
  });

  it("warns 'Customer is Inactive' and stays when the org config says warn", async () => {
    stubApi({ [paths.customers.list]: (_request, url) => inactivePage(url) });
    const { router } = renderList(
      undefined,
      fakeOrgConfig({ orgId: 46, pages: { dashboard: 'list', inactiveCustomer: 'warn' } }),
    );
    fireEvent.click(await screen.findByText('Anita Rao'));
    expect(await screen.findByText('Customer is Inactive')).toBeTruthy();
    expect(router.state.location.pathname).toBe(appPaths.customerList.path);
  });

  it('opens customer_navigate when the org config says navigate', async () => {
    stubApi({ [paths.customers.list]: (_request, url) => inactivePage(url) });
    const { router } = renderList();
    fireEvent.click(await screen.findByText('Anita Rao'));
    expect(await screen.findByText('enrolment screen')).toBeTruthy();
    expect(router.state.location.search).toBe('?customer_id=9');
  });
});

describe('customer list: infinite scroll, on-screen rows only', () => {
  it('renders only the rows on screen and loads the next page when the end scrolls into view', async () => {
    const api = stubApi({ [paths.customers.list]: (_request, url) => pageOf(url, 45) });
    renderList();
    expect(await screen.findByTestId('customer-row-1')).toBeTruthy();
    expect(screen.getByText('45 customers')).toBeTruthy();
    // About a screenful plus the overscan, out of the 20 loaded.
    const rendered = screen.getAllByTestId(/^customer-row-/).length;
    expect(rendered).toBeGreaterThan(VIEWPORT_PX / ROW_PX);
    expect(rendered).toBeLessThan(CUSTOMER_PAGE_SIZE);
    expect(pagesRequested(api)).toEqual(['1']);

    // Near the end of the first page the "loading more" row comes into range: page 2 loads.
    scrollWindowTo(CUSTOMER_PAGE_SIZE * ROW_PX - VIEWPORT_PX);
    expect(await screen.findByTestId('customer-row-21')).toBeTruthy();
    expect(pagesRequested(api)).toEqual(['1', '2']);
    expect(screen.queryByTestId('customer-row-1')).toBeNull();
    const [, second] = api.requestsTo(paths.customers.list);
    expect(Object.fromEntries(new URL(second?.url ?? '').searchParams)).toEqual({
      page: '2',
      pageSize: String(CUSTOMER_PAGE_SIZE),
      status: 'all',
    });

    // The last page: no further request, no "loading more" row.
    scrollWindowTo(45 * ROW_PX);
    expect(await screen.findByTestId('customer-row-45')).toBeTruthy();
    await waitFor(() => expect(pagesRequested(api)).toEqual(['1', '2', '3']));
    expect(screen.queryByTestId('customer-list-more')).toBeNull();
  });

  it('comes back to the same pages, total and scroll position after opening a customer', async () => {
    const api = stubApi({ [paths.customers.list]: (_request, url) => pageOf(url, 45) });
    const { router, store } = renderList();
    await screen.findByTestId('customer-row-1');
    scrollWindowTo(CUSTOMER_PAGE_SIZE * ROW_PX - VIEWPORT_PX);
    await screen.findByTestId('customer-row-21');
    const position = 22 * ROW_PX;
    scrollWindowTo(position);
    fireEvent.click(await screen.findByText('Customer 22'));
    expect(await screen.findByText('customer details screen')).toBeTruthy();
    expect(store.getState().customerList).toMatchObject({ scrollPosition: position });
    // The customer opens at the top of the window, not where the list was.
    expect(scrollY).toBe(0);

    await act(() => router.navigate(-1));
    expect(await screen.findByTestId('customer-row-22')).toBeTruthy();
    expect(scrollY).toBe(position);
    expect(screen.queryByTestId('customer-row-1')).toBeNull();
    expect(screen.getByText('45 customers')).toBeTruthy();
    // Both pages came from the cache: nothing was fetched again.
    expect(pagesRequested(api)).toEqual(['1', '2']);
  });

  it('starts again from the first page, at the top, when the status filter changes', async () => {
    const api = stubApi({
      [paths.customers.list]: (_request, url) =>
        pageOf(url, url.searchParams.get('status') === 'install' ? 30 : 45),
    });
    const { router, store } = renderList();
    await screen.findByTestId('customer-row-1');
    scrollWindowTo(CUSTOMER_PAGE_SIZE * ROW_PX - VIEWPORT_PX);
    await screen.findByTestId('customer-row-21');

    fireEvent.mouseDown(screen.getByRole('combobox', { name: /^Status/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Installed' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=install'));
    expect(await screen.findByText('30 customers')).toBeTruthy();
    expect(scrollY).toBe(0);
    expect(screen.getByTestId('customer-row-1')).toBeTruthy();
    const statuses = api
      .requestsTo(paths.customers.list)
      .map((request) => new URL(request.url).searchParams.get('status'));
    expect(statuses).toEqual(['all', 'all', 'install']);

    // Back to all customers: a fresh list from page 1 again, not the two pages seen before.
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /^Status/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'All' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    const allCustomers = customerListApi.endpoints.listCustomers.select({ search: '', status: 'all' });
    await waitFor(() => expect(allCustomers(store.getState()).data?.pages).toHaveLength(1));
    expect(pagesRequested(api).slice(3)).toEqual(['1']);
    expect(scrollY).toBe(0);
  });
});

describe('customer list CSV', () => {
  it('downloads the list as filtered on screen to customers.csv, with the same headers as the list call', async () => {
    const csv = 'Name,Mobile,Status\nAnita Rao,+919876543210,inactive\n';
    const api = stubApi({
      [paths.customers.list]: (_request, url) => pageOf(url, 1),
      [paths.customers.listCsv]: () => new Response(csv, { headers: { 'Content-Type': 'text/csv' } }),
    });
    renderList(appPaths.customerList.href({ status: 'inactive', search: 'anita' }));
    await screen.findByTestId('customer-row-1');
    fireEvent.click(screen.getByTestId('customers-download-csv'));
    await waitFor(() => expect(saveTextFile).toHaveBeenCalledWith({ text: csv, fileName: 'customers.csv' }));
    const [listCall] = api.requestsTo(paths.customers.list);
    const [csvCall] = api.requestsTo(paths.customers.listCsv);
    expect(Object.fromEntries(new URL(csvCall?.url ?? '').searchParams)).toEqual({
      status: 'inactive',
      search: 'anita',
    });
    expect(csvCall?.headers.get('authorization')).toBe('Bearer jwt-123');
    expect(csvCall?.headers.get('authorization')).toBe(listCall?.headers.get('authorization'));
    expect(csvCall?.headers.get('platform')).toBe(listCall?.headers.get('platform'));
    expect(csvCall?.headers.get('auth-session')).toMatch(/^[0-9a-f]{32}:[0-9a-f]+$/);
  });
});

describe('customer list offline: the last data it had, not an error', () => {
  /** A network that answers until `goOffline()`, then fails as a browser does offline. */
  const stubFlakyList = (total: number) => {
    let isOffline = false;
    const api = stubApi({
      [paths.customers.list]: (_request, url) => {
        if (isOffline) throw new TypeError('Failed to fetch');
        return pageOf(url, total);
      },
    });
    const goOffline = () => {
      isOffline = true;
      vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    };
    return { api, goOffline };
  };

  it('keeps showing the loaded rows with an "offline, as of" notice when a refresh fails', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-15T05:00:00Z'));
    const { api, goOffline } = stubFlakyList(3);
    const { router } = renderList();
    expect(await screen.findByTestId('customer-row-3')).toBeTruthy();
    await act(() => router.navigate(appPaths.dashboard.href()));
    await screen.findByText('dashboard screen');

    // Back a minute later, offline: the list is refreshed, and the refresh fails.
    goOffline();
    vi.setSystemTime(new Date('2026-01-15T05:01:00Z'));
    await act(() => router.navigate(appPaths.customerList.href()));
    await waitFor(() => expect(api.requestsTo(paths.customers.list)).toHaveLength(2));
    const notice = await screen.findByTestId('saved-read-notice');
    expect(notice.textContent).toContain(
      'You are offline. Showing what was saved as of 15-01-2026 10:30 AM.',
    );
    expect(screen.getByTestId('customer-row-3')).toBeTruthy();
    expect(screen.getByText('3 customers')).toBeTruthy();
    expect(screen.queryByText('Something went wrong')).toBeNull();
    vi.useRealTimers();
  });

  it('shows the last loaded rows even after the cache has let them go', async () => {
    const { goOffline } = stubFlakyList(2);
    const { router, store } = renderList();
    expect(await screen.findByTestId('customer-row-2')).toBeTruthy();
    await act(() => router.navigate(appPaths.dashboard.href()));
    await screen.findByText('dashboard screen');
    // Unused for a while: the api cache drops the list (as after its 300 s).
    act(() => {
      store.dispatch(appApi.util.invalidateTags([CUSTOMER_LIST_TAG]));
    });
    goOffline();
    await act(() => router.navigate(appPaths.customerList.href()));
    expect(await screen.findByTestId('saved-read-notice')).toBeTruthy();
    expect(screen.getByTestId('customer-row-1')).toBeTruthy();
    expect(screen.getByTestId('customer-row-2')).toBeTruthy();
    // What it cannot show it does not pretend to: no "loading more" row offline.
    expect(screen.queryByTestId('customer-list-more')).toBeNull();
  });
});
