import type { TCollectionsCustomer, TCollectionsSummary } from '@kisht/domain/collections/collections.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { COLLECTIONS_PAGE_SIZE } from '../collections-api';
import { CollectionsLoansPage } from './collections-loans-page';
import { CollectionsPage } from './collections-page';

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
  vi.restoreAllMocks();
  localStorage.clear();
});

const figures = (
  bucket: TCollectionsSummary['buckets'][number]['bucket'],
  loans: number,
  outstanding: number,
  overdue: number,
) => ({
  bucket,
  loans,
  outstandingPaise: outstanding,
  overduePaise: overdue,
});

/** The server's test portfolio (apps/server collections.routes.test.ts), as the summary answers it. */
const SUMMARY: TCollectionsSummary = {
  asOf: '2026-11-29',
  buckets: [
    figures('current', 1, 200_000, 0),
    figures('1_30', 1, 200_000, 100_000),
    figures('31_60', 1, 160_000, 160_000),
    figures('61_90', 1, 300_000, 200_000),
    figures('90_plus', 1, 500_000, 400_000),
  ],
  par30: { loans: 3, outstandingPaise: 960_000, ratioBps: 7058 },
  efficiency: {
    from: '2026-11-01',
    to: '2026-11-29',
    duePaise: 500_000,
    collectedPaise: 100_000,
    ratioBps: 2000,
  },
  rollRates: [
    {
      fromDate: '2026-10-31',
      toDate: '2026-11-29',
      fromBucket: 'current',
      loans: 1,
      rolledForward: 1,
      cured: 0,
      rateBps: 10_000,
    },
    {
      fromDate: '2026-10-31',
      toDate: '2026-11-29',
      fromBucket: '1_30',
      loans: 2,
      rolledForward: 1,
      cured: 1,
      rateBps: 5000,
    },
    {
      fromDate: '2026-10-31',
      toDate: '2026-11-29',
      fromBucket: '31_60',
      loans: 0,
      rolledForward: 0,
      cured: 0,
      rateBps: null,
    },
    {
      fromDate: '2026-10-31',
      toDate: '2026-11-29',
      fromBucket: '61_90',
      loans: 1,
      rolledForward: 1,
      cured: 0,
      rateBps: 10_000,
    },
  ],
  shops: [
    {
      retailerId: 7,
      name: 'Shop A',
      buckets: [
        figures('current', 0, 0, 0),
        figures('1_30', 1, 200_000, 100_000),
        figures('31_60', 1, 160_000, 160_000),
        figures('61_90', 0, 0, 0),
        figures('90_plus', 1, 500_000, 400_000),
      ],
      par30: { loans: 2, outstandingPaise: 660_000, ratioBps: 7674 },
    },
    {
      retailerId: 8,
      name: 'Shop B',
      buckets: [
        figures('current', 1, 200_000, 0),
        figures('1_30', 0, 0, 0),
        figures('31_60', 0, 0, 0),
        figures('61_90', 1, 300_000, 200_000),
        figures('90_plus', 0, 0, 0),
      ],
      par30: { loans: 1, outstandingPaise: 300_000, ratioBps: 6000 },
    },
  ],
};

const loan = (customerId: number, dpd: number): TCollectionsCustomer => ({
  customerId,
  customerName: `Customer ${customerId}`,
  mobile: '+919876543210',
  retailerId: 7,
  shopName: 'Shop A',
  dpd,
  oldestDueDate: dpd > 0 ? '2026-08-20' : null,
  outstandingPaise: 500_000,
  overduePaise: dpd > 0 ? 400_000 : 0,
});

const renderAt = (url: string) =>
  renderRoutes({
    i18n,
    url,
    routes: [
      { path: appPaths.collections.path, element: <CollectionsPage /> },
      {
        path: appPaths.collectionsLoans.path,
        element: (
          <CollectionsLoansPage
            renderActions={(row) => <button type="button">{`act-${row.customerId}`}</button>}
          />
        ),
      },
      { path: appPaths.customerDetails.path, element: <p>customer details screen</p> },
    ],
  });

describe('collections view (issue 29)', () => {
  it('shows the buckets with money, PAR 30, efficiency, roll rates and shops', async () => {
    stubApi({ [paths.collections.summary]: () => SUMMARY });
    renderAt(appPaths.collections.href());
    const buckets = await screen.findByTestId('collections-buckets');
    expect(
      within(buckets)
        .getAllByRole('button')
        .map((row) => row.textContent),
    ).toEqual([
      'Current1 loan · ₹0.00 overdue₹2,000.00',
      '1–30 days late1 loan · ₹1,000.00 overdue₹2,000.00',
      '31–60 days late1 loan · ₹1,600.00 overdue₹1,600.00',
      '61–90 days late1 loan · ₹2,000.00 overdue₹3,000.00',
      'Over 90 days late1 loan · ₹4,000.00 overdue₹5,000.00',
    ]);
    expect(screen.getByTestId('collections-total').textContent).toBe('5 open loans, ₹13,600.00 outstanding');
    expect(screen.getByText('As of 29-11-2026')).toBeTruthy();
    const par = screen.getByTestId('collections-par30');
    expect(within(par).getByText('70.58%')).toBeTruthy();
    expect(par.textContent).toContain(
      '₹9,600.00 of ₹13,600.00 outstanding is on 3 loans more than 30 days late.',
    );
    const efficiency = screen.getByTestId('collections-efficiency');
    expect(within(efficiency).getByText('20.00%')).toBeTruthy();
    expect(efficiency.textContent).toContain('₹1,000.00 collected of ₹5,000.00 that fell due in the period.');
    const rolls = screen.getByTestId('collections-roll-rates');
    const cells = within(rolls).getAllByRole('row')[1]!.querySelectorAll('td');
    expect([...cells].slice(1).map((cell) => cell.textContent)).toEqual([
      '100.00%',
      '50.00%',
      '—',
      '100.00%',
    ]);
    expect(
      within(screen.getByTestId('collections-shops'))
        .getAllByRole('button')
        .map((row) => row.textContent),
    ).toEqual([
      'Shop A3 open loans · ₹8,600.00 outstandingPAR 30: 76.74%',
      'Shop B2 open loans · ₹5,000.00 outstandingPAR 30: 60.00%',
    ]);
  });

  it('opens the loans of a bucket, keeping the shop', async () => {
    stubApi({ [paths.collections.summary]: () => SUMMARY });
    const { router } = renderAt(appPaths.collections.href(8));
    fireEvent.click(await screen.findByTestId('collections-bucket-31_60'));
    expect(router.state.location.pathname + router.state.location.search).toBe(
      appPaths.collectionsLoans.href('31_60', 8),
    );
  });

  it('asks again for the period typed, and for the shop chosen, and keeps both in the URL', async () => {
    const api = stubApi({ [paths.collections.summary]: () => SUMMARY });
    const { router } = renderAt(appPaths.collections.href());
    fireEvent.change(await screen.findByTestId('collections-from'), { target: { value: '2026-10-01' } });
    await waitFor(() => expect(api.requestsTo(paths.collections.summary)).toHaveLength(2));
    expect(new URL(api.requestsTo(paths.collections.summary)[1]!.url).searchParams.get('from')).toBe(
      '2026-10-01',
    );
    fireEvent.click(within(screen.getByTestId('collections-shops')).getAllByRole('button')[1]!);
    await waitFor(() => expect(api.requestsTo(paths.collections.summary)).toHaveLength(3));
    const last = new URL(api.requestsTo(paths.collections.summary)[2]!.url).searchParams;
    expect([last.get('from'), last.get('retailer_id')]).toEqual(['2026-10-01', '8']);
    expect(router.state.location.search).toBe('?from=2026-10-01&retailer_id=8');
  });

  it('downloads the loans as CSV and every figure as an Excel workbook', async () => {
    const saved: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved.push(blob as Blob);
      return 'blob:collections';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const api = stubApi({
      [paths.collections.summary]: () => SUMMARY,
      [paths.collections.export]: (_request, url) =>
        url.searchParams.get('format') === 'csv'
          ? new Response('Customer id,Customer\n', { headers: { 'content-type': 'text/csv' } })
          : new Response(new Uint8Array([80, 75, 3, 4]), {
              headers: {
                'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
              },
            }),
    });
    renderAt(appPaths.collections.href(8));
    fireEvent.click(await screen.findByTestId('collections-csv'));
    await waitFor(() => expect(names).toEqual(['collections-2026-11-29.csv']));
    fireEvent.click(screen.getByTestId('collections-xlsx'));
    await waitFor(() => expect(names).toEqual(['collections-2026-11-29.csv', 'collections-2026-11-29.xlsx']));
    expect(api.requestsTo(paths.collections.export).map((request) => new URL(request.url).search)).toEqual([
      '?format=csv&retailer_id=8',
      '?format=xlsx&retailer_id=8',
    ]);
    expect(await saved[0]!.text()).toBe('Customer id,Customer\n');
    expect(saved[1]!.size).toBe(4);
  });

  it('says so, with a retry, when the figures cannot be loaded', async () => {
    stubApi({
      [paths.collections.summary]: () =>
        failureResponse(403, 'Only retailers can do this', { code: 'FORBIDDEN' }),
    });
    renderAt(appPaths.collections.href());
    expect(await screen.findByText('Only retailers can do this')).toBeTruthy();
  });
});

describe('collections_loans (issue 29)', () => {
  it("lists a bucket's loans, most late first, with the app's actions under each late one, and loads more", async () => {
    const api = stubApi({
      [paths.collections.customers]: (_request, url) => {
        const page = Number(url.searchParams.get('page'));
        const start = (page - 1) * COLLECTIONS_PAGE_SIZE;
        const count = Math.min(COLLECTIONS_PAGE_SIZE, 25 - start);
        return {
          items: Array.from({ length: count }, (_, index) => loan(start + index + 1, 120 - start - index)),
          total: 25,
          page,
          pageSize: COLLECTIONS_PAGE_SIZE,
        };
      },
    });
    renderAt(appPaths.collectionsLoans.href('90_plus', 7));
    expect(await screen.findByRole('heading', { name: 'Over 90 days late' })).toBeTruthy();
    expect(screen.getByText('25 loans')).toBeTruthy();
    const first = screen.getByTestId('collections-loan-1');
    expect(first.textContent).toContain('120 days late · due 20-08-2026');
    expect(first.textContent).toContain('₹4,000.00');
    expect(within(first).getByRole('button', { name: 'act-1' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getByTestId('collections-loan-25')).toBeTruthy());
    expect(
      api
        .requestsTo(paths.collections.customers)
        .map((request) => new URL(request.url).searchParams.get('retailer_id')),
    ).toEqual(['7', '7']);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('offers no action on a current loan, and opens its customer on a tap', async () => {
    stubApi({
      [paths.collections.customers]: () => ({
        items: [loan(3, 0)],
        total: 1,
        page: 1,
        pageSize: COLLECTIONS_PAGE_SIZE,
      }),
    });
    const { router } = renderAt(appPaths.collectionsLoans.href('current'));
    const row = await screen.findByTestId('collections-loan-3');
    expect(row.textContent).toContain('Nothing overdue');
    expect(within(row).queryByRole('button', { name: 'act-3' })).toBeNull();
    fireEvent.click(within(row).getByText('Customer 3'));
    expect(router.state.location.pathname).toBe(appPaths.customerDetails.href(3));
  });

  it('goes back to the collections view for an unknown bucket', async () => {
    stubApi({ [paths.collections.summary]: () => SUMMARY });
    const { router } = renderAt('/collections_loans?bucket=2_5&retailer_id=7');
    await waitFor(() => expect(router.state.location.pathname).toBe(appPaths.collections.path));
    expect(router.state.location.search).toBe('?retailer_id=7');
  });
});
