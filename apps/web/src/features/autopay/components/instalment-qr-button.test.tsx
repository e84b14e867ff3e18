import type { TInstalmentQr } from '@kisht/domain/autopay/autopay.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { fakeOrgConfig, renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { InstalmentQrButton } from './instalment-qr-button';

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

const QR: TInstalmentQr = {
  qrId: 'qr_Kisht1',
  imageUrl: 'https://rzp.io/i/qr_Kisht1.png',
  instalmentNo: 1,
  amountPaise: 100_000,
  reference: 'KSH5I1',
  closeBy: '2026-12-01T18:29:59.000Z',
};

const renderButton = ({ isOwing = true, isGatewayOn = true } = {}) =>
  renderRoutes({
    i18n,
    orgConfig: fakeOrgConfig({ features: { witnessLayout: false, paymentGateway: isGatewayOn } }),
    url: '/x',
    routes: [
      {
        path: '/x',
        // The marker shows the route has rendered, so a missing button is not just a slow one.
        element: (
          <>
            <p data-testid="page" />
            <InstalmentQrButton customerId={5} isOwing={isOwing} />
          </>
        ),
      },
    ],
  });

describe('"Pay by UPI QR" for the instalment due (issue 29)', () => {
  it('makes the QR for the customer and shows the gateway’s image with the amount and the EMI', async () => {
    const api = stubApi({ [paths.autopay.instalmentQr]: () => QR });
    renderButton();
    fireEvent.click(await screen.findByTestId('instalment-qr-create'));
    const qr = await screen.findByTestId('instalment-qr');
    const image = within(qr).getByRole('img', { name: 'UPI QR for EMI 1' });
    expect(image.getAttribute('src')).toBe('https://rzp.io/i/qr_Kisht1.png');
    expect(qr.textContent).toContain('Scan with any UPI app to pay ₹1,000.00 for EMI 1.');
    expect(screen.queryByTestId('instalment-qr-create')).toBeNull();
    expect(await api.bodiesTo(paths.autopay.instalmentQr)).toEqual([{ customer_id: 5 }]);

    fireEvent.click(screen.getByTestId('instalment-qr-close'));
    expect(screen.queryByTestId('instalment-qr')).toBeNull();
    expect(screen.getByTestId('instalment-qr-create')).toBeTruthy();
  });

  it('shows the server’s message when the QR is refused', async () => {
    stubApi({
      [paths.autopay.instalmentQr]: () =>
        failureResponse(409, 'Online payments are not turned on for this organisation', {
          code: 'PAYMENT_GATEWAY_DISABLED',
        }),
    });
    renderButton();
    fireEvent.click(await screen.findByTestId('instalment-qr-create'));
    expect((await screen.findByTestId('instalment-qr-error')).textContent).toBe(
      'Online payments are not turned on for this organisation',
    );
    expect(screen.queryByTestId('instalment-qr')).toBeNull();
  });

  it('draws nothing without the organisation’s payment gateway, or with nothing owed', async () => {
    const api = stubApi({ [paths.autopay.instalmentQr]: () => QR });
    renderButton({ isGatewayOn: false });
    await screen.findByTestId('page');
    expect(screen.queryByTestId('instalment-qr-create')).toBeNull();
    cleanup();
    renderButton({ isOwing: false });
    await screen.findByTestId('page');
    expect(screen.queryByTestId('instalment-qr-create')).toBeNull();
    expect(api.requestsTo(paths.autopay.instalmentQr)).toHaveLength(0);
  });
});
