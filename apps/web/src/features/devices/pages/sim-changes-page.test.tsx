import type { TSimChange, TSimChangePage } from '@kisht/domain/devices/devices.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import { stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { SIM_CHANGES_PAGE_SIZE } from '../device-api';
import { SimChangesPage } from './sim-changes-page';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const change = (id: number, overrides: Partial<TSimChange> = {}): TSimChange => ({
  id,
  customerId: id * 10,
  customerName: `Customer ${id}`,
  before: [
    { slot: 1, iccid: '8991000900123456789', operator: 'Jio' },
    { slot: 2, iccid: null, operator: null },
  ],
  after: [
    { slot: 1, iccid: '8991000900123456789', operator: 'Jio' },
    { slot: 2, iccid: '8991860044001234567', operator: null },
  ],
  detectedAt: '2026-01-15T08:00:00Z',
  ...overrides,
});

/** `total` changes, SIM_CHANGES_PAGE_SIZE a page, ids from 1. */
const pageOf = (url: URL, total: number): TSimChangePage => {
  const page = Number(url.searchParams.get('page'));
  const pageSize = Number(url.searchParams.get('pageSize'));
  const start = (page - 1) * pageSize;
  const count = Math.max(0, Math.min(pageSize, total - start));
  return {
    items: Array.from({ length: count }, (_, index) => change(start + index + 1)),
    total,
    page,
    pageSize,
  };
};

const renderPage = () =>
  renderRoutes({
    i18n,
    url: appPaths.simChanges.href(),
    routes: [
      { path: appPaths.simChanges.path, element: <SimChangesPage /> },
      { path: appPaths.customerDetails.path, element: <p>customer details screen</p> },
    ],
  });

describe('sim_changes (spec §2)', () => {
  it('lists each change with its customer, when, and each slot before → after', async () => {
    const api = stubApi({ [paths.devices.simChanges]: (_request, url) => pageOf(url, 2) });
    renderPage();
    const row = within(await screen.findByTestId('sim-change-1'));
    expect(row.getByTestId('sim-change-customer').textContent).toBe('Customer 1');
    expect(row.getByTestId('sim-change-detected-at').textContent).toBe('Detected 15-01-2026 01:30 PM');
    expect(row.getByTestId('sim-change-1-slot-1').textContent).toBe('SIM 1: Jio ····6789 → Jio ····6789');
    expect(row.getByTestId('sim-change-1-slot-2').textContent).toBe(
      'SIM 2: empty → Unknown operator ····4567',
    );
    expect(screen.getByTestId('sim-change-2')).toBeTruthy();
    const [call] = api.requestsTo(paths.devices.simChanges);
    expect(Object.fromEntries(new URL(call?.url ?? '').searchParams)).toEqual({
      page: '1',
      pageSize: String(SIM_CHANGES_PAGE_SIZE),
    });
    expect(screen.queryByTestId('sim-changes-pagination')).toBeNull();
  });

  it('opens customer_details from the customer name', async () => {
    stubApi({ [paths.devices.simChanges]: (_request, url) => pageOf(url, 1) });
    const { router } = renderPage();
    fireEvent.click(await screen.findByTestId('sim-change-customer'));
    expect(await screen.findByText('customer details screen')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/customer_details/10');
  });

  it('pages through the changes', async () => {
    const api = stubApi({
      [paths.devices.simChanges]: (_request, url) => pageOf(url, SIM_CHANGES_PAGE_SIZE + 3),
    });
    renderPage();
    expect(await screen.findByTestId('sim-change-1')).toBeTruthy();
    fireEvent.click(
      within(screen.getByTestId('sim-changes-pagination')).getByRole('button', { name: /page 2/i }),
    );
    expect(await screen.findByTestId(`sim-change-${SIM_CHANGES_PAGE_SIZE + 1}`)).toBeTruthy();
    expect(screen.queryByTestId('sim-change-1')).toBeNull();
    await waitFor(() =>
      expect(
        api
          .requestsTo(paths.devices.simChanges)
          .map((request) => new URL(request.url).searchParams.get('page')),
      ).toEqual(['1', '2']),
    );
  });

  it('says when there are none', async () => {
    stubApi({ [paths.devices.simChanges]: (_request, url) => pageOf(url, 0) });
    renderPage();
    expect(await screen.findByTestId('sim-changes-empty')).toBeTruthy();
  });
});
