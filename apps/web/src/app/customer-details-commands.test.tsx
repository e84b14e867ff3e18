import type { TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import type { TCommandHistoryItem, TDeviceSummary } from '@kisht/domain/devices/devices.schema';
import { deviceControlPath, paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TCustomerDetailsTab } from '../lib/paths';
import type { TFakeHandler } from '../test/fake-api';
import {
  createCommandHistoryItem,
  createCustomerDetails,
  createDeviceCommand,
  createDeviceSummary,
} from '../test/fixtures';
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

const customerWith = (device: Partial<TDeviceSummary>): TCustomerDetails =>
  createCustomerDetails({ device: createDeviceSummary(device) });

/** Every GET customer_details makes, answered; `history` answers the command history. */
const stubCommandsApi = (
  customer: TCustomerDetails | (() => TCustomerDetails),
  history: TCommandHistoryItem[] | (() => TCommandHistoryItem[]) = [],
  handlers: Record<string, TFakeHandler> = {},
) => stubCustomerDetailsApi({ customer, history, handlers });

const renderDetails = (tab: TCustomerDetailsTab = 'customer') => renderCustomerDetails(i18n, tab);

describe('customer_details command tabs (spec §2: customer, device, actions)', () => {
  it('opens on the customer tab, and keeps the chosen tab in the URL', async () => {
    const api = stubCommandsApi(createCustomerDetails());
    const { router } = renderDetails();
    const customerTab = await screen.findByTestId('command-tab-customer');
    expect(customerTab.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByTestId('customer-imei1').textContent).toBe('356938035643809');
    // The lock card stays above the tabs, so lock and unlock are always one tap away.
    expect(screen.getByTestId('lock-button')).toBeTruthy();
    expect(api.requestsTo(paths.devices.history)).toHaveLength(0);

    fireEvent.click(screen.getByRole('tab', { name: 'Device' }));
    expect(await screen.findByTestId('device-controls')).toBeTruthy();
    expect(router.state.location.search).toBe('?tab=device');
    expect(screen.queryByTestId('customer-imei1')).toBeNull();
    expect(screen.getByTestId('lock-button')).toBeTruthy();
  });

  it('hides lock and unlock when the availability does not offer them', async () => {
    stubCommandsApi(customerWith({ availability: { controls: ['camera_lock'], actions: [] } }));
    renderDetails();
    expect(await screen.findByTestId('device-lock-unavailable')).toBeTruthy();
    expect(screen.queryByTestId('lock-button')).toBeNull();
    expect(screen.queryByTestId('unlock-button')).toBeNull();
  });

  it.each(['device', 'actions'] as const)(
    'offers nothing to send for a phone released from Kisht (status 3), on the %s tab',
    async (tab) => {
      stubCommandsApi(
        createCustomerDetails({
          status: 3,
          device: createDeviceSummary({
            availability: { controls: ['lock', 'camera_lock'], actions: ['fetch_location', 'reboot'] },
          }),
        }),
      );
      renderDetails(tab);
      const released = 'This phone was released from Kisht, so no command can be sent to it.';
      expect((await screen.findByTestId('device-lock-refused')).textContent).toBe(released);
      expect(
        (await screen.findByTestId(tab === 'device' ? 'device-controls-refused' : 'device-actions-refused'))
          .textContent,
      ).toBe(released);
      for (const testId of [
        'lock-button',
        'unlock-button',
        'offline-code-open',
        'control-camera_lock',
        'action-reboot',
        'action-change-pin',
        'action-send-message',
        'schedule-open-controls',
        'schedule-open-actions',
      ]) {
        expect(screen.queryByTestId(testId), testId).toBeNull();
      }
    },
  );
});

describe('the device tab', () => {
  const DEVICE: Partial<TDeviceSummary> = {
    availability: { controls: ['lock', 'app_lock', 'wallpaper', 'camera_lock', 'tracking'], actions: [] },
    controls: { camera_lock: true, tracking: false },
    pendingControls: { tracking: createDeviceCommand({ name: 'tracking_on', state: 'sent' }) },
  };

  it('lists only the toggles the availability offers, each with its reported or pending state', async () => {
    stubCommandsApi(customerWith(DEVICE));
    renderDetails('device');
    const list = await screen.findByTestId('device-controls');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((row) => row.getAttribute('data-testid')),
    ).toEqual([
      'control-row-app_lock',
      'control-row-wallpaper',
      'control-row-camera_lock',
      'control-row-tracking',
    ]);
    expect(screen.queryByTestId('control-usb_debugging')).toBeNull();
    expect(screen.getByTestId('control-state-camera_lock').textContent).toBe('On');
    expect(screen.getByTestId<HTMLInputElement>('control-camera_lock').checked).toBe(true);
    expect(screen.getByTestId('control-state-wallpaper').textContent).toBe('Off');
    expect(screen.getByTestId('control-state-tracking').textContent).toBe('Turning on…');
    expect(screen.getByTestId<HTMLInputElement>('control-tracking').disabled).toBe(true);
    expect(screen.getByRole('switch', { name: 'Camera lock' })).toBeTruthy();
  });

  it('turns a toggle off with its feature’s command path', async () => {
    const api = stubCommandsApi(customerWith(DEVICE), [], {
      [deviceControlPath('camera_lock')]: () => createDeviceCommand({ name: 'camera_unlock' }),
    });
    renderDetails('device');
    fireEvent.click(await screen.findByTestId('control-camera_lock'));
    await waitFor(() => expect(api.requestsTo(deviceControlPath('camera_lock'))).toHaveLength(1));
    expect(await api.bodiesTo('/api/device/camera_lock')).toEqual([{ customer_id: 5, enable: false }]);
    expect(await screen.findByText('Camera lock: sent to the phone')).toBeTruthy();
  });

  it('asks for the wallpaper text first, checked by the catalogue schema', async () => {
    const api = stubCommandsApi(customerWith(DEVICE), [], {
      [deviceControlPath('wallpaper')]: () => createDeviceCommand({ name: 'set_wallpaper' }),
    });
    renderDetails('device');
    fireEvent.click(await screen.findByTestId('control-wallpaper'));
    const dialog = within(await screen.findByRole('dialog', { name: 'Set wallpaper' }));
    fireEvent.click(dialog.getByTestId('control-args-submit'));
    expect(await dialog.findByText('Give the wallpaper text or an https image address')).toBeTruthy();
    fireEvent.change(dialog.getByTestId('control-arg-imageUrl'), {
      target: { value: 'http://example.com/a.png' },
    });
    fireEvent.click(dialog.getByTestId('control-args-submit'));
    expect(await dialog.findByText('Give an https image address')).toBeTruthy();
    expect(api.requestsTo(deviceControlPath('wallpaper'))).toHaveLength(0);

    fireEvent.change(dialog.getByTestId('control-arg-imageUrl'), { target: { value: '' } });
    fireEvent.change(dialog.getByTestId('control-arg-text'), {
      target: { value: '  Pay your EMI by the 5th  ' },
    });
    fireEvent.click(dialog.getByTestId('control-args-submit'));
    await waitFor(() => expect(api.requestsTo(deviceControlPath('wallpaper'))).toHaveLength(1));
    expect(await api.bodiesTo(deviceControlPath('wallpaper'))).toEqual([
      // The customer's first EMI is overdue: that is the reason unless another is chosen.
      {
        customer_id: 5,
        enable: true,
        args: { text: 'Pay your EMI by the 5th' },
        reason_category: 'overdue_emi',
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('sends the apps to lock as package names, one a line', async () => {
    const api = stubCommandsApi(customerWith(DEVICE), [], {
      [deviceControlPath('app_lock')]: () => createDeviceCommand({ name: 'app_lock' }),
    });
    renderDetails('device');
    fireEvent.click(await screen.findByTestId('control-app_lock'));
    const dialog = within(await screen.findByRole('dialog', { name: 'Lock apps' }));
    const packages = dialog.getByTestId('control-arg-packages');
    fireEvent.change(packages, { target: { value: 'whatsapp' } });
    fireEvent.click(dialog.getByTestId('control-args-submit'));
    expect(await dialog.findByText('Give Android package names, one a line (up to 50)')).toBeTruthy();
    fireEvent.change(packages, { target: { value: 'com.whatsapp\n\n  com.instagram.android  \n' } });
    fireEvent.click(dialog.getByTestId('control-args-submit'));
    await waitFor(() => expect(api.requestsTo(deviceControlPath('app_lock'))).toHaveLength(1));
    expect(await api.bodiesTo(deviceControlPath('app_lock'))).toEqual([
      {
        customer_id: 5,
        enable: true,
        args: { packages: ['com.whatsapp', 'com.instagram.android'] },
        reason_category: 'overdue_emi',
      },
    ]);
  });
});

describe('the actions tab', () => {
  const DEVICE: Partial<TDeviceSummary> = {
    availability: { controls: ['lock'], actions: ['fetch_location', 'sim_info', 'reboot', 'uninstall'] },
    lastLocation: { latitude: '18.5204', longitude: '73.8567', accuracyM: 12.4, at: '2026-01-15T08:00:00Z' },
    sims: [
      { slot: 1, iccid: '8991000900123456789', operator: 'Jio' },
      { slot: 2, iccid: null, operator: null },
    ],
  };

  it('offers only the listed actions, and shows the last location with a map link and the SIMs', async () => {
    stubCommandsApi(customerWith(DEVICE));
    renderDetails('actions');
    const actions = await screen.findByTestId('device-actions');
    expect(
      within(actions)
        .getAllByRole('button')
        .map((button) => button.getAttribute('data-testid'))
        .filter((id) => id?.startsWith('action-')),
    ).toEqual([
      'action-fetch_location',
      'action-sim_info',
      'action-reboot',
      'action-uninstall',
      // Not control features: offered to every enrolled phone when the user has feature access.
      'action-send-message',
      'action-change-pin',
    ]);
    expect(screen.queryByTestId('action-emi_alert')).toBeNull();
    expect(screen.getByTestId('device-location-coordinates').textContent).toBe('18.5204, 73.8567');
    expect(screen.getByTestId('device-location').textContent).toContain(
      'Taken 15-01-2026 01:30 PM · Accurate to 12 m',
    );
    expect(screen.getByTestId('device-location-map').getAttribute('href')).toBe(
      'https://www.openstreetmap.org/?mlat=18.5204&mlon=73.8567',
    );
    expect(screen.getByTestId('device-sim-1').textContent).toContain('SIM 1 · Jio');
    expect(screen.getByTestId('device-sim-1').textContent).toContain('ICCID 8991000900123456789');
    expect(screen.getByTestId('device-sim-2').textContent).toBe('SIM 2 · No SIM card');
  });

  it('fetches the location at once, and asks before restarting the phone', async () => {
    const api = stubCommandsApi(customerWith(DEVICE), [], {
      [deviceControlPath('fetch_location')]: () => createDeviceCommand({ name: 'location' }),
      [deviceControlPath('reboot')]: () => createDeviceCommand({ name: 'reboot' }),
    });
    renderDetails('actions');
    fireEvent.click(await screen.findByTestId('action-fetch_location'));
    await waitFor(() => expect(api.requestsTo(deviceControlPath('fetch_location'))).toHaveLength(1));
    expect(await api.bodiesTo(deviceControlPath('fetch_location'))).toEqual([{ customer_id: 5 }]);

    fireEvent.click(screen.getByTestId('action-reboot'));
    const dialog = await screen.findByRole('dialog', { name: 'Restart this phone?' });
    expect(api.requestsTo(deviceControlPath('reboot'))).toHaveLength(0);
    fireEvent.click(within(dialog).getByTestId('action-confirm'));
    await waitFor(() => expect(api.requestsTo(deviceControlPath('reboot'))).toHaveLength(1));
    expect(await api.bodiesTo(deviceControlPath('reboot'))).toEqual([{ customer_id: 5 }]);
  });

  it('says when a phone did not share its location, without a map link', async () => {
    stubCommandsApi(
      customerWith({
        ...DEVICE,
        lastLocation: { latitude: 'Bypassed', longitude: 'Bypassed', at: '2026-01-15T08:00:00Z' },
      }),
    );
    renderDetails('actions');
    expect((await screen.findByTestId('device-location')).textContent).toContain(
      'The phone did not share its location.',
    );
    expect(screen.queryByTestId('device-location-map')).toBeNull();
  });
});

describe('command history', () => {
  const PENDING_LOCK = createCommandHistoryItem({
    id: '0193a5a4-7e0e-7c55-8f00-000000000301',
    name: 'lock',
    feature: 'lock',
    state: 'queued',
    createdAt: '2026-01-15T09:15:00Z',
    reasonCategory: 'overdue_emi',
    reason: null,
  });
  const CAMERA_LOCKED = createCommandHistoryItem({
    id: '0193a5a4-7e0e-7c55-8f00-000000000304',
    reasonCategory: 'customer_request',
    reason: 'asked to lock while travelling',
  });
  const FAILED = createCommandHistoryItem({
    id: '0193a5a4-7e0e-7c55-8f00-000000000302',
    name: 'camera_unlock',
    state: 'failed',
    error: 'Camera policy refused',
    createdByName: null,
    deliveryAttempts: 3,
    runAt: '2026-01-15T10:00:00Z',
  });
  const LOCATED = createCommandHistoryItem({
    id: '0193a5a4-7e0e-7c55-8f00-000000000303',
    name: 'location',
    feature: 'fetch_location',
    state: 'done',
    result: { latitude: '18.52', longitude: '73.85', at: '2026-01-15T08:00:00Z' },
  });

  it('shows what was sent, by whom, when (+05:30), its state and its error or result', async () => {
    stubCommandsApi(customerWith({}), [PENDING_LOCK, FAILED, LOCATED, CAMERA_LOCKED]);
    renderDetails('device');
    const history = await screen.findByTestId('command-history');
    const pending = within(await within(history).findByTestId(`command-${PENDING_LOCK.id}`));
    expect(pending.getByText('Lock')).toBeTruthy();
    expect(pending.getByText('Ravi Kumar · 15-01-2026 02:45 PM')).toBeTruthy();
    expect(pending.getByTestId(`command-state-${PENDING_LOCK.id}`).textContent).toBe('queued');

    const failed = within(within(history).getByTestId(`command-${FAILED.id}`));
    expect(failed.getByText('Camera unlock')).toBeTruthy();
    expect(failed.getByText('System · 15-01-2026 01:30 PM · 3 delivery attempts')).toBeTruthy();
    expect(failed.getByTestId(`command-state-${FAILED.id}`).textContent).toBe('failed');
    expect(failed.getByTestId(`command-error-${FAILED.id}`).textContent).toBe('Error: Camera policy refused');
    // It ended: the time it was scheduled for is history.
    expect(failed.getByTestId(`command-run-at-${FAILED.id}`).textContent).toBe(
      'Was scheduled for 15-01-2026 03:30 PM',
    );

    // Why a restriction was sent: the reason's category and the note written with it.
    const reasoned = within(within(history).getByTestId(`command-${CAMERA_LOCKED.id}`));
    expect(reasoned.getByTestId(`command-reason-${CAMERA_LOCKED.id}`).textContent).toBe(
      'Reason: Customer request — asked to lock while travelling',
    );
    expect(within(history).getByTestId(`command-reason-${PENDING_LOCK.id}`).textContent).toBe(
      'Reason: Overdue EMI',
    );
    expect(within(history).queryByTestId(`command-reason-${LOCATED.id}`)).toBeNull();

    const located = within(within(history).getByTestId(`command-${LOCATED.id}`));
    expect(located.getByText('Fetch location')).toBeTruthy();
    expect(located.getByTestId(`command-result-${LOCATED.id}`).textContent).toBe('Result: 18.52, 73.85');

    // Only a command still on its way can be cancelled.
    expect(screen.getByTestId(`cancel-command-${PENDING_LOCK.id}`)).toBeTruthy();
    expect(screen.queryByTestId(`cancel-command-${FAILED.id}`)).toBeNull();
    expect(screen.queryByTestId(`cancel-command-${LOCATED.id}`)).toBeNull();
  });

  it('cancels a pending command, then shows it cancelled', async () => {
    let isCancelled = false;
    const api = stubCommandsApi(
      customerWith({}),
      () => [{ ...PENDING_LOCK, state: isCancelled ? 'cancelled' : 'queued' }],
      {
        [paths.devices.cancel]: () => {
          isCancelled = true;
          return { ...PENDING_LOCK, state: 'cancelled' };
        },
      },
    );
    renderDetails('actions');
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel Lock' }));
    await waitFor(() => expect(api.requestsTo(paths.devices.cancel)).toHaveLength(1));
    expect(await api.bodiesTo(paths.devices.cancel)).toEqual([
      { customer_id: 5, command_id: PENDING_LOCK.id },
    ]);
    expect(await screen.findByText('Command cancelled')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByTestId(`command-state-${PENDING_LOCK.id}`).textContent).toBe('cancelled'),
    );
    expect(screen.queryByTestId(`cancel-command-${PENDING_LOCK.id}`)).toBeNull();
  });

  it('polls while a command is pending, so "Locking…" turns into "Locked" without a reload', async () => {
    let isApplied = false;
    const lockCommand = createDeviceCommand({ id: PENDING_LOCK.id, name: 'lock', state: 'sent' });
    const api = stubCommandsApi(
      () =>
        customerWith(
          isApplied
            ? { lockStatus: 1, lastCommand: { ...lockCommand, state: 'done' } }
            : { pendingCommand: lockCommand, lastCommand: lockCommand },
        ),
      () => [{ ...PENDING_LOCK, state: isApplied ? 'done' : 'sent' }],
    );
    renderDetails('device');
    await waitFor(() => expect(screen.getByTestId('lock-state').textContent).toBe('Locking…'));
    expect((await screen.findByTestId(`command-state-${PENDING_LOCK.id}`)).textContent).toBe('sent');
    const detailsBefore = api.requestsTo(paths.customers.details).length;
    isApplied = true;
    await waitFor(() => expect(screen.getByTestId('lock-state').textContent).toBe('Locked'));
    await waitFor(() =>
      expect(screen.getByTestId(`command-state-${PENDING_LOCK.id}`).textContent).toBe('done'),
    );
    expect(api.requestsTo(paths.customers.details).length).toBeGreaterThan(detailsBefore);
    // Once nothing is pending the fast polling stops.
    const settled = api.requestsTo(paths.devices.history).length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(api.requestsTo(paths.devices.history).length).toBe(settled);
  });
});
