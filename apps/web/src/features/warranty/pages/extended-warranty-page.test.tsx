import type { TProduct } from '@kisht/domain/catalogue/catalogue.schema';
import { addDays, istDate } from '@kisht/domain/common/time';
import { paths } from '@kisht/domain/paths';
import type { TPlan, TPlanActivation } from '@kisht/domain/plans/plans.schema';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { ExtendedWarrantyPage } from './extended-warranty-page';

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
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** A Luhn-valid IMEI, and the same one with a wrong check digit. */
const IMEI = '490154203237518';
const BAD_IMEI = '490154203237519';

const PLANS: TPlan[] = [
  {
    id: 6,
    name: 'Extended Warranty 1 year',
    appType: 5,
    pricePaise: 99_900,
    durationMonths: 12,
    description: '',
    isActive: true,
    productIds: [],
  },
  {
    id: 7,
    name: 'Extended Warranty Galaxy',
    appType: 5,
    pricePaise: 179_900,
    durationMonths: 24,
    description: '',
    isActive: true,
    productIds: [2],
  },
];
const PRODUCTS: TProduct[] = [
  { id: 1, brand: 'Xiaomi', name: 'Redmi 13C', pricePaise: 999_900, platform: 'android' },
  { id: 2, brand: 'Samsung', name: 'Galaxy A15', pricePaise: 1_499_900, platform: 'android' },
];

const activation = (id: number, overrides: Partial<TPlanActivation> = {}): TPlanActivation => ({
  id,
  planId: 6,
  planName: 'Extended Warranty 1 year',
  appType: 5,
  retailerId: 3,
  customerId: null,
  productId: 1,
  firstName: 'Sunita',
  lastName: 'Verma',
  email: null,
  mobile: '+919123400001',
  imei: IMEI,
  code: 'AB12-CD34-EF56',
  pricePaise: 99_900,
  startsOn: '2026-03-01',
  endsOn: '2027-02-28',
  status: 'issued',
  redeemedAt: null,
  createdAt: '2026-03-01T06:00:00Z',
  ...overrides,
});

const renderPage = () =>
  renderRoutes({
    i18n,
    url: appPaths.extendedWarranty.href(),
    routes: [{ path: appPaths.extendedWarranty.path, element: <ExtendedWarrantyPage /> }],
  });

const stubWarrantyApi = (warranties: TPlanActivation[] = [], extra: Parameters<typeof stubApi>[0] = {}) =>
  stubApi({
    [paths.plans.list]: () => PLANS,
    [paths.catalogue.products]: () => PRODUCTS,
    [paths.plans.activations]: () => warranties,
    ...extra,
  });

const choose = async (label: RegExp, option: string) => {
  fireEvent.mouseDown(await screen.findByRole('combobox', { name: label }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
};
const type = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('extended_warranty sale form', () => {
  it('asks plans of app_type 5 and shows the end date as the start date changes', async () => {
    const api = stubWarrantyApi();
    renderPage();
    await choose(/^Warranty plan/, 'Extended Warranty 1 year · ₹999.00 · 12 months');
    expect(new URL(api.requestsTo(paths.plans.list)[0]!.url).searchParams.get('app_type')).toBe('5');
    // Today +05:30 by default, ending a day before the same day next year.
    const today = istDate();
    expect((screen.getByTestId('warranty-startDate') as HTMLInputElement).value).toBe(today);
    type('warranty-startDate', '2026-03-01');
    await waitFor(() => expect(screen.getByTestId('warranty-end-date').textContent).toBe('28-02-2027'));
    await choose(/^Warranty plan/, 'Extended Warranty Galaxy · ₹1,799.00 · 24 months');
    await waitFor(() => expect(screen.getByTestId('warranty-end-date').textContent).toBe('29-02-2028'));
  });

  it('limits the products to the plan’s', async () => {
    stubWarrantyApi();
    renderPage();
    await choose(/^Warranty plan/, 'Extended Warranty Galaxy · ₹1,799.00 · 24 months');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /^Phone model/ }));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(['Samsung Galaxy A15']);
  });

  it('refuses an IMEI with a wrong check digit and sends nothing', async () => {
    const api = stubWarrantyApi();
    renderPage();
    await choose(/^Warranty plan/, 'Extended Warranty 1 year · ₹999.00 · 12 months');
    type('warranty-firstName', 'Sunita');
    type('warranty-mobile', '9123400001');
    await choose(/^Phone model/, 'Xiaomi Redmi 13C');
    type('warranty-imei', BAD_IMEI);
    fireEvent.click(screen.getByTestId('warranty-submit'));
    expect(await screen.findByText('IMEI must be 15 digits with a valid check digit')).toBeTruthy();
    expect(api.requestsTo(paths.plans.sell)).toHaveLength(0);
  });

  it('sends the sale with +91, the product, IMEI and start date, then shows the code and the certificate', async () => {
    const sold = activation(11, { code: 'ZX9K-4M2P-7QRT' });
    // The fake server's warranties: none until the sale.
    const warranties: TPlanActivation[] = [];
    const api = stubWarrantyApi(warranties, {
      [paths.plans.sell]: () => {
        warranties.unshift(sold);
        return [{ antihacking_code: sold.code, activation: sold }];
      },
    });
    renderPage();
    await choose(/^Warranty plan/, 'Extended Warranty 1 year · ₹999.00 · 12 months');
    type('warranty-firstName', 'Sunita');
    type('warranty-lastName', 'Verma');
    type('warranty-mobile', '91234 00001');
    await choose(/^Phone model/, 'Xiaomi Redmi 13C');
    type('warranty-imei', IMEI);
    type('warranty-startDate', '2026-03-01');
    fireEvent.click(screen.getByTestId('warranty-submit'));
    await waitFor(() => expect(api.requestsTo(paths.plans.sell)).toHaveLength(1));
    expect((await api.bodiesTo(paths.plans.sell))[0]).toEqual({
      plan_id: 6,
      app_type: 5,
      plan_name: 'Extended Warranty 1 year',
      firstName: 'Sunita',
      lastName: 'Verma',
      mobile: '+919123400001',
      product_id: 1,
      imei: IMEI,
      start_date: '2026-03-01',
    });
    expect((await screen.findByTestId('warranty-code')).textContent).toBe('ZX9K-4M2P-7QRT');
    expect(screen.getByTestId('warranty-sold-certificate')).toBeTruthy();
    // The sale joins the list below.
    expect(await screen.findByTestId('warranty-row-11')).toBeTruthy();
  });

  it('puts the server’s field error under its field', async () => {
    stubWarrantyApi([], {
      [paths.plans.sell]: () =>
        failureResponse(409, 'This plan does not cover this phone model', {
          code: 'PLAN_NOT_APPLICABLE',
          fields: [{ field: 'product_id', message: 'This plan does not cover this phone model' }],
        }),
    });
    renderPage();
    await choose(/^Warranty plan/, 'Extended Warranty 1 year · ₹999.00 · 12 months');
    type('warranty-firstName', 'Sunita');
    type('warranty-mobile', '9123400001');
    await choose(/^Phone model/, 'Xiaomi Redmi 13C');
    type('warranty-imei', IMEI);
    fireEvent.click(screen.getByTestId('warranty-submit'));
    expect(await screen.findByText('This plan does not cover this phone model')).toBeTruthy();
  });
});

describe('extended_warranty list', () => {
  it('shows each warranty’s buyer, term and status, and downloads its certificate in the UI language', async () => {
    const today = istDate();
    const api = stubWarrantyApi(
      [
        activation(1),
        activation(2, { code: 'SOON-SOON-SOON', startsOn: addDays(today, -300), endsOn: addDays(today, 10) }),
        activation(3, { code: 'GONE-GONE-GONE', startsOn: '2024-01-01', endsOn: '2024-12-31' }),
      ],
      {
        [paths.plans.warrantyCertificate]: () =>
          new Response('%PDF-1.7 fake', { headers: { 'content-type': 'application/pdf' } }),
      },
    );
    const saved: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      saved.push(blob);
      return 'blob:certificate';
    });
    const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn();
    onTestFinished(() => {
      Object.assign(URL, original);
    });
    renderPage();
    const row = await screen.findByTestId('warranty-row-3');
    expect(within(row).getByText('Sunita Verma · +91 91234 00001')).toBeTruthy();
    expect(screen.getByTestId('warranty-term-3').textContent).toBe('01-01-2024 to 31-12-2024');
    expect(screen.getByTestId('warranty-status-3').textContent).toBe('Expired');
    expect(screen.getByTestId('warranty-status-2').textContent).toBe('Ending soon');
    expect(new URL(api.requestsTo(paths.plans.activations)[0]!.url).searchParams.get('app_type')).toBe('5');

    fireEvent.click(screen.getByTestId('warranty-certificate-3'));
    await waitFor(() => expect(api.requestsTo(paths.plans.warrantyCertificate)).toHaveLength(1));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    const request = api.requestsTo(paths.plans.warrantyCertificate)[0]!;
    const query = new URL(request.url).searchParams;
    expect(query.get('activation_id')).toBe('3');
    expect(query.get('lang')).toBe('en');
    expect(request.headers.get('authorization')).toBe('Bearer jwt-123');
    expect(await saved[0]!.text()).toBe('%PDF-1.7 fake');
  });

  it('shows a customer only their warranties, without the sale form', async () => {
    localStorage.setItem('type', 'customer');
    const api = stubWarrantyApi([activation(4)]);
    renderPage();
    expect(await screen.findByTestId('warranty-row-4')).toBeTruthy();
    expect(screen.queryByTestId('warranty-sell-form')).toBeNull();
    expect(screen.getByText('My warranties')).toBeTruthy();
    expect(api.requestsTo(paths.plans.list)).toHaveLength(0);
  });
});
