import { paths } from '@kisht/domain/paths';
import type { TPaymentQrSettings } from '@kisht/domain/users/payment-qr.schema';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { compressImage } from '../../../lib/image';
import { appPaths } from '../../../lib/paths';
import type { TFakeHandler } from '../../../test/fake-api';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { RetailerPaymentQrPage } from './retailer-payment-qr-page';

vi.mock('../../../lib/image', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/image')>()),
  compressImage: vi.fn(),
}));
const compress = vi.mocked(compressImage);

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

const UNSET: TPaymentQrSettings = {
  upiId: null,
  payeeName: 'Ravi Mobiles',
  isPayeeNameCustom: false,
  upiLink: null,
  qrImage: null,
};
const SET: TPaymentQrSettings = {
  upiId: 'ravishop@ybl',
  payeeName: 'Ravi Mobiles',
  isPayeeNameCustom: false,
  upiLink: 'upi://pay?pa=ravishop@ybl&pn=Ravi%20Mobiles&cu=INR',
  qrImage: null,
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
    expect((await screen.findByTestId<HTMLInputElement>('payment-qr-payee-name-input')).value).toBe(
      'Ravi Mobiles',
    );
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

const typePayeeName = (value: string) =>
  fireEvent.change(screen.getByTestId('payment-qr-payee-name-input'), { target: { value } });

describe('retailer_payment_qr: payee name', () => {
  it.each(['Ravi <Mobiles>', 'a'.repeat(51), '   '])(
    'refuses the payee name %j under the field before any request',
    async (name) => {
      const api = stubPaymentQrApi(() => SET);
      renderPage();
      await screen.findByTestId('payment-qr-form');
      typePayeeName(name);
      fireEvent.click(screen.getByTestId('payment-qr-save'));
      await waitFor(() =>
        expect(screen.getByTestId('payment-qr-payee-name-input').getAttribute('aria-invalid')).toBe('true'),
      );
      const expected =
        name.trim() === '' ? 'This is a required field' : 'Use 1 to 50 letters, digits, spaces or . & -';
      expect(screen.getByText(expected)).toBeTruthy();
      expect(putsOf(api)).toHaveLength(0);
    },
  );

  it('sends a changed payee name, trimmed, with the UPI ID', async () => {
    let saved: unknown = null;
    stubPaymentQrApi(
      () => SET,
      async (request) => {
        saved = await request.json();
        return { ...SET, payeeName: 'R.K. Mobiles & Co', isPayeeNameCustom: true };
      },
    );
    renderPage();
    await screen.findByTestId('payment-qr-form');
    typePayeeName('  R.K. Mobiles & Co ');
    fireEvent.click(screen.getByTestId('payment-qr-save'));
    await waitFor(() => expect(saved).toEqual({ upiId: 'ravishop@ybl', payeeName: 'R.K. Mobiles & Co' }));
    await waitFor(() =>
      expect(screen.getByTestId<HTMLInputElement>('payment-qr-payee-name-input').value).toBe(
        'R.K. Mobiles & Co',
      ),
    );
  });

  it('keeps the account name as it is when it was not changed, even with characters a payee name may not have', async () => {
    let saved: unknown = null;
    stubPaymentQrApi(
      () => ({ ...UNSET, payeeName: 'Ravi Mobiles – Andheri' }),
      async (request) => {
        saved = await request.json();
        return { ...SET, payeeName: 'Ravi Mobiles – Andheri' };
      },
    );
    renderPage();
    await screen.findByTestId('payment-qr-form');
    typeUpiId('andheri@okaxis');
    fireEvent.click(screen.getByTestId('payment-qr-save'));
    await waitFor(() => expect(saved).toEqual({ upiId: 'andheri@okaxis' }));
  });
});

describe('retailer_payment_qr: own QR image', () => {
  const { createObjectURL, revokeObjectURL } = URL;
  beforeEach(() => {
    URL.createObjectURL = vi.fn(() => 'blob:shop-qr');
    URL.revokeObjectURL = vi.fn();
  });
  afterEach(() => {
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = revokeObjectURL;
    compress.mockReset();
  });

  const WITH_IMAGE: TPaymentQrSettings = {
    ...SET,
    qrImage: { mimeType: 'image/png', sizeBytes: 2048, uploadedAt: '2025-01-02T03:04:05.000Z' },
  };

  it('compresses the picked image, uploads it and shows it, then removes it', async () => {
    const picked = new File([new Uint8Array(10)], 'qr.png', { type: 'image/png' });
    const compressed = new File([new Uint8Array(4)], 'qr.png', { type: 'image/png' });
    compress.mockResolvedValue(compressed);
    const api = stubApi({
      [paths.users.paymentQr]: () => SET,
      [paths.users.paymentQrImage]: (request) => (request.method === 'DELETE' ? SET : WITH_IMAGE),
      [paths.users.image]: () => new Response('PNG', { headers: { 'content-type': 'image/png' } }),
    });
    renderPage();
    await screen.findByTestId('payment-qr-upload');
    expect(screen.queryByTestId('payment-qr-uploaded-image')).toBeNull();
    fireEvent.change(screen.getByTestId('payment-qr-image-input'), { target: { files: [picked] } });

    const image = await screen.findByTestId<HTMLImageElement>('payment-qr-uploaded-image');
    expect(image.getAttribute('src')).toBe('blob:shop-qr');
    expect(compress).toHaveBeenCalledWith(picked);
    const [upload] = api.requestsTo(paths.users.paymentQrImage);
    expect(upload!.method).toBe('POST');
    // jsdom's File does not survive the test fetch's multipart encoding, so only the form is checked here.
    expect(upload!.headers.get('content-type')).toContain('multipart/form-data');
    const [imageRequest] = api.requestsTo(paths.users.image);
    expect(new URL(imageRequest!.url).searchParams.get('kind')).toBe('payment_qr');
    expect(screen.getByTestId('payment-qr-how-customers-pay').textContent).toContain('uploaded QR image');

    fireEvent.click(screen.getByTestId('payment-qr-remove-image'));
    await waitFor(() => expect(screen.queryByTestId('payment-qr-uploaded-image')).toBeNull());
    expect(api.requestsTo(paths.users.paymentQrImage).map((request) => request.method)).toEqual([
      'POST',
      'DELETE',
    ]);
  });

  it('refuses a file that is not an image before any request, and shows the server’s refusal', async () => {
    const api = stubApi({
      [paths.users.paymentQr]: () => SET,
      [paths.users.paymentQrImage]: () =>
        failureResponse(413, 'The file is larger than 5 MB', {
          code: 'MEDIA_TOO_LARGE',
          fields: [{ field: 'file', message: 'The file is larger than 5 MB' }],
        }),
    });
    renderPage();
    await screen.findByTestId('payment-qr-upload');
    fireEvent.change(screen.getByTestId('payment-qr-image-input'), {
      target: { files: [new File(['%PDF'], 'qr.pdf', { type: 'application/pdf' })] },
    });
    expect((await screen.findByTestId('payment-qr-image-error')).textContent).toContain('Choose a photo');
    expect(api.requestsTo(paths.users.paymentQrImage)).toHaveLength(0);

    compress.mockImplementation(async (file) => file);
    fireEvent.change(screen.getByTestId('payment-qr-image-input'), {
      target: { files: [new File([new Uint8Array(8)], 'qr.jpg', { type: 'image/jpeg' })] },
    });
    await waitFor(() =>
      expect(screen.getByTestId('payment-qr-image-error').textContent).toContain('larger than 5 MB'),
    );
  });
});
