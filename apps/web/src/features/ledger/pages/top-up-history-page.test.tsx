import type { TLedgerMovement, TTransactionPage } from '@kisht/domain/ledger/ledger.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import { saveTextFile } from '../../../lib/save-file';
import { stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { TopUpHistoryPage } from './top-up-history-page';

vi.mock('../../../lib/save-file', () => ({ saveTextFile: vi.fn() }));

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

const movement = (id: number, overrides: Partial<TLedgerMovement> = {}): TLedgerMovement => ({
  id,
  kind: 'transfer',
  appType: 0,
  quantity: 5,
  direction: 'out',
  counterpartyName: 'Ravi Mobiles – Andheri',
  customerId: null,
  customerName: null,
  note: null,
  createdAt: '2026-01-15T06:45:00Z',
  ...overrides,
});

const renderPage = (url = appPaths.topUpHistory.href()) =>
  renderRoutes({
    i18n,
    url,
    routes: [{ path: appPaths.topUpHistory.path, element: <TopUpHistoryPage /> }],
  });

const queryOf = (request: Request | undefined) =>
  Object.fromEntries(new URL(request?.url ?? '').searchParams);

describe('top_up_history', () => {
  it('shows each movement: kind, signed keys, app type, the other side and the +05:30 date', async () => {
    const page: TTransactionPage = {
      items: [
        movement(3),
        movement(2, {
          kind: 'key_use',
          quantity: 1,
          counterpartyName: null,
          customerId: 7,
          customerName: 'Aarav Sharma',
        }),
        movement(1, {
          kind: 'top_up',
          quantity: 50,
          direction: 'in',
          counterpartyName: null,
          note: 'Diwali offer',
          appType: 4,
        }),
      ],
      nextCursor: null,
    };
    stubApi({ [paths.ledger.transactions]: () => page });
    renderPage();
    const rows = await screen.findAllByTestId('ledger-movement');
    expect(rows).toHaveLength(3);
    expect(rows[0]!.textContent).toContain('Transfer');
    expect(rows[0]!.textContent).toContain('−5');
    expect(rows[0]!.textContent).toContain('Device policy controller');
    expect(rows[0]!.textContent).toContain('To Ravi Mobiles – Andheri');
    expect(within(rows[0]!).getByTestId('ledger-movement-date').textContent).toBe('15-01-2026 12:15 PM');
    expect(rows[1]!.textContent).toContain('Key used');
    expect(rows[1]!.textContent).toContain('Customer: Aarav Sharma');
    expect(rows[2]!.textContent).toContain('+50');
    expect(rows[2]!.textContent).toContain('Anti-theft');
    expect(rows[2]!.textContent).toContain('Organisation · Diwali offer');
  });

  it('sends the URL filters, and a changed filter changes the query and the URL', async () => {
    const api = stubApi({ [paths.ledger.transactions]: () => ({ items: [movement(1)], nextCursor: null }) });
    const { router } = renderPage(appPaths.topUpHistory.href({ from: '2026-01-01', to: '2026-01-31' }));
    await screen.findByTestId('ledger-movement');
    expect(queryOf(api.requestsTo(paths.ledger.transactions)[0])).toEqual({
      from: '2026-01-01',
      to: '2026-01-31',
    });

    fireEvent.change(screen.getByTestId('ledger-from'), { target: { value: '2026-01-10' } });
    await waitFor(() => expect(api.requestsTo(paths.ledger.transactions)).toHaveLength(2));
    expect(queryOf(api.requestsTo(paths.ledger.transactions)[1])).toEqual({
      from: '2026-01-10',
      to: '2026-01-31',
    });
    expect(router.state.location.search).toBe('?from=2026-01-10&to=2026-01-31');

    fireEvent.change(screen.getByTestId('ledger-type'), { target: { value: 'key_use' } });
    await waitFor(() => expect(api.requestsTo(paths.ledger.transactions)).toHaveLength(3));
    expect(queryOf(api.requestsTo(paths.ledger.transactions)[2])).toEqual({
      from: '2026-01-10',
      to: '2026-01-31',
      type: 'key_use',
    });
  });

  it('loads the next page with the cursor, and downloads the same filter as CSV', async () => {
    const api = stubApi({
      [paths.ledger.transactions]: (_request, url) =>
        url.searchParams.get('cursor') === '70'
          ? { items: [movement(69)], nextCursor: null }
          : { items: [movement(71), movement(70)], nextCursor: '70' },
      [paths.ledger.transactionsCsv]: () =>
        new Response('Date,Type\n', { headers: { 'Content-Type': 'text/csv' } }),
    });
    renderPage(appPaths.topUpHistory.href({ type: 'transfer', userId: 9 }));
    expect(await screen.findAllByTestId('ledger-movement')).toHaveLength(2);
    fireEvent.click(screen.getByTestId('ledger-load-more'));
    await waitFor(() => expect(screen.getAllByTestId('ledger-movement')).toHaveLength(3));
    expect(queryOf(api.requestsTo(paths.ledger.transactions)[1])).toEqual({
      type: 'transfer',
      user_id: '9',
      cursor: '70',
    });
    expect(screen.queryByTestId('ledger-load-more')).toBeNull();

    fireEvent.click(screen.getByTestId('ledger-download-csv'));
    await waitFor(() =>
      expect(saveTextFile).toHaveBeenCalledWith({ text: 'Date,Type\n', fileName: 'top-up-history.csv' }),
    );
    expect(queryOf(api.requestsTo(paths.ledger.transactionsCsv)[0])).toEqual({
      type: 'transfer',
      user_id: '9',
    });
  });

  it('says so when there is nothing, and offers to clear filters that find nothing', async () => {
    stubApi({ [paths.ledger.transactions]: () => ({ items: [], nextCursor: null }) });
    const { router } = renderPage(appPaths.topUpHistory.href({ type: 'refund' }));
    expect((await screen.findByTestId('ledger-empty')).textContent).toBe(
      'No key movements match these filters',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect((await screen.findByTestId('ledger-empty')).textContent).toBe('No key movements yet');
  });
});
