import type { TEnrolmentQr } from '@kisht/domain/customers/customers.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { EnrolmentQrSection } from './enrolment-qr-section';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
const writeText = vi.fn(async (_text: string) => {});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  writeText.mockClear();
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** Valid for a day from now, so the QR is not shown as expired. */
const EXPIRES_AT = new Date(Date.now() + 86_400_000).toISOString();

const PROVISIONING = JSON.stringify({
  'android.app.extra.PROVISIONING_DEVICE_ADMIN_COMPONENT_NAME': 'in.kisht.dpc/.AdminReceiver',
  'android.app.extra.PROVISIONING_DEVICE_ADMIN_PACKAGE_DOWNLOAD_LOCATION':
    'http://127.0.0.1:18091/downloads/kisht-dpc.apk',
  'android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE': { token: 'tok-1' },
});

const QRS: Record<TEnrolmentQr['kind'], TEnrolmentQr> = {
  android_provisioning: {
    kind: 'android_provisioning',
    payload: PROVISIONING,
    expiresAt: EXPIRES_AT,
    apkUrl: 'http://127.0.0.1:18091/downloads/kisht-dpc.apk',
  },
  link: {
    kind: 'link',
    payload: 'http://127.0.0.1:18091/emm/link?token=tok-2',
    expiresAt: EXPIRES_AT,
    apkUrl: 'http://127.0.0.1:18091/emm/linkflapk',
    enrolmentCode: 'K7Q2-M9XA',
  },
  managed_android: {
    kind: 'managed_android',
    payload: JSON.stringify({
      'android.app.extra.PROVISIONING_DEVICE_ADMIN_COMPONENT_NAME':
        'com.google.android.apps.work.clouddpc/.receivers.CloudDeviceAdminReceiver',
      'android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE': {
        'com.google.android.apps.work.clouddpc.EXTRA_ENROLLMENT_TOKEN': 'ABCD',
      },
    }),
    expiresAt: EXPIRES_AT,
  },
  apple_profile: {
    kind: 'apple_profile',
    payload: 'http://127.0.0.1:18091/micromdm/enrol/tok-3.mobileconfig',
    expiresAt: EXPIRES_AT,
  },
};

const renderSection = () =>
  renderRoutes({
    i18n,
    url: '/qr',
    routes: [
      {
        path: '/qr',
        element: (
          <EnrolmentQrSection
            customerId={5}
            customerName="Anita Rao"
            waiting={<p data-testid="enrolment-waiting">Waiting</p>}
          />
        ),
      },
    ],
  });

const instructions = async () => within(await screen.findByTestId('enrolment-instructions'));
const stepsText = async () =>
  (await instructions())
    .getAllByRole('listitem')
    .map((item) => item.textContent)
    .join(' | ');

describe('enrolment QR per device family (issue 15)', () => {
  it('android_provisioning: the provisioning JSON, factory reset, six taps, Wi-Fi optional, the APK location', async () => {
    const api = stubApi({ [paths.customers.qrCode]: () => QRS.android_provisioning });
    renderSection();
    expect(await screen.findByTestId('enrolment-qr')).toBeTruthy();
    expect(screen.getByTestId('enrolment-waiting')).toBeTruthy();
    expect(screen.getByTestId<HTMLTextAreaElement>('enrolment-payload').value).toBe(PROVISIONING);
    expect(screen.getByLabelText('Enrolment payload')).toBeTruthy();
    const steps = await stepsText();
    expect(steps).toContain("Factory-reset the customer's phone");
    expect(steps).toContain('tap the same spot six times');
    expect(steps).toContain('Wi-Fi is optional');
    expect((await instructions()).getByRole('heading').textContent).toBe('How to enrol (Android phone)');
    expect(screen.getByTestId('enrolment-apk-link').getAttribute('href')).toBe(
      'http://127.0.0.1:18091/downloads/kisht-dpc.apk',
    );
    // A JSON payload is not a link to open, and carries no code.
    expect(screen.queryByTestId('open-enrolment-link')).toBeNull();
    expect(screen.queryByTestId('enrolment-code')).toBeNull();
    expect(screen.queryByTestId('payment-lock-rule')).toBeNull();
    expect(
      new URL(api.requestsTo(paths.customers.qrCode)[0]?.url ?? '').searchParams.get('customer_id'),
    ).toBe('5');

    // Copy still copies the exact payload.
    fireEvent.click(screen.getByTestId('copy-payload'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(PROVISIONING));
    expect(await screen.findByText('Payload copied')).toBeTruthy();
  });

  it('link: the deep link to open or scan, the APK download and the enrolment code in large characters', async () => {
    stubApi({ [paths.customers.qrCode]: () => QRS.link });
    renderSection();
    expect(await screen.findByTestId('enrolment-qr')).toBeTruthy();
    expect(screen.getByTestId('open-enrolment-link').getAttribute('href')).toBe(QRS.link.payload);
    expect(screen.getByTestId('enrolment-apk-link').getAttribute('href')).toBe(
      'http://127.0.0.1:18091/emm/linkflapk',
    );
    const code = screen.getByTestId('enrolment-code');
    expect(code.textContent).toBe('K7Q2-M9XA');
    expect(code.getAttribute('aria-label')).toBe('K 7 Q 2 M 9 X A');
    expect(screen.getByLabelText('Enrolment link')).toBeTruthy();
    const steps = await stepsText();
    expect(steps).toContain("On the customer's phone, open the link");
    expect(steps).toContain('APK link');
    expect(steps).toContain('type the enrolment code shown above');
    expect(steps).not.toContain('Factory-reset');

    fireEvent.click(screen.getByTestId('copy-payload'));
    expect(screen.getByTestId('copy-payload').textContent).toBe('Copy link');
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(QRS.link.payload));
  });

  it("managed_android: Google's QR, factory reset and six taps, and Google's rule against locking for a missed payment", async () => {
    stubApi({ [paths.customers.qrCode]: () => QRS.managed_android });
    renderSection();
    expect(await screen.findByTestId('enrolment-qr')).toBeTruthy();
    const steps = await stepsText();
    expect(steps).toContain("Factory-reset the customer's phone");
    expect(steps).toContain('six times');
    expect(steps).toContain('QR code from Google');
    const rule = screen.getByTestId('payment-lock-rule');
    expect(rule.textContent).toContain("Google's rule: no lock for a missed payment");
    expect(rule.textContent).toContain('Kisht never locks it for a payment');
    expect(screen.queryByTestId('open-enrolment-link')).toBeNull();
    expect(screen.queryByTestId('enrolment-apk-link')).toBeNull();
  });

  it('apple_profile: the profile URL to open in Safari, installed from Settings, and the supervision note', async () => {
    stubApi({ [paths.customers.qrCode]: () => QRS.apple_profile });
    renderSection();
    expect(await screen.findByTestId('enrolment-qr')).toBeTruthy();
    expect(screen.getByTestId<HTMLTextAreaElement>('enrolment-payload').value).toBe(
      QRS.apple_profile.payload,
    );
    expect(screen.getByTestId('open-enrolment-link').getAttribute('href')).toBe(QRS.apple_profile.payload);
    const steps = await stepsText();
    expect(steps).toContain('Camera app');
    expect(steps).toContain('Safari');
    expect(steps).toContain('Settings → Profile Downloaded');
    expect(screen.getByTestId('apple-supervision-note').textContent).toContain('supervised iPhone');
    expect(screen.queryByTestId('payment-lock-rule')).toBeNull();
    // No reference-agent hint: the agent does not enrol an iPhone.
    expect(screen.queryByText(/reference device agent/)).toBeNull();
  });

  it("says so in the server's words when the family's MDM is not set up (503 MDM_UNAVAILABLE)", async () => {
    stubApi({
      [paths.customers.qrCode]: () =>
        failureResponse(503, 'Apple device management (NanoMDM) is not set up for this server', {
          code: 'MDM_UNAVAILABLE',
        }),
    });
    renderSection();
    const alert = await screen.findByTestId('mdm-unavailable');
    expect(alert.textContent).toContain('Device management is not set up');
    expect(alert.textContent).toContain('Apple device management (NanoMDM) is not set up for this server');
    expect(screen.queryByTestId('enrolment-qr')).toBeNull();
    expect(screen.queryByTestId('enrolment-instructions')).toBeNull();
    // No QR, nothing to wait for (issue 28).
    expect(screen.queryByTestId('enrolment-waiting')).toBeNull();
  });
});
