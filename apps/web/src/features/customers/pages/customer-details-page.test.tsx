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

/** The page alone: the devices feature's lock card and tabs (composed in app/) are not what these tests are about. */
const WITHOUT_DEVICE_PART: TCustomerDetailsPageProps = {
  hasPendingCommand: false,
  renderLockCard: () => null,
  renderCommandsTab: () => null,
};

/** One instalment is enough here: the fixture's first. */
const CUSTOMER: TCustomerDetails = createCustomerDetails({ emis: createCustomerDetails().emis.slice(0, 1) });

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
      { path: appPaths.emiDetails.path, element: <p>emi details screen</p> },
    ],
  });

describe('customer_details links to emi_details', () => {
  beforeEach(() => {
    stubApi({ [paths.customers.details]: () => CUSTOMER });
  });

  it('opens emi_details for the customer from the "EMI details" button', async () => {
    const { router } = renderDetails();
    fireEvent.click(await screen.findByRole('button', { name: 'EMI details' }));
    expect(await screen.findByText('emi details screen')).toBeTruthy();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      '/emi_details?customer_id=5',
    );
  });

  it('opens it from the EMI schedule card, offering to record a payment while EMIs are unpaid', async () => {
    const { router } = renderDetails();
    const link = await screen.findByTestId('schedule-open-emi-details');
    expect(link.textContent).toBe('Record payment');
    fireEvent.click(link);
    expect(await screen.findByText('emi details screen')).toBeTruthy();
    expect(router.state.location.search).toBe('?customer_id=5');
  });
});

describe('customer_details shows the profile from the guided form', () => {
  it('shows date of birth, address with state and country names, serial number, financer and loan terms', async () => {
    const api = stubApi({
      [paths.customers.details]: () => ({
        ...CUSTOMER,
        deviceType: 3,
        dateOfBirth: '1990-05-17',
        address: { line1: '12 MG Road', countryCode: 'IN', stateCode: 'MH', city: 'Pune', pincode: '411001' },
        serialNumber: 'F2LZK0XYHG7F',
        financerName: 'Bajaj Finserv',
        loan: { ...CUSTOMER.loan, interestMethod: 'flat', processingFeePaise: 49_900 },
      }),
      [paths.catalogue.countries]: () => [{ code: 'IN', name: 'India', phoneCode: '91' }],
      [paths.catalogue.states]: () => [{ code: 'MH', name: 'Maharashtra' }],
    });
    renderDetails();
    expect((await screen.findByTestId('customer-date-of-birth')).textContent).toBe('17-05-1990');
    await waitFor(() =>
      expect(screen.getByTestId('customer-address').textContent).toBe(
        '12 MG Road, Pune, Maharashtra 411001, India',
      ),
    );
    expect(new URL(api.requestsTo(paths.catalogue.states)[0]?.url ?? '').searchParams.get('country')).toBe(
      'IN',
    );
    expect(screen.getByTestId('customer-serial-number').textContent).toBe('F2LZK0XYHG7F');
    expect(screen.getByTestId('customer-financer').textContent).toBe('Bajaj Finserv');
    expect(screen.getByTestId('customer-interest-method').textContent).toBe('Flat rate');
    expect(screen.getByTestId('customer-processing-fee').textContent).toBe('₹499.00');
  });

  it('shows N/A for what an older customer does not have, and reducing balance', async () => {
    stubApi({ [paths.customers.details]: () => CUSTOMER });
    renderDetails();
    expect((await screen.findByTestId('customer-date-of-birth')).textContent).toBe('N/A');
    expect(screen.getByTestId('customer-address').textContent).toBe('N/A');
    expect(screen.getByTestId('customer-serial-number').textContent).toBe('N/A');
    expect(screen.getByTestId('customer-financer').textContent).toBe('N/A');
    expect(screen.getByTestId('customer-interest-method').textContent).toBe('Reducing balance');
    expect(screen.getByTestId('customer-processing-fee').textContent).toBe('₹0.00');
  });
});
