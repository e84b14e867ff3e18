import type { TLockRule } from '@kisht/domain/devices/devices.rules';
import { deviceControlPath } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/fake-api';
import { createDeviceCommand, createDeviceSummary } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { DeviceTogglesCard } from './device-toggles-card';

/** Lost mode leaves only a lock screen: it follows the lock rule of issue 12 as a lock does. */
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

const renderCard = (lockRule: TLockRule) =>
  renderRoutes({
    i18n,
    url: '/card',
    routes: [
      {
        path: '/card',
        element: (
          <DeviceTogglesCard
            customerId={5}
            device={createDeviceSummary({ availability: { controls: ['lock', 'lost_mode'], actions: [] } })}
            lockRule={lockRule}
          />
        ),
      },
    ],
  });

describe('lost mode and the lock rule', () => {
  it('asks why when nothing is overdue, and sends the reason with lost mode', async () => {
    const api = stubApi({
      [deviceControlPath('lost_mode')]: () => createDeviceCommand({ name: 'lost_mode_on', state: 'sent' }),
    });
    renderCard({ kind: 'needs_reason' });
    fireEvent.click(await screen.findByTestId('control-lost_mode'));
    const dialog = await screen.findByTestId('control-args-dialog');
    fireEvent.change(within(dialog).getByTestId('control-arg-message'), {
      target: { value: 'Please call the shop' },
    });
    fireEvent.click(within(dialog).getByTestId('control-args-submit'));
    expect(await within(dialog).findByText('Write why, in 5 to 300 characters')).toBeTruthy();
    expect(api.requestsTo(deviceControlPath('lost_mode'))).toHaveLength(0);
    fireEvent.change(within(dialog).getByTestId('lock-reason'), {
      target: { value: 'Phone reported stolen' },
    });
    fireEvent.click(within(dialog).getByTestId('control-args-submit'));
    await waitFor(() => expect(api.requestsTo(deviceControlPath('lost_mode'))).toHaveLength(1));
    expect(await api.bodiesTo(deviceControlPath('lost_mode'))).toEqual([
      {
        customer_id: 5,
        enable: true,
        args: { message: 'Please call the shop' },
        reason: 'Phone reported stolen',
      },
    ]);
  });

  it('does not turn lost mode on once the EMIs are completed, and says why', async () => {
    const api = stubApi({});
    renderCard({ kind: 'refused', why: 'loan_completed' });
    fireEvent.click(await screen.findByTestId('control-lost_mode'));
    expect(
      await screen.findByText('The EMIs of this customer are completed, so the phone cannot be locked.'),
    ).toBeTruthy();
    expect(screen.queryByTestId('control-args-dialog')).toBeNull();
    expect(api.requestsTo(deviceControlPath('lost_mode'))).toHaveLength(0);
  });
});
