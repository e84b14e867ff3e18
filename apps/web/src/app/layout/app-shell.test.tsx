import type { TOrgAppConfig } from '@kisht/domain/orgs/orgs.schema';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { orgConfigLoaded } from '../../lib/ui-slice';
import { createTestI18n } from '../../test/test-i18n';
import { appPaths } from '../paths';
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
  localStorage.clear();
});

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
  it("shows the organisation's name and initial in the app bar", () => {
    renderShell('default');
    expect(screen.getByTestId('app-bar-org-name').textContent).toBe('Kisht Demo');
    expect(screen.getByTestId('app-bar-logo').textContent).toBe('K');
  });

  it('opens the drawer from the menu button, lists the routes and goes where asked', async () => {
    const { store, router } = renderShell('default');
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    expect(store.getState().ui.drawerOpen).toBe(true);
    const drawer = await screen.findByRole('navigation', { name: 'Menu' });
    const labels = within(drawer)
      .getAllByRole('button')
      .map((item) => item.textContent);
    expect(labels).toEqual([
      'Dashboard',
      'Customers',
      'Add customer',
      'Upcoming EMIs',
      'Multiple lock/unlock',
      'SIM changes',
      'Retailers',
      'Top-up history',
      'Language',
      'Sessions',
      'Help',
      'Support',
      'Privacy policy',
      'Log out',
    ]);
    expect(DRAWER_ITEMS).toHaveLength(13);
    fireEvent.click(screen.getByTestId('drawer-item-sessions'));
    expect(router.state.location.pathname).toBe(appPaths.sessions.path);
    expect(store.getState().ui.drawerOpen).toBe(false);
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

  it('gives a customer user no bottom tabs and a drawer without the retailer items (spec §4)', async () => {
    localStorage.setItem('type', 'customer');
    renderShell('default');
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
  });
});
