import type { TCustomerPage } from '@kisht/domain/customers/customers.schema';
import { paths } from '@kisht/domain/paths';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { emiApi } from '../features/emi/emi-api';
import { UpcomingEmiPage } from '../features/emi/pages/upcoming-emi-page';
import { CUSTOMER_PAGE_SIZE } from '../lib/http/customer-list-api';
import { offlineReadKey, offlineReadStore } from '../lib/http/offline-reads';
import { i18n as appI18n } from '../lib/i18n';
import { appPaths } from '../lib/paths';
import type { TFakeHandler } from '../test/fake-api';
import { stubApi } from '../test/fake-api';
import { stubIndexedDb } from '../test/fake-indexeddb';
import { createCustomerDetails, createDeviceCommand } from '../test/fixtures';
import { renderRoutes } from '../test/render-app';
import { createTestI18n } from '../test/test-i18n';
import { CustomerDetailsRoute } from './customer-details-route';
import { CustomerListRoute } from './customer-list-route';

/**
 * Issue 28, offline reading as a person meets it: a screen loaded once opens again offline (a
 * reload: a new store, an empty api cache) with what was last fetched and "as of" when; a change
 * tried offline says it needs a connection and sends nothing; and a screen with nothing saved says
 * it is offline once, not in a toast as well.
 */

const USER_ID = 12;
/** 15-01-2026 10:30 AM in India, when the screens were last read online. */
const FETCHED_AT = new Date('2026-01-15T05:00:00Z');
const AS_OF = 'You are offline. Showing what was saved as of 15-01-2026 10:30 AM.';
const UNANSWERED = 'You are offline. Check your internet connection and try again.';
const NEEDS_CONNECTION = 'This needs a connection. Nothing was sent.';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  // The base query words its messages with the app's i18next, which render tests do not start:
  // here it answers in English, from the test's instance.
  vi.spyOn(appI18n, 't').mockImplementation(i18n.t.bind(i18n) as unknown as typeof appI18n.t);
  localStorage.setItem('token', 'jwt-123');
  localStorage.setItem('user_id', String(USER_ID));
  stubIndexedDb();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(FETCHED_AT);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  localStorage.clear();
});

/**
 * A fake API whose network can go away: offline, every request fails as a browser's does
 * (TypeError), and navigator.onLine says so.
 */
const stubNetwork = (handlers: Record<string, TFakeHandler>) => {
  let isOffline = false;
  const answerWhileOnline =
    (handler: TFakeHandler): TFakeHandler =>
    (request, url) => {
      if (isOffline) throw new TypeError('Failed to fetch');
      return handler(request, url);
    };
  const api = stubApi(
    Object.fromEntries(Object.entries(handlers).map(([path, handler]) => [path, answerWhileOnline(handler)])),
  );
  const goOffline = () => {
    isOffline = true;
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    // An hour later: "as of" is when the data was fetched, not when it is shown.
    vi.setSystemTime(FETCHED_AT.getTime() + 60 * 60_000);
  };
  return { api, goOffline };
};

/** Waits until the answer to `request` is saved (it is saved behind the answer, not before). */
const waitUntilSaved = (request: { url: string; params?: Record<string, unknown> }) =>
  vi.waitFor(async () => expect(await offlineReadStore.load(offlineReadKey(USER_ID, request))).toBeDefined());

const listPage: TCustomerPage = {
  items: [
    {
      id: 5,
      firstName: 'Anita',
      lastName: 'Rao',
      mobile: '+919876543210',
      imei1: '356938035643809',
      productName: 'Redmi Note 14 5G',
      status: 1,
      lockStatus: 0,
      createdAt: '2026-01-10T06:45:00Z',
    },
  ],
  total: 1,
  page: 1,
  pageSize: CUSTOMER_PAGE_SIZE,
};

const renderList = () =>
  renderRoutes({
    i18n,
    url: appPaths.customerList.href(),
    routes: [{ path: appPaths.customerList.path, element: <CustomerListRoute /> }],
  });

const renderDetails = () =>
  renderRoutes({
    i18n,
    url: appPaths.customerDetails.href(5),
    routes: [{ path: appPaths.customerDetails.path, element: <CustomerDetailsRoute /> }],
  });

describe('screens read offline from the last successful fetch', () => {
  it('customer_list: reloaded offline, the customers show with "as of", and "You are offline" only once', async () => {
    const { goOffline } = stubNetwork({ [paths.customers.list]: () => listPage });
    renderList();
    expect(await screen.findByTestId('customer-row-5')).toBeTruthy();
    expect(screen.queryByTestId('saved-read-notice')).toBeNull();
    await waitUntilSaved({
      url: paths.customers.list,
      params: { page: 1, pageSize: CUSTOMER_PAGE_SIZE, status: 'all' },
    });

    cleanup();
    goOffline();
    renderList();
    expect(await screen.findByTestId('customer-row-5')).toBeTruthy();
    expect(screen.getByText('Anita Rao')).toBeTruthy();
    expect(screen.getByTestId('saved-read-notice').textContent).toContain(AS_OF);
    expect(screen.getByText('1 customer')).toBeTruthy();
    expect(screen.queryByText(UNANSWERED)).toBeNull();
  });

  it('customer_details: reloaded offline, the customer and EMI schedule show "as of"; Lock says it needs a connection and sends nothing', async () => {
    const { api, goOffline } = stubNetwork({
      [paths.customers.details]: () => createCustomerDetails(),
      [paths.customers.statusHistory]: () => [],
      [paths.customers.consent]: () => null,
      [paths.devices.lock]: () => createDeviceCommand({ name: 'lock' }),
    });
    renderDetails();
    expect(await screen.findByTestId('customer-schedule-card')).toBeTruthy();
    await waitUntilSaved({ url: paths.customers.details, params: { customer_id: 5 } });
    await waitUntilSaved({ url: paths.customers.statusHistory, params: { customer_id: 5 } });
    await waitUntilSaved({ url: paths.customers.consent, params: { customer_id: 5 } });

    cleanup();
    goOffline();
    renderDetails();
    expect((await screen.findByTestId('saved-read-notice')).textContent).toContain(AS_OF);
    expect(screen.getByTestId('customer-imei1').textContent).toBe('356938035643809');
    expect(screen.getByTestId('customer-schedule-card')).toBeTruthy();
    // The customer tab's other reads were saved with it: no section says it is offline again. The
    // plans sold are not kept (their codes stay off the phone), and their card says so.
    expect(await screen.findByTestId('customer-plans-offline')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText(UNANSWERED)).toBeNull());

    fireEvent.click(screen.getByTestId('lock-button'));
    const dialog = within(await screen.findByRole('dialog', { name: 'Lock this phone?' }));
    fireEvent.change(dialog.getByTestId('lock-reason-category'), { target: { value: 'customer_request' } });
    fireEvent.click(dialog.getByTestId('confirm-dialog-confirm'));
    expect(await screen.findByText(NEEDS_CONNECTION)).toBeTruthy();
    expect(api.requestsTo(paths.devices.lock)).toHaveLength(0);
    expect(screen.queryByText('Lock sent to the phone')).toBeNull();
  });

  it('a CSV download offline says so in a toast: it has no place on the screen to say it', async () => {
    const api = stubApi({
      [paths.customers.list]: () => listPage,
      [paths.customers.listCsv]: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderList();
    expect(await screen.findByTestId('customer-row-5')).toBeTruthy();
    fireEvent.click(screen.getByTestId('customers-download-csv'));
    expect(await screen.findByText(UNANSWERED)).toBeTruthy();
    expect(api.requestsTo(paths.customers.listCsv)).toHaveLength(1);
  });

  it('a screen with nothing saved says it is offline once: in its place, not in a toast as well', async () => {
    const { goOffline } = stubNetwork({
      [paths.emi.upcoming]: () => ({ items: [], total: 0, page: 1, pageSize: 20 }),
      [paths.emi.upcomingCounts]: () => ({ today: 0, week: 0, overdue: 0 }),
    });
    goOffline();
    const { store } = renderRoutes({
      i18n,
      url: appPaths.upComingEmi.href('today'),
      routes: [{ path: appPaths.upComingEmi.path, element: <UpcomingEmiPage /> }],
    });
    expect(await screen.findByText(UNANSWERED)).toBeTruthy();
    // The counts failed too, and the list: once both have, and what they showed has rendered,
    // still one message.
    await waitFor(() =>
      expect(emiApi.endpoints.getUpcomingEmiCounts.select()(store.getState()).isError).toBe(true),
    );
    await act(async () => {});
    expect(screen.getAllByText(UNANSWERED)).toHaveLength(1);
  });
});
