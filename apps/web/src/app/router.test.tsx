import { cleanup, render, screen } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TRouteKey } from '../lib/paths';
import { appPaths, CUSTOMER_ROUTES, PUBLIC_ROUTES } from '../lib/paths';
import { createTestI18n } from '../test/test-i18n';
import { appRoutes } from './router';
import { createAppStore } from './store';

let i18n: TI18n;

beforeAll(async () => {
  i18n = await createTestI18n();
});

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  // No server here: calls a screen makes stay pending.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise<Response>(() => {})),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const Providers = ({ children }: { children: ReactNode }) => (
  <Provider store={createAppStore()}>
    <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
  </Provider>
);

const renderAt = (url: string) => {
  const router = createMemoryRouter(appRoutes, { initialEntries: [url] });
  render(
    <Providers>
      <RouterProvider router={router} />
    </Providers>,
  );
  return router;
};

/** A URL of each route (customer routes need an id). */
const urlOf = (key: TRouteKey): string => {
  if (
    key === 'customerDetails' ||
    key === 'customerNavigate' ||
    key === 'emiDetails' ||
    key === 'viewEmiDetails' ||
    key === 'customerDocuments' ||
    key === 'signature' ||
    key === 'witnessSignature' ||
    key === 'emmQr' ||
    key === 'appleDetails' ||
    key === 'appleSync'
  ) {
    return appPaths[key].href(5);
  }
  if (key === 'collectionsLoans') return appPaths[key].href('1_30');
  return appPaths[key].href();
};

const ROUTE_KEYS = (Object.keys(appPaths) as TRouteKey[]).filter((key) => key !== 'root');
const PROTECTED_ROUTES = ROUTE_KEYS.filter((key) => !PUBLIC_ROUTES.includes(key));

describe('routes', () => {
  it("shows 'Not found' for an unknown route (spec §2)", async () => {
    renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Not found' })).toBeTruthy();
  });

  it.each(PROTECTED_ROUTES)('sends someone without a session from %s to login', async (key) => {
    const router = renderAt(urlOf(key));
    expect(await screen.findByTestId('login-mobile')).toBeTruthy();
    expect(router.state.location.pathname).toBe(appPaths.login.path);
  });

  it.each(PUBLIC_ROUTES)('lets someone without a session open %s', async (key) => {
    // The OTP screen needs an OTP to have been sent.
    sessionStorage.setItem(
      'kisht.otpChallenge',
      JSON.stringify({ mobile: '+919876543210', purpose: 'LOGIN', devOtp: null, resendAt: 0 }),
    );
    const router = renderAt(urlOf(key));
    const testIds: Record<string, string> = { login: 'login-mobile', otp: 'otp-input', mPin: 'mpin-input' };
    expect(await screen.findByTestId(testIds[key] ?? '')).toBeTruthy();
    expect(router.state.location.pathname).toBe(appPaths[key].path);
  });

  it('sends root to the dashboard', async () => {
    localStorage.setItem('token', 'jwt-123');
    const router = renderAt(appPaths.root.href());
    await screen.findByTestId('app-shell');
    expect(router.state.location.pathname).toBe(appPaths.dashboard.path);
  });

  it('builds language and sessions now, not as coming soon', async () => {
    localStorage.setItem('token', 'jwt-123');
    renderAt(appPaths.language.href());
    expect(await screen.findByTestId('language-list')).toBeTruthy();
    cleanup();
    renderAt(appPaths.sessions.href());
    expect(await screen.findByRole('heading', { level: 1, name: 'Sessions' })).toBeTruthy();
  });

  it('offers the MPIN set-up only with a session', async () => {
    const router = renderAt(appPaths.mPin.href('set'));
    expect(await screen.findByTestId('login-mobile')).toBeTruthy();
    expect(router.state.location.pathname).toBe(appPaths.login.path);
  });

  it('builds emi_details, view_emi_details and up_coming_emi now, not as coming soon', async () => {
    localStorage.setItem('token', 'jwt-123');
    renderAt(appPaths.emiDetails.href(5));
    expect(await screen.findByRole('heading', { level: 1, name: 'EMI details' })).toBeTruthy();
    cleanup();
    renderAt(appPaths.viewEmiDetails.href(5));
    expect(await screen.findByRole('heading', { level: 1, name: 'View EMI details' })).toBeTruthy();
    cleanup();
    renderAt(appPaths.upComingEmi.href());
    expect(await screen.findByRole('tablist')).toBeTruthy();
  });

  it('builds multiple_lock_unlock now, not as coming soon', async () => {
    localStorage.setItem('token', 'jwt-123');
    renderAt(appPaths.multipleLockUnlock.href());
    // The page's chunk loads on first use (design §8); the wait policy (test/timeouts.ts) allows for it.
    expect(await screen.findByRole('heading', { level: 1, name: 'Multiple lock/unlock' })).toBeTruthy();
    expect(await screen.findByTestId('bulk-submit')).toBeTruthy();
  });

  it.each([
    ['emmQr', 'EMM QR code'],
    ['appleDetails', 'Apple device details'],
    ['appleSync', 'Apple sync'],
  ] as const)(
    'builds %s now (issue 15), not as coming soon, for the customer of its customer_id',
    async (key, title) => {
      localStorage.setItem('token', 'jwt-123');
      const router = renderAt(appPaths[key].href(5));
      expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
      expect(router.state.location.search).toBe('?customer_id=5');
    },
  );

  it.each([
    ['customerDocuments', 'Customer documents'],
    ['signature', 'Signature'],
    ['witnessSignature', 'Witness signature'],
  ] as const)('builds %s now, for the customer of its customer_id', async (key, title) => {
    localStorage.setItem('token', 'jwt-123');
    const router = renderAt(appPaths[key].href(5));
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
    expect(router.state.location.search).toBe('?customer_id=5');
  });
});

describe('help, support and privacy_policy (issue 16)', () => {
  it.each([
    ['help', 'Help'],
    ['support', 'Support'],
    ['privacyPolicy', 'Privacy policy'],
  ] as const)(
    'builds %s now, not as coming soon, for a shop, a customer and the admin',
    async (key, title) => {
      localStorage.setItem('token', 'jwt-123');
      for (const type of ['retailer', 'customer', 'admin']) {
        localStorage.setItem('type', type);
        const router = renderAt(appPaths[key].href());
        expect(await screen.findByRole('heading', { level: 1, name: title }), type).toBeTruthy();
        expect(router.state.location.pathname, type).toBe(appPaths[key].path);
        cleanup();
      }
    },
  );
});

describe('customer user (spec §4)', () => {
  beforeEach(() => {
    localStorage.setItem('token', 'jwt-123');
    localStorage.setItem('type', 'customer');
  });

  const RETAILER_ONLY_ROUTES = PROTECTED_ROUTES.filter((key) => !CUSTOMER_ROUTES.includes(key));

  it('keeps the retailer screens from customers, and only those', () => {
    expect(RETAILER_ONLY_ROUTES).toEqual(
      expect.arrayContaining(['customerList', 'addCustomer', 'customerDetails', 'emiDetails', 'upComingEmi']),
    );
    expect(PROTECTED_ROUTES.filter((key) => CUSTOMER_ROUTES.includes(key)).sort()).toEqual(
      ['dashboard', 'help', 'language', 'notifications', 'privacyPolicy', 'sessions', 'support'].sort(),
    );
  });

  it.each(RETAILER_ONLY_ROUTES)(
    'sends a customer from %s to the dashboard, which shows My loan',
    async (key) => {
      const router = renderAt(urlOf(key));
      expect(await screen.findByRole('heading', { level: 1, name: 'My loan' })).toBeTruthy();
      expect(router.state.location.pathname).toBe(appPaths.dashboard.path);
    },
  );

  it('lets a customer open language', async () => {
    const router = renderAt(appPaths.language.href());
    expect(await screen.findByTestId('language-list')).toBeTruthy();
    expect(router.state.location.pathname).toBe(appPaths.language.path);
  });

  it('shows a retailer the dashboard, not My loan', async () => {
    localStorage.setItem('type', 'retailer');
    renderAt(appPaths.dashboard.href());
    await screen.findByTestId('app-shell');
    expect(await screen.findByTestId('page-skeleton')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'My loan' })).toBeNull();
  });
});
