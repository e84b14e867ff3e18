import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { RefundKeyButton } from './refund-key-button';

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

const refund = {
  id: 7,
  kind: 'refund',
  appType: 0,
  quantity: 1,
  direction: 'in',
  counterpartyName: null,
  customerId: 42,
  customerName: 'Asha Patil',
  note: null,
  createdAt: '2026-01-15T06:45:00Z',
};

const renderButton = (onReturned: () => void) =>
  renderRoutes({
    i18n,
    url: '/customer_navigate?customer_id=42',
    routes: [
      { path: '/customer_navigate', element: <RefundKeyButton customerId={42} onReturned={onReturned} /> },
    ],
  });

describe('return key', () => {
  it('asks first; cancelling sends nothing', async () => {
    const api = stubApi({ [paths.ledger.refundKey]: () => refund });
    const onReturned = vi.fn();
    renderButton(onReturned);
    fireEvent.click(await screen.findByTestId('refund-key-button'));
    expect(screen.getByText('Return the key?')).toBeTruthy();
    fireEvent.click(screen.getByText('Cancel'));
    await waitFor(() => expect(screen.queryByTestId('refund-key-dialog')).toBeNull());
    expect(api.requestsTo(paths.ledger.refundKey)).toHaveLength(0);
    expect(onReturned).not.toHaveBeenCalled();
  });

  it("returns the key after confirmation; a refusal shows in the server's words", async () => {
    let isRefused = true;
    const api = stubApi({
      [paths.ledger.refundKey]: () =>
        isRefused
          ? failureResponse(409, "This customer's phone is already enrolled: its key cannot be returned", {
              code: 'ALREADY_ENROLLED',
            })
          : refund,
    });
    const onReturned = vi.fn();
    renderButton(onReturned);
    fireEvent.click(await screen.findByTestId('refund-key-button'));
    fireEvent.click(screen.getByTestId('refund-key-confirm'));
    expect(
      await screen.findByText("This customer's phone is already enrolled: its key cannot be returned"),
    ).toBeTruthy();
    expect(onReturned).not.toHaveBeenCalled();

    isRefused = false;
    fireEvent.click(screen.getByTestId('refund-key-confirm'));
    await waitFor(() => expect(onReturned).toHaveBeenCalledTimes(1));
    expect(screen.queryByTestId('refund-key-dialog')).toBeNull();
    expect(await api.bodiesTo(paths.ledger.refundKey)).toEqual([{ customer_id: 42 }, { customer_id: 42 }]);
  });
});
