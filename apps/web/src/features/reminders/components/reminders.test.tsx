import { paths } from '@kisht/domain/paths';
import type { TCustomerReminders, TReminder } from '@kisht/domain/reminders/reminders.schema';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { CustomerRemindersCard } from './customer-reminders-card';
import { ReminderSettingsCard } from './reminder-settings-card';

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

const reminder = (id: number, overrides: Partial<TReminder> = {}): TReminder => ({
  id,
  channel: 'whatsapp',
  instalmentNo: 2,
  dueDate: '2026-12-02',
  offsetDays: -3,
  state: 'read',
  sendAfter: '2026-11-29T07:30:00.000Z',
  sentAt: '2026-11-29T07:30:00.000Z',
  deliveredAt: '2026-11-29T07:31:00.000Z',
  readAt: '2026-11-29T08:00:00.000Z',
  error: null,
  ...overrides,
});

const renderAt = (element: React.ReactNode) =>
  renderRoutes({ i18n, url: '/x', routes: [{ path: '/x', element }] });

describe("customer's payment reminders (issue 29)", () => {
  it('lists each reminder with its channel, instalment, day, state and time, or why it was not sent', async () => {
    const data: TCustomerReminders = {
      whatsappOptOut: false,
      items: [
        reminder(1),
        reminder(2, { channel: 'phone', state: 'failed', error: 'The phone has not been enrolled yet' }),
        reminder(3, {
          channel: 'sms',
          offsetDays: 1,
          state: 'queued',
          sentAt: null,
          deliveredAt: null,
          readAt: null,
        }),
      ],
    };
    stubApi({ [paths.reminders.ofCustomer]: () => data });
    renderAt(<CustomerRemindersCard customerId={5} />);
    const read = await screen.findByTestId('reminder-1');
    expect(read.textContent).toContain('EMI 2 · due 02-12-2026 · 3 days before');
    expect(read.textContent).toContain('29-11-2026 01:30 PM');
    expect(within(read).getByText('Read')).toBeTruthy();
    expect(within(read).getByLabelText('WhatsApp')).toBeTruthy();
    expect(screen.getByTestId('reminder-2').textContent).toContain('The phone has not been enrolled yet');
    expect(within(screen.getByTestId('reminder-2')).getByText('Not sent')).toBeTruthy();
    expect(screen.getByTestId('reminder-3').textContent).toContain('1 day after');
    expect(within(screen.getByTestId('reminder-3')).getByText('Waiting')).toBeTruthy();
  });

  it("turns WhatsApp off when the customer asks, and says they still get SMS and the phone's", async () => {
    let optOut = false;
    const api = stubApi({
      [paths.reminders.ofCustomer]: () => ({ whatsappOptOut: optOut, items: [] }),
      [paths.reminders.whatsappOptOut]: async (request) => {
        optOut = ((await request.json()) as { opt_out: boolean }).opt_out;
        return { whatsappOptOut: optOut, items: [] };
      },
    });
    renderAt(<CustomerRemindersCard customerId={5} />);
    expect(await screen.findByText('No reminders yet.')).toBeTruthy();
    const toggle = screen.getByRole('switch', { name: 'WhatsApp reminders' });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    fireEvent.click(toggle);
    await waitFor(() => expect(screen.getByText(/asked for no WhatsApp messages/)).toBeTruthy());
    expect(await api.bodiesTo(paths.reminders.whatsappOptOut)).toEqual([{ customer_id: 5, opt_out: true }]);
  });
});

describe('payment reminder schedule (issue 29)', () => {
  it('says when none is sent, and lets the retailer start from the usual schedule', async () => {
    let saved: unknown = null;
    const api = stubApi({
      [paths.reminders.settings]: async (request) => {
        if (request.method === 'PUT') saved = ((await request.json()) as { reminders: unknown }).reminders;
        return saved;
      },
    });
    renderAt(<ReminderSettingsCard canEdit />);
    expect((await screen.findByTestId('reminder-settings-summary')).textContent).toBe(
      'No payment reminders are sent. The retailer can turn them on.',
    );
    fireEvent.click(screen.getByTestId('reminder-settings-edit'));
    fireEvent.click(screen.getByTestId('reminder-settings-on'));
    // The usual schedule: 3 days before, on the day, 1, 3 and 7 days after, on every channel.
    expect(screen.getByTestId('reminder-day--3').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('reminder-day-30').getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(screen.getByTestId('reminder-day-7')); // off
    fireEvent.click(screen.getByTestId('reminder-day-15')); // on
    fireEvent.click(within(screen.getByTestId('reminder-channel-phone')).getByRole('checkbox'));
    fireEvent.click(screen.getByTestId('reminder-settings-save'));
    await waitFor(() =>
      expect(api.requestsTo(paths.reminders.settings).filter((r) => r.method === 'PUT')).toHaveLength(1),
    );
    expect(saved).toEqual({ offsetsDays: [-3, 0, 1, 3, 15], channels: ['sms', 'whatsapp'] });
    await waitFor(() =>
      expect(screen.getByTestId('reminder-settings-summary').textContent).toBe(
        'Customers are reminded of unpaid EMIs 3 days before, on the due date, 1 day after, 3 days after, 15 days after, by SMS, WhatsApp.',
      ),
    );
  });

  it('shows the schedule to a mini-retailer without an edit button, and the quiet hours', async () => {
    stubApi({ [paths.reminders.settings]: () => ({ offsetsDays: [0], channels: ['sms'] }) });
    renderAt(<ReminderSettingsCard canEdit={false} />);
    expect((await screen.findByTestId('reminder-settings-summary')).textContent).toBe(
      'Customers are reminded of unpaid EMIs on the due date, by SMS.',
    );
    expect(screen.queryByTestId('reminder-settings-edit')).toBeNull();
    expect(screen.getByText(/between 9 PM and 9 AM/)).toBeTruthy();
  });

  it("keeps the editor open with the server's refusal", async () => {
    stubApi({
      [paths.reminders.settings]: (request) =>
        request.method === 'PUT'
          ? failureResponse(403, 'Only the retailer can change these settings', { code: 'FORBIDDEN' })
          : null,
    });
    renderAt(<ReminderSettingsCard canEdit />);
    fireEvent.click(await screen.findByTestId('reminder-settings-edit'));
    fireEvent.click(screen.getByTestId('reminder-settings-on'));
    fireEvent.click(screen.getByTestId('reminder-settings-save'));
    expect(await screen.findByText('Only the retailer can change these settings')).toBeTruthy();
    expect(screen.getByTestId('reminder-settings-save')).toBeTruthy();
  });
});
