import type { TAppConfig } from '@kisht/domain/orgs/orgs.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { goToProvider } from '../features/auth/components/google-sign-in';
import { appPaths } from '../lib/paths';
import { appConfigLoaded } from '../lib/ui-slice';
import { failureResponse, stubApi } from '../test/fake-api';
import { renderRoutes } from '../test/render-app';
import { createTestI18n } from '../test/test-i18n';
import { SignInRoute } from './sign-in-route';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const APP_CONFIG: TAppConfig = {
  requestTokenSecret: 'test-secret',
  authSessionWindowSeconds: 300,
  otpResendAfterSeconds: 30,
  defaultCacheSeconds: 300,
  plansCacheSeconds: 5,
};

const routes = [
  { path: appPaths.login.path, element: <SignInRoute /> },
  { path: appPaths.dashboard.path, element: <p data-testid="dashboard-here">dashboard</p> },
];

const renderLogin = (url: string, googleSignIn: boolean | undefined) => {
  const rendered = renderRoutes({ routes, url, i18n });
  rendered.store.dispatch(
    appConfigLoaded({ ...APP_CONFIG, ...(googleSignIn === undefined ? {} : { googleSignIn }) }),
  );
  return rendered;
};

describe('Sign in with Google on the login page', () => {
  it('hides the button unless the server says Google sign-in is configured', async () => {
    stubApi({});
    renderLogin(appPaths.login.href(), false);
    await screen.findByTestId('login-mobile');
    expect(screen.queryByTestId('login-with-google')).toBeNull();
    cleanup();
    renderLogin(appPaths.login.href(), undefined);
    await screen.findByTestId('login-mobile');
    expect(screen.queryByTestId('login-with-google')).toBeNull();
  });

  it('shows the button when configured, and sends the browser to the provider', async () => {
    const api = stubApi({ [paths.oauth.url]: () => ({ url: 'https://accounts.example/auth?x=1' }) });
    const assign = vi.spyOn(goToProvider, 'assign').mockImplementation(() => {});
    renderLogin(appPaths.login.href(), true);
    fireEvent.click(await screen.findByTestId('login-with-google'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://accounts.example/auth?x=1'));
    expect(new URL(api.requestsTo(paths.oauth.url)[0]!.url).searchParams.get('org_id')).toBe('41');
  });

  it('exchanges the one-time ticket for a session and goes to the dashboard', async () => {
    const api = stubApi({
      [paths.oauth.complete]: () => ({
        token: 'jwt-google',
        user: {
          id: 5,
          orgId: 41,
          userType: 'retailer',
          name: 'Ravi Mobiles',
          mobile: '+919876543210',
          hasMpin: true,
          parentType: null,
        },
      }),
    });
    const { router } = renderLogin(`${appPaths.login.href()}?oauth_ticket=ticket-1`, true);
    await screen.findByTestId('dashboard-here');
    expect(router.state.location.pathname).toBe(appPaths.dashboard.path);
    expect(localStorage.getItem('token')).toBe('jwt-google');
    expect(await api.bodiesTo(paths.oauth.complete)).toEqual([{ ticket: 'ticket-1' }]);
  });

  it('says when the Google account is not linked to a shop, or the sign-in failed', async () => {
    stubApi({
      [paths.oauth.complete]: () =>
        failureResponse(400, 'This Google sign-in has expired or was already used. Please try again', {
          code: 'OAUTH_FAILED',
        }),
    });
    const { router } = renderLogin(`${appPaths.login.href()}?oauth_error=OAUTH_NOT_LINKED`, true);
    expect((await screen.findByTestId('google-error')).textContent).toBe(
      'This Google account is not linked to a Kisht shop.',
    );
    expect(router.state.location.search).toBe('');
    cleanup();
    renderLogin(`${appPaths.login.href()}?oauth_ticket=used`, true);
    expect((await screen.findByTestId('google-error')).textContent).toBe(
      'This Google sign-in has expired or was already used. Please try again',
    );
    expect(localStorage.getItem('token')).toBeNull();
  });
});
