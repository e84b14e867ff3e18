import type { TCustomerListItem } from '@kisht/domain/customers/customers.schema';
import type { TBulkProgress, TLockAccess, TUserAccess } from '@kisht/domain/devices/devices.schema';
import { DEFAULT_LOCK_ACCESS, DEFAULT_USER_ACCESS } from '@kisht/domain/devices/devices.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import type { TFakeHandler } from '../../../test/fake-api';
import { stubApi } from '../../../test/fake-api';
import { createBulkProgress } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { MultipleLockUnlockPage } from './multiple-lock-unlock-page';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const BULK_ALLOWED: TUserAccess = { ...DEFAULT_USER_ACCESS, bulk_retailer: '1' };

const listItem = (id: number, firstName: string, lastName: string): TCustomerListItem => ({
  id,
  firstName,
  lastName,
  mobile: `+9198765432${String(id).padStart(2, '0')}`,
  imei1: '356938035643809',
  productName: 'Redmi Note 14 5G',
  status: 1,
  lockStatus: 0,
  createdAt: '2026-01-15T06:45:00Z',
});
const CUSTOMERS = [listItem(5, 'Anita', 'Rao'), listItem(6, 'Vikram', 'Singh'), listItem(7, 'Meena', 'Iyer')];

/** Every GET the page makes, answered: the access flags, the customer list, a batch's progress. */
const stubBulkApi = (
  options: {
    userAccess?: TUserAccess;
    lockAccess?: TLockAccess;
    progress?: () => TBulkProgress;
    handlers?: Record<string, TFakeHandler>;
  } = {},
) =>
  stubApi({
    [paths.users.userAccess]: () => options.userAccess ?? BULK_ALLOWED,
    [paths.users.lockAccess]: () => options.lockAccess ?? DEFAULT_LOCK_ACCESS,
    [paths.customers.list]: (_request, url) => {
      const search = url.searchParams.get('search')?.toLowerCase() ?? '';
      const items = CUSTOMERS.filter((customer) =>
        `${customer.firstName} ${customer.lastName}`.toLowerCase().includes(search),
      );
      return { items, total: items.length, page: 1, pageSize: 20 };
    },
    [paths.devices.bulkProgress]: () => (options.progress ?? (() => createBulkProgress()))(),
    ...options.handlers,
  });

const renderPage = (url = appPaths.multipleLockUnlock.href()) =>
  renderRoutes({
    i18n,
    url,
    routes: [{ path: appPaths.multipleLockUnlock.path, element: <MultipleLockUnlockPage /> }],
  });

describe('multiple_lock_unlock: who may send', () => {
  it('keeps the submit disabled, and says why, without the bulk_retailer flag (off by default)', async () => {
    stubBulkApi({ userAccess: { ...DEFAULT_USER_ACCESS } });
    renderPage();
    expect(await screen.findByTestId('bulk-no-access')).toBeTruthy();
    expect(screen.getByTestId<HTMLButtonElement>('bulk-submit').disabled).toBe(true);
  });

  it('hides lock and unlock when lock_unlock is off, and each when lock access denies it', async () => {
    stubBulkApi({ userAccess: { ...BULK_ALLOWED, lock_unlock: '0' } });
    renderPage();
    expect(await screen.findByTestId('bulk-no-lock-access')).toBeTruthy();
    expect(screen.queryByTestId('bulk-action-lock')).toBeNull();
    expect(screen.queryByTestId('bulk-action-unlock')).toBeNull();
    expect(screen.queryByTestId('bulk-submit')).toBeNull();
    cleanup();

    stubBulkApi({ lockAccess: { ...DEFAULT_LOCK_ACCESS, lock: '0' } });
    renderPage();
    expect(await screen.findByTestId('bulk-action-unlock')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('bulk-action-lock')).toBeNull());
  });
});

describe('multiple_lock_unlock: a bulk request and its progress', () => {
  it('names how many phones a filter reaches in the confirmation, from the server’s preview', async () => {
    const api = stubBulkApi({ handlers: { [paths.devices.bulkPreview]: () => ({ total: 37, skipped: 2 }) } });
    renderPage();
    await waitFor(() => expect(screen.getByTestId<HTMLButtonElement>('bulk-submit').disabled).toBe(false));
    fireEvent.click(screen.getByTestId('bulk-action-unlock'));
    fireEvent.click(screen.getByTestId('bulk-filter-all_enrolled'));
    fireEvent.click(screen.getByTestId('bulk-submit'));
    const dialog = await screen.findByRole('dialog', { name: 'Unlock 37 phones?' });
    expect(dialog.textContent).not.toContain('shown once the request is made');
    const [asked] = api.requestsTo(paths.devices.bulkPreview);
    expect(Object.fromEntries(new URL(asked!.url).searchParams)).toEqual({
      action: 'unlock',
      filter: 'all_enrolled',
    });
    expect(api.requestsTo(paths.devices.bulkLockUnlock)).toHaveLength(0);
  });

  it('locks every phone with an overdue EMI after confirming, then follows the progress until every command ends', async () => {
    const batch = createBulkProgress();
    let polls = 0;
    const api = stubBulkApi({
      handlers: { [paths.devices.bulkLockUnlock]: () => batch },
      progress: () => {
        polls += 1;
        if (polls < 2) {
          return {
            ...batch,
            counts: { ...batch.counts, queued: 0, sent: 1, done: 1 },
            items: [
              { ...batch.items[0]!, state: 'done' },
              { ...batch.items[1]!, state: 'sent' },
            ],
          };
        }
        return {
          ...batch,
          counts: { ...batch.counts, queued: 0, done: 1, failed: 1 },
          skipped: [{ customerId: 9, reason: 'Phone not enrolled' }],
          items: [
            { ...batch.items[0]!, state: 'done' },
            { ...batch.items[1]!, state: 'failed', error: 'Device rejected the command' },
          ],
        };
      },
    });
    const { router } = renderPage();
    await waitFor(() => expect(screen.getByTestId<HTMLButtonElement>('bulk-submit').disabled).toBe(false));
    fireEvent.click(screen.getByTestId('bulk-filter-overdue'));
    fireEvent.click(screen.getByTestId('bulk-submit'));
    const dialog = await screen.findByRole('dialog', { name: 'Lock every phone with an overdue EMI?' });
    expect(api.requestsTo(paths.devices.bulkLockUnlock)).toHaveLength(0);
    fireEvent.click(within(dialog).getByTestId('bulk-confirm'));

    await waitFor(() => expect(router.state.location.search).toBe(`?batch_id=${batch.batchId}`));
    expect(await api.bodiesTo(paths.devices.bulkLockUnlock)).toEqual([{ action: 'lock', filter: 'overdue' }]);
    expect((await screen.findByTestId('bulk-progress-view')).textContent).toContain('Locking phones');

    await waitFor(() => expect(screen.getByTestId('bulk-count-failed').textContent).toBe('1'));
    expect(screen.getByTestId('bulk-count-done').textContent).toBe('1');
    expect(screen.getByTestId('bulk-count-queued').textContent).toBe('0');
    expect(screen.getByTestId('bulk-progress').getAttribute('aria-valuenow')).toBe('100');
    expect(screen.getByTestId('bulk-progress-label').textContent).toBe('2 of 2 finished');
    expect(screen.getByTestId('bulk-complete')).toBeTruthy();
    expect(screen.getByTestId('bulk-item-state-5').textContent).toBe('done');
    expect(screen.getByTestId('bulk-item-6').textContent).toContain('Device rejected the command');
    expect(screen.getByTestId('bulk-skipped').textContent).toContain('1 customer skipped');
    expect(screen.getByTestId('bulk-skipped-9').textContent).toContain('Phone not enrolled');

    // Every command has ended: no more polling.
    const polled = api.requestsTo(paths.devices.bulkProgress).length;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(api.requestsTo(paths.devices.bulkProgress).length).toBe(polled);
  });

  it('says no phone got the command when every chosen customer was left out, and follows no progress', async () => {
    const api = stubBulkApi({
      handlers: {
        [paths.devices.bulkLockUnlock]: () =>
          createBulkProgress({
            total: 0,
            counts: { queued: 0, sent: 0, received: 0, done: 0, failed: 0, cancelled: 0, expired: 0 },
            skipped: [{ customerId: 5, reason: 'nothing overdue' }],
            items: [],
          }),
      },
    });
    renderPage();
    fireEvent.click(screen.getByTestId('bulk-filter-selection'));
    fireEvent.click(await screen.findByTestId('bulk-customer-5'));
    fireEvent.click(screen.getByTestId('bulk-submit'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByTestId('bulk-confirm'));
    expect((await screen.findByTestId('bulk-nothing-sent')).textContent).toContain(
      'No phone got the command: every customer chosen was left out (not enrolled, nothing overdue, or not allowed). Left out: 1.',
    );
    expect(api.requestsTo(paths.devices.bulkProgress)).toHaveLength(0);
    expect(screen.queryByTestId('bulk-progress-view')).toBeNull();
  });

  it('unlocks customers chosen from the list, saying how many phones', async () => {
    const api = stubBulkApi({
      handlers: { [paths.devices.bulkLockUnlock]: () => createBulkProgress({ action: 'unlock' }) },
      progress: () => createBulkProgress({ action: 'unlock' }),
    });
    renderPage();
    fireEvent.click(await screen.findByTestId('bulk-action-unlock'));
    fireEvent.click(screen.getByTestId('bulk-filter-selection'));
    expect(screen.getByTestId<HTMLButtonElement>('bulk-submit').disabled).toBe(true);
    fireEvent.click(await screen.findByTestId('bulk-customer-5'));
    fireEvent.change(screen.getByTestId('bulk-search'), { target: { value: 'vik' } });
    await waitFor(() => expect(screen.queryByTestId('bulk-customer-5')).toBeNull());
    expect(
      api.requestsTo(paths.customers.list).map((request) => new URL(request.url).searchParams.get('search')),
    ).toContain('vik');
    fireEvent.click(screen.getByTestId('bulk-customer-6'));
    expect(screen.getByTestId('bulk-selected-count').textContent).toBe('2 customers chosen');

    fireEvent.click(screen.getByTestId('bulk-submit'));
    const dialog = await screen.findByRole('dialog', { name: 'Unlock 2 phones?' });
    fireEvent.click(within(dialog).getByTestId('bulk-confirm'));
    await waitFor(() => expect(api.requestsTo(paths.devices.bulkLockUnlock)).toHaveLength(1));
    expect(await api.bodiesTo(paths.devices.bulkLockUnlock)).toEqual([
      { action: 'unlock', customer_ids: [5, 6] },
    ]);
    expect(await screen.findByText('Unlocking phones')).toBeTruthy();
  });

  it('does not let customers uninstalled, Apple-removed or with EMIs completed be chosen, nor counts them', async () => {
    const finished = [
      { ...listItem(8, 'Sneha', 'Iyer'), status: 5 as const },
      { ...listItem(9, 'Arjun', 'Nair'), status: 3 as const },
      { ...listItem(10, 'Kavya', 'Menon'), status: 4 as const },
    ];
    const api = stubBulkApi({
      handlers: {
        [paths.customers.list]: () => ({
          items: [CUSTOMERS[0]!, ...finished],
          total: 4,
          page: 1,
          pageSize: 20,
        }),
        [paths.devices.bulkLockUnlock]: () => createBulkProgress(),
      },
    });
    renderPage();
    expect((await screen.findByTestId('bulk-excluded-note')).textContent).toContain('EMIs are completed');
    fireEvent.click(screen.getByTestId('bulk-filter-selection'));
    fireEvent.click(await screen.findByTestId('bulk-customer-5'));
    for (const customer of finished) fireEvent.click(screen.getByTestId(`bulk-customer-${customer.id}`));
    expect(screen.getByTestId('bulk-customer-8').textContent).toContain('EMIs completed');
    expect(screen.getByTestId('bulk-customer-9').textContent).toContain('Uninstalled');
    expect(screen.getByTestId('bulk-customer-10').textContent).toContain('Apple profile removed');
    expect(screen.getByTestId('bulk-selected-count').textContent).toBe('1 customer chosen');

    fireEvent.click(screen.getByTestId('bulk-submit'));
    const dialog = await screen.findByRole('dialog', { name: 'Lock 1 phone?' });
    fireEvent.click(within(dialog).getByTestId('bulk-confirm'));
    await waitFor(() => expect(api.requestsTo(paths.devices.bulkLockUnlock)).toHaveLength(1));
    expect(await api.bodiesTo(paths.devices.bulkLockUnlock)).toEqual([{ action: 'lock', customer_ids: [5] }]);
  });

  it('renders only the rows on screen of a batch of many phones', async () => {
    const items = Array.from({ length: 2000 }, (_, index) => ({
      customerId: index + 1,
      customerName: `Customer ${index + 1}`,
      commandId: `0193a5a4-7e0e-7c55-8f00-${String(index + 1).padStart(12, '0')}`,
      state: 'done' as const,
      error: null,
    }));
    // jsdom lays nothing out: every row is 56 px tall, the list at the top of the page.
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(() => 56);
    vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(() =>
      DOMRect.fromRect({ x: 0, y: 0, width: 360, height: 56 }),
    );
    stubBulkApi({
      progress: () =>
        createBulkProgress({
          total: items.length,
          counts: {
            queued: 0,
            sent: 0,
            received: 0,
            done: items.length,
            failed: 0,
            cancelled: 0,
            expired: 0,
          },
          items,
        }),
    });
    renderPage(appPaths.multipleLockUnlock.href(createBulkProgress().batchId));
    const list = await screen.findByTestId('bulk-items');
    expect(screen.getByTestId('bulk-count-done').textContent).toBe('2000');
    const rendered = within(list).getAllByRole('listitem').length;
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(100);
  });
});
