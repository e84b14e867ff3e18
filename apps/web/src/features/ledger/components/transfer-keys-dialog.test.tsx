import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { KeyBalancesCard } from './key-balances-card';
import { TransferKeysButton } from './transfer-keys-dialog';

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

const renderProfile = () =>
  renderRoutes({
    i18n,
    url: '/retailer_profile?user_id=9',
    routes: [
      {
        path: '/retailer_profile',
        element: (
          <>
            <KeyBalancesCard userId={9} />
            <TransferKeysButton userId={9} name="Ravi Mobiles – Andheri" />
          </>
        ),
      },
    ],
  });

const movement = {
  id: 1,
  kind: 'transfer',
  appType: 0,
  quantity: 3,
  direction: 'out',
  counterpartyName: 'Ravi Mobiles – Andheri',
  customerId: null,
  customerName: null,
  note: null,
  createdAt: '2026-01-15T06:45:00Z',
};

describe('transfer keys', () => {
  it('refuses a quantity that is not a whole number of keys, sending nothing', async () => {
    const api = stubApi({ [paths.ledger.balances]: () => [{ appType: 0, balance: 5, level: 'ok' }] });
    renderProfile();
    fireEvent.click(await screen.findByTestId('transfer-keys-button'));
    fireEvent.change(screen.getByTestId('transfer-quantity'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('transfer-submit'));
    expect(await screen.findByText('Enter a whole number of keys, at least 1')).toBeTruthy();
    fireEvent.change(screen.getByTestId('transfer-quantity'), { target: { value: '0' } });
    fireEvent.click(screen.getByTestId('transfer-submit'));
    expect(await screen.findByText('Enter a whole number of keys, at least 1')).toBeTruthy();
    expect(api.requestsTo(paths.ledger.transfer)).toHaveLength(0);
  });

  it('sends the transfer, closes and shows the new balance; a refusal shows under the quantity', async () => {
    let balance = 5;
    let isRefused = true;
    const api = stubApi({
      [paths.ledger.balances]: () => [{ appType: 0, balance, level: 'ok' }],
      [paths.ledger.transfer]: () => {
        if (isRefused)
          return failureResponse(409, 'Not enough keys: You have 5 Device policy controller keys, 30 asked', {
            code: 'INSUFFICIENT_KEYS',
            fields: [{ field: 'quantity', message: 'At most 5' }],
          });
        balance = 8;
        return movement;
      },
    });
    renderProfile();
    expect((await screen.findByTestId('key-balance-0')).textContent).toBe('5 keys');
    fireEvent.click(screen.getByTestId('transfer-keys-button'));
    fireEvent.click(screen.getByLabelText('Take back from Ravi Mobiles – Andheri'));
    fireEvent.change(screen.getByTestId('transfer-quantity'), { target: { value: '30' } });
    fireEvent.click(screen.getByTestId('transfer-submit'));
    expect(await screen.findByText('At most 5')).toBeTruthy();

    isRefused = false;
    fireEvent.change(screen.getByTestId('transfer-quantity'), { target: { value: '3' } });
    fireEvent.click(screen.getByTestId('transfer-submit'));
    await waitFor(() => expect(screen.queryByTestId('transfer-keys-dialog')).toBeNull());
    expect(await api.bodiesTo(paths.ledger.transfer)).toEqual([
      { userId: 9, appType: 0, quantity: 30, direction: 'from_child' },
      { userId: 9, appType: 0, quantity: 3, direction: 'from_child' },
    ]);
    // The balances are fetched again after the transfer.
    await waitFor(() => expect(screen.getByTestId('key-balance-0').textContent).toBe('8 keys'));
    expect(new URL(api.requestsTo(paths.ledger.balances)[0]!.url).searchParams.get('user_id')).toBe('9');
  });
});
