import { imeiCheckDigit } from '@kisht/domain/common/identifiers';
import type { TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import type { TFakeHandler } from '../../../test/fake-api';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { createCustomerDetails, createStatusChange } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { CustomerDetailsPage, type TCustomerDetailsPageProps } from './customer-details-page';

/** The page alone: the devices feature's lock card and tabs (composed in app/) are not what these tests are about. */
const WITHOUT_DEVICE_PART: TCustomerDetailsPageProps = {
  hasPendingCommand: false,
  renderLockCard: () => null,
  renderCommandsTab: () => null,
};

const imei = (body14: string) => `${body14}${imeiCheckDigit(body14)}`;
const NEW_IMEI_1 = imei('35693803564390');
const NEW_IMEI_2 = imei('35693803564391');

const { createObjectURL, revokeObjectURL } = URL;
let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  URL.createObjectURL = vi.fn(() => 'blob:photo');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
});

const stubDetailsApi = (customer: TCustomerDetails, handlers: Record<string, TFakeHandler> = {}) =>
  stubApi({
    [paths.customers.details]: () => customer,
    [paths.customers.statusHistory]: () => [],
    [paths.media.file]: () => new Response('JPEG', { headers: { 'content-type': 'image/jpeg' } }),
    // Answered, so no read stays pending (RTK Query holds invalidations until none is).
    [paths.customers.consent]: () => null,
    ...handlers,
  });

const renderDetails = () =>
  renderRoutes({
    i18n,
    url: appPaths.customerDetails.href(5),
    routes: [
      { path: appPaths.customerDetails.path, element: <CustomerDetailsPage {...WITHOUT_DEVICE_PART} /> },
      { path: appPaths.signature.path, element: <p>signature screen</p> },
      { path: appPaths.customerDocuments.path, element: <p>documents screen</p> },
      { path: appPaths.customerNavigate.path, element: <p>enrolment screen</p> },
      { path: appPaths.emmQr.path, element: <p>emm qr screen</p> },
      { path: appPaths.appleSync.path, element: <p>apple sync screen</p> },
      { path: appPaths.appleDetails.path, element: <p>apple details screen</p> },
    ],
  });

const openMenu = async () => {
  fireEvent.click(await screen.findByRole('button', { name: 'Edit customer' }));
  return within(await screen.findByRole('menu'));
};
const chooseAction = async (name: string) => {
  const menu = await openMenu();
  fireEvent.click(menu.getByRole('menuitem', { name }));
};
const field = (label: RegExp) => screen.getByLabelText<HTMLInputElement>(label);
const fill = (label: RegExp, value: string) => fireEvent.change(field(label), { target: { value } });
const messageOf = (label: RegExp) => {
  const id = field(label).getAttribute('aria-describedby') ?? '';
  return document.getElementById(id)?.textContent ?? '';
};
const detailsGets = (api: ReturnType<typeof stubDetailsApi>) =>
  api.requestsTo(paths.customers.details).length;

describe('customer_details edit menu (spec §2)', () => {
  it.each([
    [
      'a device policy controller phone',
      {},
      [
        'Edit IMEI',
        'Edit EMI terms',
        'Edit signature',
        'Photo and documents',
        'Enrolment QR code',
        'Re-enrol phone',
      ],
    ],
    [
      'an Apple phone',
      { deviceType: 3, appType: 2 },
      [
        'Edit IMEI',
        'Edit EMI terms',
        'Edit signature',
        'Photo and documents',
        'Check status',
        'Re-enrol phone',
      ],
    ],
    [
      'device policy controller plus anti-theft',
      { appType: 9 },
      ['Edit IMEI', 'Enrolment QR code', 'Re-enrol phone'],
    ],
    [
      'a customer whose phone never enrolled',
      { status: 0 },
      ['Edit IMEI', 'Edit EMI terms', 'Edit signature', 'Photo and documents', 'Enrolment QR code'],
    ],
  ] as const)('lists the actions of %s', async (_name, overrides, expected) => {
    stubDetailsApi(createCustomerDetails(overrides));
    renderDetails();
    const menu = await openMenu();
    expect(menu.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(expected);
  });

  it.each([
    ['Edit signature', 'signature screen', '/signature?customer_id=5'],
    ['Photo and documents', 'documents screen', '/customer_documents?customer_id=5'],
    ['Enrolment QR code', 'emm qr screen', '/emm_qr?customer_id=5'],
  ])('%s opens its screen for the customer', async (action, screenText, url) => {
    stubDetailsApi(createCustomerDetails());
    const { router } = renderDetails();
    await chooseAction(action);
    expect(await screen.findByText(screenText)).toBeTruthy();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(url);
  });

  it("Check status (an Apple customer's) opens apple_sync for the customer", async () => {
    stubDetailsApi(createCustomerDetails({ deviceType: 3, appType: 2 }));
    const { router } = renderDetails();
    await chooseAction('Check status');
    expect(await screen.findByText('apple sync screen')).toBeTruthy();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      '/apple_sync?customer_id=5',
    );
  });

  it('shows the customer photo in the header', async () => {
    const api = stubDetailsApi(
      createCustomerDetails({
        photoImageName: '41/customer_profile/0193a5a4-7e0e-7c55-8f00-000000000001.jpg',
      }),
    );
    renderDetails();
    const photo = await screen.findByRole('img', { name: 'Photo of Anita Rao' });
    expect(photo.getAttribute('src')).toBe('blob:photo');
    expect(new URL(api.requestsTo(paths.media.file)[0]?.url ?? '').searchParams.get('image_name')).toBe(
      '41/customer_profile/0193a5a4-7e0e-7c55-8f00-000000000001.jpg',
    );
  });
});

describe('IMEI_EDIT', () => {
  it('checks the IMEIs, saves them and refreshes the details', async () => {
    const api = stubDetailsApi(createCustomerDetails(), {
      [paths.customers.updateImei]: () => createCustomerDetails({ imei1: NEW_IMEI_1, imei2: NEW_IMEI_2 }),
    });
    renderDetails();
    await chooseAction('Edit IMEI');
    const dialog = await screen.findByRole('dialog', { name: 'Edit IMEI' });
    expect(field(/^IMEI 1/).value).toBe('356938035643809');
    expect(within(dialog).queryByLabelText(/^Serial number/)).toBeNull();

    fill(/^IMEI 1/, '356938035643800');
    fill(/^IMEI 2/, '356938035643800');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save IMEI' }));
    await waitFor(() => expect(messageOf(/^IMEI 1/)).toBe('IMEI must be 15 digits with a valid check digit'));
    expect(api.requestsTo(paths.customers.updateImei)).toHaveLength(0);

    fill(/^IMEI 1/, NEW_IMEI_1);
    fill(/^IMEI 2/, NEW_IMEI_1);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save IMEI' }));
    await waitFor(() => expect(messageOf(/^IMEI 2/)).toBe('IMEI 2 must differ from IMEI 1'));

    fill(/^IMEI 2/, NEW_IMEI_2);
    const before = detailsGets(api);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save IMEI' }));
    expect(await screen.findByText('IMEI updated')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await api.requestsTo(paths.customers.updateImei)[0]?.json()).toEqual({
      customer_id: 5,
      imei1: NEW_IMEI_1,
      imei2: NEW_IMEI_2,
    });
    await waitFor(() => expect(detailsGets(api)).toBeGreaterThan(before));
  });

  it('re-enrols a replaced phone with its reason and IMEIs, then opens the new QR (issue 27)', async () => {
    const api = stubDetailsApi(createCustomerDetails(), {
      [paths.devices.reEnrol]: () => ({
        customerId: 5,
        status: 0,
        cancelledCommands: 0,
        wasReleaseSent: true,
      }),
    });
    const { router } = renderDetails();
    await chooseAction('Re-enrol phone');
    const dialog = await screen.findByRole('dialog', { name: 'Re-enrol the phone' });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /^Why/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Replaced under warranty' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /another phone/ }));
    fill(/^IMEI 1/, NEW_IMEI_1);
    fill(/^IMEI 2/, NEW_IMEI_1);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Take out the phone' }));
    await waitFor(() => expect(messageOf(/^IMEI 2/)).toBe('IMEI 2 must differ from IMEI 1'));
    expect(api.requestsTo(paths.devices.reEnrol)).toHaveLength(0);

    fill(/^IMEI 2/, NEW_IMEI_2);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Take out the phone' }));
    expect(await screen.findByText('emm qr screen')).toBeTruthy();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/emm_qr?customer_id=5');
    expect(await api.requestsTo(paths.devices.reEnrol)[0]?.json()).toEqual({
      customer_id: 5,
      reason: 'replaced_under_warranty',
      imei1: NEW_IMEI_1,
      imei2: NEW_IMEI_2,
    });
  });

  it('asks why when the reason is other, and shows the server refusal', async () => {
    const api = stubDetailsApi(createCustomerDetails(), {
      [paths.devices.reEnrol]: () =>
        failureResponse(409, 'This phone cannot be re-enrolled', { code: 'STATUS_CHANGE_NOT_ALLOWED' }),
    });
    renderDetails();
    await chooseAction('Re-enrol phone');
    const dialog = await screen.findByRole('dialog', { name: 'Re-enrol the phone' });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /^Why/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Other' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Take out the phone' }));
    await waitFor(() => expect(messageOf(/^Note/)).toBe('This is a required field'));
    expect(api.requestsTo(paths.devices.reEnrol)).toHaveLength(0);
    fill(/^Note/, 'Screen replaced at the service centre');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Take out the phone' }));
    expect(await within(dialog).findByText('This phone cannot be re-enrolled')).toBeTruthy();
  });

  it("asks for an Apple phone's serial number too", async () => {
    const api = stubDetailsApi(
      createCustomerDetails({ deviceType: 3, appType: 2, serialNumber: 'F2LZK0XYHG7F' }),
      {
        [paths.customers.updateImei]: () => createCustomerDetails(),
      },
    );
    renderDetails();
    await chooseAction('Edit IMEI');
    await screen.findByRole('dialog', { name: 'Edit IMEI' });
    expect(field(/^Serial number/).value).toBe('F2LZK0XYHG7F');
    fill(/^Serial number/, 'G3MZK0XYHG7F');
    fireEvent.click(screen.getByRole('button', { name: 'Save IMEI' }));
    await screen.findByText('IMEI updated');
    expect(await api.requestsTo(paths.customers.updateImei)[0]?.json()).toMatchObject({
      serialNumber: 'G3MZK0XYHG7F',
    });
  });

  it("puts the server's field error under its field and keeps the dialog open", async () => {
    stubDetailsApi(createCustomerDetails(), {
      [paths.customers.updateImei]: () =>
        failureResponse(409, 'IMEI in use', {
          code: 'IMEI_IN_USE',
          fields: [{ field: 'imei1', message: 'This IMEI belongs to another device' }],
        }),
    });
    renderDetails();
    await chooseAction('Edit IMEI');
    await screen.findByRole('dialog', { name: 'Edit IMEI' });
    fill(/^IMEI 1/, NEW_IMEI_1);
    fireEvent.click(screen.getByRole('button', { name: 'Save IMEI' }));
    await waitFor(() => expect(messageOf(/^IMEI 1/)).toBe('This IMEI belongs to another device'));
    expect(screen.getByRole('dialog', { name: 'Edit IMEI' })).toBeTruthy();
  });
});

describe('EMI_EDIT', () => {
  it('starts from the current terms and sends rupees as paise and % as basis points', async () => {
    const api = stubDetailsApi(createCustomerDetails(), { [paths.emi.editTerms]: () => ({}) });
    renderDetails();
    await chooseAction('Edit EMI terms');
    const dialog = await screen.findByRole('dialog', { name: 'Edit EMI terms' });
    expect(field(/^Loan amount/).value).toBe('15000');
    expect(field(/^Interest \(/).value).toBe('12');
    expect(field(/^Tenure/).value).toBe('2');
    expect(field(/^First due date/).value).toBe('2026-02-15');

    fill(/^Loan amount/, '14000.50');
    fill(/^Interest \(/, '10.5');
    fill(/^Tenure/, '6');
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /^Interest method/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Flat rate' }));
    fill(/^First due date/, '2026-03-01');
    const before = detailsGets(api);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save EMI terms' }));
    expect(await screen.findByText('EMI terms updated')).toBeTruthy();
    expect(await api.requestsTo(paths.emi.editTerms)[0]?.json()).toEqual({
      customer_id: 5,
      loanAmountPaise: 1_400_050,
      annualRateBps: 1050,
      tenureMonths: 6,
      interestMethod: 'flat',
      firstDueDate: '2026-03-01',
    });
    await waitFor(() => expect(detailsGets(api)).toBeGreaterThan(before));
  });

  it('checks the terms before sending them', async () => {
    const api = stubDetailsApi(createCustomerDetails(), { [paths.emi.editTerms]: () => ({}) });
    renderDetails();
    await chooseAction('Edit EMI terms');
    await screen.findByRole('dialog', { name: 'Edit EMI terms' });
    fill(/^Loan amount/, '0');
    fill(/^Interest \(/, '');
    fill(/^Tenure/, '200');
    fireEvent.click(screen.getByRole('button', { name: 'Save EMI terms' }));
    await waitFor(() => expect(messageOf(/^Loan amount/)).toBe('Loan amount must be more than zero'));
    expect(messageOf(/^Interest \(/)).toBe('This is a required field');
    expect(messageOf(/^Tenure/)).toBe('Tenure must be 1 to 120 months');
    expect(api.requestsTo(paths.emi.editTerms)).toHaveLength(0);
  });

  it("shows the server's message when an EMI is already paid", async () => {
    stubDetailsApi(createCustomerDetails(), {
      [paths.emi.editTerms]: () =>
        failureResponse(409, 'EMI terms can only be changed before the first payment or penalty', {
          code: 'EMI_ALREADY_PAID',
        }),
    });
    renderDetails();
    await chooseAction('Edit EMI terms');
    const dialog = await screen.findByRole('dialog', { name: 'Edit EMI terms' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save EMI terms' }));
    expect((await within(dialog).findByTestId('edit-emi-error')).textContent).toBe(
      'EMI terms can only be changed before the first payment or penalty',
    );
    expect(screen.getByRole('dialog', { name: 'Edit EMI terms' })).toBeTruthy();
  });
});

describe('status change and trail', () => {
  it('shows who changed the status, when, from what to what and why', async () => {
    stubDetailsApi(createCustomerDetails({ status: 2 }), {
      [paths.customers.statusHistory]: () => [
        createStatusChange({
          at: '2026-01-20T07:00:00Z',
          fromStatus: 1,
          toStatus: 2,
          reason: 'Customer asked to pause',
          actorName: 'Ravi Kumar',
        }),
        createStatusChange({ at: '2026-01-15T07:00:00Z', fromStatus: 0, toStatus: 1 }),
        createStatusChange({ at: '2026-01-15T06:45:00Z', fromStatus: null, toStatus: 0 }),
      ],
    });
    renderDetails();
    const entries = await screen.findAllByTestId('status-trail-entry');
    expect(entries.map((entry) => entry.textContent)).toEqual([
      'Installed → Deactivated20-01-2026 12:30 PM · Ravi KumarReason: Customer asked to pause',
      'Inactive → Installed15-01-2026 12:30 PM · System',
      'Added as Inactive15-01-2026 12:15 PM · System',
    ]);
  });

  it('moves an installed customer to deactivated with a reason, and refreshes details and trail', async () => {
    const api = stubDetailsApi(createCustomerDetails({ status: 1 }), {
      [paths.customers.updateStatus]: () => createCustomerDetails({ status: 2 }),
    });
    renderDetails();
    expect((await screen.findByTestId('status-trail-empty')).textContent).toBe('No status changes yet.');
    fireEvent.click(screen.getByRole('button', { name: 'Change status' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change status' });
    // canChangeStatus allows only deactivation from installed.
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /^New status/ }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'Deactivated',
    ]);
    fireEvent.click(screen.getByRole('option', { name: 'Deactivated' }));

    fireEvent.click(within(dialog).getByRole('button', { name: 'Change status' }));
    await waitFor(() => expect(messageOf(/^Reason/)).toBe('This is a required field'));
    fill(/^Reason/, 'ok');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change status' }));
    await waitFor(() => expect(messageOf(/^Reason/)).toBe('Say why, in a few words'));
    expect(api.requestsTo(paths.customers.updateStatus)).toHaveLength(0);

    fill(/^Reason/, 'EMI overdue by two months');
    const historyBefore = api.requestsTo(paths.customers.statusHistory).length;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change status' }));
    expect(await screen.findByText('Status changed to Deactivated')).toBeTruthy();
    expect(await api.requestsTo(paths.customers.updateStatus)[0]?.json()).toEqual({
      customer_id: 5,
      status: 2,
      reason: 'EMI overdue by two months',
    });
    await waitFor(() =>
      expect(api.requestsTo(paths.customers.statusHistory).length).toBeGreaterThan(historyBefore),
    );
  });

  it('offers no change for a status that only changes on its own', async () => {
    stubDetailsApi(createCustomerDetails({ status: 0 }));
    renderDetails();
    expect((await screen.findByTestId('change-status-none')).textContent).toBe(
      'This status cannot be changed by hand.',
    );
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Change status' }).disabled).toBe(true);
  });
});

describe('customer_details per device family (issue 15)', () => {
  it("links an Apple customer's phone to apple_details and apple_sync", async () => {
    stubDetailsApi(createCustomerDetails({ deviceType: 3, appType: 2, serialNumber: 'F2LZK0XYHG7F' }));
    const { router } = renderDetails();
    fireEvent.click(await screen.findByTestId('open-apple-details'));
    expect(await screen.findByText('apple details screen')).toBeTruthy();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      '/apple_details?customer_id=5',
    );
    cleanup();
    stubDetailsApi(createCustomerDetails({ deviceType: 3, appType: 2 }));
    const second = renderDetails();
    fireEvent.click(await screen.findByTestId('open-apple-sync'));
    expect(await screen.findByText('apple sync screen')).toBeTruthy();
    expect(second.router.state.location.search).toBe('?customer_id=5');
  });

  it('offers no Apple links to another family', async () => {
    stubDetailsApi(createCustomerDetails());
    renderDetails();
    await screen.findByTestId('customer-serial-number');
    expect(screen.queryByTestId('open-apple-details')).toBeNull();
  });

  it('shows where the link-based app was uninstalled when the details carry it, and nothing when not', async () => {
    stubDetailsApi({
      ...createCustomerDetails({ deviceType: 2, appType: 1, status: 3 }),
      uninstallLatitude: '18.5204',
      uninstallLongitude: '73.8567',
    } as TCustomerDetails);
    renderDetails();
    const location = await screen.findByTestId('uninstall-location');
    expect(location.textContent).toBe('18.5204, 73.8567');
    expect(location.getAttribute('href')).toBe('geo:18.5204,73.8567');
    expect(screen.getByText('Uninstall location')).toBeTruthy();
    cleanup();

    stubDetailsApi({
      ...createCustomerDetails({ deviceType: 2, appType: 1, status: 3 }),
      uninstallLatitude: 'Bypassed',
      uninstallLongitude: 'Bypassed',
    } as TCustomerDetails);
    renderDetails();
    const bypassed = await screen.findByTestId('uninstall-location');
    expect(bypassed.textContent).toBe('Bypassed, Bypassed');
    expect(bypassed.getAttribute('href')).toBeNull();
    cleanup();

    stubDetailsApi(createCustomerDetails({ deviceType: 2, appType: 1 }));
    renderDetails();
    await screen.findByTestId('customer-serial-number');
    expect(screen.queryByTestId('uninstall-location')).toBeNull();
    expect(screen.queryByText('Uninstall location')).toBeNull();
  });
});
