import type { TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import type { TCommandHistoryItem, TSimChange } from '@kisht/domain/devices/devices.schema';
import { paths } from '@kisht/domain/paths';
import type { i18n as TI18n } from 'i18next';
import type { TCustomerDetailsTab } from '../lib/paths';
import { appPaths } from '../lib/paths';
import type { TFakeHandler } from '../test/fake-api';
import { stubApi } from '../test/fake-api';
import { renderRoutes } from '../test/render-app';
import { CustomerDetailsRoute } from './customer-details-route';

/**
 * For render tests of customer_details as the app composes it (the customers feature's page with
 * the devices feature's lock card and tabs, CustomerDetailsRoute): a fake API answering the page's reads — the customer, an
 * empty status history, the device's command history and its SIM changes (each a value, or a
 * function asked on every request) — plus `handlers`, which add or replace answers.
 */
export const stubCustomerDetailsApi = ({
  customer,
  history = [],
  simChanges = [],
  handlers = {},
}: {
  customer: TCustomerDetails | (() => TCustomerDetails);
  history?: TCommandHistoryItem[] | (() => TCommandHistoryItem[]);
  simChanges?: TSimChange[];
  handlers?: Record<string, TFakeHandler>;
}) =>
  stubApi({
    [paths.customers.details]: () => (typeof customer === 'function' ? customer() : customer),
    [paths.customers.statusHistory]: () => [],
    [paths.devices.history]: () => (typeof history === 'function' ? history() : history),
    [paths.customers.simChangeDetails]: () => simChanges,
    // The customer tab's consent section: answered, so no read stays pending (RTK Query holds
    // tag invalidations until none is).
    [paths.customers.consent]: () => null,
    // The reminders card under the page (issue 29), for the same reason.
    [paths.reminders.ofCustomer]: () => ({ whatsappOptOut: false, items: [] }),
    // The UPI AutoPay card (issue 29): none set up.
    [paths.autopay.mandate]: () => null,
    ...handlers,
  });

/** Renders customer_details of customer 5 on `tab`. */
export const renderCustomerDetails = (i18n: TI18n, tab: TCustomerDetailsTab = 'customer') =>
  renderRoutes({
    i18n,
    url: appPaths.customerDetails.href(5, tab),
    routes: [{ path: appPaths.customerDetails.path, element: <CustomerDetailsRoute /> }],
  });
