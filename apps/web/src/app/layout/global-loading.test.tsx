import { configureStore } from '@reduxjs/toolkit';
import { cleanup, render, screen } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appPaths } from '../../lib/paths';
import { uiSlice } from '../../lib/ui-slice';
import { createTestI18n } from '../../test/test-i18n';
import { GlobalSpinner, isGlobalSpinnerSuppressed } from './global-loading';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
afterEach(cleanup);

describe('global spinner exceptions (spec §2)', () => {
  it.each([
    appPaths.customerDetails.href(12),
    appPaths.customerList.href(),
    appPaths.multipleLockUnlock.href(),
    appPaths.topUpHistory.href(),
    appPaths.dashboard.href(),
    // Polls every 10 s; beyond spec §2's list.
    appPaths.pendingCommands.href(),
  ])('stays hidden on %s', (pathname) => {
    expect(isGlobalSpinnerSuppressed(pathname)).toBe(true);
  });

  it.each([
    appPaths.login.href(),
    appPaths.otp.href(),
    appPaths.addCustomer.href(),
    appPaths.customerNavigate.path,
    appPaths.sessions.href(),
    appPaths.language.href(),
    appPaths.upComingEmi.href(),
  ])('shows on %s', (pathname) => {
    expect(isGlobalSpinnerSuppressed(pathname)).toBe(false);
  });

  const renderSpinnerAt = (pathname: string, isLoading: boolean) => {
    // Only the ui slice: the spinner reads nothing else.
    const store = configureStore({ reducer: { ui: uiSlice.reducer } });
    if (isLoading) store.dispatch({ type: 'api/executeQuery/pending' });
    const router = createMemoryRouter([{ path: '*', element: <GlobalSpinner /> }], {
      initialEntries: [pathname],
    });
    render(
      <Provider store={store}>
        <I18nextProvider i18n={i18n}>
          <RouterProvider router={router} />
        </I18nextProvider>
      </Provider>,
    );
  };

  it('shows while a call runs on an ordinary screen', () => {
    renderSpinnerAt(appPaths.sessions.href(), true);
    expect(screen.getByTestId('global-loading')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Loading…' })).toBeTruthy();
  });

  it('does not show on the dashboard even while a call runs', () => {
    renderSpinnerAt(appPaths.dashboard.href(), true);
    expect(screen.queryByTestId('global-loading')).toBeNull();
  });

  it('does not show when no call runs', () => {
    renderSpinnerAt(appPaths.sessions.href(), false);
    expect(screen.queryByTestId('global-loading')).toBeNull();
  });
});
