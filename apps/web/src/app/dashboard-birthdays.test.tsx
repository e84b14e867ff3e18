import type { TBirthdaysToday } from '@kisht/domain/messages/messages.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../lib/paths';
import { stubApi } from '../test/fake-api';
import { createDeviceCommand } from '../test/fixtures';
import { renderRoutes } from '../test/render-app';
import { createTestI18n } from '../test/test-i18n';
import { DashboardRoute } from './dashboard-route';

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

const BIRTHDAYS: TBirthdaysToday = {
  today: '2026-11-28',
  isOwnBirthday: true,
  name: 'Ravi Mobiles',
  customers: [
    { id: 7, name: 'Lakshmi Iyer', mobile: '+918367860600', dateOfBirth: '1990-11-28', canMessage: true },
    { id: 8, name: 'Suresh Nair', mobile: '+918367860601', dateOfBirth: '1985-11-28', canMessage: false },
  ],
  total: 2,
};

const stubDashboardApi = () =>
  stubApi({
    [paths.stats.dashboard]: () => ({ countsByStatus: {}, total: 2 }),
    [paths.stats.totalOutstanding]: () => ({
      outstandingPaise: 0,
      overduePaise: 0,
      collectedPaise: 0,
      collectedThisMonthPaise: 0,
    }),
    [paths.emi.upcomingCounts]: () => ({ today: 0, week: 0, overdue: 0 }),
    [paths.messages.birthdaysToday]: () => BIRTHDAYS,
    [paths.messages.send]: () => createDeviceCommand({ name: 'show_message' }),
  });

const renderDashboard = () =>
  renderRoutes({
    i18n,
    url: appPaths.dashboard.href(),
    routes: [{ path: appPaths.dashboard.path, element: <DashboardRoute /> }],
  });

describe('birthday celebration (issue 16)', () => {
  it("celebrates the retailer's birthday until the banner is closed", async () => {
    stubDashboardApi();
    renderDashboard();
    const banner = await screen.findByTestId('birthday-banner');
    expect(banner.textContent).toContain('Happy birthday, Ravi Mobiles!');
    fireEvent.click(within(banner).getByTestId('birthday-banner-close'));
    await waitFor(() => expect(screen.queryByTestId('birthday-banner')).toBeNull());
  });

  it('lists the customers born today: wishes to a reachable phone, a call link otherwise', async () => {
    const api = stubDashboardApi();
    renderDashboard();
    const card = await screen.findByTestId('birthdays-today');
    expect(within(card).getByTestId('birthday-customer-8').querySelector('a')?.getAttribute('href')).toBe(
      'tel:+918367860601',
    );
    fireEvent.click(within(card).getByTestId('send-wishes-7'));
    const dialog = within(await screen.findByTestId('send-message-dialog'));
    expect(dialog.getByTestId<HTMLInputElement>('send-message-title').value).toBe('Happy birthday!');
    expect(dialog.getByTestId<HTMLTextAreaElement>('send-message-text').value).toContain('Dear Lakshmi Iyer');
    fireEvent.click(dialog.getByTestId('send-message-submit'));
    await waitFor(() => expect(screen.queryByTestId('send-message-dialog')).toBeNull());
    expect(await api.bodiesTo(paths.messages.send)).toEqual([
      {
        customer_id: 7,
        title: 'Happy birthday!',
        message: 'Dear Lakshmi Iyer, wishing you a very happy birthday and a wonderful year ahead!',
      },
    ]);
  });
});
