import type { TAppConfig, TOrgAppConfig } from '@kisht/domain/orgs/orgs.schema';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SPLASH_MIN_MS, startApp } from './bootstrap';
import { createAppStore } from './store';

const ORG: TOrgAppConfig = {
  orgId: 46,
  apiBaseUrl: 'https://api.shree.test',
  orgName: 'Shree Finance',
  companyName: 'Shree Finance Pvt Ltd',
  theme: { primaryColor: '#6a1b9a', secondaryColor: '#ffb300', logoUrl: null },
  mainLayout: 'compact',
  pages: { dashboard: 'list', inactiveCustomer: 'warn' },
  features: { witnessLayout: false, paymentGateway: false },
  aiName: '',
  aiAgentId: '',
};
const APP: TAppConfig = {
  requestTokenSecret: 'secret',
  authSessionWindowSeconds: 300,
  otpResendAfterSeconds: 30,
  defaultCacheSeconds: 300,
  plansCacheSeconds: 5,
};

const ok = (data: unknown) => new Response(JSON.stringify({ response: 'success', message: 'ok', data }));

let urls: string[];
beforeEach(() => {
  localStorage.clear();
  urls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      urls.push(input.url);
      return input.url.includes('get_org_app_config') ? ok(ORG) : ok(APP);
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('startApp (spec §2 splash, §1 white-label, §3 storage)', () => {
  it('loads the org config, then the client config from that org’s API, and then hides the splash', async () => {
    const store = createAppStore();
    const startedAt = Date.now();
    const started = startApp({ store, orgId: 46, translationsReady: Promise.resolve() });
    expect(store.getState().ui.splashScreen).toBe(true);
    await started;
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(SPLASH_MIN_MS - 5);
    expect(store.getState().ui).toMatchObject({ splashScreen: false, org_config: ORG, app_config: APP });
    expect(urls[0]).toBe(`${window.location.origin}/api/organizations/get_org_app_config?org_id=46`);
    expect(urls[1]).toBe('https://api.shree.test/api/config/get_app_configs');
    expect(localStorage.getItem('account_id')).toBe('46');
    expect(localStorage.getItem('device_id')).toBeTruthy();
    expect(localStorage.getItem('showAd')).toBe('1');
  });

  it('still starts, on the default theme, when the configs cannot be loaded', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { status: 503 })),
    );
    const store = createAppStore();
    await startApp({ store, orgId: 41, translationsReady: Promise.reject(new Error('offline')) });
    expect(store.getState().ui).toMatchObject({ splashScreen: false, org_config: null, app_config: null });
  });
});
