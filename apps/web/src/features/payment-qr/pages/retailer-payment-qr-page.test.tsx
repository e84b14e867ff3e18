import { paths } from '@kisht/domain/paths';
import type { TPaymentQrSettings } from '@kisht/domain/users/payment-qr.schema';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import type { TFakeHandler } from '../../../test/fake-api';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { RetailerPaymentQrPage } from './retailer-payment-qr-page';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  localStorage.setItem('type', 'retailer');
  // jsdom draws no canvas; qrcode.react only needs a context that ignores the drawing.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const UNSET: TPaymentQrSettings = { upiId: null, payeeName: 'Ravi Mobiles', upiLink: null };
const SET: TPaymentQrSettings = {
  upiId: 'ravishop@ybl',
  payeeName: 'Ravi Mobiles',
  upiLink: 'upi://pay?pa=ravishop@ybl&pn=Ravi%20Mobiles&cu=INR',
};

const stubPaymentQrApi = (get: TFakeHandler, put?: TFakeHandler) =>
  stubApi({
    [paths.users.paymentQr]: (request, url) =>
      request.method === 'PUT' ? (put ?? (() => null))(request, url) : get(request, url),
  });

const putsOf = (api: ReturnType<typeof stubApi>) =>
  api.requestsTo(paths.users.paymentQr).filter((request) => request.method === 'PUT');

const renderPage = () =>
  renderRoutes({
    i18n,
    url: appPaths.retailerPaymentQr.href(),
    routes: [{ path: appPaths.retailerPaymentQr.path, element: <RetailerPaymentQrPage /> }],
  });

const typeUpiId = (value: string) =>
  fireEvent.change(screen.getByTestId('payment-qr-upi-id'), { target: { value } });

describe('retailer_payment_qr', () => {
  it('shows the payee name, the customers’ note and, without a UPI ID, no QR', async () => {
    stubPaymentQrApi(() => UNSET);
    renderPage();
    expect((await screen.findByTestId('payment-qr-payee-name')).textContent).toContain('Ravi Mobiles');
    expect(screen.getByTestId<HTMLInputElement>('payment-qr-upi-id').value).toBe('');
    expect(screen.getByTestId('payment-qr-none')).toBeTruthy();
    expect(screen.queryByTestId('payment-qr-image')).toBeNull();
    expect(screen.getByTestId('payment-qr-how-customers-pay').textContent).toContain(
      'instalment amount already filled in',
    );
  });

  it('refuses a bad UPI ID under the field before any request', async () => {
    const api = stubPaymentQrApi(() => UNSET);
    renderPage();
    await screen.findByTestId('payment-qr-form');
    typeUpiId('ravi mobiles');
    fireEvent.click(screen.getByTestId('payment-qr-save'));
    expect(await screen.findByText('Enter a UPI ID like name@bank')).toBeTruthy();
    expect(screen.getByTestId('payment-qr-upi-id').getAttribute('aria-invalid')).toBe('true');
    expect(putsOf(api)).toHaveLength(0);
  });

  it('saves the UPI ID and shows its QR code with a download', async () => {
    let saved: unknown = null;
    const api = stubPaymentQrApi(
      () => UNSET,
      async (request) => {
        saved = await request.json();
        return SET;
      },
    );
    renderPage();
    await screen.findByTestId('payment-qr-form');
    typeUpiId(' RaviShop@YBL ');
    fireEvent.click(screen.getByTestId('payment-qr-save'));
    const qr = await screen.findByTestId('payment-qr-image');
    // The domain schema trims and lower-cases before sending.
    expect(saved).toEqual({ upiId: 'ravishop@ybl' });
    expect(putsOf(api)).toHaveLength(1);
    expect(qr.getAttribute('data-value')).toBe(SET.upiLink);
    expect(qr.getAttribute('aria-label')).toBe('UPI QR code to pay Ravi Mobiles');
    expect(screen.getByTestId<HTMLInputElement>('payment-qr-upi-id').value).toBe('ravishop@ybl');

    const toDataURL = vi
      .spyOn(HTMLCanvasElement.prototype, 'toDataURL')
      .mockReturnValue('data:image/png;base64,AAAA');
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    fireEvent.click(screen.getByTestId('payment-qr-download'));
    expect(toDataURL).toHaveBeenCalledWith('image/png');
    expect(clicks).toEqual(['upi-qr-ravishop@ybl.png']);
  });

  it('puts the server’s field error under the UPI ID', async () => {
    stubPaymentQrApi(
      () => SET,
      () =>
        failureResponse(400, 'Invalid upiId', {
          fields: [{ field: 'upiId', message: 'This UPI ID is not allowed' }],
        }),
    );
    renderPage();
    await screen.findByTestId('payment-qr-image');
    typeUpiId('other@okaxis');
    fireEvent.click(screen.getByTestId('payment-qr-save'));
    expect(await screen.findByText('This UPI ID is not allowed')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByTestId('payment-qr-upi-id').getAttribute('aria-invalid')).toBe('true'),
    );
    expect(screen.queryByTestId('payment-qr-error')).toBeNull();
  });
});
