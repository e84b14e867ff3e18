import type { TCommandFacts } from '@kisht/domain/devices/command-rules';
import type { TDeviceSummary } from '@kisht/domain/devices/devices.schema';
import { deviceControlPath } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { createDeviceCommand, createDeviceSummary } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { DeviceTogglesCard } from './device-toggles-card';

/**
 * The device tab's toggles under the command gate's rules (issue 25): turning a restriction on asks
 * why as the rules want it (lost mode leaves only a lock screen, so with nothing overdue a category
 * is required; its lock-screen message is the server's, from the category); a paid-up loan's
 * restrictions can only be turned off; a released phone takes nothing.
 */
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

const factsWith = (overrides: Partial<TCommandFacts> = {}): TCommandFacts => ({
  status: 1,
  deviceType: 0,
  overduePaise: 0,
  ...overrides,
});

const renderCard = (facts: TCommandFacts, device: Partial<TDeviceSummary> = {}) =>
  renderRoutes({
    i18n,
    url: '/card',
    routes: [
      {
        path: '/card',
        element: (
          <DeviceTogglesCard
            customerId={5}
            device={createDeviceSummary({
              availability: { controls: ['lock', 'lost_mode', 'camera_lock', 'tracking'], actions: [] },
              ...device,
            })}
            facts={facts}
          />
        ),
      },
    ],
  });

const switchOf = (feature: string) => screen.getByTestId(`control-${feature}`) as HTMLInputElement;

describe('turning a restriction on asks why', () => {
  it('asks a category for lost mode when nothing is overdue, and sends it with only the phone to call', async () => {
    const api = stubApi({
      [deviceControlPath('lost_mode')]: () => createDeviceCommand({ name: 'lost_mode_on', state: 'sent' }),
    });
    renderCard(factsWith());
    fireEvent.click(await screen.findByTestId('control-lost_mode'));
    const dialog = await screen.findByTestId('control-args-dialog');
    // The message on the phone comes from the reason: nobody types it.
    expect(within(dialog).queryByTestId('control-arg-message')).toBeNull();
    expect(within(dialog).getByTestId('lock-reason-why')).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('control-args-submit'));
    expect(await within(dialog).findByText('Choose a reason', { selector: 'p' })).toBeTruthy();
    expect(api.requestsTo(deviceControlPath('lost_mode'))).toHaveLength(0);

    fireEvent.change(within(dialog).getByTestId('lock-reason-category'), {
      target: { value: 'fraud_or_theft' },
    });
    fireEvent.change(within(dialog).getByTestId('control-arg-phone'), { target: { value: '9876543210' } });
    fireEvent.click(within(dialog).getByTestId('control-args-submit'));
    await waitFor(() => expect(api.requestsTo(deviceControlPath('lost_mode'))).toHaveLength(1));
    expect(await api.bodiesTo(deviceControlPath('lost_mode'))).toEqual([
      { customer_id: 5, enable: true, args: { phone: '9876543210' }, reason_category: 'fraud_or_theft' },
    ]);
    await waitFor(() => expect(screen.queryByTestId('control-args-dialog')).toBeNull());
  });

  it('starts on "Overdue EMI" for a camera lock while something is overdue', async () => {
    const api = stubApi({
      [deviceControlPath('camera_lock')]: () => createDeviceCommand({ name: 'camera_lock', state: 'sent' }),
    });
    renderCard(factsWith({ overduePaise: 100_000 }));
    fireEvent.click(await screen.findByTestId('control-camera_lock'));
    const dialog = await screen.findByTestId('control-args-dialog');
    expect(within(dialog).getByText('Turn on: Camera lock')).toBeTruthy();
    expect((within(dialog).getByTestId('lock-reason-category') as HTMLSelectElement).value).toBe(
      'overdue_emi',
    );
    fireEvent.click(within(dialog).getByTestId('control-args-submit'));
    await waitFor(() => expect(api.requestsTo(deviceControlPath('camera_lock'))).toHaveLength(1));
    expect(await api.bodiesTo(deviceControlPath('camera_lock'))).toEqual([
      { customer_id: 5, enable: true, reason_category: 'overdue_emi' },
    ]);
  });

  it("keeps the dialog open with the server's word on the reason under its field", async () => {
    stubApi({
      [deviceControlPath('camera_lock')]: () =>
        failureResponse(400, 'Invalid reason', {
          fields: [{ field: 'reason', message: 'Say why the phone is restricted' }],
        }),
    });
    renderCard(factsWith());
    fireEvent.click(await screen.findByTestId('control-camera_lock'));
    const dialog = await screen.findByTestId('control-args-dialog');
    // Not a lock screen: with nothing overdue the category may stay empty.
    expect((within(dialog).getByTestId('lock-reason-category') as HTMLSelectElement).value).toBe('');
    fireEvent.click(within(dialog).getByTestId('control-args-submit'));
    expect(await within(dialog).findByText('Say why the phone is restricted')).toBeTruthy();
    expect(screen.getByTestId('control-args-dialog')).toBeTruthy();
  });

  it('turns tracking, which restricts nothing, on at once', async () => {
    const api = stubApi({
      [deviceControlPath('tracking')]: () => createDeviceCommand({ name: 'tracking_on', state: 'sent' }),
    });
    renderCard(factsWith());
    fireEvent.click(await screen.findByTestId('control-tracking'));
    await waitFor(() => expect(api.requestsTo(deviceControlPath('tracking'))).toHaveLength(1));
    expect(screen.queryByTestId('control-args-dialog')).toBeNull();
  });
});

describe('what the rules refuse', () => {
  it('lets a paid-up customer turn a restriction off but not on, and says why', async () => {
    const api = stubApi({
      [deviceControlPath('camera_lock')]: () => createDeviceCommand({ name: 'camera_unlock', state: 'sent' }),
    });
    renderCard(factsWith({ status: 5 }), { controls: { camera_lock: true } });
    expect((await screen.findByTestId('device-controls-refused')).textContent).toBe(
      'The EMIs of this customer are completed: features that restrict the phone can only be turned off.',
    );
    expect(switchOf('lost_mode').disabled).toBe(true);
    expect(switchOf('tracking').disabled).toBe(false);
    // Camera lock is on: it can be turned off, with no reason asked.
    expect(switchOf('camera_lock').disabled).toBe(false);
    fireEvent.click(switchOf('camera_lock'));
    await waitFor(() => expect(api.requestsTo(deviceControlPath('camera_lock'))).toHaveLength(1));
    expect(await api.bodiesTo(deviceControlPath('camera_lock'))).toEqual([{ customer_id: 5, enable: false }]);
    expect(screen.queryByTestId('control-args-dialog')).toBeNull();
  });

  it('offers a released phone nothing to send', async () => {
    stubApi({});
    renderCard(factsWith({ status: 3 }));
    expect((await screen.findByTestId('device-controls-refused')).textContent).toBe(
      'This phone was released from Kisht, so no command can be sent to it.',
    );
    expect(screen.queryByTestId('control-lost_mode')).toBeNull();
    expect(screen.queryByTestId('schedule-open-controls')).toBeNull();
  });
});
