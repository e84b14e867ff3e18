import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TFakeHandler } from '../test/fake-api';
import {
  createCommandHistoryItem,
  createCustomerDetails,
  createDeviceCommand,
  createDeviceSummary,
} from '../test/fixtures';
import { createTestI18n } from '../test/test-i18n';
import { renderCustomerDetails, stubCustomerDetailsApi } from './customer-details-test-support';

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

const stubDetailsApi = (deviceType: number, handlers: Record<string, TFakeHandler> = {}) =>
  stubCustomerDetailsApi({
    customer: () =>
      createCustomerDetails({
        deviceType,
        device: createDeviceSummary({ availability: { controls: ['lock'], actions: ['reboot'] } }),
      }),
    history: [
      createCommandHistoryItem({
        id: 'msg-1',
        name: 'show_message',
        state: 'done',
        args: { title: 'Offer', text: 'Diwali discount on covers', from: 'Ravi Mobiles' },
      }),
    ],
    handlers,
  });

describe('Send message (send_fcm_retailer_to_customer)', () => {
  it('sends the title and message from the dialog and shows the text in the history', async () => {
    const api = stubDetailsApi(0, {
      [paths.messages.send]: () => createDeviceCommand({ name: 'show_message' }),
    });
    renderCustomerDetails(i18n, 'actions');
    expect((await screen.findByTestId('command-message-msg-1')).textContent).toBe(
      'Offer: “Diwali discount on covers”',
    );
    fireEvent.click(await screen.findByTestId('action-send-message'));
    const dialog = within(await screen.findByTestId('send-message-dialog'));
    // An empty message is refused before anything is sent.
    fireEvent.click(dialog.getByTestId('send-message-submit'));
    expect(await dialog.findByText('This is a required field')).toBeTruthy();
    expect(api.requestsTo(paths.messages.send)).toHaveLength(0);

    fireEvent.change(dialog.getByTestId('send-message-title'), { target: { value: 'Reminder' } });
    fireEvent.change(dialog.getByTestId('send-message-text'), {
      target: { value: '  Please visit the shop  ' },
    });
    fireEvent.click(dialog.getByTestId('send-message-submit'));
    await waitFor(() => expect(screen.queryByTestId('send-message-dialog')).toBeNull());
    expect(await api.bodiesTo(paths.messages.send)).toEqual([
      { customer_id: 5, title: 'Reminder', message: 'Please visit the shop' },
    ]);
  });

  it('is not offered for an iPhone, which cannot show a message', async () => {
    stubDetailsApi(3);
    renderCustomerDetails(i18n, 'actions');
    expect(await screen.findByTestId('action-reboot')).toBeTruthy();
    expect(screen.queryByTestId('action-send-message')).toBeNull();
  });
});
