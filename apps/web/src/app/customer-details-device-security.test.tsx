import type { TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import type { TDeviceSummary, TSimChange } from '@kisht/domain/devices/devices.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TCustomerDetailsTab } from '../lib/paths';
import type { TFakeHandler } from '../test/fake-api';
import { failureResponse } from '../test/fake-api';
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

/** Every GET customer_details makes, answered, plus `handlers`. */
const stubDetailsApi = (
  customer: TCustomerDetails,
  handlers: Record<string, TFakeHandler> = {},
  simChanges: TSimChange[] = [],
) => stubCustomerDetailsApi({ customer, handlers, simChanges });

const renderDetails = (tab: TCustomerDetailsTab = 'customer') => renderCustomerDetails(i18n, tab);

const customerWith = (device: Partial<TDeviceSummary>, status: TCustomerDetails['status'] = 1) =>
  createCustomerDetails({ status, device: createDeviceSummary(device) });

describe('offline code (offline_lock_unlock)', () => {
  it('sends a BYPASS_CODE OTP, then turns the challenge, action and OTP into an 8-digit code', async () => {
    const api = stubDetailsApi(customerWith({}), {
      [paths.auth.sendOtpToUser]: () => OTP_SENT,
      [paths.auth.offlineLockUnlock]: () => ({
        code: '90817263',
        action: 'lock',
        challenge: '123456',
        validUntil: '2026-01-15T09:15:00Z',
      }),
    });
    renderDetails();
    fireEvent.click(await screen.findByTestId('offline-code-open'));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.click(dialog.getByTestId('offline-code-send-otp'));
    await waitFor(() => expect(api.requestsTo(paths.auth.sendOtpToUser)).toHaveLength(1));
    expect(await api.bodiesTo(paths.auth.sendOtpToUser)).toEqual([{ purpose: 'BYPASS_CODE' }]);
    expect((await dialog.findByTestId('offline-code-dev-otp')).textContent).toContain('482913');

    // A short challenge is refused here, before any request.
    fireEvent.change(dialog.getByTestId('offline-code-challenge'), { target: { value: '12a3' } });
    fireEvent.change(dialog.getByTestId('offline-code-otp'), { target: { value: '482913' } });
    fireEvent.click(dialog.getByTestId('offline-code-submit'));
    expect(await dialog.findByText('The challenge is the 6 digits the phone shows')).toBeTruthy();
    expect(api.requestsTo(paths.auth.offlineLockUnlock)).toHaveLength(0);

    expect((dialog.getByTestId('offline-code-action') as HTMLSelectElement).value).toBe('unlock');
    fireEvent.change(dialog.getByTestId('offline-code-challenge'), { target: { value: '123456' } });
    // An unlock code asks no reason; a lock code does, starting on the overdue EMI.
    expect(dialog.queryByTestId('lock-reason-picker')).toBeNull();
    fireEvent.change(dialog.getByTestId('offline-code-action'), { target: { value: 'lock' } });
    expect(dialog.getByTestId<HTMLSelectElement>('lock-reason-category').value).toBe('overdue_emi');
    fireEvent.click(dialog.getByTestId('offline-code-submit'));
    expect((await dialog.findByTestId('offline-code-result')).textContent).toBe('90817263');
    expect(await api.bodiesTo(paths.auth.offlineLockUnlock)).toEqual([
      { customer_id: 5, challenge: '123456', action: 'lock', otp: '482913', reason_category: 'overdue_emi' },
    ]);
    expect(dialog.getByTestId('offline-code-valid-until').textContent).toBe(
      'Valid until 15-01-2026 02:45 PM',
    );
  });

  it("refuses a short OTP through the request schema before any request, and shows the server's words under the OTP", async () => {
    const api = stubDetailsApi(customerWith({}), {
      [paths.auth.sendOtpToUser]: () => OTP_SENT,
      [paths.auth.offlineLockUnlock]: () =>
        failureResponse(400, 'Check the highlighted fields', {
          fields: [{ field: 'otp', message: 'This OTP has expired' }],
        }),
    });
    renderDetails();
    fireEvent.click(await screen.findByTestId('offline-code-open'));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.click(dialog.getByTestId('offline-code-send-otp'));
    await dialog.findByTestId('offline-code-dev-otp');

    fireEvent.change(dialog.getByTestId('offline-code-challenge'), { target: { value: '123456' } });
    fireEvent.change(dialog.getByTestId('offline-code-otp'), { target: { value: '48291' } });
    fireEvent.click(dialog.getByTestId('offline-code-submit'));
    expect(await dialog.findByText('Enter the 6-digit OTP')).toBeTruthy();
    expect(dialog.queryByText('The challenge is the 6 digits the phone shows')).toBeNull();
    expect(api.requestsTo(paths.auth.offlineLockUnlock)).toHaveLength(0);

    fireEvent.change(dialog.getByTestId('offline-code-otp'), { target: { value: '482913' } });
    fireEvent.click(dialog.getByTestId('offline-code-submit'));
    expect(await dialog.findByText('This OTP has expired')).toBeTruthy();
    expect(api.requestsTo(paths.auth.offlineLockUnlock)).toHaveLength(1);
  });

  it('is not offered before the phone has enrolled, or when lock is not available', async () => {
    stubDetailsApi(customerWith({ enrolledAt: null }));
    renderDetails();
    expect(await screen.findByTestId('device-not-enrolled')).toBeTruthy();
    expect(screen.queryByTestId('offline-code-open')).toBeNull();
    cleanup();

    stubDetailsApi(customerWith({ availability: { controls: ['camera_lock'], actions: [] } }));
    renderDetails();
    expect(await screen.findByTestId('device-lock-unavailable')).toBeTruthy();
    expect(screen.queryByTestId('offline-code-open')).toBeNull();
  });
});

describe('offline codes the command rules allow (issue 25)', () => {
  const openOfflineCodeForm = async (customer: TCustomerDetails) => {
    stubDetailsApi(customer, { [paths.auth.sendOtpToUser]: () => OTP_SENT });
    renderDetails();
    fireEvent.click(await screen.findByTestId('offline-code-open'));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.click(dialog.getByTestId('offline-code-send-otp'));
    await dialog.findByTestId('offline-code-dev-otp');
    return dialog;
  };

  it('offers a paid-up customer an unlock code only', async () => {
    const dialog = await openOfflineCodeForm(customerWith({ lockStatus: 1 }, 5));
    const action = dialog.getByTestId<HTMLSelectElement>('offline-code-action');
    expect([...action.options].map((option) => option.value)).toEqual(['unlock']);
  });

  it('requires the reason of a lock code when nothing is overdue', async () => {
    const customer = createCustomerDetails({ device: createDeviceSummary(), emis: [] });
    const dialog = await openOfflineCodeForm(customer);
    fireEvent.change(dialog.getByTestId('offline-code-action'), { target: { value: 'lock' } });
    fireEvent.change(dialog.getByTestId('offline-code-challenge'), { target: { value: '123456' } });
    fireEvent.change(dialog.getByTestId('offline-code-otp'), { target: { value: '482913' } });
    fireEvent.click(dialog.getByTestId('offline-code-submit'));
    expect(await dialog.findByText('Choose a reason', { selector: 'p' })).toBeTruthy();
    expect(
      [...dialog.getByTestId<HTMLSelectElement>('lock-reason-category').options]
        .filter((option) => !option.disabled)
        .map((option) => option.value),
    ).not.toContain('overdue_emi');
  });
});

describe('uninstall and release in the actions tab', () => {
  const DEVICE: Partial<TDeviceSummary> = {
    availability: { controls: ['lock'], actions: ['reboot', 'uninstall'] },
  };

  it('uninstalls only with an UNINSTALL OTP, through paths.devices.uninstall', async () => {
    const api = stubDetailsApi(customerWith(DEVICE), {
      [paths.auth.sendOtpToUser]: () => OTP_SENT,
      [paths.devices.uninstall]: () => createDeviceCommand({ name: 'uninstall' }),
    });
    renderDetails('actions');
    fireEvent.click(await screen.findByTestId('action-uninstall'));
    const dialog = within(await screen.findByRole('dialog', { name: 'Uninstall from this phone?' }));
    fireEvent.click(dialog.getByTestId('uninstall-send-otp'));
    expect((await dialog.findByTestId('uninstall-dev-otp')).textContent).toContain('482913');
    expect(await api.bodiesTo(paths.auth.sendOtpToUser)).toEqual([{ purpose: 'UNINSTALL' }]);

    fireEvent.click(dialog.getByTestId('uninstall-confirm'));
    expect(await dialog.findByText('Enter the 6-digit OTP')).toBeTruthy();
    expect(api.requestsTo(paths.devices.uninstall)).toHaveLength(0);

    fireEvent.change(dialog.getByTestId('uninstall-otp'), { target: { value: '482913' } });
    fireEvent.click(dialog.getByTestId('uninstall-confirm'));
    await waitFor(() => expect(api.requestsTo(paths.devices.uninstall)).toHaveLength(1));
    expect(await api.bodiesTo(paths.devices.uninstall)).toEqual([{ customer_id: 5, otp: '482913' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("refuses a 5-digit OTP before any request, and puts the server's words under the OTP", async () => {
    const api = stubDetailsApi(customerWith(DEVICE), {
      [paths.auth.sendOtpToUser]: () => OTP_SENT,
      [paths.devices.uninstall]: () =>
        failureResponse(400, 'Check the highlighted fields', {
          fields: [{ field: 'otp', message: 'This OTP has expired' }],
        }),
    });
    renderDetails('actions');
    fireEvent.click(await screen.findByTestId('action-uninstall'));
    const dialog = within(await screen.findByRole('dialog', { name: 'Uninstall from this phone?' }));
    fireEvent.click(dialog.getByTestId('uninstall-send-otp'));
    await dialog.findByTestId('uninstall-dev-otp');

    fireEvent.change(dialog.getByTestId('uninstall-otp'), { target: { value: '48291' } });
    fireEvent.click(dialog.getByTestId('uninstall-confirm'));
    expect(await dialog.findByText('Enter the 6-digit OTP')).toBeTruthy();
    expect(api.requestsTo(paths.devices.uninstall)).toHaveLength(0);

    fireEvent.change(dialog.getByTestId('uninstall-otp'), { target: { value: '482913' } });
    fireEvent.click(dialog.getByTestId('uninstall-confirm'));
    expect(await dialog.findByText('This OTP has expired')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('offers "Release phone" once the EMIs are completed, and asks before unclaiming', async () => {
    const api = stubDetailsApi(customerWith(DEVICE, 5), {
      [paths.devices.unclaim]: () => createDeviceCommand({ name: 'uninstall' }),
    });
    renderDetails('actions');
    fireEvent.click(await screen.findByTestId('action-release'));
    const dialog = within(await screen.findByRole('dialog'));
    expect(api.requestsTo(paths.devices.unclaim)).toHaveLength(0);
    fireEvent.click(dialog.getByTestId('release-confirm'));
    await waitFor(() => expect(api.requestsTo(paths.devices.unclaim)).toHaveLength(1));
    expect(await api.bodiesTo(paths.devices.unclaim)).toEqual([{ customer_id: 5 }]);
  });

  it('does not offer "Release phone" while EMIs are running', async () => {
    stubDetailsApi(customerWith(DEVICE, 1));
    renderDetails('actions');
    expect(await screen.findByTestId('action-uninstall')).toBeTruthy();
    expect(screen.queryByTestId('action-release')).toBeNull();
  });
});

describe('SIM changes on the device tab', () => {
  it("lists the customer's SIM changes, slot by slot", async () => {
    const api = stubDetailsApi(customerWith({}), {}, [
      {
        id: 71,
        customerId: 5,
        customerName: 'Anita Rao',
        before: [{ slot: 1, iccid: '8991000900123456789', operator: 'Jio' }],
        after: [{ slot: 1, iccid: '8991860044001234567', operator: 'Airtel' }],
        detectedAt: '2026-01-15T08:00:00Z',
      },
    ]);
    renderDetails('device');
    const card = within(await screen.findByTestId('customer-sim-changes'));
    expect((await card.findByTestId('sim-change-71-slot-1')).textContent).toBe(
      'SIM 1: Jio ····6789 → Airtel ····4567',
    );
    expect(card.getByTestId('sim-change-detected-at').textContent).toBe('Detected 15-01-2026 01:30 PM');
    expect(card.queryByTestId('sim-change-customer')).toBeNull();
    expect(
      new URL(api.requestsTo(paths.customers.simChangeDetails)[0]?.url ?? '').searchParams.get('customer_id'),
    ).toBe('5');
  });
});
