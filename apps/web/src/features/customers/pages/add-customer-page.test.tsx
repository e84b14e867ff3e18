import type { TProduct } from '@kisht/domain/catalogue/catalogue.schema';
import type { TCity, TCountry, TFinancer, TState } from '@kisht/domain/catalogue/csc.schema';
import { imeiCheckDigit } from '@kisht/domain/common/identifiers';
import type { TCustomerConsent } from '@kisht/domain/customers/consent.schema';
import { CONSENT_TEXT_VERSION } from '@kisht/domain/customers/consent-texts';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatRupees } from '../../../lib/format';
import { appPaths } from '../../../lib/paths';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { createCustomerMedia } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { previewSchedule, summariseSchedule } from '../add-customer-form';
import { AddCustomerPage } from './add-customer-page';

const imei = (body14: string) => `${body14}${imeiCheckDigit(body14)}`;
const IMEI_1 = imei('35693803564380');
const IMEI_2 = imei('35693803564381');

const PRODUCTS: TProduct[] = [
  { id: 1, brand: 'Xiaomi', name: 'Redmi Note 14 5G', pricePaise: 1_899_900, platform: 'android' },
  { id: 2, brand: 'Apple', name: 'iPhone 16', pricePaise: 7_990_000, platform: 'ios' },
];
const FINANCERS: TFinancer[] = [{ id: 7, name: 'Bajaj Finserv' }];
const COUNTRIES: TCountry[] = [
  { code: 'IN', name: 'India', phoneCode: '91' },
  { code: 'US', name: 'United States', phoneCode: '1' },
];
const STATES: Record<string, TState[]> = {
  IN: [
    { code: 'MH', name: 'Maharashtra' },
    { code: 'KA', name: 'Karnataka' },
  ],
  US: [{ code: 'CA', name: 'California' }],
};
const CITIES: Record<string, TCity[]> = {
  'IN-MH': [{ name: 'Mumbai' }, { name: 'Pune' }],
  'IN-KA': [{ name: 'Bengaluru' }],
  'US-CA': [{ name: 'Los Angeles' }],
};

/** The fake API of the form: catalogue, csc lists and the create call (answered by `onCreate`). */
const stubFormApi = (
  onCreate: (request: Request) => unknown = () => ({ id: 42, firstName: 'Asha', lastName: 'Patil' }),
  loanDefaults?: { annualRateBps: number },
) =>
  stubApi({
    ...(loanDefaults ? { [paths.customers.loanDefaults]: () => loanDefaults } : {}),
    [paths.catalogue.products]: () => PRODUCTS,
    [paths.catalogue.financers]: () => FINANCERS,
    [paths.catalogue.countries]: () => COUNTRIES,
    [paths.catalogue.states]: (_request, url) => STATES[url.searchParams.get('country') ?? ''] ?? [],
    [paths.catalogue.cities]: (_request, url) =>
      CITIES[`${url.searchParams.get('country')}-${url.searchParams.get('state')}`] ?? [],
    [paths.customers.create]: onCreate,
    [paths.customers.documents]: () => createCustomerMedia({ customerId: 42 }),
  });

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

const renderForm = (url = appPaths.addCustomer.href()) =>
  renderRoutes({
    i18n,
    url,
    routes: [
      { path: appPaths.addCustomer.path, element: <AddCustomerPage /> },
      { path: appPaths.customerNavigate.path, element: <p>enrolment screen</p> },
      { path: appPaths.signature.path, element: <p>signature screen</p> },
      { path: appPaths.witnessSignature.path, element: <p>witness screen</p> },
    ],
  });

const stepTitle = () => screen.getByTestId('add-customer-step-title').textContent;
const field = (label: RegExp) => screen.getByLabelText<HTMLInputElement>(label);
const fill = (label: RegExp, value: string) => fireEvent.change(field(label), { target: { value } });
/** The message under a field (its helper text), found through aria-describedby. */
const messageOf = (label: RegExp) => {
  const id = field(label).getAttribute('aria-describedby') ?? '';
  return document.getElementById(id)?.textContent ?? '';
};

/** Picks an option of a select or a searchable list (both are comboboxes). */
const choose = async (label: RegExp, option: string | RegExp) => {
  const combobox = screen.getByRole('combobox', { name: label });
  // Wait for its choices to load (a select is disabled until then).
  await waitFor(() => expect(combobox.getAttribute('aria-disabled')).not.toBe('true'));
  fireEvent.mouseDown(combobox);
  fireEvent.click(await screen.findByRole('option', { name: option }));
};

const next = async (expectedStep: string) => {
  fireEvent.click(screen.getByTestId('add-customer-next'));
  await waitFor(() => expect(stepTitle()).toBe(expectedStep));
};

const fillPersonal = () => {
  fill(/^First name/, 'Asha');
  fill(/^Last name/, 'Patil');
  fill(/^Mobile number/, '9876543210');
};
const fillAddress = async () => {
  fill(/^House, street and area/, '12 MG Road');
  await choose(/^State/, 'Maharashtra');
  await choose(/^City/, 'Pune');
};
const fillDevice = () => {
  fill(/^IMEI 1/, IMEI_1);
  fill(/^IMEI 2/, IMEI_2);
};
const goToDevice = async () => {
  fillPersonal();
  await next('Address');
  await fillAddress();
  await next('Device');
};
const goToLoan = async () => {
  await goToDevice();
  fillDevice();
  await next('Product & financer');
  await choose(/^Product/, /Redmi Note 14 5G/);
  await choose(/^Financer/, 'Bajaj Finserv');
  await next('Loan');
};

// Each test walks the form step by step, which takes a few seconds on a loaded machine.
describe('add_customer: a guided form in five steps', () => {
  it('shows the steps in order, and Next checks only the fields of the step on screen', async () => {
    stubFormApi();
    renderForm();
    const steps = within(screen.getByTestId('add-customer-stepper'));
    expect(
      ['personal', 'address', 'device', 'product', 'loan'].map((key) =>
        steps.getByTestId(`add-customer-step-${key}`).textContent?.replace(/^\d+/, ''),
      ),
    ).toEqual(['Personal', 'Address', 'Device', 'Product & financer', 'Loan']);
    expect(stepTitle()).toBe('Personal');
    expect(screen.getByTestId('add-customer-back').hasAttribute('disabled')).toBe(true);

    fireEvent.click(screen.getByTestId('add-customer-next'));
    await waitFor(() => expect(messageOf(/^First name/)).toBe('This is a required field'));
    expect(messageOf(/^Last name/)).toBe('This is a required field');
    expect(messageOf(/^Mobile number/)).toBe('This is a required field');
    expect(field(/^Email/).getAttribute('aria-invalid')).toBe('false');
    expect(field(/^Date of birth/).getAttribute('aria-invalid')).toBe('false');
    expect(stepTitle()).toBe('Personal');

    fillPersonal();
    fill(/^Mobile number/, '1234567890');
    fireEvent.click(screen.getByTestId('add-customer-next'));
    await waitFor(() =>
      expect(messageOf(/^Mobile number/)).toBe('Enter a 10-digit mobile number starting with 6, 7, 8 or 9'),
    );
    fill(/^Mobile number/, '+91 98765 43210');
    await next('Address');
    // The address step has not been checked yet.
    expect(field(/^House, street and area/).getAttribute('aria-invalid')).toBe('false');
    expect(screen.queryByText('This is a required field')).toBeNull();
  });

  it('keeps every value when going back', async () => {
    stubFormApi();
    renderForm();
    fillPersonal();
    fill(/^Date of birth/, '1990-05-17');
    await next('Address');
    fill(/^House, street and area/, '12 MG Road');
    fireEvent.click(screen.getByTestId('add-customer-back'));
    await waitFor(() => expect(stepTitle()).toBe('Personal'));
    expect(field(/^First name/).value).toBe('Asha');
    expect(field(/^Mobile number/).value).toBe('9876543210');
    expect(field(/^Date of birth/).value).toBe('1990-05-17');
    await next('Address');
    expect(field(/^House, street and area/).value).toBe('12 MG Road');
  });

  it('loads states for the country (India first) and cities for the state, clearing what depends on a change', async () => {
    const api = stubFormApi();
    renderForm();
    fillPersonal();
    await next('Address');
    await waitFor(() => expect(field(/^Country/).value).toBe('India'));
    const queries = (path: string) =>
      api.requestsTo(path).map((request) => Object.fromEntries(new URL(request.url).searchParams));
    await waitFor(() => expect(queries(paths.catalogue.states)).toEqual([{ country: 'IN' }]));
    expect(field(/^City/).disabled).toBe(true);
    expect(messageOf(/^City/)).toBe('Choose the state first');

    fireEvent.click(screen.getByTestId('add-customer-next'));
    await waitFor(() => expect(messageOf(/^State/)).toBe('This is a required field'));
    expect(messageOf(/^House, street and area/)).toBe('This is a required field');

    await choose(/^State/, 'Maharashtra');
    await choose(/^City/, 'Pune');
    expect(queries(paths.catalogue.cities)).toEqual([{ country: 'IN', state: 'MH' }]);
    expect(field(/^City/).value).toBe('Pune');

    // A new state clears the city and lists its own cities.
    await choose(/^State/, 'Karnataka');
    expect(field(/^City/).value).toBe('');
    await choose(/^City/, 'Bengaluru');
    expect(queries(paths.catalogue.cities).at(-1)).toEqual({ country: 'IN', state: 'KA' });

    // A new country clears both.
    await choose(/^Country/, 'United States');
    expect(field(/^State/).value).toBe('');
    expect(field(/^City/).value).toBe('');
    await choose(/^State/, 'California');
    expect(queries(paths.catalogue.states).at(-1)).toEqual({ country: 'US' });
    await choose(/^City/, 'Los Angeles');
    fill(/^House, street and area/, '1 Main St');
    await next('Device');
  });

  it('asks for the serial number of an Apple device, and only then, and sends it', async () => {
    const api = stubFormApi();
    renderForm();
    await goToDevice();
    fillDevice();
    expect(screen.queryByLabelText(/^Serial number/)).toBeNull();

    await choose(/^Device type/, 'Apple');
    fireEvent.click(screen.getByTestId('add-customer-next'));
    await waitFor(() => expect(messageOf(/^Serial number/)).toBe('This is a required field'));
    expect(stepTitle()).toBe('Device');

    // Another family drops the field and its error.
    await choose(/^Device type/, 'Device policy controller');
    expect(screen.queryByLabelText(/^Serial number/)).toBeNull();
    await choose(/^Device type/, 'Apple');
    expect(field(/^Serial number/).getAttribute('aria-invalid')).toBe('false');
    fill(/^Serial number/, 'F2LZK0XYHG7F');
    await choose(/^App type/, 'Apple');
    await next('Product & financer');

    // The serial number outlives its step. Only the family's phones are offered (issue 28).
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /^Product/ }));
    const offered = within(await screen.findByRole('listbox'))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.every((name) => name?.includes('iPhone'))).toBe(true);
    fireEvent.keyDown(screen.getByRole('listbox'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    await choose(/^Product/, /iPhone 16/);
    await next('Loan');
    fireEvent.click(screen.getByTestId('add-customer-submit'));
    expect(await screen.findByTestId('add-customer-finish')).toBeTruthy();
    const body = await api.requestsTo(paths.customers.create)[0]?.json();
    expect(body).toMatchObject({ deviceType: 3, appType: 2, serialNumber: 'F2LZK0XYHG7F', productId: 2 });
  });

  it('offers the app types of the chosen device family, each family starting at its own (issue 15)', async () => {
    const api = stubFormApi();
    renderForm();
    await goToDevice();
    fillDevice();
    const appTypeChoices = async () => {
      fireEvent.mouseDown(screen.getByRole('combobox', { name: /^App type/ }));
      const listbox = await screen.findByRole('listbox');
      const names = within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent);
      fireEvent.keyDown(listbox, { key: 'Escape' });
      await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
      return names;
    };
    const shownAppType = () => screen.getByRole('combobox', { name: /^App type/ }).textContent;

    // Device policy controller: its own types and the plans, never the link-based or Apple apps.
    const dpcChoices = await appTypeChoices();
    expect(dpcChoices).toContain('Device policy controller + anti-theft');
    expect(dpcChoices).not.toContain('Apple');
    expect(dpcChoices).not.toContain('Link-based');

    await choose(/^Device type/, 'Link-based family-locking app');
    expect(shownAppType()).toBe('Link-based');
    expect(await appTypeChoices()).toEqual(['Link-based', 'Old link-based']);

    await choose(/^Device type/, 'Managed Android API');
    expect(shownAppType()).toBe('Device policy controller');
    expect(await appTypeChoices()).toEqual(['Device policy controller']);

    await choose(/^Device type/, 'Apple');
    expect(shownAppType()).toBe('Apple');
    expect(await appTypeChoices()).toEqual(['Apple']);
    fill(/^Serial number/, 'F2LZK0XYHG7F');
    await next('Product & financer');
    await choose(/^Product/, /iPhone 16/);
    await next('Loan');
    fireEvent.click(screen.getByTestId('add-customer-submit'));
    expect(await screen.findByTestId('add-customer-finish')).toBeTruthy();
    const body = await api.requestsTo(paths.customers.create)[0]?.json();
    expect(body).toMatchObject({ deviceType: 3, appType: 2, serialNumber: 'F2LZK0XYHG7F' });
  });

  it('checks the IMEIs on the device step', async () => {
    stubFormApi();
    renderForm();
    await goToDevice();
    fill(/^IMEI 1/, IMEI_1);
    fill(/^IMEI 2/, IMEI_1);
    fireEvent.click(screen.getByTestId('add-customer-next'));
    await waitFor(() => expect(messageOf(/^IMEI 2/)).toBe('IMEI 2 must differ from IMEI 1'));
    // A field showing an error checks itself again as it changes.
    fill(/^IMEI 2/, IMEI_2);
    await waitFor(() => expect(field(/^IMEI 2/).getAttribute('aria-invalid')).toBe('false'));
    // Any other field checks itself once left.
    fill(/^IMEI 1/, '356938035643800');
    fireEvent.blur(field(/^IMEI 1/));
    await waitFor(() => expect(messageOf(/^IMEI 1/)).toBe('IMEI must be 15 digits with a valid check digit'));
  });

  it('prefills the loan from the product, previews the EMI with the chosen method, and saves', async () => {
    const api = stubFormApi();
    const { router } = renderForm();
    await goToLoan();
    expect(api.requestsTo(paths.catalogue.financers)[0]?.method).toBe('POST');
    expect(field(/^Price/).value).toBe('18999');
    expect(field(/^Loan amount/).value).toBe('18999');
    fill(/^Down payment/, '2999');
    expect(field(/^Loan amount/).value).toBe('16000');
    fill(/^Processing fee/, '499');
    fill(/^Interest \(/, '12');

    const expectedEmi = (interestMethod: 'reducing' | 'flat') => {
      const schedule = previewSchedule({
        loanAmountPaise: 1_600_000,
        annualRateBps: 1200,
        tenureMonths: 12,
        interestMethod,
        firstDueDate: undefined,
      });
      return formatRupees(summariseSchedule(schedule ?? [])?.emiPaise ?? 0);
    };
    await waitFor(() =>
      expect(screen.getByTestId('emi-preview-amount').textContent).toBe(`${expectedEmi('reducing')} / month`),
    );
    expect(screen.getByTestId('emi-preview-details').textContent).toMatch(
      /^12 instalments from \d{2}-\d{2}-\d{4}$/,
    );
    await choose(/^Interest method/, 'Flat rate');
    await waitFor(() =>
      expect(screen.getByTestId('emi-preview-amount').textContent).toBe(`${expectedEmi('flat')} / month`),
    );
    expect(screen.getByTestId('emi-preview-interest').textContent).toBe(formatRupees(192_000));
    expect(screen.getByTestId('emi-preview-total').textContent).toBe(formatRupees(1_792_000));

    fireEvent.click(screen.getByTestId('add-customer-submit'));
    // Saved: on to photo, documents and signature of the new customer.
    expect(await screen.findByTestId('add-customer-finish')).toBeTruthy();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      '/add_customer?customer_id=42',
    );
    expect(await screen.findByText('Customer Asha Patil added')).toBeTruthy();
    const [create] = api.requestsTo(paths.customers.create);
    const body = await create?.json();
    expect(body).toEqual({
      firstName: 'Asha',
      lastName: 'Patil',
      mobile: '+919876543210',
      address: { line1: '12 MG Road', countryCode: 'IN', stateCode: 'MH', city: 'Pune' },
      deviceType: 0,
      appType: 0,
      imei1: IMEI_1,
      imei2: IMEI_2,
      productId: 1,
      financerId: 7,
      pricePaise: 1_899_900,
      downPaymentPaise: 299_900,
      processingFeePaise: 49_900,
      loanAmountPaise: 1_600_000,
      annualRateBps: 1200,
      interestMethod: 'flat',
      tenureMonths: 12,
    });
  });

  it("starts the interest at the organisation's rate, and keeps a rate typed by hand", async () => {
    stubFormApi(undefined, { annualRateBps: 1400 });
    renderForm();
    await goToLoan();
    await waitFor(() => expect(field(/^Interest \(/).value).toBe('14'));
    fill(/^Interest \(/, '12.5');
    expect(field(/^Interest \(/).value).toBe('12.5');
  });

  it("puts the server's field errors under their fields and goes to their step", async () => {
    stubFormApi(() =>
      failureResponse(400, 'Invalid imei1', { fields: [{ field: 'imei1', message: 'IMEI already in use' }] }),
    );
    renderForm();
    await goToLoan();
    fireEvent.click(screen.getByTestId('add-customer-submit'));
    await waitFor(() => expect(stepTitle()).toBe('Device'));
    expect(messageOf(/^IMEI 1/)).toBe('IMEI already in use');
    expect(field(/^IMEI 1/).getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field(/^IMEI 1/));
  });
});

describe('add_customer: photo, documents and signature of the new customer', () => {
  const { createObjectURL } = URL;
  beforeEach(() => {
    URL.createObjectURL = vi.fn(() => 'blob:file');
  });
  afterEach(() => {
    URL.createObjectURL = createObjectURL;
  });

  const stubFinishApi = (
    media = createCustomerMedia({ customerId: 42 }),
    consent: TCustomerConsent | null = null,
  ) =>
    stubApi({
      [paths.customers.documents]: (request) => (request.method === 'GET' ? media : {}),
      [paths.customers.uploadImage]: () => ({}),
      [paths.customers.consent]: () => consent,
      [paths.customers.consentText]: (_request, url) => ({
        language: url.searchParams.get('language'),
        textVersion: CONSENT_TEXT_VERSION,
        text: 'Consent to remote locking of a phone bought on EMI',
      }),
    });

  it('shows the sixth step after the five done, and uploads to the new customer', async () => {
    const api = stubFinishApi();
    renderForm(appPaths.addCustomer.href(42));
    expect(await screen.findByTestId('add-customer-finish')).toBeTruthy();
    expect(stepTitle()).toBe('Photo, documents & signature');
    const steps = within(screen.getByTestId('add-customer-stepper'));
    expect(steps.getByTestId('add-customer-step-attachments').textContent).toContain(
      'Photo, documents & signature',
    );
    // The form is saved: its steps cannot be reopened.
    expect(steps.queryAllByRole('button')).toHaveLength(0);
    expect(await screen.findByTestId('customer-photo-card')).toBeTruthy();
    expect(screen.getByTestId('customer-invoice-card')).toBeTruthy();
    expect(screen.getByTestId('customer-documents-card')).toBeTruthy();
    expect(screen.queryByTestId('witness-signature-card')).toBeNull();
    expect(
      new URL(api.requestsTo(paths.customers.documents)[0]?.url ?? '').searchParams.get('customer_id'),
    ).toBe('42');

    fireEvent.change(screen.getByTestId('customer-invoice-input'), {
      target: { files: [new File(['%PDF'], 'bill.pdf', { type: 'application/pdf' })] },
    });
    expect(await screen.findByText('Invoice saved')).toBeTruthy();
    const form = await api.requestsTo(paths.customers.uploadImage)[0]?.formData();
    expect(form?.get('customer_id')).toBe('42');
    expect(form?.get('kind')).toBe('customer_invoice_attachment');
  });

  it('takes the signature, and the witness signature when the organisation asks for one', async () => {
    stubFinishApi(createCustomerMedia({ customerId: 42, witnessRequired: true }));
    const { router } = renderForm(appPaths.addCustomer.href(42));
    expect(await screen.findByTestId('witness-signature-card')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add signature' }));
    expect(await screen.findByText('signature screen')).toBeTruthy();
    expect(router.state.location.search).toBe('?customer_id=42');
  });

  it('asks next for the consent to remote locking, the seventh step, before the enrolment QR', async () => {
    stubFinishApi();
    renderForm(appPaths.addCustomer.href(42));
    fireEvent.click(await screen.findByRole('button', { name: 'Next: consent to remote locking' }));
    await waitFor(() => expect(stepTitle()).toBe('Consent'));
    const steps = within(screen.getByTestId('add-customer-stepper'));
    expect(steps.getByTestId('add-customer-step-consent').textContent).toContain('Consent');
    const form = await screen.findByTestId('consent-form');
    expect((await within(form).findByTestId('consent-text')).textContent).toContain('remote locking');
    // No way on to the QR until the consent is recorded.
    expect(screen.queryByRole('button', { name: 'Continue to enrolment' })).toBeNull();
  });

  it('continues to the enrolment QR of the new customer once the consent is recorded', async () => {
    stubFinishApi(createCustomerMedia({ customerId: 42 }), {
      customerId: 42,
      language: 'mr',
      textVersion: CONSENT_TEXT_VERSION,
      text: 'मजकूर',
      recordedByName: 'Ravi Mobiles',
      consentedAt: '2026-01-15T07:00:00Z',
      signature: null,
    });
    const { router } = renderForm(appPaths.addCustomer.href(42));
    fireEvent.click(await screen.findByTestId('add-customer-finish-continue'));
    expect((await screen.findByTestId('consent-recorded')).textContent).toContain('Ravi Mobiles');
    expect(screen.getByTestId('consent-language-name').textContent).toBe('मराठी');
    fireEvent.click(screen.getByRole('button', { name: 'Continue to enrolment' }));
    expect(await screen.findByText('enrolment screen')).toBeTruthy();
    expect(router.state.location.search).toBe('?customer_id=42');
  });
});
