import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { KeyBalancesCard } from './key-balances-card';

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
  vi.unstubAllGlobals();
  localStorage.clear();
});

const renderCard = (userId?: number) =>
  renderRoutes({
    i18n,
    url: '/dashboard',
    routes: [
      { path: '/dashboard', element: <KeyBalancesCard userId={userId} /> },
      { path: '/key_requests', element: <p data-testid="key-requests-page">key requests</p> },
    ],
  });

describe('the key balances card’s stock levels (issue 30)', () => {
  it('colours each balance by its level and says the level in words too', async () => {
    stubApi({
      [paths.ledger.balances]: () => [
        { appType: 0, balance: 3, level: 'low' },
        { appType: 2, balance: 8, level: 'running_low' },
        { appType: 4, balance: 40, level: 'ok' },
      ],
    });
    renderCard();
    const levels = [
      { appType: 0, text: 'Low', level: 'low', colour: 'Error' },
      { appType: 2, text: 'Running low', level: 'running_low', colour: 'Warning' },
      { appType: 4, text: 'Enough', level: 'ok', colour: 'Success' },
    ];
    for (const { appType, text, level, colour } of levels) {
      const label = await screen.findByTestId(`key-balance-level-${appType}`);
      expect(label.textContent).toBe(text);
      expect(label.getAttribute('data-level')).toBe(level);
      expect(screen.getByTestId(`key-balance-${appType}`).className).toContain(`MuiChip-color${colour}`);
    }
    expect(screen.getByTestId('key-balance-0').textContent).toBe('3 keys');
    const row = screen.getByTestId('key-balance-level-2').closest('li')!;
    expect(within(row).getByText('Apple')).toBeTruthy();
  });

  it('links the shop’s own card to the key requests page', async () => {
    stubApi({ [paths.ledger.balances]: () => [] });
    const { router } = renderCard();
    fireEvent.click(await screen.findByTestId('key-balances-request'));
    expect(await screen.findByTestId('key-requests-page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/key_requests');
  });

  it('offers no request on a mini-retailer’s card its retailer views', async () => {
    stubApi({ [paths.ledger.balances]: () => [{ appType: 0, balance: 12, level: 'ok' }] });
    renderCard(9);
    expect(await screen.findByTestId('key-balance-level-0')).toBeTruthy();
    expect(screen.queryByTestId('key-balances-request')).toBeNull();
  });
});
