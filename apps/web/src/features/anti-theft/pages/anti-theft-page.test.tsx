import type { TCustomerListItem } from '@kisht/domain/customers/customers.schema';
import { paths } from '@kisht/domain/paths';
import type { TPlan, TPlanActivation } from '@kisht/domain/plans/plans.schema';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { AntiTheftPage } from './anti-theft-page';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  localStorage.setItem('type', 'retailer');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const plan = (overrides: Partial<TPlan>): TPlan => ({
  id: 1,
  name: 'Anti-Theft',
  appType: 4,
  pricePaise: 34_900,
  durationMonths: 12,
  description: '',
  isActive: true,
  productIds: [],
  ...overrides,
});
const ANTI_THEFT = plan({ id: 8, name: 'Anti-Theft', appType: 4 });
const DPC_ANTI_THEFT = plan({ id: 9, name: 'Device Lock + Anti-Theft', appType: 9, pricePaise: 49_900 });

const sale = (overrides: Partial<TPlanActivation>): TPlanActivation => ({
  id: 1,
  planId: ANTI_THEFT.id,
  planName: ANTI_THEFT.name,
  appType: 4,
  retailerId: 2,
  customerId: null,
  productId: null,
  firstName: 'Meena',
  lastName: 'Iyer',
  email: null,
  mobile: '+919123400077',
  imei: null,
  code: 'K7QD-3MWA-9XZR',
  pricePaise: 34_900,
  startsOn: '2026-11-27',
  endsOn: '2027-11-26',
  status: 'issued',
  redeemedAt: null,
  createdAt: '2026-11-27T06:30:00.000Z',
  customerStatus: null,
  ...overrides,
});
/** One sale per row of the spec §4 rule (and the stand-alone fallback). */
const SALES = [
  sale({ id: 11, customerId: 101, customerStatus: 1, firstName: 'Aarav', lastName: 'Sharma', appType: 9 }),
  sale({ id: 12, customerId: 103, customerStatus: 0, firstName: 'Rahul', lastName: 'Verma' }),
  sale({
    id: 13,
    customerId: 104,
    customerStatus: 5,
    firstName: 'Sneha',
    lastName: 'Patil',
    status: 'redeemed',
  }),
  sale({ id: 14, firstName: 'Meena', status: 'issued' }),
  sale({ id: 15, firstName: 'Kabir', status: 'redeemed', redeemedAt: '2026-11-27T07:00:00.000Z' }),
];

const customer = (overrides: Partial<TCustomerListItem>): TCustomerListItem => ({
  id: 101,
  firstName: 'Aarav',
  lastName: 'Sharma',
  mobile: '+919811111101',
  imei1: '356938035643809',
  productName: 'Galaxy A15',
  status: 1,
  lockStatus: 0,
  createdAt: '2026-10-01T06:30:00.000Z',
  ...overrides,
});

/** A fake server: its sales are `options.sales` (or SALES) and, after a sale `sell` answers, that one too. */
const stubAntiTheftApi = (options: { sales?: TPlanActivation[]; sell?: (body: unknown) => unknown } = {}) => {
  const sales = [...(options.sales ?? SALES)];
  return stubApi({
    [paths.plans.list]: (_request, url) =>
      url.searchParams.get('app_type') === '9' ? [DPC_ANTI_THEFT] : [ANTI_THEFT],
    [paths.plans.activations]: () => sales,
    [paths.customers.list]: (_request, url) => {
      const search = url.searchParams.get('search') ?? '';
      const items = [
        customer({}),
        customer({ id: 103, firstName: 'Rahul', lastName: 'Verma', status: 0 }),
      ].filter((row) => `${row.firstName} ${row.lastName}`.toLowerCase().includes(search.toLowerCase()));
      return { items, total: items.length, page: 1, pageSize: 20 };
    },
    [paths.plans.sell]: async (request) => {
      const body = await request.json();
      const answer = options.sell ? options.sell(body) : null;
      if (Array.isArray(answer))
        sales.unshift(...answer.map((item: { activation: TPlanActivation }) => item.activation));
      return answer;
    },
  });
};

const renderPage = () =>
  renderRoutes({
    i18n,
    url: appPaths.antiTheft.href(),
    routes: [
      { path: appPaths.antiTheft.path, element: <AntiTheftPage /> },
      { path: appPaths.customerDetails.path, element: <p>customer details page</p> },
    ],
  });

const displayOf = (saleId: number) =>
  within(screen.getByTestId(`anti-theft-sale-${saleId}`)).getByTestId('anti-theft-display');

const choosePlan = async (name: RegExp) => {
  fireEvent.mouseDown(await screen.findByRole('combobox', { name: /^Plan/ }));
  fireEvent.click(screen.getByRole('option', { name }));
};

describe('anti_theft', () => {
  it('lists anti-theft sales (app_type 4,9) with spec §4’s display: inactive Disabled, any other status Enabled', async () => {
    const api = stubAntiTheftApi();
    renderPage();
    await screen.findByTestId('anti-theft-sales');
    expect(new URL(api.requestsTo(paths.plans.activations)[0]!.url).searchParams.get('app_type')).toBe('4,9');
    expect(
      api.requestsTo(paths.plans.list).map((request) => new URL(request.url).searchParams.get('app_type')),
    ).toEqual(expect.arrayContaining(['4', '9']));
    expect(displayOf(11).textContent).toBe('Enabled'); // installed
    expect(displayOf(12).textContent).toBe('Disabled'); // inactive
    expect(displayOf(13).textContent).toBe('Enabled'); // EMIs completed
    expect(displayOf(14).textContent).toBe('Disabled'); // stand-alone, code not yet on a phone
    expect(displayOf(15).textContent).toBe('Enabled'); // stand-alone, code redeemed
    const row = screen.getByTestId('anti-theft-sale-12');
    expect(row.textContent).toContain('Rahul Verma');
    expect(row.textContent).toContain('+91 91234 00077');
    expect(row.textContent).toContain('K7QD-3MWA-9XZR');
    expect(row.textContent).toContain('₹349.00 · sold 27-11-2026 12:00 PM');
  });

  it('opens customer_details from a sale to a customer; a stand-alone sale opens nothing', async () => {
    stubAntiTheftApi();
    const { router } = renderPage();
    await screen.findByTestId('anti-theft-sales');
    expect(screen.getByTestId('anti-theft-sale-14').tagName).not.toBe('BUTTON');
    fireEvent.click(screen.getByTestId('anti-theft-sale-11'));
    expect(await screen.findByText('customer details page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/customer_details/101');
  });

  it('sells to an existing customer with customer_id and shows the returned code', async () => {
    const sold = sale({
      id: 20,
      customerId: 103,
      customerStatus: 0,
      firstName: 'Rahul',
      lastName: 'Verma',
      code: 'ZX12-AB34-CD56',
    });
    const api = stubAntiTheftApi({
      sales: [],
      sell: () => [{ antihacking_code: sold.code, activation: sold }],
    });
    renderPage();
    await screen.findByTestId('anti-theft-sales-empty');
    await choosePlan(/^Anti-Theft · ₹349\.00 · 12 months/);
    const picker = screen.getByTestId('anti-theft-customer');
    fireEvent.change(picker, { target: { value: 'Rahul' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Rahul Verma · +91 98111 11101' }));
    fireEvent.click(screen.getByTestId('anti-theft-sell'));

    expect((await screen.findByTestId('code-drawer-code')).textContent).toBe('ZX12-AB34-CD56');
    expect(await api.bodiesTo(paths.plans.sell)).toEqual([
      {
        plan_id: 8,
        app_type: 4,
        plan_name: 'Anti-Theft',
        customer_id: 103,
        firstName: 'Rahul',
        lastName: 'Verma',
        mobile: '+919811111101',
      },
    ]);
    expect(await screen.findByText('Anti-theft plan sold')).toBeTruthy();
    // The sale joins the list at once, with its display.
    await waitFor(() => expect(displayOf(20).textContent).toBe('Disabled'));
  });

  it('sells to a new buyer: mobile typed without +91 is sent with it, and no customer_id', async () => {
    const sold = sale({ id: 21, appType: 9, code: 'NEW1-NEW2-NEW3' });
    const api = stubAntiTheftApi({ sell: () => [{ antihacking_code: sold.code, activation: sold }] });
    renderPage();
    // Each plan shows its price, term and app type (4 anti-theft, 9 with the device lock).
    await choosePlan(
      /^Device Lock \+ Anti-Theft · ₹499\.00 · 12 months\s*Device policy controller \+ anti-theft$/,
    );
    fireEvent.click(screen.getByTestId('anti-theft-buyer-new'));
    fireEvent.change(screen.getByTestId('anti-theft-first-name'), { target: { value: 'Meena' } });
    fireEvent.change(screen.getByTestId('anti-theft-last-name'), { target: { value: 'Iyer' } });
    fireEvent.change(screen.getByTestId('anti-theft-mobile'), { target: { value: '91234 00077' } });
    fireEvent.click(screen.getByTestId('anti-theft-sell'));
    expect((await screen.findByTestId('code-drawer-code')).textContent).toBe('NEW1-NEW2-NEW3');
    expect(await api.bodiesTo(paths.plans.sell)).toEqual([
      {
        plan_id: 9,
        app_type: 9,
        plan_name: 'Device Lock + Anti-Theft',
        firstName: 'Meena',
        lastName: 'Iyer',
        mobile: '+919123400077',
      },
    ]);
  });

  it('refuses an empty form before any request, and shows a refused sale’s message', async () => {
    const api = stubAntiTheftApi({
      sell: () => failureResponse(409, 'No Anti-theft keys left. Buy keys first.', { code: 'NO_KEYS' }),
    });
    renderPage();
    await screen.findByTestId('anti-theft-sell-form');
    fireEvent.click(screen.getByTestId('anti-theft-buyer-new'));
    fireEvent.click(screen.getByTestId('anti-theft-sell'));
    expect(await screen.findAllByText('This is a required field')).toHaveLength(3); // plan, first name, mobile
    expect(api.requestsTo(paths.plans.sell)).toHaveLength(0);

    await choosePlan(/^Anti-Theft ·/);
    fireEvent.change(screen.getByTestId('anti-theft-first-name'), { target: { value: 'Meena' } });
    fireEvent.change(screen.getByTestId('anti-theft-mobile'), { target: { value: '5123400077' } });
    fireEvent.click(screen.getByTestId('anti-theft-sell'));
    expect(await screen.findByText('Enter a 10-digit mobile number starting with 6, 7, 8 or 9')).toBeTruthy();
    expect(api.requestsTo(paths.plans.sell)).toHaveLength(0);

    fireEvent.change(screen.getByTestId('anti-theft-mobile'), { target: { value: '9123400077' } });
    fireEvent.click(screen.getByTestId('anti-theft-sell'));
    expect(await screen.findByText('No Anti-theft keys left. Buy keys first.')).toBeTruthy();
    expect(screen.queryByTestId('code-drawer')).toBeNull();
  });
});
