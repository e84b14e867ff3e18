import { cleanup, render, screen } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestI18n } from '../test/test-i18n';
import { RequireAuth } from './layout/require-auth';
import { appPaths } from './paths';
import { appRoutes } from './router';

let i18n: TI18n;

beforeAll(async () => {
  i18n = await createTestI18n();
});

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('routes', () => {
  it("shows 'Not found' for an unknown route (spec §2)", async () => {
    const router = createMemoryRouter(appRoutes, { initialEntries: ['/no/such/page'] });
    render(
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'Not found' })).toBeTruthy();
  });

  it('sends someone without a session from a protected route to login', async () => {
    const router = createMemoryRouter(
      [
        { path: appPaths.login.path, element: <p>login screen</p> },
        {
          path: appPaths.dashboard.path,
          element: (
            <RequireAuth>
              <p>dashboard screen</p>
            </RequireAuth>
          ),
        },
      ],
      { initialEntries: [appPaths.dashboard.href()] },
    );
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('login screen')).toBeTruthy();
    expect(router.state.location.pathname).toBe(appPaths.login.href());
  });

  it('lets someone with a session through', async () => {
    localStorage.setItem('token', 'jwt-123');
    const router = createMemoryRouter(
      [
        { path: appPaths.login.path, element: <p>login screen</p> },
        {
          path: appPaths.dashboard.path,
          element: (
            <RequireAuth>
              <p>dashboard screen</p>
            </RequireAuth>
          ),
        },
      ],
      { initialEntries: [appPaths.dashboard.href()] },
    );
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('dashboard screen')).toBeTruthy();
  });
});
