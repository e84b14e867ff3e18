import type { TLockRule } from '@kisht/domain/devices/devices.rules';
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
 * The lock card's safeguards (issue 12): a customer with nothing overdue is locked only with a
 * reason, asked for in the confirmation and sent with the lock; a completed loan is not offered a
 * lock at all.
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

const renderCard = (lockRule: TLockRule, lockStatus = 0) =>
  renderRoutes({
    i18n,
    url: '/card',
    routes: [
      {
        path: '/card',
        element: (
          <DeviceControlCard
            customerId={5}
            device={createDeviceSummary({ lockStatus })}
            lockRule={lockRule}
          />
        ),
      },
    ],
  });

const stubLock = () =>
  stubApi({ [paths.devices.lock]: () => createDeviceCommand({ name: 'lock', state: 'sent' }) });

describe('the lock card asks why a paid-up phone is locked', () => {
  it('asks for a reason when nothing is overdue, says why, and sends it with the lock', async () => {
    const api = stubLock();
    renderCard({ kind: 'needs_reason' });
    fireEvent.click(await screen.findByTestId('lock-button'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('lock-reason-why').textContent).toBe(
      'Nothing is overdue for this customer. Say why you are locking the phone; the reason is recorded.',
    );
    // Without a reason (or with too short a one) nothing is sent.
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    expect(await within(dialog).findByText('Write why, in 5 to 300 characters')).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('lock-reason'), { target: { value: ' ok ' } });
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    expect(api.requestsTo(paths.devices.lock)).toHaveLength(0);

    fireEvent.change(within(dialog).getByTestId('lock-reason'), {
      target: { value: '  Customer asked us to test the lock  ' },
    });
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(api.requestsTo(paths.devices.lock)).toHaveLength(1));
    expect(await api.bodiesTo(paths.devices.lock)).toEqual([
      { customer_id: 5, reason: 'Customer asked us to test the lock' },
    ]);
  });

  it("puts the server's word on the reason under the field", async () => {
    stubApi({
      [paths.devices.lock]: () =>
        failureResponse(400, 'Nothing is overdue', {
          fields: [
            { field: 'reason', message: 'Required: nothing is overdue, so say why the phone is locked' },
          ],
        }),
    });
    renderCard({ kind: 'needs_reason' });
    fireEvent.click(await screen.findByTestId('lock-button'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByTestId('lock-reason'), { target: { value: 'A good reason' } });
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    expect(
      await within(dialog).findByText('Required: nothing is overdue, so say why the phone is locked'),
    ).toBeTruthy();
  });

  it('locks an overdue customer without a reason, showing what is overdue', async () => {
    const api = stubLock();
    renderCard({ kind: 'overdue', overduePaise: 208_000 });
    fireEvent.click(await screen.findByTestId('lock-button'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('lock-overdue').textContent).toBe('Overdue now: ₹2,080.00');
    expect(within(dialog).queryByTestId('lock-reason')).toBeNull();
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(api.requestsTo(paths.devices.lock)).toHaveLength(1));
    expect(await api.bodiesTo(paths.devices.lock)).toEqual([{ customer_id: 5 }]);
  });

  it('does not offer a lock once the EMIs are completed, and says why; an unlock still is', async () => {
    stubLock();
    renderCard({ kind: 'refused', why: 'loan_completed' });
    expect(await screen.findByTestId('device-lock-refused')).toBeTruthy();
    expect(screen.getByTestId('device-lock-refused').textContent).toBe(
      'The EMIs of this customer are completed, so the phone cannot be locked.',
    );
    expect(screen.queryByTestId('lock-button')).toBeNull();
    cleanup();
    renderCard({ kind: 'refused', why: 'loan_completed' }, 1);
    expect(await screen.findByTestId('unlock-button')).toBeTruthy();
    expect(screen.queryByTestId('device-lock-refused')).toBeNull();
  });
});

describe("a managed-Android phone under Google's permissible-usage rule (issue 15)", () => {
  const renderFamilyCard = (deviceType: number) =>
    renderRoutes({
      i18n,
      url: '/card',
      routes: [
        {
          path: '/card',
          element: (
            <DeviceControlCard
              customerId={5}
              device={createDeviceSummary()}
              lockRule={{ kind: 'overdue', overduePaise: 761_278 }}
              deviceType={deviceType}
            />
          ),
        },
      ],
    });

  it('states the rule near the lock control, for managed Android only', async () => {
    renderFamilyCard(1);
    const card = within(await screen.findByTestId('device-card'));
    expect(card.getByTestId('payment-lock-rule').textContent).toContain(
      "Google's rule: no lock for a missed payment",
    );
    expect(card.getByTestId('lock-button')).toBeTruthy();
    cleanup();
    renderFamilyCard(0);
    await screen.findByTestId('device-card');
    expect(screen.queryByTestId('payment-lock-rule')).toBeNull();
  });

  it("shows the server's refusal of a payment-driven lock (409 PAYMENT_LOCK_NOT_ALLOWED) in its words", async () => {
    const message =
      "Google's Android Management API does not allow locking a phone for a missed payment (permissible usage)";
    const api = stubApi({
      [paths.devices.lock]: () => failureResponse(409, message, { code: 'PAYMENT_LOCK_NOT_ALLOWED' }),
    });
    renderFamilyCard(1);
    fireEvent.click(await screen.findByTestId('lock-button'));
    const dialog = await screen.findByRole('dialog');
    // A managed-Android lock always asks why, saying Google's rule; without a reason nothing is sent.
    expect(within(dialog).getByTestId('lock-reason-why').textContent).toContain('Google');
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    expect(api.requestsTo(paths.devices.lock)).toHaveLength(0);
    fireEvent.change(within(dialog).getByTestId('lock-reason'), {
      target: { value: 'EMI overdue for weeks' },
    });
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(api.requestsTo(paths.devices.lock)).toHaveLength(1));
    expect(await api.bodiesTo(paths.devices.lock)).toEqual([
      expect.objectContaining({ reason: 'EMI overdue for weeks' }),
    ]);
    expect((await screen.findByTestId('payment-lock-refused')).textContent).toContain(message);
    expect(screen.getByTestId('lock-state').textContent).toBe('Unlocked');
  });
});
