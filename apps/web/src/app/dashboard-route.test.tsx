import { paths } from '@kisht/domain/paths';
import type { TDashboard } from '@kisht/domain/stats/stats.schema';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMyLoan } from '../features/emi/emi-fixtures';
import { appPaths } from '../lib/paths';
import { stubApi } from '../test/fake-api';
import { fakeOrgConfig, renderRoutes } from '../test/render-app';
import { createTestI18n } from '../test/test-i18n';
import { DashboardRoute } from './dashboard-route';

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

const DASHBOARD: TDashboard = {
  countsByStatus: {
    inactive: 2,
    install: 12,
    deactive: 0,
    uninstall: 1,
    apple_removed: 0,
    emi_completed: 5,
    emi_maturing: 0,
  },
  total: 20,
};

const stubDashboardApi = (myLoans: unknown = []) =>
  stubApi({
    [paths.stats.dashboard]: () => DASHBOARD,
    [paths.stats.totalOutstanding]: () => ({
      outstandingPaise: 15_000_000, // ₹1,50,000
      overduePaise: 0,
      collectedPaise: 123_456_789, // ₹12,34,567.89
      collectedThisMonthPaise: 150_000, // ₹1,500
    }),
    [paths.emi.upcomingCounts]: () => ({ today: 3, week: 11, overdue: 4 }),
    [paths.emi.myLoans]: () => myLoans,
  });

const renderDashboard = (layout: 'cards' | 'list' = 'cards') =>
  renderRoutes({
    i18n,
    url: appPaths.dashboard.href(),
    orgConfig: fakeOrgConfig({ pages: { dashboard: layout, inactiveCustomer: 'navigate' } }),
    routes: [
      { path: appPaths.dashboard.path, element: <DashboardRoute /> },
      { path: appPaths.upComingEmi.path, element: <p>upcoming screen</p> },
      { path: appPaths.customerList.path, element: <p>customer list screen</p> },
    ],
  });

describe.each(['cards', 'list'] as const)("retailer dashboard, '%s' layout", (layout) => {
  it('shows the money figures shortened, with the full amount as their tooltip', async () => {
    stubDashboardApi();
    renderDashboard(layout);
    const outstanding = await screen.findByTestId('dashboard-outstanding-value');
    expect(outstanding.textContent).toBe('₹1.50L');
    expect(outstanding.getAttribute('aria-label')).toBe('₹1,50,000.00');
    expect(screen.getByTestId('dashboard-collected-total-value').textContent).toBe('₹12.35L');
    expect(screen.getByTestId('dashboard-collected-total-value').getAttribute('aria-label')).toBe(
      '₹12,34,567.89',
    );
    expect(screen.getByTestId('dashboard-collected-month-value').textContent).toBe('₹1.50K');
    // Spec §9: zero shows N/A.
    expect(screen.getByTestId('dashboard-overdue-value').textContent).toBe('N/A');
    expect(within(screen.getByRole('region', { name: 'Money' })).getByText('Total outstanding')).toBeTruthy();
    // The customer counts of this layout are still there.
    expect(screen.getByTestId(layout === 'list' ? 'dashboard-list' : 'dashboard-cards')).toBeTruthy();
  });

  it('shows the EMIs due; a figure opens up_coming_emi on its tab', async () => {
    stubDashboardApi();
    const { router } = renderDashboard(layout);
    expect((await screen.findByTestId('dashboard-upcoming-today-value')).textContent).toBe('3');
    expect(screen.getByTestId('dashboard-upcoming-week-value').textContent).toBe('11');
    const overdue = screen.getByTestId('dashboard-upcoming-overdue');
    expect(overdue.textContent).toContain('Overdue');
    fireEvent.click(layout === 'list' ? overdue : within(overdue).getByRole('button'));
    expect(await screen.findByText('upcoming screen')).toBeTruthy();
    expect(router.state.location.search).toBe('?range=overdue');
  });

  it('charts customers by status with their share; a bar opens the filtered list', async () => {
    stubDashboardApi();
    const { router } = renderDashboard(layout);
    const chart = await screen.findByTestId('dashboard-status-chart');
    expect(within(chart).getByTestId('dashboard-chart-install').textContent).toBe('Installed12 · 60%');
    expect(within(chart).getByTestId('dashboard-chart-emi_completed').textContent).toBe(
      'EMIs completed5 · 25%',
    );
    fireEvent.click(within(chart).getByTestId('dashboard-chart-uninstall'));
    expect(await screen.findByText('customer list screen')).toBeTruthy();
    expect(router.state.location.search).toBe('?status=uninstall');
  });
});

describe('customer user dashboard: My loan (spec §4)', () => {
  beforeEach(() => {
    localStorage.setItem('type', 'customer');
  });

  it('shows their loan, lock status, totals, instalments and how to pay by UPI', async () => {
    const api = stubDashboardApi([createMyLoan({ lockStatus: 1 })]);
    renderDashboard();
    expect(await screen.findByRole('heading', { level: 1, name: 'My loan' })).toBeTruthy();
    const loan = await screen.findByTestId('my-loan-5');
    expect(within(loan).getByTestId('my-loan-product').textContent).toBe('Redmi Note 14 5G');
    expect(within(loan).getByTestId('my-loan-lock-status').textContent).toBe('Locked');
    expect(within(loan).getByTestId('emi-total-outstanding').textContent).toBe('₹25,444.58');
    // Instalment 2 is overdue, so it is not the next EMI (issue 12).
    expect(within(loan).getByTestId('my-loan-next-due').textContent).toBe(
      'Next EMI: ₹7,814.86 due on 05-03-2026',
    );
    expect(
      within(loan)
        .getAllByTestId('instalment-status')
        .map((chip) => chip.textContent),
    ).toEqual(['Paid', 'Overdue', 'Due today', 'Upcoming']);
    expect(within(loan).queryByRole('checkbox')).toBeNull();
    expect(within(loan).getByTestId('my-loan-retailer').textContent).toBe('Ravi Mobiles');
    expect(within(loan).getByTestId('my-loan-upi-id').textContent).toBe('ravimobiles@okaxis');
    expect(within(loan).getByRole('img', { name: 'UPI QR code to pay Ravi Mobiles' })).toBeTruthy();
    const payLink = within(loan).getByRole('link', { name: 'Pay with UPI app' });
    expect(payLink.getAttribute('href')).toBe(createMyLoan().payTo.upiLink);
    // None of the retailer's figures are asked for.
    expect(api.requestsTo(paths.stats.dashboard)).toHaveLength(0);
    expect(api.requestsTo(paths.stats.totalOutstanding)).toHaveLength(0);
  });

  it('shows Unlocked, and no QR code or UPI link when the retailer has none', async () => {
    stubDashboardApi([
      createMyLoan({ payTo: { retailerName: 'Ravi Mobiles', upiId: null, upiLink: null, emiPin: null } }),
    ]);
    renderDashboard();
    const loan = await screen.findByTestId('my-loan-5');
    expect(within(loan).getByTestId('my-loan-lock-status').textContent).toBe('Unlocked');
    expect(within(loan).getByTestId('my-loan-upi-id').textContent).toBe('N/A');
    expect(within(loan).queryByTestId('my-loan-upi-qr')).toBeNull();
    expect(within(loan).queryByTestId('my-loan-pay-upi')).toBeNull();
    expect(within(loan).getByTestId('my-loan-pay-in-shop').textContent).toBe("Pay at Ravi Mobiles's shop.");
  });

  it('says so when they have no loan', async () => {
    stubDashboardApi([]);
    renderDashboard();
    expect((await screen.findByTestId('my-loan-empty')).textContent).toBe('You have no loans with us.');
  });
});
