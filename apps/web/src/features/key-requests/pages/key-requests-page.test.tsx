import type { TKeyRequest } from '@kisht/domain/ledger/key-requests.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { KeyRequestsPage } from './key-requests-page';

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

const keyRequest = (overrides: Partial<TKeyRequest> = {}): TKeyRequest => ({
  id: 7,
  requesterId: 31,
  requesterName: 'Ravi Mobiles – Andheri',
  parentName: 'Sharma Mobiles',
  appType: 0,
  quantity: 10,
  unitPricePaise: 15000,
  totalPaise: 150000,
  paymentReference: 'UPI 412398765432',
  status: 'pending',
  decisionNote: null,
  createdAt: '2026-11-29T07:30:00.000Z',
  decidedAt: null,
  ...overrides,
});

const renderPage = (url = '/key_requests') =>
  renderRoutes({ i18n, url, routes: [{ path: '/key_requests', element: <KeyRequestsPage /> }] });

/** Requests of one box (`sent` or `received`) answered by `box`; other paths by `handlers`. */
const boxes = (lists: { sent?: () => TKeyRequest[]; received?: () => TKeyRequest[] }) => ({
  [paths.keyRequests.list]: (request: Request, url: URL) => {
    if (request.method !== 'GET') return failureResponse(500, 'unexpected');
    const box = url.searchParams.get('box') as 'sent' | 'received';
    return lists[box]?.() ?? [];
  },
});

const chooseAppType = async (dialog: HTMLElement, name: string) => {
  fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /^Key type/ }));
  fireEvent.click(await screen.findByRole('option', { name }));
};

describe('key requests: a mini-retailer (issue 30)', () => {
  beforeEach(() => localStorage.setItem('type', 'miniretailer'));

  it('lists its requests with status, price per key, total, reference and dates, and no shop tabs', async () => {
    const api = stubApi(
      boxes({
        sent: () => [
          keyRequest(),
          keyRequest({
            id: 6,
            appType: 2,
            quantity: 1,
            unitPricePaise: null,
            totalPaise: null,
            paymentReference: null,
            status: 'rejected',
            decisionNote: 'Payment not received',
            decidedAt: '2026-11-29T09:00:00.000Z',
          }),
          keyRequest({ id: 5, status: 'approved', decidedAt: '2026-11-28T05:00:00.000Z' }),
          keyRequest({ id: 4, status: 'cancelled', decidedAt: '2026-11-27T05:00:00.000Z' }),
        ],
      }),
    );
    renderPage();
    const pending = await screen.findByTestId('key-request-7');
    expect(pending.textContent).toContain('10 keys · Device policy controller');
    expect(pending.textContent).toContain('To Sharma Mobiles');
    expect(within(pending).getByTestId('key-request-status-7').textContent).toBe('Pending');
    expect(within(pending).getByTestId('key-request-price-7').textContent).toBe(
      '₹150.00 per key · Total ₹1,500.00',
    );
    expect(within(pending).getByTestId('key-request-reference-7').textContent).toBe(
      'Payment reference: UPI 412398765432',
    );
    expect(pending.textContent).toContain('Asked 29-11-2026 01:00 PM');
    expect(within(pending).getByTestId('key-request-withdraw-7')).toBeTruthy();

    const rejected = screen.getByTestId('key-request-6');
    expect(rejected.textContent).toContain('1 key · Apple');
    expect(within(rejected).getByTestId('key-request-status-6').textContent).toBe('Rejected');
    expect(within(rejected).getByTestId('key-request-price-6').textContent).toBe('No price set');
    expect(rejected.textContent).toContain('Rejected 29-11-2026 02:30 PM');
    expect(within(rejected).getByTestId('key-request-note-6').textContent).toBe(
      'Reason: Payment not received',
    );
    expect(within(rejected).queryByTestId('key-request-withdraw-6')).toBeNull();
    expect(screen.getByTestId('key-request-status-5').textContent).toBe('Approved');
    expect(screen.getByTestId('key-request-status-4').textContent).toBe('Withdrawn');

    // Only a retailer has shops below it.
    expect(screen.queryByTestId('key-requests-tab-received')).toBeNull();
    expect(api.requestsTo(paths.keyRequests.list).map((r) => new URL(r.url).searchParams.get('box'))).toEqual(
      ['sent'],
    );
  });

  it('withdraws a pending request by its id', async () => {
    let current = keyRequest();
    const api = stubApi({
      ...boxes({ sent: () => [current] }),
      [paths.keyRequests.cancel]: () => {
        current = { ...current, status: 'cancelled', decidedAt: '2026-11-29T08:00:00.000Z' };
        return current;
      },
    });
    renderPage();
    fireEvent.click(await screen.findByTestId('key-request-withdraw-7'));
    await waitFor(() => expect(screen.getByTestId('key-request-status-7').textContent).toBe('Withdrawn'));
    expect(await api.bodiesTo(paths.keyRequests.cancel)).toEqual([{ request_id: 7 }]);
    expect(screen.queryByTestId('key-request-withdraw-7')).toBeNull();
  });

  it('asks its retailer for keys with the type, number and payment reference', async () => {
    let sent: TKeyRequest[] = [];
    const api = stubApi({
      [paths.keyRequests.list]: async (request) => {
        if (request.method !== 'POST') return sent;
        const body = (await request.json()) as Pick<TKeyRequest, 'appType' | 'quantity'>;
        sent = [keyRequest({ id: 8, ...body, paymentReference: 'UPI 99' })];
        return sent[0];
      },
    });
    renderPage();
    expect(await screen.findByTestId('key-requests-empty-sent')).toBeTruthy();
    fireEvent.click(screen.getByTestId('key-request-new'));
    const dialog = await screen.findByTestId('key-request-dialog');
    expect(dialog.textContent).toContain('Your retailer approves the request');

    // No number of keys: nothing is sent.
    fireEvent.change(within(dialog).getByTestId('key-request-quantity'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByTestId('key-request-submit'));
    expect(await within(dialog).findByText('Enter a whole number of keys, at least 1')).toBeTruthy();
    expect(api.requestsTo(paths.keyRequests.list).filter((r) => r.method === 'POST')).toHaveLength(0);

    await chooseAppType(dialog, 'Apple');
    fireEvent.change(within(dialog).getByTestId('key-request-quantity'), { target: { value: '25' } });
    fireEvent.change(within(dialog).getByTestId('key-request-reference'), { target: { value: ' UPI 99 ' } });
    fireEvent.click(within(dialog).getByTestId('key-request-submit'));

    await waitFor(() => expect(screen.queryByTestId('key-request-dialog')).toBeNull());
    const posts = api.requestsTo(paths.keyRequests.list).filter((r) => r.method === 'POST');
    expect(await Promise.all(posts.map((r) => r.json()))).toEqual([
      { appType: 2, quantity: 25, paymentReference: 'UPI 99' },
    ]);
    expect((await screen.findByTestId('key-request-8')).textContent).toContain('25 keys · Apple');
  });

  it('leaves the payment reference out when none is typed', async () => {
    const api = stubApi({
      [paths.keyRequests.list]: async (request) =>
        request.method === 'POST' ? keyRequest({ paymentReference: null }) : [],
    });
    renderPage();
    fireEvent.click(await screen.findByTestId('key-request-new'));
    const dialog = await screen.findByTestId('key-request-dialog');
    fireEvent.change(within(dialog).getByTestId('key-request-quantity'), { target: { value: '3' } });
    fireEvent.click(within(dialog).getByTestId('key-request-submit'));
    await waitFor(() => expect(screen.queryByTestId('key-request-dialog')).toBeNull());
    const posts = api.requestsTo(paths.keyRequests.list).filter((r) => r.method === 'POST');
    expect(await Promise.all(posts.map((r) => r.json()))).toEqual([{ appType: 0, quantity: 3 }]);
  });

  it('returns unused keys to its retailer with a note; a refusal shows in the server’s words', async () => {
    let isRefused = true;
    const api = stubApi({
      ...boxes({}),
      [paths.ledger.balances]: () => [],
      [paths.keyRequests.returnKeys]: () =>
        isRefused
          ? failureResponse(409, 'Not enough keys: you have 2 Anti-theft keys, 5 asked', {
              code: 'INSUFFICIENT_KEYS',
            })
          : {
              id: 90,
              kind: 'transfer',
              appType: 4,
              quantity: 2,
              direction: 'out',
              counterpartyName: 'Sharma Mobiles',
              customerId: null,
              customerName: null,
              note: 'Shop closing',
              createdAt: '2026-11-29T07:30:00.000Z',
            },
    });
    renderPage();
    fireEvent.click(await screen.findByTestId('key-return-open'));
    const dialog = await screen.findByTestId('key-return-dialog');
    expect(dialog.textContent).toContain('Unused keys go back to your retailer at once.');
    await chooseAppType(dialog, 'Anti-theft');
    fireEvent.change(within(dialog).getByTestId('key-return-quantity'), { target: { value: '5' } });
    fireEvent.change(within(dialog).getByTestId('key-return-note'), { target: { value: 'Shop closing' } });
    fireEvent.click(within(dialog).getByTestId('key-return-submit'));
    expect((await within(dialog).findByTestId('key-return-failure')).textContent).toBe(
      'Not enough keys: you have 2 Anti-theft keys, 5 asked',
    );

    isRefused = false;
    fireEvent.change(within(dialog).getByTestId('key-return-quantity'), { target: { value: '2' } });
    fireEvent.click(within(dialog).getByTestId('key-return-submit'));
    await waitFor(() => expect(screen.queryByTestId('key-return-dialog')).toBeNull());
    expect(await screen.findByText('2 keys returned')).toBeTruthy();
    expect(await api.bodiesTo(paths.keyRequests.returnKeys)).toEqual([
      { appType: 4, quantity: 5, note: 'Shop closing' },
      { appType: 4, quantity: 2, note: 'Shop closing' },
    ]);
  });
});

describe('key requests: a retailer (issue 30)', () => {
  beforeEach(() => localStorage.setItem('type', 'retailer'));

  it('opens its shops’ requests from ?tab=received, with Approve and Reject on pending ones only', async () => {
    const api = stubApi(
      boxes({
        received: () => [
          keyRequest(),
          keyRequest({ id: 3, status: 'approved', decidedAt: '2026-11-28T05:00:00.000Z' }),
        ],
      }),
    );
    const { router } = renderPage('/key_requests?tab=received');
    const pending = await screen.findByTestId('key-request-7');
    expect(pending.textContent).toContain('From Ravi Mobiles – Andheri');
    expect(pending.textContent).toContain('Total ₹1,500.00');
    expect(within(pending).getByTestId('key-request-approve-7')).toBeTruthy();
    expect(within(pending).getByTestId('key-request-reject-7')).toBeTruthy();
    expect(within(screen.getByTestId('key-request-3')).queryByTestId('key-request-approve-3')).toBeNull();
    expect(screen.getByTestId('key-requests-tab-received').getAttribute('aria-selected')).toBe('true');
    expect(api.requestsTo(paths.keyRequests.list).map((r) => new URL(r.url).searchParams.get('box'))).toEqual(
      ['received'],
    );

    fireEvent.click(screen.getByTestId('key-requests-tab-sent'));
    expect(await screen.findByTestId('key-requests-empty-sent')).toBeTruthy();
    expect(router.state.location.search).toBe('');
  });

  it('approves only after the confirmation, and says why when there are not enough keys', async () => {
    let current = keyRequest();
    let isShort = true;
    const api = stubApi({
      ...boxes({ received: () => [current] }),
      [paths.keyRequests.decide]: () => {
        if (isShort)
          return failureResponse(409, 'Not enough keys: you have 4 Device policy controller keys, 10 asked', {
            code: 'INSUFFICIENT_KEYS',
          });
        current = { ...current, status: 'approved', decidedAt: '2026-11-29T08:00:00.000Z' };
        return current;
      },
    });
    renderPage('/key_requests?tab=received');
    fireEvent.click(await screen.findByTestId('key-request-approve-7'));
    expect(
      await screen.findByText('Ravi Mobiles – Andheri gets 10 Device policy controller keys.'),
    ).toBeTruthy();
    expect(api.requestsTo(paths.keyRequests.decide)).toHaveLength(0);
    fireEvent.click(screen.getByTestId('key-request-approve-confirm'));
    expect(
      await screen.findByText('Not enough keys: you have 4 Device policy controller keys, 10 asked'),
    ).toBeTruthy();
    expect(screen.getByTestId('key-request-status-7').textContent).toBe('Pending');

    isShort = false;
    fireEvent.click(screen.getByTestId('key-request-approve-7'));
    fireEvent.click(await screen.findByTestId('key-request-approve-confirm'));
    await waitFor(() => expect(screen.getByTestId('key-request-status-7').textContent).toBe('Approved'));
    expect(await api.bodiesTo(paths.keyRequests.decide)).toEqual([
      { request_id: 7, decision: 'approve' },
      { request_id: 7, decision: 'approve' },
    ]);
  });

  it('rejects only with a reason, which it sends', async () => {
    let current = keyRequest();
    const api = stubApi({
      ...boxes({ received: () => [current] }),
      [paths.keyRequests.decide]: async (request) => {
        const body = (await request.json()) as { note: string };
        current = {
          ...current,
          status: 'rejected',
          decisionNote: body.note,
          decidedAt: '2026-11-29T08:00:00.000Z',
        };
        return current;
      },
    });
    renderPage('/key_requests?tab=received');
    fireEvent.click(await screen.findByTestId('key-request-reject-7'));
    const dialog = await screen.findByTestId('key-request-reject-dialog');
    expect(dialog.textContent).toContain(
      'Ravi Mobiles – Andheri asked for 10 Device policy controller keys.',
    );
    fireEvent.click(within(dialog).getByTestId('key-request-reject-submit'));
    expect(await within(dialog).findByText('Say why the request is rejected')).toBeTruthy();
    expect(api.requestsTo(paths.keyRequests.decide)).toHaveLength(0);

    fireEvent.change(within(dialog).getByTestId('key-request-reject-note'), {
      target: { value: '  Payment not received yet ' },
    });
    fireEvent.click(within(dialog).getByTestId('key-request-reject-submit'));
    await waitFor(() => expect(screen.queryByTestId('key-request-reject-dialog')).toBeNull());
    expect(await api.bodiesTo(paths.keyRequests.decide)).toEqual([
      { request_id: 7, decision: 'reject', note: 'Payment not received yet' },
    ]);
    await waitFor(() => expect(screen.getByTestId('key-request-status-7').textContent).toBe('Rejected'));
    expect(screen.getByTestId('key-request-note-7').textContent).toBe('Reason: Payment not received yet');
  });

  it('asks the organisation for keys, and returns keys to it', async () => {
    stubApi({ ...boxes({}) });
    renderPage();
    fireEvent.click(await screen.findByTestId('key-request-new'));
    expect((await screen.findByTestId('key-request-dialog')).textContent).toContain(
      'Your organisation approves the request',
    );
    fireEvent.click(within(screen.getByTestId('key-request-dialog')).getByText('Cancel'));
    await waitFor(() => expect(screen.queryByTestId('key-request-dialog')).toBeNull());
    fireEvent.click(screen.getByTestId('key-return-open'));
    expect((await screen.findByTestId('key-return-dialog')).textContent).toContain(
      'Unused keys go back to your organisation at once.',
    );
  });

  it('sets its prices for its shops in rupees', async () => {
    let prices = { prices: [{ appType: 0, unitPricePaise: 12000 }] };
    const api = stubApi({
      [paths.keyRequests.prices]: async (request) => {
        if (request.method === 'PUT') prices = (await request.json()) as typeof prices;
        return prices;
      },
    });
    renderPage('/key_requests?tab=prices');
    await waitFor(() => expect((screen.getByTestId('shop-price-0') as HTMLInputElement).value).toBe('120'));
    expect((screen.getByTestId('shop-price-2') as HTMLInputElement).value).toBe('');

    fireEvent.change(screen.getByTestId('shop-price-2'), { target: { value: '0' } });
    fireEvent.click(screen.getByTestId('shop-prices-save'));
    expect(await screen.findByText('Enter an amount in rupees, up to 2 decimals')).toBeTruthy();
    expect(api.requestsTo(paths.keyRequests.prices).filter((r) => r.method === 'PUT')).toHaveLength(0);

    fireEvent.change(screen.getByTestId('shop-price-0'), { target: { value: '150' } });
    fireEvent.change(screen.getByTestId('shop-price-2'), { target: { value: '99.50' } });
    fireEvent.click(screen.getByTestId('shop-prices-save'));
    expect(await screen.findByText('Prices saved.')).toBeTruthy();
    const puts = api.requestsTo(paths.keyRequests.prices).filter((r) => r.method === 'PUT');
    expect(await Promise.all(puts.map((r) => r.json()))).toEqual([
      {
        prices: [
          { appType: 0, unitPricePaise: 15000 },
          { appType: 2, unitPricePaise: 9950 },
        ],
      },
    ]);
  });
});
