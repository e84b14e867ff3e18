import type { TUserAccess } from '@kisht/domain/devices/devices.schema';
import type { TOrgAppConfig } from '@kisht/domain/orgs/orgs.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { offlineReadStore } from '../../lib/http/offline-reads';
import { appPaths } from '../../lib/paths';
import { orgConfigLoaded } from '../../lib/ui-slice';
import { stubApi } from '../../test/fake-api';
import { stubIndexedDb } from '../../test/fake-indexeddb';
import { createTestI18n } from '../../test/test-i18n';
import { createAppStore } from '../store';
import { AppShell } from './app-shell';
import { DRAWER_ITEMS } from './nav-drawer';

const orgConfig = (mainLayout: TOrgAppConfig['mainLayout']): TOrgAppConfig => ({
  orgId: mainLayout === 'compact' ? 46 : 41,
  apiBaseUrl: '',
  orgName: mainLayout === 'compact' ? 'Shree Finance' : 'Kisht Demo',
  companyName: 'Company',
  theme: { primaryColor: '#6a1b9a', secondaryColor: '#ffb300', logoUrl: null },
  mainLayout,
  pages: { dashboard: 'cards', inactiveCustomer: 'navigate' },
  features: { witnessLayout: false, paymentGateway: false },
  aiName: '',
  aiAgentId: '',
});

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** The spec §6 user access flags, with the server's overrides. */
const userAccess = (overrides: Partial<TUserAccess> = {}): TUserAccess => ({
  feature_access: '1',
  lock_unlock: '1',
  unistall: '1',
  active_deactive: '1',
  bulk_retailer: '0',
  ...overrides,
});

/** A fake API answering the user access flags (the drawer reads bulk_retailer). */
const stubAccess = (flags: TUserAccess = userAccess({ bulk_retailer: '1' })) =>
  stubApi({ [paths.users.userAccess]: () => flags });

/** The drawer's items as a person reads them. */
const drawerLabels = async () => {
  fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
  const drawer = await screen.findByRole('navigation', { name: 'Menu' });
  return within(drawer)
    .getAllByRole('button')
    .map((item) => item.textContent);
};

const renderShell = (mainLayout: TOrgAppConfig['mainLayout'], url: string = appPaths.dashboard.href()) => {
  const store = createAppStore();
  store.dispatch(orgConfigLoaded(orgConfig(mainLayout)));
  const router = createMemoryRouter(
    [{ element: <AppShell />, children: [{ path: '*', element: <p>screen</p> }] }],
    { initialEntries: [url] },
  );
  render(
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </Provider>,
  );
  return { store, router };
};

describe('app shell (spec §2, §3)', () => {
  it('log out forgets the reads saved for offline use, so the next person on the phone never sees them (issue 28)', async () => {
    stubIndexedDb();
    localStorage.setItem('token', 'jwt-123');
    localStorage.setItem('user_id', '12');
    const savedList = '12:/api/customer?page=1&pageSize=20&status=all';
    await offlineReadStore.save(savedList, { data: { items: [], total: 0 }, savedAt: Date.now() });
    stubApi({ [paths.users.userAccess]: () => userAccess(), [paths.auth.logout]: () => null });
    const { router } = renderShell('default');
    fireEvent.click(screen.getByTestId('logout-button'));
    await waitFor(() => expect(router.state.location.pathname).toBe(appPaths.login.path));
    expect(await offlineReadStore.load(savedList)).toBeUndefined();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it("shows the organisation's name and initial in the app bar", () => {
    renderShell('default');
    expect(screen.getByTestId('app-bar-org-name').textContent).toBe('Kisht Demo');
    expect(screen.getByTestId('app-bar-logo').textContent).toBe('K');
  });

  it('opens the drawer from the menu button, lists the routes and goes where asked', async () => {
    localStorage.setItem('type', 'retailer');
    stubAccess();
    const { store, router } = renderShell('default');
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    expect(store.getState().ui.drawerOpen).toBe(true);
    const drawer = await screen.findByRole('navigation', { name: 'Menu' });
    // Multiple lock/unlock appears once the server's bulk_retailer '1' has loaded.
    await within(drawer).findByText('Multiple lock/unlock');
    const labels = within(drawer)
      .getAllByRole('button')
      .map((item) => item.textContent);
    expect(labels).toEqual([
      'Dashboard',
      'Customers',
      'Add customer',
      'Upcoming EMIs',
      'Collections',
      'Multiple lock/unlock',
      'Send advertisement',
      'Pending commands',
      'SIM changes',
      'Device control settings',
      'Anti-hacking',
      'Family care',
      'Extended warranty',
      'Anti-theft',
      'Retailers',
      'Top-up history',
      'Key requests',
      'Language',
      'Sessions',
      'Help',
      'Support',
      'Privacy policy',
      'Log out',
    ]);
    // In sections (issue 28), each under its heading.
    expect(
      within(drawer)
        .getAllByRole('list')
        .map((list) => list.getAttribute('aria-labelledby'))
        .filter(Boolean)
        .map((id) => document.getElementById(id!)?.textContent),
    ).toEqual(['Phones', 'Protection plans', 'Keys & shops', 'Settings & help']);
    // …and the items this retailer does not see: the organisation admin's home, a distributor's
    // network, and payment_gateway (its organisation's flag is off).
    expect(DRAWER_ITEMS).toHaveLength(25);
    fireEvent.click(screen.getByTestId('drawer-item-sessions'));
    expect(router.state.location.pathname).toBe(appPaths.sessions.path);
    expect(store.getState().ui.drawerOpen).toBe(false);
  });

  it("hides Multiple lock/unlock when the user's bulk_retailer flag is '0' (spec §6)", async () => {
    localStorage.setItem('type', 'retailer');
    const api = stubAccess(userAccess({ bulk_retailer: '0' }));
    renderShell('default');
    await waitFor(() => expect(api.requestsTo(paths.users.userAccess)).toHaveLength(1));
    const labels = await drawerLabels();
    expect(labels).not.toContain('Multiple lock/unlock');
    expect(labels).toContain('Pending commands');
    expect(screen.queryByTestId('drawer-item-multipleLockUnlock')).toBeNull();
  });

  it('keeps Multiple lock/unlock hidden while the flags have not loaded (the spec §6 default is 0)', async () => {
    localStorage.setItem('type', 'retailer');
    // A server that never answers.
    stubApi({});
    renderShell('default');
    expect(await drawerLabels()).not.toContain('Multiple lock/unlock');
  });

  it('lists Device control settings for the retailer only, not a mini-retailer', async () => {
    localStorage.setItem('type', 'miniretailer');
    stubAccess();
    renderShell('default');
    const labels = await drawerLabels();
    expect(labels).not.toContain('Device control settings');
    expect(labels).toContain('Pending commands');
  });

  it('drives the bottom tabs from ui.mainScreenTab, following the route', async () => {
    const { store, router } = renderShell('default', appPaths.customerDetails.href(3));
    await waitFor(() => expect(store.getState().ui.mainScreenTab).toBe('customers'));
    fireEvent.click(screen.getByTestId('nav-add-customer'));
    expect(store.getState().ui.mainScreenTab).toBe('addCustomer');
    expect(router.state.location.pathname).toBe(appPaths.addCustomer.path);
  });

  it("has no bottom tabs in the 'compact' layout: the drawer alone", () => {
    renderShell('compact');
    expect(screen.getByTestId('app-shell').getAttribute('data-layout')).toBe('compact');
    expect(screen.queryByTestId('nav-dashboard')).toBeNull();
    expect(screen.getByRole('button', { name: 'Open menu' })).toBeTruthy();
  });

  it("gives an organisation admin no bottom tabs: dashboard and customers are a retailer's screens", () => {
    localStorage.setItem('type', 'admin');
    stubAccess();
    renderShell('default', appPaths.admin.href());
    expect(screen.queryByTestId('nav-dashboard')).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
  });

  it('gives a customer user no bottom tabs and a drawer without the retailer items (spec §4)', async () => {
    localStorage.setItem('type', 'customer');
    stubAccess();
    const { store } = renderShell('default');
    expect(screen.queryByTestId('nav-customers')).toBeNull();
    expect(screen.queryByTestId('nav-add-customer')).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const drawer = await screen.findByRole('navigation', { name: 'Menu' });
    expect(
      within(drawer)
        .getAllByRole('button')
        .map((item) => item.textContent),
    ).toEqual(['Dashboard', 'Language', 'Sessions', 'Help', 'Support', 'Privacy policy', 'Log out']);
    // A customer has no retailer access flags to read.
    expect(
      Object.keys(store.getState().api.queries).filter((key) => key.startsWith('getUserAccess')),
    ).toEqual([]);
  });
});
