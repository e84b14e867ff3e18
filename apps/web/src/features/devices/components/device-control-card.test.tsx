import type { TCommandFacts } from '@kisht/domain/devices/command-rules';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { createDeviceCommand, createDeviceSummary } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { DeviceControlCard } from './device-control-card';

/**
 * The lock card's safeguards (issue 25, the command gate's rules): a lock always says why, as a
 * category the rules accept (an overdue EMI only while one is overdue, and never on managed
 * Android), chosen in the confirmation and sent with the lock; a completed loan is not offered a
 * lock, and a phone released from Kisht nothing at all.
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

/** An installed (status 1) device-owner phone (family 0) with nothing overdue, unless overridden. */
const factsWith = (overrides: Partial<TCommandFacts> = {}): TCommandFacts => ({
  status: 1,
  deviceType: 0,
  overduePaise: 0,
  ...overrides,
});

const renderCard = (facts: TCommandFacts, lockStatus = 0) =>
  renderRoutes({
    i18n,
    url: '/card',
    routes: [
      {
        path: '/card',
        element: (
          <DeviceControlCard customerId={5} device={createDeviceSummary({ lockStatus })} facts={facts} />
        ),
      },
    ],
  });

const stubLock = () =>
  stubApi({ [paths.devices.lock]: () => createDeviceCommand({ name: 'lock', state: 'sent' }) });

/** The reason choices the picker offers, by value. */
const categoriesIn = (dialog: HTMLElement) =>
  [...(within(dialog).getByTestId('lock-reason-category') as HTMLSelectElement).options]
    .filter((option) => !option.disabled)
    .map((option) => option.value);

const openLockDialog = async () => {
  fireEvent.click(await screen.findByTestId('lock-button'));
  return screen.findByRole('dialog');
};

describe('the lock card asks why a phone is locked', () => {
  it('requires a category when nothing is overdue, never offers an overdue EMI, and sends the choice', async () => {
    const api = stubLock();
    renderCard(factsWith());
    const dialog = await openLockDialog();
    expect(within(dialog).getByTestId('lock-reason-why').textContent).toBe(
      'Nothing is overdue for this customer. Choose why you are locking the phone; the reason is recorded.',
    );
    expect(categoriesIn(dialog)).toEqual(['customer_request', 'fraud_or_theft', 'device_misuse', 'other']);
    expect((within(dialog).getByTestId('lock-reason-category') as HTMLSelectElement).value).toBe('');

    // Without a category nothing is sent.
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    expect(await within(dialog).findByText('Choose a reason', { selector: 'p' })).toBeTruthy();
    expect(api.requestsTo(paths.devices.lock)).toHaveLength(0);

    fireEvent.change(within(dialog).getByTestId('lock-reason-category'), {
      target: { value: 'customer_request' },
    });
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(api.requestsTo(paths.devices.lock)).toHaveLength(1));
    // No note written: none is sent.
    expect(await api.bodiesTo(paths.devices.lock)).toEqual([
      { customer_id: 5, reason_category: 'customer_request' },
    ]);
  });

  it('asks a note for "Other", of 5 to 300 characters, and sends it trimmed', async () => {
    const api = stubLock();
    renderCard(factsWith());
    const dialog = await openLockDialog();
    fireEvent.change(within(dialog).getByTestId('lock-reason-category'), { target: { value: 'other' } });
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    expect(await within(dialog).findByText('Write a note of 5 to 300 characters')).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('lock-reason'), { target: { value: ' ok ' } });
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    expect(api.requestsTo(paths.devices.lock)).toHaveLength(0);

    fireEvent.change(within(dialog).getByTestId('lock-reason'), {
      target: { value: '  Phone handed in for repair  ' },
    });
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(api.requestsTo(paths.devices.lock)).toHaveLength(1));
    expect(await api.bodiesTo(paths.devices.lock)).toEqual([
      { customer_id: 5, reason_category: 'other', reason: 'Phone handed in for repair' },
    ]);
  });

  it("puts the server's words on the category and the note under their fields", async () => {
    stubApi({
      [paths.devices.lock]: () =>
        failureResponse(400, 'Invalid reason', {
          fields: [
            { field: 'reason_category', message: 'Nothing is overdue for this customer: choose why' },
            { field: 'reason', message: 'Say why, in at least 5 characters' },
          ],
        }),
    });
    renderCard(factsWith());
    const dialog = await openLockDialog();
    fireEvent.change(within(dialog).getByTestId('lock-reason-category'), {
      target: { value: 'fraud_or_theft' },
    });
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    expect(await within(dialog).findByText('Nothing is overdue for this customer: choose why')).toBeTruthy();
    expect(within(dialog).getByText('Say why, in at least 5 characters')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('starts on "Overdue EMI" while something is overdue, shows the amount, and sends it', async () => {
    const api = stubLock();
    renderCard(factsWith({ overduePaise: 208_000 }));
    const dialog = await openLockDialog();
    expect(within(dialog).getByTestId('lock-overdue').textContent).toBe('Overdue now: ₹2,080.00');
    expect(within(dialog).queryByTestId('lock-reason-why')).toBeNull();
    const category = within(dialog).getByTestId('lock-reason-category') as HTMLSelectElement;
    expect(category.value).toBe('overdue_emi');
    expect(categoriesIn(dialog)).toEqual([
      '',
      'overdue_emi',
      'customer_request',
      'fraud_or_theft',
      'device_misuse',
      'other',
    ]);
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(api.requestsTo(paths.devices.lock)).toHaveLength(1));
    expect(await api.bodiesTo(paths.devices.lock)).toEqual([
      { customer_id: 5, reason_category: 'overdue_emi' },
    ]);
  });

  it('asks no reason for an unlock', async () => {
    const api = stubApi({
      [paths.devices.unlock]: () => createDeviceCommand({ name: 'unlock', state: 'sent' }),
    });
    renderCard(factsWith(), 1);
    fireEvent.click(await screen.findByTestId('unlock-button'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByTestId('lock-reason-picker')).toBeNull();
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(api.requestsTo(paths.devices.unlock)).toHaveLength(1));
    expect(await api.bodiesTo(paths.devices.unlock)).toEqual([{ customer_id: 5 }]);
  });
});

describe('what the rules refuse whatever the reason', () => {
  it('offers no lock once the EMIs are completed, and says why; an unlock still is', async () => {
    stubLock();
    renderCard(factsWith({ status: 5 }));
    expect((await screen.findByTestId('device-lock-refused')).textContent).toBe(
      'The EMIs of this customer are completed, so the phone cannot be locked.',
    );
    expect(screen.queryByTestId('lock-button')).toBeNull();
    // An unlock code is still offered.
    expect(screen.getByTestId('offline-code-open')).toBeTruthy();
    cleanup();
    renderCard(factsWith({ status: 5 }), 1);
    expect(await screen.findByTestId('unlock-button')).toBeTruthy();
    expect(screen.queryByTestId('device-lock-refused')).toBeNull();
  });

  it.each([3, 4])('offers nothing to send for a phone released from Kisht (status %i)', async (status) => {
    stubApi({});
    renderCard(factsWith({ status }), 1);
    expect((await screen.findByTestId('device-lock-refused')).textContent).toBe(
      'This phone was released from Kisht, so no command can be sent to it.',
    );
    expect(screen.queryByTestId('lock-button')).toBeNull();
    expect(screen.queryByTestId('unlock-button')).toBeNull();
    expect(screen.queryByTestId('offline-code-open')).toBeNull();
  });
});

describe("a managed-Android phone under Google's permissible-usage rule (issue 15)", () => {
  const MANAGED_OVERDUE = factsWith({ deviceType: 1, overduePaise: 761_278 });

  it('states the rule near the lock control, for managed Android only', async () => {
    renderCard(MANAGED_OVERDUE);
    const card = within(await screen.findByTestId('device-card'));
    expect(card.getByTestId('payment-lock-rule').textContent).toContain(
      "Google's rule: no lock for a missed payment",
    );
    expect(card.getByTestId('lock-button')).toBeTruthy();
    cleanup();
    renderCard(factsWith({ overduePaise: 761_278 }));
    await screen.findByTestId('device-card');
    expect(screen.queryByTestId('payment-lock-rule')).toBeNull();
  });

  it("never offers an overdue EMI as the reason, and shows the server's 409 PAYMENT_LOCK_NOT_ALLOWED in its words", async () => {
    const message =
      "Google's Android Management API does not allow locking a phone for a missed payment (permissible usage)";
    const api = stubApi({
      [paths.devices.lock]: () =>
        failureResponse(409, message, {
          code: 'PAYMENT_LOCK_NOT_ALLOWED',
          fields: [{ field: 'reason_category', message: 'Choose a reason that is not a payment' }],
        }),
    });
    renderCard(MANAGED_OVERDUE);
    const dialog = await openLockDialog();
    // Something is overdue, but a payment is no reason here: a category must be chosen.
    expect(within(dialog).getByTestId('lock-reason-why').textContent).toContain('Google');
    expect(categoriesIn(dialog)).toEqual(['customer_request', 'fraud_or_theft', 'device_misuse', 'other']);
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    expect(api.requestsTo(paths.devices.lock)).toHaveLength(0);

    fireEvent.change(within(dialog).getByTestId('lock-reason-category'), {
      target: { value: 'fraud_or_theft' },
    });
    fireEvent.change(within(dialog).getByTestId('lock-reason'), { target: { value: 'Reported stolen' } });
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(api.requestsTo(paths.devices.lock)).toHaveLength(1));
    expect(await api.bodiesTo(paths.devices.lock)).toEqual([
      { customer_id: 5, reason_category: 'fraud_or_theft', reason: 'Reported stolen' },
    ]);
    expect((await screen.findByTestId('payment-lock-refused')).textContent).toContain(message);
    // The confirmation stays open with the server's word under the category.
    expect(within(dialog).getByText('Choose a reason that is not a payment')).toBeTruthy();
    expect(screen.getByTestId('lock-state').textContent).toBe('Unlocked');
  });
});
