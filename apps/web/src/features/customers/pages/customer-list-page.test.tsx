import type { TCustomerPage } from '@kisht/domain/customers/customers.schema';
import type { TOrgAppConfig } from '@kisht/domain/orgs/orgs.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { SnackbarProvider } from 'notistack';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../app/paths';
import { createAppStore } from '../../../app/store';
import { saveTextFile } from '../../../lib/save-file';
import { orgConfigLoaded } from '../../../lib/ui-slice';
import { stubApi } from '../../../test/fake-api';
import { createTestI18n } from '../../../test/test-i18n';
import { CustomerListPage } from './customer-list-page';

vi.mock('../../../lib/save-file', () => ({ saveTextFile: vi.fn() }));

/** A fake organisation config; only pages.inactiveCustomer matters here. */
const fakeOrgConfig = (inactiveCustomer: TOrgAppConfig['pages']['inactiveCustomer']): TOrgAppConfig => ({
  orgId: 46,
  apiBaseUrl: '',
  orgName: 'Shree Finance',
  companyName: 'Shree Finance Pvt Ltd',
  theme: { primaryColor: '#6a1b9a', secondaryColor: '#ffb300', logoUrl: null },
  mainLayout: 'compact',
  pages: { dashboard: 'list', inactiveCustomer },
  features: { witnessLayout: false, paymentGateway: false },
  aiName: '',
  aiAgentId: '',
});

const PAGE: TCustomerPage = {
  items: [
    {
      id: 9,
      firstName: 'Anita',
      lastName: 'Rao',
      mobile: '+919876543210',
      imei1: '356938035643809',
      productName: 'Redmi Note 14 5G',
      status: 0,
      lockStatus: 0,
      createdAt: '2026-01-15T06:45:00Z',
    },
  ],
  total: 1,
  page: 1,
  pageSize: 20,
};

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ response: 'success', message: 'ok', data: PAGE }))),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const renderList = (config: TOrgAppConfig, url = appPaths.customerList.href()) => {
  const store = createAppStore();
  store.dispatch(orgConfigLoaded(config));
  const router = createMemoryRouter(
    [
      { path: appPaths.customerList.path, element: <CustomerListPage /> },
      { path: appPaths.customerNavigate.path, element: <p>enrolment screen</p> },
    ],
    { initialEntries: [url] },
  );
  render(
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>
        <SnackbarProvider maxSnack={1}>
          <RouterProvider router={router} />
        </SnackbarProvider>
      </I18nextProvider>
    </Provider>,
  );
  return router;
};

describe('opening an inactive customer from the list (spec §2)', () => {
  it("warns 'Customer is Inactive' and stays when the org config says warn", async () => {
    const router = renderList(fakeOrgConfig('warn'));
    fireEvent.click(await screen.findByText('Anita Rao'));
    expect(await screen.findByText('Customer is Inactive')).toBeTruthy();
    expect(router.state.location.pathname).toBe(appPaths.customerList.path);
  });

  it('opens customer_navigate when the org config says navigate', async () => {
    const router = renderList(fakeOrgConfig('navigate'));
    fireEvent.click(await screen.findByText('Anita Rao'));
    expect(await screen.findByText('enrolment screen')).toBeTruthy();
    expect(router.state.location.search).toBe('?customer_id=9');
  });
});

describe('customer list CSV', () => {
  it('downloads the list as filtered on screen to customers.csv, with the same headers as the list call', async () => {
    const csv = 'Name,Mobile,Status\nAnita Rao,+919876543210,inactive\n';
    const api = stubApi({
      [paths.customers.list]: () => PAGE,
      [paths.customers.listCsv]: () => new Response(csv, { headers: { 'Content-Type': 'text/csv' } }),
    });
    renderList(
      fakeOrgConfig('navigate'),
      appPaths.customerList.href({ status: 'inactive', search: 'anita' }),
    );
    await screen.findByText('Anita Rao');
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
