import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { AdminHomePage } from './admin-home-page';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  // The join requests tab's list stays pending: these tests are about the tabs.
  stubApi({});
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const renderHome = (url: string) =>
  renderRoutes({
    i18n,
    url,
    routes: [
      {
        path: '/admin',
        element: (
          <AdminHomePage
            keyRequestsPanel={<p data-testid="key-requests-panel">key requests</p>}
            webhooksPanel={<p data-testid="webhooks-panel">webhooks</p>}
            partnerKeysPanel={<p data-testid="partner-keys-panel">partner keys</p>}
          />
        ),
      },
    ],
  });

describe('the admin home’s tabs', () => {
  it('opens the partner API tab from ?tab=partner_api', async () => {
    renderHome('/admin?tab=partner_api');
    expect(await screen.findByTestId('partner-keys-panel')).toBeTruthy();
    const tab = screen.getByTestId('admin-tab-partner_api');
    expect(tab.textContent).toBe('Partner API');
    expect(tab.getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByTestId('webhooks-panel')).toBeNull();
  });

  it('opens the retailers’ key requests from ?tab=key_requests (issue 30)', async () => {
    renderHome('/admin?tab=key_requests');
    expect(await screen.findByTestId('key-requests-panel')).toBeTruthy();
    const tab = screen.getByTestId('admin-tab-key_requests');
    expect(tab.textContent).toBe('Key requests');
    expect(tab.getAttribute('aria-selected')).toBe('true');
  });

  it('puts the chosen tab in the URL', async () => {
    const { router } = renderHome('/admin');
    expect(screen.queryByTestId('partner-keys-panel')).toBeNull();
    fireEvent.click(await screen.findByTestId('admin-tab-partner_api'));
    expect(await screen.findByTestId('partner-keys-panel')).toBeTruthy();
    expect(router.state.location.search).toBe('?tab=partner_api');
    fireEvent.click(screen.getByTestId('admin-tab-webhooks'));
    await waitFor(() => expect(screen.getByTestId('webhooks-panel')).toBeTruthy());
    expect(router.state.location.search).toBe('?tab=webhooks');
    expect(screen.queryByTestId('partner-keys-panel')).toBeNull();
  });
});
