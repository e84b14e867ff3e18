import { paths } from '@kisht/domain/paths';
import type { TPlanActivation } from '@kisht/domain/plans/plans.schema';
import { cleanup, screen } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { MyWarrantiesSection } from './my-warranties-section';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  localStorage.setItem('type', 'customer');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const WARRANTY: TPlanActivation = {
  id: 9,
  planId: 6,
  planName: 'Extended Warranty 2 years',
  appType: 5,
  retailerId: 3,
  customerId: 12,
  productId: 1,
  firstName: 'Aarav',
  lastName: 'Sharma',
  email: null,
  mobile: '+919811111102',
  imei: '490154203237518',
  code: 'AB12-CD34-EF56',
  pricePaise: 179_900,
  startsOn: '2026-03-01',
  endsOn: '2028-02-29',
  status: 'issued',
  redeemedAt: null,
  createdAt: '2026-03-01T06:00:00Z',
};

const renderSection = () =>
  renderRoutes({ i18n, url: '/', routes: [{ path: '/', element: <MyWarrantiesSection /> }] });

describe('MyWarrantiesSection (customer dashboard)', () => {
  it('lists the customer’s warranties with term and certificate, without their own name', async () => {
    stubApi({ [paths.plans.activations]: () => [WARRANTY] });
    renderSection();
    expect(await screen.findByText('My warranties')).toBeTruthy();
    expect(screen.getByTestId('warranty-term-9').textContent).toBe('01-03-2026 to 29-02-2028');
    expect(screen.getByTestId('warranty-certificate-9')).toBeTruthy();
    expect(screen.queryByText(/Aarav Sharma/)).toBeNull();
  });

  it('shows nothing when they have no warranty', async () => {
    const api = stubApi({ [paths.plans.activations]: () => [] });
    renderSection();
    await vi.waitFor(() => expect(api.requestsTo(paths.plans.activations)).toHaveLength(1));
    expect(screen.queryByTestId('my-warranties')).toBeNull();
  });
});
