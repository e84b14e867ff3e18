import type { TUpcomingEmiItem, TUpcomingEmiPage } from '@kisht/domain/emi/emi.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import { stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { UPCOMING_PAGE_SIZE } from '../emi-api';
import { readUpcomingRange, UpcomingEmiPage } from './upcoming-emi-page';

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

const item = (emiId: number, overrides: Partial<TUpcomingEmiItem> = {}): TUpcomingEmiItem => ({
  emiId,
  customerId: emiId * 10,
  customerName: `Customer ${emiId}`,
  mobile: '+919876543210',
  instalmentNo: 2,
  dueDate: '2026-03-05',
  outstandingPaise: 881_486,
  status: 'due_today',
  ...overrides,
});

/** Pages of `total` items for a range, UPCOMING_PAGE_SIZE a page; ids start at `firstId`. */
const pageOf = (
  url: URL,
  total: number,
  firstId: number,
  status: TUpcomingEmiItem['status'],
): TUpcomingEmiPage => {
  const page = Number(url.searchParams.get('page'));
  const pageSize = Number(url.searchParams.get('pageSize'));
  const start = (page - 1) * pageSize;
  const count = Math.max(0, Math.min(pageSize, total - start));
  return {
    items: Array.from({ length: count }, (_, index) => item(firstId + start + index, { status })),
    total,
    page,
    pageSize,
  };
};

const stubUpcomingApi = () =>
  stubApi({
    [paths.emi.upcomingCounts]: () => ({ today: 2, week: 25, overdue: 0 }),
    [paths.emi.upcoming]: (_request, url) => {
      const range = url.searchParams.get('range');
      if (range === 'today') return pageOf(url, 2, 1, 'due_today');
      if (range === 'week') return pageOf(url, 25, 100, 'upcoming');
      return pageOf(url, 0, 0, 'overdue');
    },
  });

const renderAt = (url: string) =>
  renderRoutes({
    i18n,
    url,
    routes: [
      { path: appPaths.upComingEmi.path, element: <UpcomingEmiPage /> },
      { path: appPaths.emiDetails.path, element: <p>emi details screen</p> },
    ],
  });

describe('up_coming_emi (spec §2)', () => {
  it('shows the three tabs with their counts, on Today by default', async () => {
    const api = stubUpcomingApi();
    renderAt(appPaths.upComingEmi.href());
    const tabs = screen.getByRole('tablist', { name: 'Upcoming EMIs by due date' });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent?.replace(/\d+$/, '')),
    ).toEqual(['Today', 'This week', 'Overdue']);
    expect((await screen.findByTestId('upcoming-count-today')).textContent).toBe('2');
    expect(screen.getByTestId('upcoming-count-week').textContent).toBe('25');
    expect(screen.getByTestId('upcoming-count-overdue').textContent).toBe('0');
    expect(screen.getByRole('tab', { selected: true }).getAttribute('data-testid')).toBe(
      'upcoming-tab-today',
    );

    const row = await screen.findByTestId('upcoming-row-1');
    expect(row.textContent).toContain('Customer 1');
    expect(row.textContent).toContain('+91 98765 43210');
    expect(row.textContent).toContain('EMI 2 · due 05-03-2026');
    expect(row.textContent).toContain('₹8,814.86');
    expect(within(row).getByTestId('instalment-status').textContent).toBe('Due today');
    const [listCall] = api.requestsTo(paths.emi.upcoming);
    expect(Object.fromEntries(new URL(listCall?.url ?? '').searchParams)).toEqual({
      range: 'today',
      page: '1',
      pageSize: String(UPCOMING_PAGE_SIZE),
    });
    expect(screen.queryByTestId('upcoming-load-more')).toBeNull();
  });

  it('switches tab through the URL and lists that range', async () => {
    const api = stubUpcomingApi();
    const { router } = renderAt(appPaths.upComingEmi.href());
    await screen.findByTestId('upcoming-row-1');
    fireEvent.click(screen.getByTestId('upcoming-tab-overdue'));
    await waitFor(() => expect(router.state.location.search).toBe('?range=overdue'));
    expect((await screen.findByTestId('upcoming-empty')).textContent).toBe('No overdue EMIs.');
    expect(api.requestsTo(paths.emi.upcoming).map((r) => new URL(r.url).searchParams.get('range'))).toContain(
      'overdue',
    );
  });

  it('opens a tab from the URL (as the dashboard links) and loads more page by page', async () => {
    const api = stubUpcomingApi();
    renderAt(appPaths.upComingEmi.href('week'));
    expect(screen.getByRole('tab', { selected: true }).getAttribute('data-testid')).toBe('upcoming-tab-week');
    await screen.findByTestId('upcoming-row-100');
    expect(screen.getAllByTestId(/^upcoming-row-\d+$/)).toHaveLength(20);
    expect(screen.getByTestId('upcoming-shown').textContent).toBe('Showing 20 of 25');
    fireEvent.click(screen.getByTestId('upcoming-load-more'));
    await screen.findByTestId('upcoming-row-124');
    expect(screen.getAllByTestId(/^upcoming-row-\d+$/)).toHaveLength(25);
    expect(screen.getByTestId('upcoming-shown').textContent).toBe('Showing 25 of 25');
    expect(screen.queryByTestId('upcoming-load-more')).toBeNull();
    expect(
      api.requestsTo(paths.emi.upcoming).map((request) => new URL(request.url).searchParams.get('page')),
    ).toEqual(['1', '2']);
  });

  it("opens the customer's emi_details when a row is tapped", async () => {
    stubUpcomingApi();
    const { router } = renderAt(appPaths.upComingEmi.href('today'));
    fireEvent.click(within(await screen.findByTestId('upcoming-row-2')).getByRole('button'));
    expect(await screen.findByText('emi details screen')).toBeTruthy();
    expect(router.state.location.pathname).toBe(appPaths.emiDetails.path);
    expect(router.state.location.search).toBe('?customer_id=20');
  });

  it('offers "Send reminder" and the lock on each overdue row, and "Lock all overdue" above them (issue 28)', async () => {
    const api = stubApi({
      [paths.emi.upcomingCounts]: () => ({ today: 0, week: 0, overdue: 2 }),
      [paths.emi.upcoming]: (_request, url) => pageOf(url, 2, 7, 'overdue'),
      [paths.emi.sendAlert]: () => ({
        id: '0190f3a2-8000-7000-8000-000000000001',
        name: 'emi_alert',
        state: 'sent',
        error: null,
        createdAt: '2026-03-05T04:30:00.000Z',
        updatedAt: '2026-03-05T04:30:00.000Z',
      }),
    });
    renderRoutes({
      i18n,
      url: appPaths.upComingEmi.href('overdue'),
      routes: [
        {
          path: appPaths.upComingEmi.path,
          element: (
            <UpcomingEmiPage
              overdueActions={{
                renderLock: (row) => <span data-testid={`lock-of-${row.customerId}`}>lock</span>,
                renderLockAll: () => <span data-testid="lock-all">lock all</span>,
              }}
            />
          ),
        },
      ],
    });
    const row = await screen.findByTestId('upcoming-row-7');
    expect(within(row).getByTestId('lock-of-70')).toBeTruthy();
    expect(screen.getByTestId('lock-all')).toBeTruthy();
    fireEvent.click(within(row).getByTestId('overdue-remind-70'));
    await waitFor(() => expect(api.requestsTo(paths.emi.sendAlert)).toHaveLength(1));
    expect(await api.requestsTo(paths.emi.sendAlert)[0]!.json()).toEqual({ customer_id: 70 });
  });

  it('shows no lock or reminder on the Today tab', async () => {
    stubUpcomingApi();
    renderAt(appPaths.upComingEmi.href('today'));
    const row = await screen.findByTestId('upcoming-row-1');
    expect(within(row).queryByTestId('overdue-remind-10')).toBeNull();
    expect(screen.queryByTestId('lock-all-overdue')).toBeNull();
  });

  it('reads unknown or missing ranges as Today', () => {
    expect(readUpcomingRange(null)).toBe('today');
    expect(readUpcomingRange('month')).toBe('today');
    expect(readUpcomingRange('overdue')).toBe('overdue');
  });
});
