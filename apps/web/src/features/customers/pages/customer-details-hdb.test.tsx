import type { TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import { stubApi } from '../../../test/fake-api';
import { createCustomerDetails } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { CustomerDetailsPage, type TCustomerDetailsPageProps } from './customer-details-page';

/** The page alone: the devices feature's lock card and tabs are not what these tests are about. */
const WITHOUT_DEVICE_PART: TCustomerDetailsPageProps = {
  hasPendingCommand: false,
  renderLockCard: () => null,
  renderCommandsTab: () => null,
};

const HDB = createCustomerDetails({ financerName: 'HDB Financial Services' });

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const renderDetails = () =>
  renderRoutes({
    i18n,
    url: appPaths.customerDetails.href(5),
    routes: [
      { path: appPaths.customerDetails.path, element: <CustomerDetailsPage {...WITHOUT_DEVICE_PART} /> },
    ],
  });

describe('customer_details: hand-off to HDB', () => {
  it('shows the reference HDB gave', async () => {
    stubApi({
      [paths.customers.details]: () => ({
        ...HDB,
        financerHandoffStatus: 'done',
        financerReference: 'HDB9X2K7',
      }),
    });
    renderDetails();
    expect((await screen.findByTestId('customer-hdb-reference')).textContent).toBe('HDB9X2K7');
    expect(screen.getByText('HDB reference')).toBeTruthy();
  });

  it('says it is sending while pending', async () => {
    stubApi({
      [paths.customers.details]: () => ({
        ...HDB,
        financerHandoffStatus: 'pending',
        financerReference: null,
      }),
    });
    renderDetails();
    expect((await screen.findByTestId('customer-hdb-pending')).textContent).toBe('Sending to HDB…');
  });

  it('says it failed and is retrying, and Retry now hands it off again', async () => {
    let status: TCustomerDetails['financerHandoffStatus'] = 'failed';
    const api = stubApi({
      [paths.customers.details]: () => ({
        ...HDB,
        financerHandoffStatus: status,
        financerReference: status === 'done' ? 'HDB9X2K7' : null,
      }),
      // RTK Query refetches invalidated data once no other request is pending.
      [paths.customers.statusHistory]: () => [],
      [paths.customers.consent]: () => null,
      [paths.customers.createHdb]: () => {
        status = 'done';
        return { ...HDB, financerHandoffStatus: 'done', financerReference: 'HDB9X2K7' };
      },
    });
    renderDetails();
    expect((await screen.findByTestId('customer-hdb-failed')).textContent).toBe('Failed, retrying');
    fireEvent.click(screen.getByTestId('customer-hdb-retry'));
    expect((await screen.findByTestId('customer-hdb-reference')).textContent).toBe('HDB9X2K7');
    await waitFor(async () =>
      expect(await api.bodiesTo(paths.customers.createHdb)).toEqual([{ customer_id: HDB.id }]),
    );
  });

  it('shows no HDB row for a customer whose financer takes no hand-off', async () => {
    stubApi({
      [paths.customers.details]: () => ({
        ...HDB,
        financerName: 'Bajaj Finserv',
        financerHandoffStatus: null,
      }),
    });
    renderDetails();
    await screen.findByTestId('customer-financer');
    expect(screen.queryByText('HDB reference')).toBeNull();
  });
});
