import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { pinProblemKey } from '../features/devices/components/change-pin-dialog';
import type { TFakeHandler } from '../test/fake-api';
import { failureResponse, type stubApi } from '../test/fake-api';
import { createCustomerDetails, createDeviceCommand, createDeviceSummary } from '../test/fixtures';
import { createTestI18n } from '../test/test-i18n';
import { renderCustomerDetails, stubCustomerDetailsApi } from './customer-details-test-support';

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

const OTP_SENT = { expiresInSeconds: 300, resendAfterSeconds: 30, devOtp: '482913' };

const stubDetailsApi = (handlers: Record<string, TFakeHandler> = {}) =>
  stubCustomerDetailsApi({
    customer: () =>
      createCustomerDetails({
        device: createDeviceSummary({ availability: { controls: ['lock'], actions: ['reboot'] } }),
      }),
    handlers: { [paths.auth.sendOtpToUser]: () => OTP_SENT, ...handlers },
  });

const renderActions = () => renderCustomerDetails(i18n, 'actions');

/** Opens "Change phone PIN" and sends the OTP; returns the dialog on the PIN step. */
const openPinStep = async (api: ReturnType<typeof stubApi>) => {
  renderActions();
  fireEvent.click(await screen.findByTestId('action-change-pin'));
  const dialog = within(await screen.findByRole('dialog', { name: 'Change phone PIN' }));
  expect(api.requestsTo(paths.auth.sendOtpToUser)).toHaveLength(0);
  fireEvent.click(dialog.getByTestId('change-pin-send-otp'));
  expect((await dialog.findByTestId('change-pin-dev-otp')).textContent).toContain('482913');
  expect(await api.bodiesTo(paths.auth.sendOtpToUser)).toEqual([{ purpose: 'BYPASS_CODE' }]);
  return dialog;
};

const type = (dialog: ReturnType<typeof within>, testId: string, value: string) =>
  fireEvent.change(dialog.getByTestId(testId), { target: { value } });

describe('pinProblemKey (the domain rule, in translatable words)', () => {
  it.each([
    ['123', 'changePin.errors.length'],
    ['123456789', 'changePin.errors.length'],
    ['12a4', 'changePin.errors.length'],
    ['1111', 'changePin.errors.easy'],
    ['1234', 'changePin.errors.easy'],
    ['98765', 'changePin.errors.easy'],
    ['4826', null],
    ['13572468', null],
  ])('%s → %s', (pin, key) => {
    expect(pinProblemKey(pin)).toBe(key);
  });
});

describe('Change phone PIN (change_device_pinV1)', () => {
  it('asks for a BYPASS_CODE OTP, then a masked numeric PIN twice, and sends only what the server takes', async () => {
    const api = stubDetailsApi({
      [paths.devices.changeDevicePin]: () => createDeviceCommand({ name: 'change_pin' }),
    });
    const dialog = await openPinStep(api);
    const pin = dialog.getByTestId<HTMLInputElement>('change-pin-pin');
    expect(pin.type).toBe('password');
    expect(pin.inputMode).toBe('numeric');
    expect(dialog.getByTestId<HTMLInputElement>('change-pin-confirmPin').type).toBe('password');
    expect(dialog.getByTestId<HTMLInputElement>('change-pin-otp').inputMode).toBe('numeric');

    // Only digits are kept, up to 8.
    type(dialog, 'change-pin-pin', '48a26');
    expect(pin.value).toBe('4826');
    type(dialog, 'change-pin-confirmPin', '4826');
    type(dialog, 'change-pin-otp', '482913');
    // A new PIN leaves only a lock screen: it goes with its reason, the overdue EMI here.
    expect(dialog.getByTestId<HTMLSelectElement>('lock-reason-category').value).toBe('overdue_emi');
    fireEvent.click(dialog.getByTestId('change-pin-submit'));
    await waitFor(() => expect(api.requestsTo(paths.devices.changeDevicePin)).toHaveLength(1));
    expect(await api.bodiesTo(paths.devices.changeDevicePin)).toEqual([
      { customer_id: 5, pin: '4826', otp: '482913', reason_category: 'overdue_emi' },
    ]);
    expect(await screen.findByText('Change PIN: sent to the phone')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('refuses a short, an easy or a mismatched PIN and a short OTP with the domain’s rules, sending nothing', async () => {
    const api = stubDetailsApi({
      [paths.devices.changeDevicePin]: () => createDeviceCommand({ name: 'change_pin' }),
    });
    const dialog = await openPinStep(api);
    type(dialog, 'change-pin-pin', '123');
    type(dialog, 'change-pin-confirmPin', '124');
    type(dialog, 'change-pin-otp', '48');
    fireEvent.click(dialog.getByTestId('change-pin-submit'));
    expect(await dialog.findByText('The PIN is 4 to 8 digits')).toBeTruthy();
    expect(dialog.getByText('The two PINs do not match')).toBeTruthy();
    expect(dialog.getByText('Enter the 6-digit OTP')).toBeTruthy();

    type(dialog, 'change-pin-pin', '1234');
    type(dialog, 'change-pin-confirmPin', '1234');
    type(dialog, 'change-pin-otp', '482913');
    fireEvent.click(dialog.getByTestId('change-pin-submit'));
    expect(
      await dialog.findByText('Choose a PIN that is not a repeated digit or a straight run'),
    ).toBeTruthy();
    expect(dialog.queryByText('The two PINs do not match')).toBeNull();
    expect(api.requestsTo(paths.devices.changeDevicePin)).toHaveLength(0);
  });

  it('puts a wrong OTP the server refuses under the OTP field', async () => {
    const api = stubDetailsApi({
      [paths.devices.changeDevicePin]: () =>
        failureResponse(400, 'The OTP is not correct', {
          code: 'OTP_INVALID',
          fields: [{ field: 'otp', message: 'The OTP is not correct' }],
        }),
    });
    const dialog = await openPinStep(api);
    type(dialog, 'change-pin-pin', '4826');
    type(dialog, 'change-pin-confirmPin', '4826');
    type(dialog, 'change-pin-otp', '111111');
    fireEvent.click(dialog.getByTestId('change-pin-submit'));
    await waitFor(() => expect(api.requestsTo(paths.devices.changeDevicePin)).toHaveLength(1));
    const otpField = dialog.getByTestId('change-pin-otp').closest('.MuiFormControl-root');
    expect(await within(otpField as HTMLElement).findByText('The OTP is not correct')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Change phone PIN' })).toBeTruthy();
  });

  it('asks why when nothing is overdue, and sends the chosen reason', async () => {
    const api = stubDetailsApi({
      [paths.customers.details]: () =>
        createCustomerDetails({
          emis: [],
          device: createDeviceSummary({ availability: { controls: ['lock'], actions: ['reboot'] } }),
        }),
      [paths.devices.changeDevicePin]: () => createDeviceCommand({ name: 'change_pin' }),
    });
    const dialog = await openPinStep(api);
    type(dialog, 'change-pin-pin', '4826');
    type(dialog, 'change-pin-confirmPin', '4826');
    type(dialog, 'change-pin-otp', '482913');
    fireEvent.click(dialog.getByTestId('change-pin-submit'));
    expect(await dialog.findByText('Choose a reason', { selector: 'p' })).toBeTruthy();
    expect(api.requestsTo(paths.devices.changeDevicePin)).toHaveLength(0);
    type(dialog, 'lock-reason-category', 'customer_request');
    type(dialog, 'lock-reason', 'Forgot the old PIN');
    fireEvent.click(dialog.getByTestId('change-pin-submit'));
    await waitFor(() => expect(api.requestsTo(paths.devices.changeDevicePin)).toHaveLength(1));
    expect(await api.bodiesTo(paths.devices.changeDevicePin)).toEqual([
      {
        customer_id: 5,
        pin: '4826',
        otp: '482913',
        reason_category: 'customer_request',
        reason: 'Forgot the old PIN',
      },
    ]);
  });

  it('is not offered once the EMIs are completed (a new PIN restricts the phone)', async () => {
    stubDetailsApi({
      [paths.customers.details]: () =>
        createCustomerDetails({
          status: 5,
          device: createDeviceSummary({ availability: { controls: ['lock'], actions: ['reboot'] } }),
        }),
    });
    renderActions();
    expect(await screen.findByTestId('action-reboot')).toBeTruthy();
    expect(screen.getByTestId('action-release')).toBeTruthy();
    expect(screen.queryByTestId('action-change-pin')).toBeNull();
  });

  it('is not offered without feature access', async () => {
    stubDetailsApi({
      [paths.users.userAccess]: () => ({
        feature_access: '0',
        lock_unlock: '1',
        unistall: '1',
        active_deactive: '1',
        bulk_retailer: '0',
      }),
    });
    renderActions();
    expect(await screen.findByTestId('action-reboot')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('action-change-pin')).toBeNull());
  });

  it('is not offered for a link-based or Apple phone, whose PIN cannot be set remotely', async () => {
    for (const deviceType of [2, 3]) {
      stubDetailsApi({
        [paths.customers.details]: () =>
          createCustomerDetails({
            deviceType,
            device: createDeviceSummary({ availability: { controls: ['lock'], actions: ['reboot'] } }),
          }),
      });
      renderActions();
      expect(await screen.findByTestId('action-reboot')).toBeTruthy();
      await waitFor(() => expect(screen.queryByTestId('action-change-pin')).toBeNull());
      cleanup();
      vi.unstubAllGlobals();
    }
  });
});
