import type { TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import type { TCommandHistoryItem, TDeviceSummary } from '@kisht/domain/devices/devices.schema';
import { deviceControlPath, paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TCustomerDetailsTab } from '../lib/paths';
import type { TFakeHandler } from '../test/fake-api';
import { failureResponse, stubApi } from '../test/fake-api';
import {
  createCommandHistoryItem,
  createCustomerDetails,
  createDeviceCommand,
  createDeviceSummary,
} from '../test/fixtures';
import { createTestI18n } from '../test/test-i18n';
import { renderCustomerDetails, stubCustomerDetailsApi } from './customer-details-test-support';

/** 22-11-2026 11:30 PM in India (18:00 UTC): late evening, so "tomorrow 9 AM" is the next India day. */
const NOW = new Date('2026-11-22T18:00:00Z');
const ORIGINAL_TZ = process.env.TZ;

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  // Only the clock: RTK Query's timers stay real.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  // A browser far west of India: the picker's text must still be read as India time.
  process.env.TZ = 'America/New_York';
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
  process.env.TZ = ORIGINAL_TZ;
});

const DEVICE: Partial<TDeviceSummary> = {
  availability: {
    controls: ['lock', 'wallpaper', 'camera_lock'],
    actions: ['fetch_location', 'reboot', 'uninstall'],
  },
};

const stubDetailsApi = (
  history: TCommandHistoryItem[] = [],
  handlers: Record<string, TFakeHandler> = {},
  customer: TCustomerDetails = createCustomerDetails({ device: createDeviceSummary(DEVICE) }),
) => stubCustomerDetailsApi({ customer, history, handlers });

const renderDetails = (tab: TCustomerDetailsTab = 'customer') => renderCustomerDetails(i18n, tab);

describe('lock and unlock: now, or scheduled for later', () => {
  it('locks at once by default, without run_at', async () => {
    const api = stubDetailsApi([], { [paths.devices.lock]: () => createDeviceCommand({ name: 'lock' }) });
    renderDetails();
    fireEvent.click(await screen.findByTestId('lock-button'));
    const dialog = within(await screen.findByRole('dialog', { name: 'Lock this phone?' }));
    expect(dialog.getByTestId<HTMLInputElement>('lock-when-now').checked).toBe(true);
    expect(dialog.queryByTestId('lock-when-run-at')).toBeNull();
    fireEvent.click(dialog.getByRole('button', { name: 'Lock' }));
    await waitFor(() => expect(api.requestsTo(paths.devices.lock)).toHaveLength(1));
    // The customer's first EMI is overdue: the lock is for it unless another reason is chosen.
    expect(await api.bodiesTo(paths.devices.lock)).toEqual([
      { customer_id: 5, reason_category: 'overdue_emi' },
    ]);
  });

  it('sends the picked time as India time (+05:30), whatever the browser zone, and says when it will run', async () => {
    const api = stubDetailsApi([], {
      [paths.devices.lock]: () => createDeviceCommand({ name: 'lock', state: 'queued' }),
    });
    renderDetails();
    fireEvent.click(await screen.findByTestId('lock-button'));
    const dialog = within(await screen.findByRole('dialog', { name: 'Lock this phone?' }));
    fireEvent.click(dialog.getByTestId('lock-when-later'));
    const picker = dialog.getByTestId<HTMLInputElement>('lock-when-run-at');
    // The first suggestion, on India's clock: not midnight (the next whole hour), but 9 AM.
    expect(picker.value).toBe('2026-11-23T09:00');
    // Bounded to 1 minute – 90 days ahead, in India time.
    expect(picker.min).toBe('2026-11-22T23:31');
    expect(picker.max).toBe('2027-02-20T23:30');

    fireEvent.change(picker, { target: { value: '2026-11-23T09:00' } });
    expect(dialog.getByText('India time (IST): 23-11-2026 09:00 AM')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Schedule lock' }));
    await waitFor(() => expect(api.requestsTo(paths.devices.lock)).toHaveLength(1));
    expect(await api.bodiesTo(paths.devices.lock)).toEqual([
      { customer_id: 5, run_at: '2026-11-23T09:00:00+05:30', reason_category: 'overdue_emi' },
    ]);
    expect(await screen.findByText('Lock scheduled for 23-11-2026 09:00 AM')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('refuses a time in the past or too far ahead before sending anything', async () => {
    const api = stubDetailsApi([], { [paths.devices.lock]: () => createDeviceCommand({ name: 'lock' }) });
    renderDetails();
    fireEvent.click(await screen.findByTestId('lock-button'));
    const dialog = within(await screen.findByRole('dialog', { name: 'Lock this phone?' }));
    fireEvent.click(dialog.getByTestId('lock-when-later'));
    // 11:00 PM India time today is already past (it is 11:30 PM there), though it is the
    // afternoon in New York.
    fireEvent.change(dialog.getByTestId('lock-when-run-at'), { target: { value: '2026-11-22T23:00' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Schedule lock' }));
    expect(await dialog.findByText('Choose a time at least 1 minute from now')).toBeTruthy();
    fireEvent.change(dialog.getByTestId('lock-when-run-at'), { target: { value: '2027-03-01T10:00' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Schedule lock' }));
    expect(await dialog.findByText('Choose a time within 90 days from now')).toBeTruthy();
    expect(api.requestsTo(paths.devices.lock)).toHaveLength(0);
  });

  it("puts the server's run_at refusal under the picker and keeps the dialog open", async () => {
    stubDetailsApi([], {
      [paths.devices.lock]: () =>
        failureResponse(400, 'Invalid run_at', {
          fields: [{ field: 'run_at', message: 'Schedule it between 1 minute and 90 days from now' }],
        }),
    });
    renderDetails();
    fireEvent.click(await screen.findByTestId('lock-button'));
    const dialog = within(await screen.findByRole('dialog', { name: 'Lock this phone?' }));
    fireEvent.click(dialog.getByTestId('lock-when-later'));
    fireEvent.change(dialog.getByTestId('lock-when-run-at'), { target: { value: '2026-11-23T09:00' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Schedule lock' }));
    expect(await dialog.findByText('Schedule it between 1 minute and 90 days from now')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Lock this phone?' })).toBeTruthy();
  });
});

describe('"Schedule for later" on the command tabs', () => {
  it('offers every command of the tabs but uninstall, grouped, starting with the tab’s own', async () => {
    stubDetailsApi();
    renderDetails('actions');
    fireEvent.click(await screen.findByTestId('schedule-open-actions'));
    const dialog = within(await screen.findByTestId('schedule-dialog'));
    const select = dialog.getByTestId<HTMLSelectElement>('schedule-command');
    expect(select.value).toBe('location');
    expect([...select.querySelectorAll('optgroup')].map((group) => group.label)).toEqual([
      'Lock',
      'Device',
      'Actions',
    ]);
    expect([...select.options].map((option) => option.textContent)).toEqual([
      'Lock',
      'Unlock',
      'Set wallpaper',
      'Remove wallpaper',
      'Camera lock',
      'Camera unlock',
      'Fetch location',
      'Restart phone',
    ]);
  });

  it('schedules an action through its control path with run_at', async () => {
    const api = stubDetailsApi([], {
      [deviceControlPath('reboot')]: () => createDeviceCommand({ name: 'reboot' }),
    });
    renderDetails('actions');
    fireEvent.click(await screen.findByTestId('schedule-open-actions'));
    const dialog = within(await screen.findByTestId('schedule-dialog'));
    fireEvent.change(dialog.getByTestId('schedule-command'), { target: { value: 'reboot' } });
    fireEvent.change(dialog.getByTestId('schedule-run-at'), { target: { value: '2026-12-01T18:30' } });
    fireEvent.click(dialog.getByTestId('schedule-submit'));
    await waitFor(() => expect(api.requestsTo(deviceControlPath('reboot'))).toHaveLength(1));
    expect(await api.bodiesTo(deviceControlPath('reboot'))).toEqual([
      { customer_id: 5, run_at: '2026-12-01T18:30:00+05:30' },
    ]);
    expect(await screen.findByText('Restart phone scheduled for 01-12-2026 06:30 PM')).toBeTruthy();
  });

  it('schedules a toggle on with its arguments, asked for next', async () => {
    const api = stubDetailsApi([], {
      [deviceControlPath('wallpaper')]: () => createDeviceCommand({ name: 'set_wallpaper' }),
    });
    renderDetails('device');
    fireEvent.click(await screen.findByTestId('schedule-open-controls'));
    const dialog = within(await screen.findByTestId('schedule-dialog'));
    expect(dialog.getByTestId<HTMLSelectElement>('schedule-command').value).toBe('set_wallpaper');
    fireEvent.change(dialog.getByTestId('schedule-run-at'), { target: { value: '2026-11-30T08:00' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Next' }));
    expect((await dialog.findByTestId('schedule-args-summary')).textContent).toBe(
      'Set wallpaper, scheduled for 30-11-2026 08:00 AM',
    );
    fireEvent.change(dialog.getByTestId('control-arg-text'), { target: { value: 'EMI due on 1st' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Schedule' }));
    await waitFor(() => expect(api.requestsTo(deviceControlPath('wallpaper'))).toHaveLength(1));
    expect(await api.bodiesTo(deviceControlPath('wallpaper'))).toEqual([
      {
        customer_id: 5,
        run_at: '2026-11-30T08:00:00+05:30',
        enable: true,
        args: { text: 'EMI due on 1st' },
        reason_category: 'overdue_emi',
      },
    ]);
  });

  it('asks why a scheduled lock is sent when nothing is overdue, and sends the chosen reason', async () => {
    const paidToDate = createCustomerDetails({
      device: createDeviceSummary(DEVICE),
      emis: [
        {
          id: 101,
          instalmentNo: 1,
          dueDate: '2026-12-15',
          amountPaise: 761_278,
          principalPaise: 746_278,
          interestPaise: 15_000,
          paidPaise: 0,
        },
      ],
    });
    const api = stubDetailsApi(
      [],
      { [paths.devices.lock]: () => createDeviceCommand({ name: 'lock', state: 'queued' }) },
      paidToDate,
    );
    renderDetails('device');
    fireEvent.click(await screen.findByTestId('schedule-open-controls'));
    const dialog = within(await screen.findByTestId('schedule-dialog'));
    fireEvent.change(dialog.getByTestId('schedule-command'), { target: { value: 'lock' } });
    fireEvent.change(dialog.getByTestId('schedule-run-at'), { target: { value: '2026-11-24T10:15' } });
    fireEvent.click(dialog.getByTestId('schedule-submit'));
    expect(await dialog.findByText('Choose a reason', { selector: 'p' })).toBeTruthy();
    expect(api.requestsTo(paths.devices.lock)).toHaveLength(0);
    fireEvent.change(dialog.getByTestId('lock-reason-category'), { target: { value: 'customer_request' } });
    fireEvent.change(dialog.getByTestId('lock-reason'), { target: { value: 'Travelling abroad' } });
    fireEvent.click(dialog.getByTestId('schedule-submit'));
    await waitFor(() => expect(api.requestsTo(paths.devices.lock)).toHaveLength(1));
    expect(await api.bodiesTo(paths.devices.lock)).toEqual([
      {
        customer_id: 5,
        run_at: '2026-11-24T10:15:00+05:30',
        reason_category: 'customer_request',
        reason: 'Travelling abroad',
      },
    ]);
  });

  it('leaves out what a paid-up loan may not schedule: every restriction turned on', async () => {
    stubDetailsApi([], {}, createCustomerDetails({ status: 5, device: createDeviceSummary(DEVICE) }));
    renderDetails('device');
    fireEvent.click(await screen.findByTestId('schedule-open-controls'));
    const select = within(await screen.findByTestId('schedule-dialog')).getByTestId<HTMLSelectElement>(
      'schedule-command',
    );
    expect([...select.options].map((option) => option.textContent)).toEqual([
      'Unlock',
      'Remove wallpaper',
      'Camera unlock',
      'Fetch location',
      'Restart phone',
    ]);
  });

  it('schedules a toggle off, and the lock pair through the lock routes', async () => {
    const api = stubDetailsApi([], {
      [deviceControlPath('camera_lock')]: () => createDeviceCommand({ name: 'camera_unlock' }),
      [paths.devices.unlock]: () => createDeviceCommand({ name: 'unlock' }),
    });
    renderDetails('device');
    fireEvent.click(await screen.findByTestId('schedule-open-controls'));
    let dialog = within(await screen.findByTestId('schedule-dialog'));
    fireEvent.change(dialog.getByTestId('schedule-command'), { target: { value: 'camera_unlock' } });
    fireEvent.change(dialog.getByTestId('schedule-run-at'), { target: { value: '2026-11-24T10:15' } });
    fireEvent.click(dialog.getByTestId('schedule-submit'));
    await waitFor(() => expect(api.requestsTo(deviceControlPath('camera_lock'))).toHaveLength(1));
    expect(await api.bodiesTo(deviceControlPath('camera_lock'))).toEqual([
      { customer_id: 5, run_at: '2026-11-24T10:15:00+05:30', enable: false },
    ]);
    await waitFor(() => expect(screen.queryByTestId('schedule-dialog')).toBeNull());

    fireEvent.click(screen.getByTestId('schedule-open-controls'));
    dialog = within(await screen.findByTestId('schedule-dialog'));
    fireEvent.change(dialog.getByTestId('schedule-command'), { target: { value: 'unlock' } });
    fireEvent.change(dialog.getByTestId('schedule-run-at'), { target: { value: '2026-11-24T10:15' } });
    fireEvent.click(dialog.getByTestId('schedule-submit'));
    await waitFor(() => expect(api.requestsTo(paths.devices.unlock)).toHaveLength(1));
    expect(await api.bodiesTo(paths.devices.unlock)).toEqual([
      { customer_id: 5, run_at: '2026-11-24T10:15:00+05:30' },
    ]);
  });
});

describe('scheduled commands in the history', () => {
  const SCHEDULED_LOCK = createCommandHistoryItem({
    id: '0193a5a4-7e0e-7c55-8f00-000000000401',
    name: 'lock',
    feature: 'lock',
    state: 'queued',
    runAt: '2026-11-23T03:30:00Z',
  });
  const PIN_CHANGE = createCommandHistoryItem({
    id: '0193a5a4-7e0e-7c55-8f00-000000000402',
    name: 'change_pin',
    feature: null,
    state: 'done',
    args: { sealedPin: 'c2VhbGVk' },
    result: { pin: '4826', applied: true },
  });

  it('reads "Scheduled for …" with a scheduled chip and a Cancel; a PIN change shows its name only', async () => {
    const api = stubDetailsApi([SCHEDULED_LOCK, PIN_CHANGE], {
      [paths.devices.cancel]: () => ({ ...SCHEDULED_LOCK, state: 'cancelled' }),
    });
    renderDetails('actions');
    const row = within(await screen.findByTestId(`command-${SCHEDULED_LOCK.id}`));
    expect(row.getByTestId(`command-state-${SCHEDULED_LOCK.id}`).textContent).toBe('scheduled');
    expect(row.getByTestId(`command-run-at-${SCHEDULED_LOCK.id}`).textContent).toBe(
      'Scheduled for 23-11-2026 09:00 AM',
    );
    // Waiting for its time is not "on its way": the lock card is not "Locking…".
    expect(screen.getByTestId('lock-state').textContent).toBe('Unlocked');

    const pin = within(screen.getByTestId(`command-${PIN_CHANGE.id}`));
    expect(pin.getByText('Change PIN')).toBeTruthy();
    expect(pin.queryByTestId(`command-result-${PIN_CHANGE.id}`)).toBeNull();
    expect(screen.getByTestId(`command-${PIN_CHANGE.id}`).textContent).not.toContain('4826');

    fireEvent.click(row.getByRole('button', { name: 'Cancel Lock' }));
    await waitFor(() => expect(api.requestsTo(paths.devices.cancel)).toHaveLength(1));
    expect(await api.bodiesTo(paths.devices.cancel)).toEqual([
      { customer_id: 5, command_id: SCHEDULED_LOCK.id },
    ]);
  });

  it('reads the history again when a scheduled command falls due, without a reload', async () => {
    let isDue = false;
    const dueSoon = { ...SCHEDULED_LOCK, runAt: new Date(NOW.getTime() + 500).toISOString() };
    const api = stubApi({
      [paths.customers.details]: () => createCustomerDetails({ device: createDeviceSummary(DEVICE) }),
      [paths.customers.statusHistory]: () => [],
      [paths.devices.history]: () => [isDue ? { ...dueSoon, state: 'sent', runAt: null } : dueSoon],
      [paths.customers.simChangeDetails]: () => [],
    });
    renderDetails('actions');
    const chip = await screen.findByTestId(`command-state-${SCHEDULED_LOCK.id}`);
    expect(chip.textContent).toBe('scheduled');
    const reads = api.requestsTo(paths.devices.history).length;
    isDue = true;
    await waitFor(() =>
      expect(screen.getByTestId(`command-state-${SCHEDULED_LOCK.id}`).textContent).toBe('sent'),
    );
    expect(api.requestsTo(paths.devices.history).length).toBeGreaterThan(reads);
  });
});
