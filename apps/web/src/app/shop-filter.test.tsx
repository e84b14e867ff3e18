import type { TCustomerPage } from '@kisht/domain/customers/customers.schema';
import { paths } from '@kisht/domain/paths';
import type { TRetailerListItem, TRetailerPage } from '@kisht/domain/retailers/retailers.schema';
import type { TDashboard } from '@kisht/domain/stats/stats.schema';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../lib/paths';
import { saveTextFile } from '../lib/save-file';
import { stubApi } from '../test/fake-api';
import { fakeOrgConfig, renderRoutes } from '../test/render-app';
import { createTestI18n } from '../test/test-i18n';
import { CustomerListRoute } from './customer-list-route';
import { DashboardRoute } from './dashboard-route';

vi.mock('../lib/save-file', () => ({ saveTextFile: vi.fn() }));

const OWN_ID = 7;

const miniRetailer = (id: number, shopName: string | null, name = `Owner ${id}`): TRetailerListItem => ({
  id,
  name,
  shopName,
  mobile: '+919812345678',
  isActive: true,
  customerCount: 3,
  hasProfileImage: false,
  createdAt: '2026-01-15T06:45:00Z',
});

const retailerPage = (items: TRetailerListItem[]): TRetailerPage => ({
  items,
  total: items.length,
  page: 1,
  pageSize: 20,
});

/** One customer per list, whose name says which shop the list was asked for. */
const customersOf = (url: URL): TCustomerPage => ({
  items: [
    {
      id: 1,
      firstName: 'Customer of',
      lastName: url.searchParams.get('retailer_id') ?? 'all shops',
      mobile: '+919876543210',
      imei1: '356938035643809',
      productName: 'Redmi Note 14 5G',
      status: 1,
      lockStatus: 0,
      createdAt: '2026-01-15T06:45:00Z',
    },
  ],
  total: 1,
  page: Number(url.searchParams.get('page')),
  pageSize: Number(url.searchParams.get('pageSize')),
});

const dashboardOf = (url: URL): TDashboard => {
  const total = url.searchParams.get('retailer_id') === '12' ? 4 : 20;
  return {
    countsByStatus: {
      inactive: 0,
      install: total,
      deactive: 0,
      uninstall: 0,
      apple_removed: 0,
      emi_completed: 0,
      emi_maturing: 0,
    },
    total,
  };
};

const stubNetwork = (miniRetailers: TRetailerListItem[]) =>
  stubApi({
    [paths.retailers.list]: () => retailerPage(miniRetailers),
    [paths.customers.list]: (_request, url) => customersOf(url),
    [paths.customers.listCsv]: () =>
      new Response('Name\nCustomer of 12\n', { headers: { 'Content-Type': 'text/csv' } }),
    [paths.stats.dashboard]: (_request, url) => dashboardOf(url),
    [paths.stats.totalOutstanding]: () => ({
      outstandingPaise: 0,
      overduePaise: 0,
      collectedPaise: 0,
      collectedThisMonthPaise: 0,
    }),
    [paths.emi.upcomingCounts]: () => ({ today: 0, week: 0, overdue: 0 }),
  });

const signIn = (type: 'retailer' | 'miniretailer') => {
  localStorage.setItem('token', 'jwt-123');
  localStorage.setItem('user_id', String(OWN_ID));
  localStorage.setItem('type', type);
};

const render = (url: string) =>
  renderRoutes({
    i18n,
    url,
    orgConfig: fakeOrgConfig(),
    routes: [
      { path: appPaths.customerList.path, element: <CustomerListRoute /> },
      { path: appPaths.dashboard.path, element: <DashboardRoute /> },
      { path: appPaths.customerDetails.path, element: <p>customer details screen</p> },
    ],
  });

const shopsAskedFor = (api: ReturnType<typeof stubApi>, path: string) =>
  api.requestsTo(path).map((request) => new URL(request.url).searchParams.get('retailer_id'));

/** Opens the "Shop" picker once the network list has come (it is drawn only then) and picks `name`. */
const chooseShop = async (name: string) => {
  fireEvent.mouseDown(await screen.findByRole('combobox', { name: /^Shop/ }));
  fireEvent.click(await screen.findByRole('option', { name }));
};

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  vi.mocked(saveTextFile).mockClear();
  // jsdom has no scrolling; the list asks for it when it starts afresh.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('"Shop" picker of customer_list', () => {
  it('lets a retailer narrow the list to one mini-retailer; the URL and the CSV carry retailer_id', async () => {
    signIn('retailer');
    const api = stubNetwork([miniRetailer(12, 'Sharma Mobiles'), miniRetailer(13, null, 'Ravi Kumar')]);
    const { router } = render(appPaths.customerList.href());
    expect(await screen.findByText('Customer of all shops')).toBeTruthy();

    fireEvent.mouseDown(await screen.findByRole('combobox', { name: /^Shop/ }));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(['All shops', 'My shop', 'Sharma Mobiles', 'Ravi Kumar']);
    fireEvent.click(screen.getByRole('option', { name: 'Sharma Mobiles' }));

    await waitFor(() => expect(router.state.location.search).toBe('?retailer_id=12'));
    expect(await screen.findByText('Customer of 12')).toBeTruthy();
    expect(shopsAskedFor(api, paths.customers.list)).toEqual([null, '12']);

    fireEvent.click(screen.getByTestId('customers-download-csv'));
    await waitFor(() => expect(saveTextFile).toHaveBeenCalled());
    expect(shopsAskedFor(api, paths.customers.listCsv)).toEqual(['12']);

    // "My shop" is the retailer's own id; "All shops" drops the parameter again.
    await chooseShop('My shop');
    expect(await screen.findByText(`Customer of ${OWN_ID}`)).toBeTruthy();
    await chooseShop('All shops');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByText('Customer of all shops')).toBeTruthy();
    // All shops again is a fresh list (a new request), not only the rows cached before.
    await waitFor(() =>
      expect(shopsAskedFor(api, paths.customers.list)).toEqual([null, '12', String(OWN_ID), null]),
    );
  });

  it('opens on the shop of the URL (Back, a dashboard link)', async () => {
    signIn('retailer');
    const api = stubNetwork([miniRetailer(12, 'Sharma Mobiles')]);
    render(appPaths.customerList.href({ status: 'install', retailerId: 12 }));
    expect(await screen.findByText('Customer of 12')).toBeTruthy();
    expect(shopsAskedFor(api, paths.customers.list)).toEqual(['12']);
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: /^Shop/ }).textContent).toBe('Sharma Mobiles'),
    );
  });

  it('is not shown to a mini-retailer, who never asks for the network', async () => {
    signIn('miniretailer');
    const api = stubNetwork([miniRetailer(12, 'Sharma Mobiles')]);
    render(appPaths.customerList.href());
    expect(await screen.findByText('Customer of all shops')).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: /^Shop/ })).toBeNull();
    expect(api.requestsTo(paths.retailers.list)).toHaveLength(0);
  });

  it('is not shown to a retailer without mini-retailers', async () => {
    signIn('retailer');
    const api = stubNetwork([]);
    render(appPaths.customerList.href());
    expect(await screen.findByText('Customer of all shops')).toBeTruthy();
    await waitFor(() => expect(api.requestsTo(paths.retailers.list)).toHaveLength(1));
    expect(screen.queryByRole('combobox', { name: /^Shop/ })).toBeNull();
  });
});

describe('"Shop" picker of the dashboard', () => {
  it("shows the chosen shop's customer counts, and its status links keep the shop", async () => {
    signIn('retailer');
    const api = stubNetwork([miniRetailer(12, 'Sharma Mobiles')]);
    const { router } = render(appPaths.dashboard.href());
    const total = await screen.findByTestId('dashboard-total');
    expect(total.textContent).toContain('20');

    await chooseShop('Sharma Mobiles');
    await waitFor(() => expect(router.state.location.search).toBe('?retailer_id=12'));
    await waitFor(() => expect(screen.getByTestId('dashboard-total').textContent).toContain('4'));
    expect(shopsAskedFor(api, paths.stats.dashboard)).toEqual([null, '12']);

    fireEvent.click(within(screen.getByTestId('dashboard-status-install')).getByRole('button'));
    await waitFor(() => expect(router.state.location.pathname).toBe(appPaths.customerList.path));
    expect(router.state.location.search).toBe('?status=install&retailer_id=12');
    expect(await screen.findByText('Customer of 12')).toBeTruthy();
  });

  it('is not shown to a mini-retailer', async () => {
    signIn('miniretailer');
    const api = stubNetwork([miniRetailer(12, 'Sharma Mobiles')]);
    render(appPaths.dashboard.href());
    await screen.findByTestId('dashboard-total');
    expect(screen.queryByRole('combobox', { name: /^Shop/ })).toBeNull();
    expect(api.requestsTo(paths.retailers.list)).toHaveLength(0);
  });
});
