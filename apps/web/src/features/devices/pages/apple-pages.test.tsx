import type { TAppleDetails } from '@kisht/domain/apple/apple.schema';
import type { TCommandHistoryItem } from '@kisht/domain/devices/devices.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { createCommandHistoryItem, createDeviceCommand } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { AppleDetailsPage } from './apple-details-page';
import { AppleSyncPage } from './apple-sync-page';

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

/** An enrolled, supervised iPhone that answered one DeviceInformation. */
const createAppleDetails = (overrides: Partial<TAppleDetails> = {}): TAppleDetails => ({
  customerId: 5,
  udid: '00008110-000A1B2C3D4E5F60',
  enrolledAt: '2026-01-15T07:00:00Z',
  profileRemovedAt: null,
  serialNumber: 'F2LZK0XYHG7F',
  reported: {
    deviceName: "Anita's iPhone",
    modelName: 'iPhone',
    productName: 'iPhone16,2',
    osVersion: '18.1',
    serialNumber: 'F2LZK0XYHG7F',
    imeis: ['356938035643809', '356938035643817'],
    isSupervised: true,
    isLostModeEnabled: false,
    isActivationLockEnabled: true,
    batteryPercent: 0.82 * 100,
    at: '2026-01-15T08:15:00Z',
  },
  lastSync: {
    commandId: '0193a5a4-7e0e-7c55-8f00-000000000301',
    state: 'done',
    createdAt: '2026-01-15T08:14:00Z',
    updatedAt: '2026-01-15T08:15:00Z',
  },
  activationLockBypassCodeStoredAt: null,
  ...overrides,
});

const renderPage = (page: 'details' | 'sync', customerId = 5) =>
  renderRoutes({
    i18n,
    url: page === 'details' ? appPaths.appleDetails.href(customerId) : appPaths.appleSync.href(customerId),
    routes: [
      { path: appPaths.appleDetails.path, element: <AppleDetailsPage /> },
      { path: appPaths.appleSync.path, element: <AppleSyncPage /> },
      { path: appPaths.customerDetails.path, element: <p>customer details screen</p> },
    ],
  });

const textOf = (testId: string) => screen.getByTestId(testId).textContent;

describe('apple_details (issue 15)', () => {
  it('shows what the iPhone reported, its enrolment, and times in +05:30', async () => {
    const api = stubApi({ [paths.apple.details]: () => createAppleDetails() });
    renderPage('details');
    expect(await screen.findByRole('heading', { level: 1, name: 'Apple device details' })).toBeTruthy();
    await screen.findByTestId('apple-reported');
    expect(textOf('apple-udid')).toBe('00008110-000A1B2C3D4E5F60');
    expect(textOf('apple-enrolled-at')).toBe('15-01-2026 12:30 PM');
    expect(textOf('apple-profile-removed-at')).toBe('N/A');
    expect(textOf('apple-enrolment-state')).toBe('Enrolled');
    expect(textOf('apple-model')).toBe('iPhone · iPhone16,2');
    expect(textOf('apple-os')).toBe('18.1');
    expect(textOf('apple-serial')).toBe('F2LZK0XYHG7F');
    expect(textOf('apple-imeis')).toBe('356938035643809, 356938035643817');
    expect(textOf('apple-supervised')).toBe('Supervised');
    expect(textOf('apple-lost-mode')).toBe('Off');
    expect(textOf('apple-activation-lock')).toBe('On');
    expect(textOf('apple-battery')).toBe('82%');
    expect(textOf('apple-reported-at')).toBe('15-01-2026 01:45 PM');
    expect(screen.queryByTestId('apple-not-supervised')).toBeNull();
    expect(new URL(api.requestsTo(paths.apple.details)[0]?.url ?? '').searchParams.get('customer_id')).toBe(
      '5',
    );
  });

  it('says nothing was reported yet, and that a removed profile can no longer be managed (status 4)', async () => {
    stubApi({
      [paths.apple.details]: () =>
        createAppleDetails({ reported: null, lastSync: null, profileRemovedAt: '2026-02-01T04:30:00Z' }),
    });
    renderPage('details');
    expect((await screen.findByTestId('apple-not-reported')).textContent).toContain('has not reported yet');
    expect(textOf('apple-enrolment-state')).toBe('Profile removed');
    expect(textOf('apple-profile-removed')).toContain('01-02-2026 10:00 AM');
    expect(screen.getByTestId('apple-unreachable')).toBeTruthy();
    expect(screen.getByTestId<HTMLButtonElement>('apple-request-sync-send').disabled).toBe(true);
  });

  it('warns that lost mode and the bypass code need supervision when the iPhone is not supervised', async () => {
    const details = createAppleDetails();
    stubApi({
      [paths.apple.details]: () => ({
        ...details,
        reported: details.reported && { ...details.reported, isSupervised: false, batteryPercent: null },
      }),
    });
    renderPage('details');
    expect((await screen.findByTestId('apple-not-supervised')).textContent).toContain('not supervised');
    expect(textOf('apple-supervised')).toBe('Not supervised');
    expect(textOf('apple-battery')).toBe('N/A');
  });

  it.each([
    ['Install one-mode app', 'apple-install-app', paths.apple.installOneModeApp, 'install_apple_onemodapp'],
    ['Check status', 'apple-request-sync', paths.apple.requestSync, 'check_status'],
  ] as const)(
    '%s POSTs for the customer and shows its command moving to done',
    async (label, testId, path, name) => {
      const command = createDeviceCommand({
        id: '0193a5a4-7e0e-7c55-8f00-000000000401',
        name,
        state: 'queued',
      });
      let history: TCommandHistoryItem[] = [];
      const api = stubApi({
        [paths.apple.details]: () => createAppleDetails(),
        [path]: () => {
          history = [createCommandHistoryItem({ ...command, state: 'sent', feature: null })];
          return command;
        },
        [paths.devices.history]: () => history,
      });
      renderPage('details');
      const row = within(await screen.findByTestId(testId));
      fireEvent.click(row.getByRole('button', { name: label }));
      await waitFor(() => expect(api.requestsTo(path)).toHaveLength(1));
      expect(await api.bodiesTo(path)).toEqual([{ customer_id: 5 }]);
      await waitFor(() => expect(row.getByTestId(`${testId}-state`).getAttribute('data-state')).toBe('sent'));
      // The phone answers: the history polled while it was on its way says done.
      history = [
        createCommandHistoryItem({
          ...command,
          state: 'done',
          feature: null,
          updatedAt: '2026-01-15T08:20:00Z',
        }),
      ];
      await waitFor(() => expect(row.getByTestId(`${testId}-state`).getAttribute('data-state')).toBe('done'));
      expect(row.getByText('Updated 15-01-2026 01:50 PM')).toBeTruthy();
    },
  );

  it('fetches the Activation Lock bypass code into the server, never onto the screen, and says when it was stored', async () => {
    const command = createDeviceCommand({ name: 'disable_activation_lock', state: 'queued' });
    let details = createAppleDetails();
    let history: TCommandHistoryItem[] = [];
    stubApi({
      [paths.apple.details]: () => details,
      [paths.apple.disableActivationLock]: () => {
        history = [createCommandHistoryItem({ ...command, state: 'sent', feature: null })];
        return command;
      },
      [paths.devices.history]: () => history,
    });
    renderPage('details');
    const row = within(await screen.findByTestId('apple-bypass'));
    expect(row.getByTestId('apple-bypass-stored').textContent).toBe('No bypass code stored yet.');
    fireEvent.click(row.getByRole('button', { name: 'Activation Lock bypass code' }));
    await waitFor(() =>
      expect(row.getByTestId('apple-bypass-state').getAttribute('data-state')).toBe('sent'),
    );

    // The iPhone answers; the server keeps the code and the details say since when.
    details = createAppleDetails({ activationLockBypassCodeStoredAt: '2026-01-15T08:30:00Z' });
    history = [
      createCommandHistoryItem({
        ...command,
        state: 'done',
        feature: null,
        result: { stored: true },
      }),
    ];
    await waitFor(() =>
      expect(row.getByTestId('apple-bypass-stored').textContent).toBe(
        'Bypass code stored on the server 15-01-2026 02:00 PM. It clears Activation Lock when the iPhone comes back.',
      ),
    );
    expect(row.getByTestId('apple-bypass-state').getAttribute('data-state')).toBe('done');
  });

  it('says why an Apple command failed', async () => {
    const command = createDeviceCommand({ name: 'disable_activation_lock', state: 'queued' });
    stubApi({
      [paths.apple.details]: () => createAppleDetails(),
      [paths.apple.disableActivationLock]: () => command,
      [paths.devices.history]: () => [
        createCommandHistoryItem({ ...command, state: 'failed', feature: null, error: 'NotSupervised' }),
      ],
    });
    renderPage('details');
    const row = within(await screen.findByTestId('apple-bypass'));
    fireEvent.click(row.getByRole('button', { name: 'Activation Lock bypass code' }));
    expect((await row.findByTestId('apple-bypass-error')).textContent).toBe('NotSupervised');
  });

  it("shows the server's message when the details cannot be read (another tenant's customer: 404)", async () => {
    stubApi({
      [paths.apple.details]: () => failureResponse(404, 'Customer not found', { code: 'CUSTOMER_NOT_FOUND' }),
    });
    renderPage('details');
    expect(await screen.findByText('Customer not found')).toBeTruthy();
  });
});

describe('apple_sync (issue 15; CHECK_STATUS)', () => {
  it('requests a sync, follows it until the iPhone answers, and links to apple_details', async () => {
    let details = createAppleDetails({ lastSync: null });
    const api = stubApi({
      [paths.apple.details]: () => details,
      [paths.apple.requestSync]: () => {
        details = createAppleDetails({
          lastSync: {
            commandId: '0193a5a4-7e0e-7c55-8f00-000000000501',
            state: 'sent',
            createdAt: '2026-01-15T09:00:00Z',
            updatedAt: '2026-01-15T09:00:00Z',
          },
        });
        return createDeviceCommand({ name: 'check_status', state: 'queued' });
      },
    });
    const { router } = renderPage('sync');
    expect(await screen.findByRole('heading', { level: 1, name: 'Apple sync' })).toBeTruthy();
    expect((await screen.findByTestId('apple-never-synced')).textContent).toBe('No sync requested yet.');

    fireEvent.click(screen.getByRole('button', { name: 'Request sync' }));
    await waitFor(() => expect(api.requestsTo(paths.apple.requestSync)).toHaveLength(1));
    expect(await api.bodiesTo(paths.apple.requestSync)).toEqual([{ customer_id: 5 }]);
    await waitFor(() =>
      expect(screen.getByTestId('apple-sync-state').getAttribute('data-state')).toBe('sent'),
    );
    expect(textOf('apple-sync-requested-at')).toBe('15-01-2026 02:30 PM');
    // Another sync waits until this one ends.
    expect(screen.getByTestId<HTMLButtonElement>('apple-request-sync').disabled).toBe(true);

    details = createAppleDetails({
      lastSync: {
        commandId: '0193a5a4-7e0e-7c55-8f00-000000000501',
        state: 'done',
        createdAt: '2026-01-15T09:00:00Z',
        updatedAt: '2026-01-15T09:01:00Z',
      },
      reported: {
        ...(createAppleDetails().reported as NonNullable<TAppleDetails['reported']>),
        at: '2026-01-15T09:01:00Z',
      },
    });
    await waitFor(() =>
      expect(screen.getByTestId('apple-sync-state').getAttribute('data-state')).toBe('done'),
    );
    expect(textOf('apple-sync-updated-at')).toBe('15-01-2026 02:31 PM');
    expect(textOf('apple-reported-at')).toBe('15-01-2026 02:31 PM');
    expect(screen.getByTestId<HTMLButtonElement>('apple-request-sync').disabled).toBe(false);

    fireEvent.click(screen.getByTestId('open-apple-details'));
    await waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
        '/apple_details?customer_id=5',
      ),
    );
  });

  it('offers no sync for an iPhone that has not enrolled', async () => {
    stubApi({
      [paths.apple.details]: () =>
        createAppleDetails({ udid: null, enrolledAt: null, reported: null, lastSync: null }),
    });
    renderPage('sync');
    expect(await screen.findByTestId('apple-unreachable')).toBeTruthy();
    expect(screen.getByTestId<HTMLButtonElement>('apple-request-sync').disabled).toBe(true);
  });

  it('shows an error instead of a page for a customer_id that is not a customer id', async () => {
    stubApi({});
    renderRoutes({
      i18n,
      url: '/apple_sync?customer_id=abc',
      routes: [{ path: appPaths.appleSync.path, element: <AppleSyncPage /> }],
    });
    expect(await screen.findByRole('alert')).toBeTruthy();
  });
});
