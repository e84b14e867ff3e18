import type { TOfflineCommand } from '@kisht/domain/devices/devices.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import type { TFakeHandler } from '../../../test/fake-api';
import { stubApi } from '../../../test/fake-api';
import { createCommandHistoryItem } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { PENDING_COMMANDS_POLL_MS, PendingCommandsPage } from './pending-commands-page';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-22T12:00:00Z'));
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const pendingCommand = (overrides: Partial<TOfflineCommand>): TOfflineCommand => ({
  ...createCommandHistoryItem({ state: 'queued' }),
  customerId: 5,
  customerName: 'Anita Rao',
  ...overrides,
});

/** A lock waiting for Anita's phone, offline since the morning; sent three times. */
const OFFLINE_LOCK = pendingCommand({
  id: '0193a5a4-7e0e-7c55-8f00-000000000501',
  name: 'lock',
  feature: 'lock',
  state: 'sent',
  createdAt: '2026-11-22T04:00:00Z',
  deliveryAttempts: 3,
});
/** Vikram's camera unlock, scheduled for the morning of 23-11-2026 (India time). */
const SCHEDULED_UNLOCK = pendingCommand({
  id: '0193a5a4-7e0e-7c55-8f00-000000000502',
  name: 'camera_unlock',
  feature: 'camera_lock',
  customerId: 6,
  customerName: 'Vikram Singh',
  createdByName: null,
  createdAt: '2026-11-22T10:00:00Z',
  runAt: '2026-11-23T03:30:00Z',
  deliveryAttempts: 0,
});

const renderPage = (url: string = appPaths.pendingCommands.href()) =>
  renderRoutes({
    i18n,
    url,
    routes: [
      { path: appPaths.pendingCommands.path, element: <PendingCommandsPage /> },
      { path: appPaths.customerDetails.path, element: <p>customer details screen</p> },
    ],
  });

const stubLists = (
  offline: () => TOfflineCommand[],
  scheduled: () => TOfflineCommand[],
  handlers: Record<string, TFakeHandler> = {},
) =>
  stubApi({
    [paths.devices.offlineCommandLog]: offline,
    [paths.devices.scheduledCommands]: scheduled,
    ...handlers,
  });

describe('pending_commands', () => {
  it('lists the commands waiting for offline phones: customer, command, who and when, state, attempts', async () => {
    const api = stubLists(
      () => [OFFLINE_LOCK],
      () => [SCHEDULED_UNLOCK],
    );
    renderPage();
    expect(screen.getByTestId('pending-tab-offline').getAttribute('aria-selected')).toBe('true');
    const row = within(await screen.findByTestId(`pending-command-${OFFLINE_LOCK.id}`));
    expect(row.getByTestId('pending-command-name').textContent).toBe('Lock');
    expect(row.getByTestId('pending-command-customer').textContent).toBe('Anita Rao');
    expect(row.getByTestId('pending-command-state').textContent).toBe('sent');
    expect(row.getByTestId('pending-command-created').textContent).toBe(
      'Created by Ravi Kumar · 22-11-2026 09:30 AM · 3 delivery attempts',
    );
    expect(row.queryByTestId('pending-command-run-at')).toBeNull();
    expect(screen.getByTestId('pending-commands-intro').textContent).toBe(
      '1 command is waiting for its phone to come online.',
    );
    // Only the open tab is read.
    expect(api.requestsTo(paths.devices.scheduledCommands)).toHaveLength(0);
  });

  it('shows the scheduled tab from the URL, with when each runs', async () => {
    const api = stubLists(
      () => [],
      () => [SCHEDULED_UNLOCK],
    );
    renderPage(appPaths.pendingCommands.href('scheduled'));
    const row = within(await screen.findByTestId(`pending-command-${SCHEDULED_UNLOCK.id}`));
    expect(row.getByTestId('pending-command-name').textContent).toBe('Camera unlock');
    expect(row.getByTestId('pending-command-run-at').textContent).toBe('Scheduled for 23-11-2026 09:00 AM');
    expect(row.getByTestId('pending-command-state').textContent).toBe('scheduled');
    expect(row.getByTestId('pending-command-created').textContent).toBe(
      'Created by System · 22-11-2026 03:30 PM · 0 delivery attempts',
    );
    expect(api.requestsTo(paths.devices.offlineCommandLog)).toHaveLength(0);
  });

  it('switches tabs through the URL, and says when a list is empty', async () => {
    stubLists(
      () => [OFFLINE_LOCK],
      () => [],
    );
    const { router } = renderPage();
    expect(await screen.findByTestId(`pending-command-${OFFLINE_LOCK.id}`)).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Scheduled' }));
    expect((await screen.findByTestId('pending-commands-empty')).textContent).toBe(
      'No commands are scheduled.',
    );
    expect(router.state.location.search).toBe('?tab=scheduled');
    cleanup();

    stubLists(
      () => [],
      () => [],
    );
    renderPage();
    expect((await screen.findByTestId('pending-commands-empty')).textContent).toBe(
      'No commands are waiting for offline phones.',
    );
  });

  it('opens customer_details from the customer name', async () => {
    stubLists(
      () => [OFFLINE_LOCK],
      () => [],
    );
    const { router } = renderPage();
    fireEvent.click(await screen.findByTestId('pending-command-customer'));
    expect(await screen.findByText('customer details screen')).toBeTruthy();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      '/customer_details/5?tab=actions',
    );
  });

  it('cancels a command only after a confirmation, and it leaves the list', async () => {
    let isCancelled = false;
    const api = stubLists(
      () => [],
      () => (isCancelled ? [] : [SCHEDULED_UNLOCK]),
      {
        [paths.devices.cancel]: () => {
          isCancelled = true;
          return { ...SCHEDULED_UNLOCK, state: 'cancelled' };
        },
      },
    );
    renderPage(appPaths.pendingCommands.href('scheduled'));
    const row = within(await screen.findByTestId(`pending-command-${SCHEDULED_UNLOCK.id}`));

    // Kept: nothing is sent.
    fireEvent.click(row.getByRole('button', { name: 'Cancel Camera unlock' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Cancel this command?' }));
    expect(dialog.getByText('Camera unlock for Vikram Singh will not be sent to the phone.')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.requestsTo(paths.devices.cancel)).toHaveLength(0);

    fireEvent.click(row.getByRole('button', { name: 'Cancel Camera unlock' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Cancel this command?' }));
    fireEvent.click(dialog.getByTestId('pending-command-cancel-confirm'));
    await waitFor(() => expect(api.requestsTo(paths.devices.cancel)).toHaveLength(1));
    expect(await api.requestsTo(paths.devices.cancel)[0]?.json()).toEqual({
      customer_id: 6,
      command_id: SCHEDULED_UNLOCK.id,
    });
    expect(await screen.findByText('Command cancelled')).toBeTruthy();
    expect((await screen.findByTestId('pending-commands-empty')).textContent).toBe(
      'No commands are scheduled.',
    );
  });

  it('reads the open list again every 10 seconds while the screen is visible', async () => {
    expect(PENDING_COMMANDS_POLL_MS).toBe(10_000);
    let calls = 0;
    let list: TOfflineCommand[] = [OFFLINE_LOCK];
    stubLists(
      () => {
        calls += 1;
        return list;
      },
      () => [],
    );
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(new Date('2026-11-22T12:00:00Z'));
    renderPage();
    await vi.waitFor(() => expect(screen.getByTestId(`pending-command-${OFFLINE_LOCK.id}`)).toBeTruthy());
    expect(calls).toBe(1);
    // The phone came online and took the lock.
    list = [];
    await vi.advanceTimersByTimeAsync(PENDING_COMMANDS_POLL_MS);
    await vi.waitFor(() => expect(screen.getByTestId('pending-commands-empty')).toBeTruthy());
    expect(calls).toBe(2);
  });
});
