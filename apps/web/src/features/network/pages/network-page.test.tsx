import type { TNetwork, TNetworkNode } from '@kisht/domain/network/network.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { NetworkPanel } from '../components/network-panel';
import { NetworkPage } from './network-page';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  localStorage.setItem('type', 'distributor');
  localStorage.setItem('phone', '+919876500101');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const node = (overrides: Partial<TNetworkNode>): TNetworkNode => ({
  id: 6,
  userType: 'distributor',
  level: 2,
  name: 'Andheri Mobile Distributors',
  shopName: 'Andheri Mobile Distributors',
  mobile: '+919876500102',
  isActive: true,
  childCount: 1,
  keys: [{ appType: 0, balance: 12, level: 'ok' }],
  createdAt: '2026-11-29T07:30:00.000Z',
  ...overrides,
});

const sai = node({
  id: 9,
  userType: 'retailer',
  level: null,
  name: 'Sai Mobile Point',
  shopName: 'Sai Mobile Point',
  mobile: '+919876500103',
  childCount: 0,
  keys: [{ appType: 0, balance: 2, level: 'low' }],
});

/** The network answered per `parent_id` (absent: the signed-in distributor's own children). */
const network = (byParent: Record<string, TNetwork>) => ({
  [paths.network.list]: (_request: Request, url: URL) =>
    byParent[url.searchParams.get('parent_id') ?? 'own'] ?? failureResponse(404, 'Not found in your network'),
});

const renderPage = (url = '/network') =>
  renderRoutes({
    i18n,
    url,
    routes: [
      {
        path: '/network',
        element: (
          <NetworkPage
            keyBalances={<div data-testid="own-keys" />}
            joinRequests={<div data-testid="join-requests" />}
          />
        ),
      },
    ],
  });

describe('a distributor’s network (issue 30)', () => {
  it('lists the nodes below it with their key stock colours, and opens one to the nodes below it', async () => {
    const api = stubApi(
      network({
        own: { parent: null, children: [node({})], distributorLevels: 2 },
        6: { parent: node({}), children: [sai], distributorLevels: 2 },
      }),
    );
    const { router } = renderPage();
    const card = await screen.findByTestId('network-node-6');
    expect(within(card).getByText('Distributor · level 2')).toBeTruthy();
    expect(within(card).getByText('1 below')).toBeTruthy();
    expect(screen.getByTestId('network-node-6-keys-0').getAttribute('data-level')).toBe('ok');
    expect(screen.getByTestId('own-keys')).toBeTruthy();

    fireEvent.click(within(card).getByRole('button'));
    const below = await screen.findByTestId('network-node-9');
    expect(router.state.location.search).toBe('?node=6');
    expect(within(below).getByText('Retailer')).toBeTruthy();
    // Nobody below a retailer without mini-retailers: nothing to open.
    expect(within(below).queryByRole('button')).toBeNull();
    expect(screen.getByTestId('network-node-9-keys-0').getAttribute('data-level')).toBe('low');
    expect(screen.getByTestId('network-parent').textContent).toBe('Below Andheri Mobile Distributors');
    expect(
      api.requestsTo(paths.network.list).map((r) => new URL(r.url).searchParams.get('parent_id')),
    ).toEqual([null, '6']);
  });

  it('says when nobody is below, and that a node outside its network cannot be opened', async () => {
    stubApi(network({ own: { parent: null, children: [], distributorLevels: 2 } }));
    renderPage();
    expect(await screen.findByTestId('network-empty')).toBeTruthy();
    cleanup();
    renderPage('/network?node=77');
    expect(await screen.findByText('Not found in your network')).toBeTruthy();
  });

  it('shows the join requests made to it, with the mobile new shops give to join under it', async () => {
    stubApi(network({ own: { parent: null, children: [], distributorLevels: 2 } }));
    renderPage();
    fireEvent.click(await screen.findByTestId('network-tab-joins'));
    expect(await screen.findByTestId('join-requests')).toBeTruthy();
    expect(screen.getByTestId('network-invite').textContent).toContain('+91 98765 00101');
  });

  it('names a level-1 distributor the super-distributor when there are two levels or more', async () => {
    stubApi(network({ own: { parent: null, children: [node({ id: 3, level: 1 })], distributorLevels: 2 } }));
    renderPage();
    expect(within(await screen.findByTestId('network-node-3')).getByText('Super-distributor')).toBeTruthy();
  });
});

describe('the organisation admin’s network tab (issue 30)', () => {
  it('sets the distributor levels', async () => {
    localStorage.setItem('type', 'admin');
    const api = stubApi({
      ...network({ own: { parent: null, children: [node({ id: 3, level: 1 })], distributorLevels: 2 } }),
      [paths.network.settings]: () => ({ distributorLevels: 3 }),
    });
    renderRoutes({
      i18n,
      url: '/admin?tab=network',
      routes: [{ path: '/admin', element: <NetworkPanel /> }],
    });
    await screen.findByTestId('network-node-3');
    fireEvent.mouseDown(within(screen.getByTestId('network-settings')).getByRole('combobox'));
    fireEvent.click(await screen.findByRole('option', { name: '3' }));
    fireEvent.click(screen.getByTestId('network-levels-save'));
    await waitFor(async () =>
      expect(await api.bodiesTo(paths.network.settings)).toEqual([{ distributorLevels: 3 }]),
    );
  });
});
