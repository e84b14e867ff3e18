import { paths } from '@kisht/domain/paths';
import type { TRetailer, TRetailerPage } from '@kisht/domain/retailers/retailers.schema';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { AddRetailerPage } from './add-retailer-page';
import { RetailerListPage } from './retailer-list-page';
import { RetailerProfilePage } from './retailer-profile-page';

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

const MINI: TRetailer = {
  id: 7,
  name: 'Suresh Patil',
  shopName: 'Patil Mobiles',
  mobile: '+919812300001',
  isActive: true,
  customerCount: 3,
  hasProfileImage: false,
  createdAt: '2025-01-10T05:00:00.000Z',
  userType: 'miniretailer',
  email: null,
  gstNumber: '27AAPFU0939F1ZV',
  address: {
    line1: 'Shop 4, FC Road',
    countryCode: 'IN',
    stateCode: 'MH',
    city: 'Pune',
    countryName: 'India',
    stateName: 'Maharashtra',
  },
  hasSignature: false,
  dateOfBirth: null,
  deactivatedAt: null,
  parentId: 1,
  parentName: 'Ravi Mobiles',
  userAccess: {
    feature_access: '1',
    lock_unlock: '1',
    unistall: '1',
    active_deactive: '1',
    bulk_retailer: '0',
  },
  lockAccess: { lock: '1', unlock: '1', read: '1', uninstall: '1' },
};

const page = (items: TRetailer[]): TRetailerPage => ({ items, total: items.length, page: 1, pageSize: 20 });

const routes = [
  { path: appPaths.retailerList.path, element: <RetailerListPage /> },
  { path: appPaths.addRetailer.path, element: <AddRetailerPage /> },
  { path: appPaths.retailerProfile.path, element: <RetailerProfilePage /> },
  { path: appPaths.dashboard.path, element: <p>dashboard</p> },
];

const PLACES = {
  [paths.catalogue.countries]: () => [{ code: 'IN', name: 'India' }],
  [paths.catalogue.states]: () => [{ code: 'MH', name: 'Maharashtra' }],
  [paths.catalogue.cities]: () => [{ name: 'Pune' }],
};

describe('retailer_list', () => {
  it('lists mini-retailers with shop, mobile, active chip and customer count, and filters by status', async () => {
    const inactive = { ...MINI, id: 8, name: 'Anil Shah', isActive: false, customerCount: 0 };
    const api = stubApi({
      [paths.retailers.list]: (_request, url) =>
        page(url.searchParams.get('status') === 'inactive' ? [inactive] : [MINI, inactive]),
    });
    renderRoutes({ i18n, url: appPaths.retailerList.href(), routes });
    const row = await screen.findByTestId('retailer-row-7');
    expect(row.textContent).toContain('Suresh Patil');
    expect(row.textContent).toContain('Patil Mobiles · +91 98123 00001');
    expect(row.textContent).toContain('Active');
    expect(row.textContent).toContain('3 customers');
    expect(screen.getByTestId('retailer-row-8').textContent).toContain('Inactive');

    fireEvent.mouseDown(
      within(screen.getByTestId('retailer-list').parentElement!.parentElement!).getByRole('combobox'),
    );
    fireEvent.click(await screen.findByRole('option', { name: 'Inactive' }));
    await waitFor(() => expect(screen.queryByTestId('retailer-row-7')).toBeNull());
    expect(screen.getByTestId('retailer-row-8')).toBeTruthy();
    expect(
      api.requestsTo(paths.retailers.list).map((r) => new URL(r.url).searchParams.get('status')),
    ).toEqual(['all', 'inactive']);
  });

  it('opens the profile of a row and sends a mini-retailer to the dashboard', async () => {
    stubApi({ [paths.retailers.list]: () => page([MINI]), [paths.retailers.readById]: () => MINI });
    const { router } = renderRoutes({ i18n, url: appPaths.retailerList.href(), routes });
    fireEvent.click(await screen.findByTestId('retailer-row-7'));
    await waitFor(() => expect(router.state.location.search).toBe('?user_id=7'));
    cleanup();

    localStorage.setItem('type', 'miniretailer');
    const api = stubApi({ [paths.retailers.list]: () => page([MINI]) });
    renderRoutes({ i18n, url: appPaths.retailerList.href(), routes });
    expect(await screen.findByText('dashboard')).toBeTruthy();
    expect(api.requestsTo(paths.retailers.list)).toHaveLength(0);
  });
});

const type = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });

const choose = async (testId: string, label: string) => {
  const input = screen.getByTestId(testId);
  fireEvent.mouseDown(within(input.parentElement!).getByRole('combobox'));
  fireEvent.click(await screen.findByRole('option', { name: label }));
};

describe('add_retailer', () => {
  it("shows 'This is a required field' under empty required fields and sends nothing", async () => {
    const api = stubApi({ ...PLACES, [paths.retailers.add]: () => MINI });
    renderRoutes({ i18n, url: appPaths.addRetailer.href(), routes });
    fireEvent.click(await screen.findByTestId('add-retailer-submit'));
    await waitFor(() =>
      expect(screen.getAllByText('This is a required field').length).toBeGreaterThanOrEqual(4),
    );
    type('retailer-gstNumber', '27AAPFU0939F1ZW');
    fireEvent.click(screen.getByTestId('add-retailer-submit'));
    expect(await screen.findByText('GST number check character is wrong')).toBeTruthy();
    expect(api.requestsTo(paths.retailers.add)).toHaveLength(0);
  });

  it('sends the mini-retailer with +91 and the chosen address, then opens its profile; a server field error lands under it', async () => {
    let isTaken = true;
    const api = stubApi({
      ...PLACES,
      [paths.retailers.add]: () =>
        isTaken
          ? failureResponse(409, 'This mobile number is already registered', {
              code: 'MOBILE_IN_USE',
              fields: [{ field: 'mobile', message: 'This mobile number is already registered' }],
            })
          : MINI,
      [paths.retailers.readById]: () => MINI,
    });
    const { router } = renderRoutes({ i18n, url: appPaths.addRetailer.href(), routes });
    await screen.findByTestId('add-retailer-form');
    type('retailer-name', 'Suresh Patil');
    type('retailer-shopName', 'Patil Mobiles');
    type('retailer-mobile', '98123 00001');
    type('retailer-gstNumber', '27aapfu0939f1zv');
    type('retailer-line1', 'Shop 4, FC Road');
    await waitFor(() => expect(api.requestsTo(paths.catalogue.states)).toHaveLength(1));
    await choose('retailer-stateCode', 'Maharashtra');
    await waitFor(() => expect(api.requestsTo(paths.catalogue.cities)).toHaveLength(1));
    await choose('retailer-city', 'Pune');
    fireEvent.click(screen.getByTestId('add-retailer-submit'));
    expect(await screen.findByText('This mobile number is already registered')).toBeTruthy();

    isTaken = false;
    fireEvent.click(screen.getByTestId('add-retailer-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe(appPaths.retailerProfile.path));
    expect(router.state.location.search).toBe('?user_id=7');
    const bodies = await api.bodiesTo(paths.retailers.add);
    expect(bodies[1]).toEqual({
      name: 'Suresh Patil',
      shopName: 'Patil Mobiles',
      mobile: '+919812300001',
      gstNumber: '27AAPFU0939F1ZV',
      address: { line1: 'Shop 4, FC Road', countryCode: 'IN', stateCode: 'MH', city: 'Pune' },
    });
  });
});

describe('retailer_profile', () => {
  it("shows a mini-retailer's details and sends each access switch and a confirmed deactivation", async () => {
    let current = MINI;
    const api = stubApi({
      [paths.retailers.readById]: () => current,
      [paths.retailers.update]: async (request) => {
        const body = (await request.json()) as Record<string, unknown>;
        current = {
          ...current,
          ...(body.isActive === false ? { isActive: false } : {}),
          userAccess: { ...current.userAccess, ...((body.userAccess as object) ?? {}) },
        };
        return current;
      },
    });
    renderRoutes({ i18n, url: appPaths.retailerProfile.href(7), routes });
    expect((await screen.findByTestId('retailer-shop')).textContent).toBe('Patil Mobiles');
    expect(screen.getByTestId('retailer-gst').textContent).toBe('27AAPFU0939F1ZV');
    expect(screen.getByText('Bulk lock and unlock')).toBeTruthy();

    const bulk = screen.getByTestId('access-user-bulk_retailer') as HTMLInputElement;
    expect(bulk.checked).toBe(false);
    fireEvent.click(bulk);
    await waitFor(() =>
      expect((screen.getByTestId('access-user-bulk_retailer') as HTMLInputElement).checked).toBe(true),
    );
    fireEvent.click(screen.getByTestId('access-lock-unlock'));
    await waitFor(() => expect(api.requestsTo(paths.retailers.update)).toHaveLength(2));

    fireEvent.click(screen.getByTestId('retailer-toggle-active'));
    expect(await screen.findByText('Deactivate this retailer?')).toBeTruthy();
    fireEvent.click(screen.getByTestId('retailer-confirm-active'));
    await waitFor(() => expect(screen.getByTestId('retailer-status').textContent).toBe('Inactive'));
    expect(await api.bodiesTo(paths.retailers.update)).toEqual([
      { user_id: 7, userAccess: { bulk_retailer: '1' } },
      { user_id: 7, lockAccess: { unlock: '0' } },
      { user_id: 7, isActive: false },
    ]);
  });

  it('shows the own profile without user_id, and a not-found mini-retailer as an error', async () => {
    stubApi({
      [paths.retailers.profile]: () => ({
        ...MINI,
        id: 1,
        name: 'Ravi Mobiles',
        userType: 'retailer',
        parentName: null,
      }),
      [paths.retailers.readById]: () => failureResponse(404, 'Retailer not found', { code: 'NOT_FOUND' }),
    });
    renderRoutes({ i18n, url: appPaths.retailerProfile.href(), routes });
    expect((await screen.findByTestId('retailer-name')).textContent).toBe('Ravi Mobiles');
    expect(screen.getByTestId('retailer-signature-state').textContent).toBe('No signature yet');
    cleanup();
    renderRoutes({ i18n, url: appPaths.retailerProfile.href(99), routes });
    expect(await screen.findByText('Retailer not found')).toBeTruthy();
  });
});
