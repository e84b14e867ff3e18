import type { TDeviceControlSettings } from '@kisht/domain/devices/devices.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import type { TFakeHandler } from '../../../test/fake-api';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { DeviceSettingsPage } from './device-settings-page';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  localStorage.setItem('type', 'retailer');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

/**
 * The organisation's settings as seeded: family defaults, a 72-hour offline limit, no expiry, no
 * ladder, the paid-through lock with its default 3 grace days.
 */
const SAVED: TDeviceControlSettings = {
  allowedControls: null,
  offlineLockAfterHours: 72,
  commandExpiryHours: null,
  autoLock: null,
  lockScreenText: null,
  paidThroughGraceDays: 3,
};

const stubSettingsApi = (get: TFakeHandler, put?: TFakeHandler) =>
  stubApi({
    [paths.orgs.deviceSettings]: (request, url) =>
      request.method === 'PUT' ? (put ?? (() => null))(request, url) : get(request, url),
  });

const putsOf = (api: ReturnType<typeof stubApi>) =>
  api.requestsTo(paths.orgs.deviceSettings).filter((request) => request.method === 'PUT');

const renderPage = () =>
  renderRoutes({
    i18n,
    url: appPaths.deviceSettings.href(),
    routes: [{ path: appPaths.deviceSettings.path, element: <DeviceSettingsPage /> }],
  });

const click = (testId: string) => fireEvent.click(screen.getByTestId(testId));
const type = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('device_settings', () => {
  it('shows the saved settings', async () => {
    stubSettingsApi(() => SAVED);
    renderPage();
    expect(await screen.findByTestId('device-settings-form')).toBeTruthy();
    expect(screen.getByTestId<HTMLInputElement>('device-settings-use-defaults').checked).toBe(true);
    expect(screen.queryByTestId('device-settings-feature-list')).toBeNull();
    expect(screen.getByTestId<HTMLInputElement>('device-settings-offline-limit').checked).toBe(true);
    expect(screen.getByTestId<HTMLInputElement>('device-settings-offline-hours').value).toBe('72');
    expect(screen.getByTestId<HTMLInputElement>('device-settings-expiry').checked).toBe(false);
    expect(screen.queryByTestId('device-settings-expiry-hours')).toBeNull();
    expect(screen.getByTestId<HTMLInputElement>('device-settings-auto-lock-on').checked).toBe(false);
    // Nothing changed yet: nothing to save.
    expect(screen.getByTestId<HTMLButtonElement>('device-settings-save').disabled).toBe(true);
  });

  it('saves the allowed list, the hours and the auto-lock ladder as TDeviceControlSettings', async () => {
    let saved: unknown = null;
    const api = stubSettingsApi(
      () => SAVED,
      async (request) => {
        saved = await request.json();
        return saved;
      },
    );
    renderPage();
    await screen.findByTestId('device-settings-form');

    // The allowed list: every feature starts ticked, with the existing labels.
    click('device-settings-use-defaults');
    const list = within(screen.getByTestId('device-settings-feature-list'));
    expect(list.getByLabelText('Lock and unlock')).toBeTruthy();
    expect(list.getByLabelText('Camera lock')).toBeTruthy();
    expect(list.getByLabelText('Restart phone')).toBeTruthy();
    expect(list.queryByTestId('device-settings-feature-unlock')).toBeNull();
    click('device-settings-none');
    expect(screen.getByTestId('device-settings-none-warning')).toBeTruthy();
    click('device-settings-feature-lock');
    click('device-settings-feature-camera_lock');
    click('device-settings-feature-fetch_location');
    expect(screen.queryByTestId('device-settings-none-warning')).toBeNull();

    type('device-settings-offline-hours', '48');
    click('device-settings-expiry');
    type('device-settings-expiry-hours', '24');
    click('device-settings-auto-lock-on');
    click('device-settings-reminder');
    type('device-settings-reminder-days', '2');
    click('device-settings-lock');
    type('device-settings-lock-days', '5');

    // What a locked phone shows under the retailer's name and the amount overdue.
    expect(screen.queryByTestId('device-settings-lock-screen-text')).toBeNull();
    click('device-settings-lock-screen');
    type('device-settings-lock-screen-text', 'Pay by UPI to ravimobiles@okaxis\nor at Shop 4, Andheri West');

    click('device-settings-save');
    await waitFor(() => expect(putsOf(api)).toHaveLength(1));
    expect(saved).toEqual({
      allowedControls: ['lock', 'camera_lock', 'fetch_location'],
      offlineLockAfterHours: 48,
      commandExpiryHours: 24,
      autoLock: { reminderDaysBefore: 2, lockAfterDaysOverdue: 5, autoUnlock: true },
      lockScreenText: 'Pay by UPI to ravimobiles@okaxis\nor at Shop 4, Andheri West',
      paidThroughGraceDays: 3,
    });
    expect(await screen.findByText('Settings saved')).toBeTruthy();
    // Saved: the form is clean again.
    await waitFor(() =>
      expect(screen.getByTestId<HTMLButtonElement>('device-settings-save').disabled).toBe(true),
    );
  });

  it('turns settings off as null', async () => {
    let saved: unknown = null;
    const api = stubSettingsApi(
      () => ({
        allowedControls: ['lock'],
        offlineLockAfterHours: 72,
        commandExpiryHours: 12,
        autoLock: { reminderDaysBefore: 1, lockAfterDaysOverdue: 3, autoUnlock: true },
        lockScreenText: 'UPI ravimobiles@okaxis',
        paidThroughGraceDays: 5,
      }),
      async (request) => {
        saved = await request.json();
        return saved;
      },
    );
    renderPage();
    await screen.findByTestId('device-settings-form');
    click('device-settings-use-defaults');
    expect(screen.getByTestId<HTMLInputElement>('device-settings-grace-days').value).toBe('5');
    click('device-settings-paid-through');
    click('device-settings-offline-limit');
    click('device-settings-expiry');
    click('device-settings-auto-lock-on');
    expect(screen.getByTestId<HTMLTextAreaElement>('device-settings-lock-screen-text').value).toBe(
      'UPI ravimobiles@okaxis',
    );
    click('device-settings-lock-screen');
    click('device-settings-save');
    await waitFor(() => expect(putsOf(api)).toHaveLength(1));
    expect(saved).toEqual({
      allowedControls: null,
      offlineLockAfterHours: null,
      commandExpiryHours: null,
      autoLock: null,
      lockScreenText: null,
      paidThroughGraceDays: null,
    });
  });

  it('refuses hours and days outside their bounds on their fields, sending nothing', async () => {
    const api = stubSettingsApi(() => SAVED);
    renderPage();
    await screen.findByTestId('device-settings-form');
    type('device-settings-offline-hours', '0');
    click('device-settings-expiry');
    type('device-settings-expiry-hours', '721');
    click('device-settings-auto-lock-on');
    click('device-settings-reminder');
    type('device-settings-reminder-days', '31');
    click('device-settings-lock');
    type('device-settings-lock-days', '');
    click('device-settings-save');
    expect(await screen.findAllByText('Enter whole hours from 1 to 720')).toHaveLength(2);
    expect(screen.getByText('Enter whole days from 0 to 30')).toBeTruthy();
    expect(screen.getByText('Enter whole days from 0 to 90')).toBeTruthy();
    expect(putsOf(api)).toHaveLength(0);
  });

  it('refuses a lock-screen text too short or too long on its field, sending nothing', async () => {
    const api = stubSettingsApi(() => SAVED);
    renderPage();
    await screen.findByTestId('device-settings-form');
    click('device-settings-lock-screen');
    type('device-settings-lock-screen-text', ' UPI ');
    click('device-settings-save');
    expect(await screen.findByText('Write 5 to 300 characters, in at most 6 lines')).toBeTruthy();
    type('device-settings-lock-screen-text', 'x'.repeat(301));
    click('device-settings-save');
    expect(await screen.findByText('Write 5 to 300 characters, in at most 6 lines')).toBeTruthy();
    expect(putsOf(api)).toHaveLength(0);
  });

  it("puts the server's field errors on their fields", async () => {
    stubSettingsApi(
      () => SAVED,
      () =>
        failureResponse(400, 'Invalid offlineLockAfterHours', {
          fields: [{ field: 'offlineLockAfterHours', message: 'Too short for phones on this plan' }],
        }),
    );
    renderPage();
    await screen.findByTestId('device-settings-form');
    type('device-settings-offline-hours', '2');
    click('device-settings-save');
    const field = screen.getByTestId('device-settings-offline-hours').closest('.MuiFormControl-root');
    expect(await within(field as HTMLElement).findByText('Too short for phones on this plan')).toBeTruthy();
  });

  it('tells anyone the server refuses (403) that only the retailer can change these settings', async () => {
    stubSettingsApi(() =>
      failureResponse(403, 'Only the retailer can change device settings', { code: 'FORBIDDEN' }),
    );
    renderPage();
    expect(await screen.findByTestId('device-settings-retailer-only')).toBeTruthy();
    expect(screen.getByText('Only the retailer can change these settings')).toBeTruthy();
    expect(screen.queryByTestId('device-settings-form')).toBeNull();
  });

  it('tells a mini-retailer so at once, without asking the server', async () => {
    localStorage.setItem('type', 'miniretailer');
    const api = stubSettingsApi(() => SAVED);
    renderPage();
    expect(await screen.findByText('Only the retailer can change these settings')).toBeTruthy();
    expect(api.requestsTo(paths.orgs.deviceSettings)).toHaveLength(0);
  });
});
