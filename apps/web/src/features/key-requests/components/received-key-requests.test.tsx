import type { TKeyRequest } from '@kisht/domain/ledger/key-requests.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { ReceivedKeyRequestsPanel } from './received-key-requests';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  localStorage.setItem('type', 'admin');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const retailerRequest = (overrides: Partial<TKeyRequest> = {}): TKeyRequest => ({
  id: 12,
  requesterId: 4,
  requesterName: 'Sharma Mobiles',
  parentName: null,
  appType: 1,
  quantity: 50,
  unitPricePaise: 9900,
  totalPaise: 495000,
  paymentReference: 'NEFT N12345',
  status: 'pending',
  decisionNote: null,
  createdAt: '2026-11-29T07:30:00.000Z',
  decidedAt: null,
  ...overrides,
});

const renderPanel = () =>
  renderRoutes({ i18n, url: '/admin', routes: [{ path: '/admin', element: <ReceivedKeyRequestsPanel /> }] });

describe('the organisation admin’s key requests (issue 30)', () => {
  it('lists its retailers’ requests and approves one after the confirmation', async () => {
    let current = retailerRequest();
    const api = stubApi({
      [paths.keyRequests.list]: () => [current],
      [paths.keyRequests.decide]: () => {
        current = { ...current, status: 'approved', decidedAt: '2026-11-29T08:00:00.000Z' };
        return current;
      },
    });
    renderPanel();
    const card = await screen.findByTestId('key-request-12');
    expect(screen.getByTestId('key-requests-received').textContent).toContain(
      "Your retailers' requests for keys.",
    );
    expect(card.textContent).toContain('50 keys · Link-based');
    expect(card.textContent).toContain('From Sharma Mobiles');
    expect(card.textContent).toContain('₹99.00 per key · Total ₹4,950.00');
    expect(card.textContent).toContain('Payment reference: NEFT N12345');
    expect(api.requestsTo(paths.keyRequests.list).map((r) => new URL(r.url).searchParams.get('box'))).toEqual(
      ['received'],
    );

    fireEvent.click(within(card).getByTestId('key-request-approve-12'));
    fireEvent.click(await screen.findByTestId('key-request-approve-confirm'));
    await waitFor(() => expect(screen.getByTestId('key-request-status-12').textContent).toBe('Approved'));
    expect(await api.bodiesTo(paths.keyRequests.decide)).toEqual([{ request_id: 12, decision: 'approve' }]);
    expect(screen.queryByTestId('key-request-approve-12')).toBeNull();
    expect(await screen.findByText('Request approved. The keys have moved.')).toBeTruthy();
  });

  it('says so when the request was already decided elsewhere, and shows the list again', async () => {
    let current = retailerRequest();
    stubApi({
      [paths.keyRequests.list]: () => [current],
      [paths.keyRequests.decide]: () => {
        current = { ...current, status: 'cancelled', decidedAt: '2026-11-29T07:40:00.000Z' };
        return failureResponse(409, 'This key request was already decided', {
          code: 'KEY_REQUEST_ALREADY_DECIDED',
        });
      },
    });
    renderPanel();
    fireEvent.click(await screen.findByTestId('key-request-reject-12'));
    const dialog = await screen.findByTestId('key-request-reject-dialog');
    fireEvent.change(within(dialog).getByTestId('key-request-reject-note'), {
      target: { value: 'No payment' },
    });
    fireEvent.click(within(dialog).getByTestId('key-request-reject-submit'));
    expect((await within(dialog).findByTestId('key-request-reject-failure')).textContent).toBe(
      'This key request was already decided',
    );
    await waitFor(() => expect(screen.getByTestId('key-request-status-12').textContent).toBe('Withdrawn'));
  });

  it('says when no retailer has asked', async () => {
    stubApi({ [paths.keyRequests.list]: () => [] });
    renderPanel();
    expect((await screen.findByTestId('key-requests-empty-received')).textContent).toBe(
      'No key requests here yet.',
    );
  });
});
