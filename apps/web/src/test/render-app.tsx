import type { TOrgAppConfig } from '@kisht/domain/orgs/orgs.schema';
import { render } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { SnackbarProvider } from 'notistack';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import type { RouteObject } from 'react-router';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createAppStore } from '../app/store';
import { orgConfigLoaded } from '../lib/ui-slice';

/** A fake organisation config for render tests; override what the test is about. */
export const fakeOrgConfig = (overrides: Partial<TOrgAppConfig> = {}): TOrgAppConfig => ({
  orgId: 41,
  apiBaseUrl: '',
  orgName: 'Kisht Demo',
  companyName: 'Kisht Demo Pvt Ltd',
  theme: { primaryColor: '#1f4fd1', secondaryColor: '#ffb300', logoUrl: null },
  mainLayout: 'default',
  pages: { dashboard: 'cards', inactiveCustomer: 'navigate' },
  features: { witnessLayout: false, paymentGateway: false },
  aiName: '',
  aiAgentId: '',
  ...overrides,
});

/** The app's store (a fresh one) with an organisation config loaded, as after the app's bootstrap. */
export const createTestStore = (orgConfig: TOrgAppConfig = fakeOrgConfig()) => {
  const store = createAppStore();
  store.dispatch(orgConfigLoaded(orgConfig));
  return store;
};

/**
 * Renders routes in a memory router inside the app's providers (a fresh store, translations,
 * toasts), starting at `url`. Returns the router (for the location) and the store.
 */
export const renderRoutes = (options: {
  routes: RouteObject[];
  url: string;
  i18n: TI18n;
  orgConfig?: TOrgAppConfig;
}) => {
  const store = createTestStore(options.orgConfig);
  const router = createMemoryRouter(options.routes, { initialEntries: [options.url] });
  render(
    <Provider store={store}>
      <I18nextProvider i18n={options.i18n}>
        <SnackbarProvider maxSnack={1}>
          <RouterProvider router={router} />
        </SnackbarProvider>
      </I18nextProvider>
    </Provider>,
  );
  return { router, store };
};
