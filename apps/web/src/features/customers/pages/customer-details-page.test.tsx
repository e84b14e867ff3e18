import type { TCustomerConsent } from '@kisht/domain/customers/consent.schema';
import { CONSENT_TEXT_VERSION } from '@kisht/domain/customers/consent-texts';
import type { TCustomerDetails, TPushRefusal } from '@kisht/domain/customers/customers.schema';
import { paths } from '@kisht/domain/paths';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../../lib/http/api';
import { customerTag } from '../../../lib/http/tags';
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
    // The country and state lists never answer here (offline, slow): the names come with the details.
    const api = stubApi({
      [paths.customers.details]: () => ({
        ...CUSTOMER,
        deviceType: 3,
        dateOfBirth: '1990-05-17',
        address: {
          line1: '12 MG Road',
          countryCode: 'IN',
          stateCode: 'MH',
          city: 'Pune',
          pincode: '411001',
          countryName: 'India',
          stateName: 'Maharashtra',
        },
        serialNumber: 'F2LZK0XYHG7F',
        financerName: 'Bajaj Finserv',
        loan: { ...CUSTOMER.loan, interestMethod: 'flat', processingFeePaise: 49_900 },
      }),
    });
    renderDetails();
    expect((await screen.findByTestId('customer-date-of-birth')).textContent).toBe('17-05-1990');
    // Written out in full at once, never as codes ("Pune, MH 411001, IN").
    expect(screen.getByTestId('customer-address').textContent).toBe(
      '12 MG Road, Pune, Maharashtra 411001, India',
    );
    expect(api.requestsTo(paths.catalogue.states)).toHaveLength(0);
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

describe('customer_details shows the consent to remote locking', () => {
  const CONSENT: TCustomerConsent = {
    customerId: 5,
    language: 'tm',
    textVersion: CONSENT_TEXT_VERSION,
    text: 'EMI-யில் வாங்கிய போனைத் தொலைவிலிருந்து பூட்டுவதற்கான ஒப்புதல்\n\nநான், Anita Rao, …',
    recordedByName: 'Ravi Mobiles – Andheri',
    consentedAt: '2026-01-15T07:00:00Z',
    signature: { mediaId: 77, imageName: '41/customer_signature/0193a5a4-7e0e-7c55-8f00-000000000077.png' },
  };

  it('with its language, who recorded it, when, the signature and the text', async () => {
    const { createObjectURL } = URL;
    URL.createObjectURL = vi.fn(() => 'blob:signature');
    const api = stubApi({
      [paths.customers.details]: () => CUSTOMER,
      [paths.customers.consent]: () => CONSENT,
      [paths.media.file]: () => new Response('PNG', { headers: { 'content-type': 'image/png' } }),
    });
    renderDetails();
    const section = await screen.findByTestId('customer-consent');
    expect(within(section).getByTestId('consent-language-name').textContent).toBe('தமிழ்');
    expect(within(section).getByTestId('consent-recorded-by').textContent).toBe('Ravi Mobiles – Andheri');
    expect(within(section).getByTestId('consent-recorded-at').textContent).toBe('15-01-2026 12:30 PM');
    const signature = await within(section).findByRole('img', { name: "Customer's signature" });
    expect(signature.getAttribute('src')).toBe('blob:signature');
    expect(new URL(api.requestsTo(paths.media.file)[0]?.url ?? '').searchParams.get('image_name')).toBe(
      CONSENT.signature?.imageName,
    );
    fireEvent.click(within(section).getByRole('button', { name: 'Show what the customer agreed to' }));
    const text = within(section).getByTestId('consent-text');
    expect(text.textContent).toBe(CONSENT.text);
    expect(text.getAttribute('lang')).toBe('ta');
    URL.createObjectURL = createObjectURL;
  });

  it('says when none is recorded, and offers to record it there', async () => {
    stubApi({
      [paths.customers.details]: () => CUSTOMER,
      [paths.customers.consent]: () => null,
      [paths.customers.consentText]: () => ({
        language: 'en',
        textVersion: CONSENT_TEXT_VERSION,
        text: 'The text',
      }),
    });
    renderDetails();
    expect((await screen.findByTestId('consent-missing')).textContent).toContain('enrolment QR needs it');
    fireEvent.click(screen.getByRole('button', { name: 'Record consent' }));
    expect(await screen.findByTestId('consent-form')).toBeTruthy();
  });
});

describe('customer_details says why wake-ups to the phone stopped (issue 27)', () => {
  it('shows when Firebase refused the push token, in India time, and what to do', async () => {
    stubApi({
      [paths.customers.details]: () => ({
        ...CUSTOMER,
        device: { ...CUSTOMER.device, pushRefusal: { reason: 'rejected', at: '2026-03-04T09:15:00.000Z' } },
      }),
    });
    renderDetails();
    expect((await screen.findByTestId('device-push-refusal')).textContent).toBe(
      'Wake-ups to this phone stopped on 04-03-2026 02:45 PM: Firebase refused its push token. ' +
        'Open the Kisht app on the phone so it registers again.',
    );
  });

  it('says nothing once the phone registered a new token, when the details are read again', async () => {
    let pushRefusal: TPushRefusal | null = { reason: 'unregistered', at: '2026-03-04T18:45:00.000Z' };
    stubApi({
      [paths.customers.details]: () => ({ ...CUSTOMER, device: { ...CUSTOMER.device, pushRefusal } }),
      // RTK Query refetches invalidated data once no other request is pending.
      [paths.customers.statusHistory]: () => [],
      [paths.customers.consent]: () => null,
    });
    const { store } = renderDetails();
    expect((await screen.findByTestId('device-push-refusal')).textContent).toContain('05-03-2026 12:15 AM');
    pushRefusal = null;
    act(() => {
      store.dispatch(api.util.invalidateTags([customerTag(5)]));
    });
    await waitFor(() => expect(screen.queryByTestId('device-push-refusal')).toBeNull());
    expect(screen.getByTestId('customer-date-of-birth')).toBeTruthy();
  });
});
