import { paths } from '@kisht/domain/paths';
import type { TWebhookDelivery, TWebhookEndpoint } from '@kisht/domain/webhooks/webhooks.schema';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { WebhooksPanel } from './webhooks-panel';

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

const endpoint = (overrides: Partial<TWebhookEndpoint> = {}): TWebhookEndpoint => ({
  id: 3,
  url: 'https://lender.example/kisht',
  description: 'HDB loan system',
  events: ['device.locked', 'payment.recorded'],
  status: 'enabled',
  disabledReason: null,
  createdAt: '2026-11-29T07:30:00.000Z',
  ...overrides,
});

const delivery = (overrides: Partial<TWebhookDelivery> = {}): TWebhookDelivery => ({
  id: 'msg_2a8Kq9ZpLm3Xw7Yt',
  eventType: 'device.locked',
  status: 'delivered',
  attempts: 1,
  lastStatusCode: 200,
  lastError: null,
  nextAttemptAt: null,
  createdAt: '2026-11-29T07:30:00.000Z',
  deliveredAt: '2026-11-29T07:30:01.000Z',
  ...overrides,
});

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const renderPanel = () =>
  renderRoutes({ i18n, url: '/admin', routes: [{ path: '/admin', element: <WebhooksPanel /> }] });

describe('the webhooks panel (issue 30)', () => {
  it('lists the endpoints with their events and status', async () => {
    stubApi({
      [paths.webhooks.endpoints]: () => [
        endpoint(),
        endpoint({ id: 4, url: 'https://other.example/hook', description: null, events: ['sim.changed'] }),
      ],
    });
    renderPanel();
    const first = await screen.findByTestId('webhook-endpoint-3');
    expect(first.textContent).toContain('https://lender.example/kisht');
    expect(first.textContent).toContain('HDB loan system');
    expect(within(first).getByText('Phone locked')).toBeTruthy();
    expect(within(first).getByText('Payment recorded')).toBeTruthy();
    expect(within(first).getByTestId('webhook-status-3').textContent).toBe('Enabled');
    expect(within(first).queryByTestId('webhook-enable-3')).toBeNull();
    expect(within(screen.getByTestId('webhook-endpoint-4')).getByText('SIM changed')).toBeTruthy();
  });

  it('adds an endpoint with its URL and events, and shows the secret once', async () => {
    let endpoints: TWebhookEndpoint[] = [];
    const api = stubApi({
      [paths.webhooks.endpoints]: async (request) => {
        if (request.method !== 'POST') return endpoints;
        const body = (await request.json()) as { url: string; events: TWebhookEndpoint['events'] };
        const created = endpoint({ url: body.url, events: body.events, description: null });
        endpoints = [created];
        return { endpoint: created, secret: SECRET };
      },
    });
    renderPanel();
    expect(await screen.findByTestId('webhooks-empty')).toBeTruthy();
    fireEvent.click(screen.getByTestId('webhook-add'));
    fireEvent.change(await screen.findByTestId('webhook-url'), {
      target: { value: 'https://lender.example/kisht' },
    });

    // No event chosen: nothing is sent.
    fireEvent.click(screen.getByTestId('webhook-save'));
    expect(await screen.findByText('Choose at least one event')).toBeTruthy();
    expect(api.requestsTo(paths.webhooks.endpoints).filter((r) => r.method === 'POST')).toHaveLength(0);

    fireEvent.click(within(screen.getByTestId('webhook-event-payment.recorded')).getByRole('checkbox'));
    fireEvent.click(within(screen.getByTestId('webhook-event-device.locked')).getByRole('checkbox'));
    fireEvent.click(screen.getByTestId('webhook-save'));

    const secret = await screen.findByTestId('webhook-secret');
    expect(within(secret).getByTestId('webhook-secret-value').textContent).toBe(SECRET);
    expect(secret.textContent).toContain('it will not be shown again');
    const posts = api.requestsTo(paths.webhooks.endpoints).filter((r) => r.method === 'POST');
    expect(await Promise.all(posts.map((r) => r.json()))).toEqual([
      { url: 'https://lender.example/kisht', events: ['device.locked', 'payment.recorded'] },
    ]);

    fireEvent.click(within(secret).getByTestId('webhook-secret-done'));
    await waitFor(() => expect(screen.queryByTestId('webhook-secret')).toBeNull());
    expect(await screen.findByTestId('webhook-endpoint-3')).toBeTruthy();
    expect(screen.queryByText(SECRET)).toBeNull();
  });

  it('shows the server’s words under the field it refused', async () => {
    stubApi({
      [paths.webhooks.endpoints]: (request) =>
        request.method === 'POST'
          ? failureResponse(400, 'Invalid input', {
              fields: [{ field: 'url', message: 'Only https URLs are accepted' }],
            })
          : [],
    });
    renderPanel();
    fireEvent.click(await screen.findByTestId('webhook-add'));
    fireEvent.change(await screen.findByTestId('webhook-url'), {
      target: { value: 'http://lender.example' },
    });
    fireEvent.click(within(screen.getByTestId('webhook-event-sim.changed')).getByRole('checkbox'));
    fireEvent.click(screen.getByTestId('webhook-save'));
    expect(await screen.findByText('Only https URLs are accepted')).toBeTruthy();
    expect(screen.queryByTestId('webhook-secret')).toBeNull();
  });

  it('shows a disabled endpoint’s reason and enables it again', async () => {
    let current = endpoint({
      status: 'disabled',
      disabledReason: 'msg_2a8Kq9ZpLm3Xw7Yt failed for 27 hours (HTTP 503)',
    });
    const api = stubApi({
      [paths.webhooks.endpoints]: () => [current],
      [paths.webhooks.enable]: () => {
        current = { ...current, status: 'enabled', disabledReason: null };
        return current;
      },
    });
    renderPanel();
    expect((await screen.findByTestId('webhook-status-3')).textContent).toBe('Disabled');
    expect(screen.getByTestId('webhook-reason-3').textContent).toContain('failed for 27 hours (HTTP 503)');
    fireEvent.click(screen.getByTestId('webhook-enable-3'));
    await waitFor(() => expect(screen.getByTestId('webhook-status-3').textContent).toBe('Enabled'));
    expect(await api.bodiesTo(paths.webhooks.enable)).toEqual([{ endpoint_id: 3 }]);
    expect(screen.queryByTestId('webhook-enable-3')).toBeNull();
    expect(screen.queryByTestId('webhook-reason-3')).toBeNull();
  });

  it('rotates the secret only after the confirmation, and shows the new one', async () => {
    const api = stubApi({
      [paths.webhooks.endpoints]: () => [endpoint()],
      [paths.webhooks.rotate]: () => ({ endpoint: endpoint(), secret: SECRET }),
    });
    renderPanel();
    fireEvent.click(await screen.findByTestId('webhook-rotate-3'));
    expect(await screen.findByText('Rotate the signing secret?')).toBeTruthy();
    expect(api.requestsTo(paths.webhooks.rotate)).toHaveLength(0);
    fireEvent.click(screen.getByTestId('webhook-confirm'));
    expect(within(await screen.findByTestId('webhook-secret')).getByText(SECRET)).toBeTruthy();
    expect(await api.bodiesTo(paths.webhooks.rotate)).toEqual([{ endpoint_id: 3 }]);
  });

  it('removes an endpoint only after the confirmation', async () => {
    let endpoints = [endpoint()];
    const api = stubApi({
      [paths.webhooks.endpoints]: (request) => {
        if (request.method === 'DELETE') {
          const [removed] = endpoints;
          endpoints = [];
          return removed;
        }
        return endpoints;
      },
    });
    renderPanel();
    fireEvent.click(await screen.findByTestId('webhook-remove-3'));
    expect(await screen.findByText('Remove this endpoint?')).toBeTruthy();
    fireEvent.click(screen.getByTestId('webhook-confirm'));
    await waitFor(() => expect(screen.queryByTestId('webhook-endpoint-3')).toBeNull());
    const deletes = api.requestsTo(paths.webhooks.endpoints).filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => new URL(r.url).searchParams.get('endpoint_id'))).toEqual(['3']);
  });

  it('lists the delivery log and resends a message by its id', async () => {
    let failed = delivery({
      id: 'msg_9xT4bV7nQ2wE5rY8',
      eventType: 'payment.recorded',
      status: 'failed',
      attempts: 8,
      lastStatusCode: 503,
      lastError: 'Service Unavailable',
      deliveredAt: null,
    });
    const api = stubApi({
      [paths.webhooks.endpoints]: () => [endpoint()],
      [paths.webhooks.deliveries]: () => [failed, delivery()],
      [paths.webhooks.resend]: () => {
        failed = { ...failed, status: 'pending', attempts: 8 };
        return failed;
      },
    });
    renderPanel();
    expect(api.requestsTo(paths.webhooks.deliveries)).toHaveLength(0);
    fireEvent.click(await screen.findByTestId('webhook-log-3'));

    const failedRow = await screen.findByTestId('webhook-delivery-msg_9xT4bV7nQ2wE5rY8');
    expect(failedRow.textContent).toContain('Payment recorded');
    expect(failedRow.textContent).toContain('Failed');
    expect(failedRow.textContent).toContain('Attempts: 8');
    expect(failedRow.textContent).toContain('Answered 503 · Service Unavailable');
    expect(failedRow.textContent).toContain('29-11-2026 01:00 PM');
    const deliveredRow = screen.getByTestId('webhook-delivery-msg_2a8Kq9ZpLm3Xw7Yt');
    expect(deliveredRow.textContent).toContain('Phone locked');
    expect(deliveredRow.textContent).toContain('Delivered');
    expect(
      api.requestsTo(paths.webhooks.deliveries).map((r) => new URL(r.url).searchParams.get('endpoint_id')),
    ).toEqual(['3']);

    fireEvent.click(screen.getByTestId('webhook-resend-msg_9xT4bV7nQ2wE5rY8'));
    await waitFor(() =>
      expect(screen.getByTestId('webhook-delivery-msg_9xT4bV7nQ2wE5rY8').textContent).toContain('Pending'),
    );
    expect(await api.bodiesTo(paths.webhooks.resend)).toEqual([{ message_id: 'msg_9xT4bV7nQ2wE5rY8' }]);
  });
});
