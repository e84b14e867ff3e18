import type { TLockAccess, TUserAccess } from '@kisht/domain/devices/devices.schema';
import { DEFAULT_LOCK_ACCESS, DEFAULT_USER_ACCESS } from '@kisht/domain/devices/devices.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import { stubApi } from '../../../test/fake-api';
import { createBulkProgress } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { LockAllOverdueButton, OverdueLockButton } from './overdue-lock';

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

const BULK_ALLOWED: TUserAccess = { ...DEFAULT_USER_ACCESS, bulk_retailer: '1' };
const LOCK_COMMAND = {
  id: '0190f3a2-8000-7000-8000-000000000002',
  name: 'lock',
  state: 'sent',
  error: null,
  createdAt: '2026-03-05T04:30:00.000Z',
  updatedAt: '2026-03-05T04:30:00.000Z',
};

const stubAccess = (userAccess: TUserAccess, lockAccess: TLockAccess = DEFAULT_LOCK_ACCESS) =>
  stubApi({
    [paths.users.userAccess]: () => userAccess,
    [paths.users.lockAccess]: () => lockAccess,
    [paths.devices.lock]: () => LOCK_COMMAND,
    [paths.devices.bulkPreview]: () => ({ total: 3, skipped: 1 }),
    [paths.devices.bulkLockUnlock]: () =>
      createBulkProgress({ batchId: '0190f3a2-9000-7000-8000-0000000000aa' }),
    [paths.devices.bulkProgress]: () => createBulkProgress(),
  });

const renderButtons = () =>
  renderRoutes({
    i18n,
    url: '/overdue',
    routes: [
      {
        path: '/overdue',
        element: (
          <>
            <OverdueLockButton customerId={70} customerName="Asha Verma" />
            <LockAllOverdueButton />
          </>
        ),
      },
      { path: appPaths.multipleLockUnlock.path, element: <p>bulk progress screen</p> },
    ],
  });

describe('locks from the Overdue tab of up_coming_emi (issue 28)', () => {
  it('locks one overdue phone after a confirmation naming the customer, with no reason (the overdue EMI)', async () => {
    const api = stubAccess(BULK_ALLOWED);
    renderButtons();
    fireEvent.click(await screen.findByTestId('overdue-lock-70'));
    expect(await screen.findByRole('dialog', { name: "Lock Asha Verma's phone?" })).toBeTruthy();
    fireEvent.click(screen.getByTestId('overdue-lock-confirm'));
    await waitFor(() => expect(api.requestsTo(paths.devices.lock)).toHaveLength(1));
    expect(await api.requestsTo(paths.devices.lock)[0]!.json()).toEqual({ customer_id: 70 });
  });

  it('locks all overdue with the bulk preview and confirmation, then opens the progress', async () => {
    const api = stubAccess(BULK_ALLOWED);
    const { router } = renderButtons();
    fireEvent.click(await screen.findByTestId('lock-all-overdue'));
    expect(await screen.findByRole('dialog', { name: 'Lock 3 phones?' })).toBeTruthy();
    expect(new URL(api.requestsTo(paths.devices.bulkPreview)[0]!.url).searchParams.get('filter')).toBe(
      'overdue',
    );
    fireEvent.click(screen.getByTestId('bulk-confirm'));
    expect(await screen.findByText('bulk progress screen')).toBeTruthy();
    expect(await api.requestsTo(paths.devices.bulkLockUnlock)[0]!.json()).toEqual({
      action: 'lock',
      filter: 'overdue',
    });
    expect(router.state.location.search).toContain('0190f3a2-9000-7000-8000-0000000000aa');
  });

  it('offers neither without lock access, and no "Lock all" without the bulk_retailer flag', async () => {
    stubAccess({ ...DEFAULT_USER_ACCESS, bulk_retailer: '0' });
    renderButtons();
    expect(await screen.findByTestId('overdue-lock-70')).toBeTruthy();
    expect(screen.queryByTestId('lock-all-overdue')).toBeNull();
    cleanup();
    stubAccess(BULK_ALLOWED, { ...DEFAULT_LOCK_ACCESS, lock: '0' });
    renderButtons();
    await waitFor(() => expect(screen.queryByTestId('overdue-lock-70')).toBeNull());
    expect(screen.queryByTestId('lock-all-overdue')).toBeNull();
  });
});
