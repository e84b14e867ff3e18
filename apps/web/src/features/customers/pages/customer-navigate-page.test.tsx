import { DeviceType } from '@kisht/domain/common/enums';
import type { TCustomerConsent } from '@kisht/domain/customers/consent.schema';
import { CONSENT_TEXT_VERSION } from '@kisht/domain/customers/consent-texts';
import { paths } from '@kisht/domain/paths';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import { stubApi } from '../../../test/fake-api';
import { createCustomerDetails, createDeviceSummary, createMedia } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { CustomerNavigatePage, type TCustomerNavigatePageProps } from './customer-navigate-page';

/** A stand-in for signature_pad (jsdom has no 2D canvas): a test draws a stroke with `draw()`. */
const { pads, FakeSignaturePad } = vi.hoisted(() => {
  const created: Array<{ draw: () => void }> = [];
  class FakePad {
    isBlank = true;
    listeners = new Map<string, () => void>();
    constructor() {
      created.push(this);
    }
    addEventListener(type: string, listener: () => void) {
      this.listeners.set(type, listener);
    }
    removeEventListener(type: string) {
      this.listeners.delete(type);
    }
    isEmpty() {
      return this.isBlank;
    }
    clear() {
      this.isBlank = true;
    }
    toData() {
      return [];
    }
    fromData() {}
    off() {}
    draw() {
      this.isBlank = false;
      this.listeners.get('endStroke')?.();
    }
  }
  return { pads: created, FakeSignaturePad: FakePad };
});
vi.mock('signature_pad', () => ({ default: FakeSignaturePad }));

const { toBlob } = HTMLCanvasElement.prototype;
const { createObjectURL, revokeObjectURL } = URL;
let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  pads.length = 0;
  HTMLCanvasElement.prototype.toBlob = function fakeToBlob(callback: BlobCallback, type?: string) {
    callback(new Blob(['PNG'], { type: type ?? 'image/png' }));
  };
  URL.createObjectURL = vi.fn(() => 'blob:signature');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  HTMLCanvasElement.prototype.toBlob = toBlob;
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
});

const SIGNATURE = createMedia({ id: 77, kind: 'customer_signature', mimeType: 'image/png' });
const consentFor = (overrides: Partial<TCustomerConsent> = {}): TCustomerConsent => ({
  customerId: 5,
  language: 'en',
  textVersion: CONSENT_TEXT_VERSION,
  text: 'Consent to remote locking of a phone bought on EMI\n\nI, Anita Rao, …',
  recordedByName: 'Ravi Mobiles',
  consentedAt: '2026-01-15T07:00:00Z',
  signature: { mediaId: SIGNATURE.id, imageName: SIGNATURE.imageName },
  ...overrides,
});

/** The devices feature's QR as the page composes it: the page's waiting notice, then the QR. */
const stubEnrolmentQr: TCustomerNavigatePageProps['renderEnrolmentQr'] = (_customer, waiting) => (
  <>
    {waiting}
    <p>enrolment QR</p>
  </>
);

const renderNavigate = () =>
  renderRoutes({
    i18n,
    url: appPaths.customerNavigate.href(5),
    routes: [
      {
        path: appPaths.customerNavigate.path,
        element: <CustomerNavigatePage renderEnrolmentQr={stubEnrolmentQr} />,
      },
      { path: appPaths.customerDetails.path, element: <p>customer details screen</p> },
    ],
  });

describe('customer_navigate of a customer already installed', () => {
  it('opens their customer_details instead of an empty page (spec §2), replacing the entry', async () => {
    stubApi({ [paths.customers.details]: () => createCustomerDetails({ status: 1 }) });
    const { router } = renderNavigate();
    expect(await screen.findByText('customer details screen')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/customer_details/5');
    expect(router.state.historyAction).toBe('REPLACE');
  });
});

describe('customer_navigate: the consent to remote locking comes before the enrolment QR', () => {
  it('asks for the consent, and shows no QR, while none is recorded', async () => {
    stubApi({
      [paths.customers.details]: () => createCustomerDetails({ status: 0 }),
      [paths.customers.consent]: () => null,
      [paths.customers.consentText]: () => ({
        language: 'en',
        textVersion: CONSENT_TEXT_VERSION,
        text: 'The text',
      }),
    });
    renderNavigate();
    expect((await screen.findByTestId('consent-required')).textContent).toContain(
      "Record the customer's consent to remote locking",
    );
    expect(await screen.findByTestId('consent-form')).toBeTruthy();
    expect(screen.queryByText('enrolment QR')).toBeNull();
  });

  it("records it in the customer's language, signed, and then shows the QR", async () => {
    let recorded: TCustomerConsent | null = null;
    const api = stubApi({
      [paths.customers.details]: () => createCustomerDetails({ status: 0 }),
      [paths.customers.consent]: (request) => {
        if (request.method === 'POST') recorded = consentFor({ language: 'hn', text: 'हिन्दी पाठ' });
        return recorded;
      },
      [paths.customers.consentText]: (_request, url) => ({
        language: url.searchParams.get('language'),
        textVersion: CONSENT_TEXT_VERSION,
        text: url.searchParams.get('language') === 'hn' ? 'हिन्दी पाठ' : 'English text',
      }),
      [paths.customers.signature]: () => SIGNATURE,
      [paths.customers.documents]: () => ({}),
    });
    renderNavigate();
    const form = await screen.findByTestId('consent-form');
    expect((await within(form).findByTestId('consent-text')).textContent).toBe('English text');

    fireEvent.mouseDown(within(form).getByRole('combobox', { name: /^Customer's language/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'हिन्दी' }));
    await waitFor(() => expect(within(form).getByTestId('consent-text').textContent).toBe('हिन्दी पाठ'));
    expect(within(form).getByTestId('consent-text').getAttribute('lang')).toBe('hi');

    // Signing alone is not enough: the retailer confirms the customer read (or heard) the text.
    act(() => pads[0]?.draw());
    const save = screen.getByTestId('signature-save') as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.click(within(form).getByRole('checkbox'));
    expect(save.disabled).toBe(false);
    fireEvent.click(save);

    expect(await screen.findByText('enrolment QR')).toBeTruthy();
    expect(screen.queryByTestId('consent-form')).toBeNull();
    expect(screen.getByTestId('consent-recorded').textContent).toContain('Ravi Mobiles');
    const upload = await api.requestsTo(paths.customers.signature)[0]?.formData();
    expect(upload?.get('customer_id')).toBe('5');
    expect(upload?.get('kind')).toBe('customer_signature');
    const post = api.requestsTo(paths.customers.consent).find((request) => request.method === 'POST');
    expect(await post?.json()).toEqual({
      customer_id: 5,
      language: 'hn',
      textVersion: CONSENT_TEXT_VERSION,
      signature_media_id: 77,
    });
  });

  it('shows the QR at once when the consent is already recorded', async () => {
    stubApi({
      [paths.customers.details]: () => createCustomerDetails({ status: 0 }),
      [paths.customers.consent]: () => consentFor(),
    });
    renderNavigate();
    expect(await screen.findByText('enrolment QR')).toBeTruthy();
    expect(screen.queryByTestId('consent-form')).toBeNull();
    expect(screen.getByTestId('consent-recorded').textContent).toContain('15-01-2026 12:30 PM');
  });
});

describe('customer_navigate of a managed-Android customer (issue 15)', () => {
  it('asks Google whether the phone enrolled while it waits; a DPC customer does not', async () => {
    const api = stubApi({
      [paths.customers.details]: () =>
        createCustomerDetails({ status: 0, deviceType: DeviceType.MANAGED_ANDROID_API }),
      [paths.customers.consent]: () => consentFor(),
      [paths.androidManagement.sync]: () => ({ customerId: 5, status: 0, isEnrolled: false }),
    });
    renderNavigate();
    expect(await screen.findByText('enrolment QR')).toBeTruthy();
    await waitFor(async () =>
      expect(await api.bodiesTo(paths.androidManagement.sync)).toEqual([{ customer_id: 5 }]),
    );
    cleanup();

    const dpc = stubApi({
      [paths.customers.details]: () => createCustomerDetails({ status: 0 }),
      [paths.customers.consent]: () => consentFor(),
    });
    renderNavigate();
    expect(await screen.findByText('enrolment QR')).toBeTruthy();
    expect(dpc.requestsTo(paths.androidManagement.sync)).toHaveLength(0);
  });
});

describe('customer_navigate: the ledger\'s "Return key" slot', () => {
  it('offers it for a phone never enrolled; once returned the void QR is hidden until a new one is asked for', async () => {
    stubApi({
      [paths.customers.details]: () =>
        createCustomerDetails({ status: 0, device: createDeviceSummary({ enrolledAt: null }) }),
      [paths.customers.consent]: () => consentFor(),
    });
    renderRoutes({
      i18n,
      url: appPaths.customerNavigate.href(5),
      routes: [
        {
          path: appPaths.customerNavigate.path,
          element: (
            <CustomerNavigatePage
              renderEnrolmentQr={stubEnrolmentQr}
              renderReturnKey={(customer, onReturned) => (
                <button type="button" onClick={onReturned}>
                  return key of {customer.id}
                </button>
              )}
            />
          ),
        },
      ],
    });
    expect(await screen.findByText('enrolment QR')).toBeTruthy();
    fireEvent.click(screen.getByText('return key of 5'));
    expect(await screen.findByTestId('key-returned')).toBeTruthy();
    expect(screen.queryByText('enrolment QR')).toBeNull();
    expect(screen.queryByText('return key of 5')).toBeNull();
    fireEvent.click(screen.getByText('New QR code'));
    expect(await screen.findByText('enrolment QR')).toBeTruthy();
  });
});

describe("emm_qr (the edit menu's EMM_QR_CODE; issue 15)", () => {
  const renderEmmQr = () =>
    renderRoutes({
      i18n,
      url: appPaths.emmQr.href(5),
      routes: [
        {
          path: appPaths.emmQr.path,
          element: (
            <CustomerNavigatePage
              screen="emmQr"
              renderEnrolmentQr={(customer, waiting) => (
                <>
                  {waiting}
                  <p>enrolment QR of {customer.deviceType}</p>
                </>
              )}
            />
          ),
        },
        { path: appPaths.customerDetails.path, element: <p>customer details screen</p> },
      ],
    });

  it('says an enrolled customer is already enrolled, with no QR, and stays on emm_qr', async () => {
    const api = stubApi({ [paths.customers.details]: () => createCustomerDetails({ status: 1 }) });
    const { router } = renderEmmQr();
    expect(await screen.findByRole('heading', { level: 1, name: 'EMM QR code' })).toBeTruthy();
    expect((await screen.findByTestId('already-enrolled')).textContent).toContain(
      "This customer's phone is already enrolled.",
    );
    expect(screen.queryByText(/enrolment QR of/)).toBeNull();
    expect(router.state.location.pathname).toBe('/emm_qr');
    // No QR is asked for: each one would issue a token (and spend a key).
    expect(api.requestsTo(paths.customers.qrCode)).toHaveLength(0);
    fireEvent.click(screen.getByTestId('open-customer-details'));
    expect(await screen.findByText('customer details screen')).toBeTruthy();
  });

  it('shows the QR of an inactive customer with a recorded consent', async () => {
    stubApi({
      [paths.customers.details]: () => createCustomerDetails({ status: 0, deviceType: 3, appType: 2 }),
      [paths.customers.consent]: () => consentFor(),
    });
    renderEmmQr();
    expect(await screen.findByText('enrolment QR of 3')).toBeTruthy();
    expect(screen.getByTestId('enrolment-waiting')).toBeTruthy();
  });
});
