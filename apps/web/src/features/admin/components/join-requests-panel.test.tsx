import type { TSignupRequestItem } from '@kisht/domain/joining/joining.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { JoinRequestsPanel } from './join-requests-panel';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const request = (overrides: Partial<TSignupRequestItem>): TSignupRequestItem => ({
  id: 7,
  name: 'Suresh Patil',
  shopName: 'Patil Mobile Point',
  mobile: '+919822001122',
  city: 'Pune',
  status: 'pending',
  createdAt: '2026-11-20T06:30:00.000Z',
  decidedAt: null,
  userId: null,
  role: 'retailer',
  ...overrides,
});

describe('Join requests (organisation admin)', () => {
  it('approves a request after a confirm, then shows the list again without it', async () => {
    let pending = [request({}), request({ id: 8, shopName: 'Sai Telecom', mobile: '+919822001133' })];
    const api = stubApi({
      [paths.admin.signupRequests]: () => pending,
      [paths.admin.decideSignup]: () => {
        pending = pending.filter((r) => r.id !== 7);
        return request({ status: 'approved', userId: 99, decidedAt: '2026-11-21T06:30:00.000Z' });
      },
    });
    renderRoutes({ routes: [{ path: '/admin', element: <JoinRequestsPanel /> }], url: '/admin', i18n });

    const card = await screen.findByTestId('request-7');
    expect(card.textContent).toContain('Patil Mobile Point');
    expect(card.textContent).toContain('+91 98220 01122 · Pune');
    expect(card.textContent).toContain('20-11-2026 12:00 PM');
    expect(new URL(api.requestsTo(paths.admin.signupRequests)[0]!.url).searchParams.get('status')).toBe(
      'pending',
    );

    fireEvent.click(within(card).getByTestId('approve-7'));
    const confirm = await screen.findByTestId('decide-confirm');
    expect(confirm.textContent).toContain(
      'Patil Mobile Point becomes a retailer and can log in with +91 98220 01122',
    );
    // Nothing is decided before the confirm.
    expect(api.requestsTo(paths.admin.decideSignup)).toHaveLength(0);
    fireEvent.click(within(confirm).getByTestId('decide-confirm-yes'));

    await waitFor(() => expect(screen.queryByTestId('request-7')).toBeNull());
    expect(await api.bodiesTo(paths.admin.decideSignup)).toEqual([{ id: 7, decision: 'approve' }]);
    expect(await screen.findByText('Request approved. The shop can now log in.')).toBeTruthy();
    expect(screen.getByTestId('request-8')).toBeTruthy();
  });

  it('declines only after the confirm; cancelling sends nothing', async () => {
    const api = stubApi({
      [paths.admin.signupRequests]: () => [request({})],
      [paths.admin.decideSignup]: () => request({ status: 'declined' }),
    });
    renderRoutes({ routes: [{ path: '/admin', element: <JoinRequestsPanel /> }], url: '/admin', i18n });
    fireEvent.click(await screen.findByTestId('decline-7'));
    fireEvent.click(within(await screen.findByTestId('decide-confirm')).getByText('Cancel'));
    await waitFor(() => expect(screen.queryByTestId('decide-confirm')).toBeNull());
    expect(api.requestsTo(paths.admin.decideSignup)).toHaveLength(0);

    fireEvent.click(screen.getByTestId('decline-7'));
    fireEvent.click(within(await screen.findByTestId('decide-confirm')).getByTestId('decide-confirm-yes'));
    await waitFor(async () =>
      expect(await api.bodiesTo(paths.admin.decideSignup)).toEqual([{ id: 7, decision: 'decline' }]),
    );
  });
});
