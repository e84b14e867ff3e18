import { paths } from '@kisht/domain/paths';
import { cleanup, screen } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { createMyLoan } from '../emi-fixtures';
import { HowToPayCard } from './how-to-pay-card';

let i18n: TI18n;
const { createObjectURL, revokeObjectURL } = URL;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  URL.createObjectURL = vi.fn(() => 'blob:shop-qr');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
});

const renderCard = (payTo: ReturnType<typeof createMyLoan>['payTo']) =>
  renderRoutes({
    i18n,
    url: '/',
    routes: [{ path: '/', element: <HowToPayCard payTo={payTo} customerId={7} /> }],
  });

describe('How to pay with the shop’s own QR image', () => {
  it('shows the uploaded QR instead of the generated one, and keeps the Pay with UPI app amount link', async () => {
    const api = stubApi({
      [paths.users.paymentQrImage]: () => new Response('PNG', { headers: { 'content-type': 'image/png' } }),
    });
    const payTo = { ...createMyLoan().payTo, hasQrImage: true };
    renderCard(payTo);
    const image = await screen.findByTestId<HTMLImageElement>('my-loan-shop-qr-image');
    expect(image.getAttribute('src')).toBe('blob:shop-qr');
    expect(new URL(api.requestsTo(paths.users.paymentQrImage)[0]!.url).searchParams.get('customer_id')).toBe(
      '7',
    );
    expect(screen.queryByTestId('my-loan-upi-qr')).toBeNull();
    expect(screen.getByTestId('my-loan-pay-upi').getAttribute('href')).toBe(payTo.upiLink);
  });

  it('shows the generated QR with the amount when the shop uploaded none', async () => {
    const api = stubApi({});
    renderCard({ ...createMyLoan().payTo, hasQrImage: false });
    expect(await screen.findByTestId('my-loan-upi-qr')).toBeTruthy();
    expect(screen.queryByTestId('my-loan-shop-qr-image')).toBeNull();
    expect(api.requestsTo(paths.users.paymentQrImage)).toHaveLength(0);
  });
});
