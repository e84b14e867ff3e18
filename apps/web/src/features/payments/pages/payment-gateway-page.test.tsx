import { paths } from '@kisht/domain/paths';
import type {
  TCheckoutOrder,
  TPaymentOrderStatus,
  TPaymentQuote,
} from '@kisht/domain/payments/payments.schema';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { fakeOrgConfig, renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import type { TRazorpayOptions } from '../checkout';
import { PaymentGatewayPage } from './payment-gateway-page';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  localStorage.setItem('type', 'retailer');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
  delete window.Razorpay;
});

const QUOTE: TPaymentQuote = {
  appType: 0,
  quantity: 3,
  unitPricePaise: 49_900,
  amountPaise: 149_700,
  currency: 'INR',
};
const ORDER: TCheckoutOrder = {
  orderId: '0190c6d0-0000-7000-8000-000000000001',
  gatewayOrderId: 'order_Test000000001',
  amountPaise: 149_700,
  currency: 'INR',
  keyId: 'rzp_test_key',
  checkoutScriptUrl: 'http://127.0.0.1:9/v1/checkout.js',
  name: 'Kisht Demo',
  description: '3 keys',
  prefill: { name: 'Ravi Mobiles', contact: '+919876543210' },
};
const SIGNED = {
  razorpay_order_id: ORDER.gatewayOrderId,
  razorpay_payment_id: 'pay_Test000000001',
  razorpay_signature: 'a'.repeat(64),
};
const PAID: TPaymentOrderStatus = {
  orderId: ORDER.orderId,
  status: 'paid',
  purpose: 'keys',
  amountPaise: 149_700,
  appType: 0,
  quantity: 3,
};

/** A stand-in for the gateway's checkout.js: records the options and ends as `outcome` says. */
const stubCheckout = (outcome: 'pay' | 'fail' | 'dismiss') => {
  const opened: TRazorpayOptions[] = [];
  window.Razorpay = class {
    private failed: ((failure: { error?: { description?: string } }) => void) | undefined;
    constructor(private readonly options: TRazorpayOptions) {}
    on(_event: 'payment.failed', handler: (failure: { error?: { description?: string } }) => void) {
      this.failed = handler;
    }
    open() {
      opened.push(this.options);
      if (outcome === 'pay') this.options.handler(SIGNED);
      else if (outcome === 'fail') this.failed?.({ error: { description: 'Card declined by bank' } });
      else this.options.modal.ondismiss();
    }
  };
  return opened;
};

const renderPage = (isGatewayOn = true) =>
  renderRoutes({
    i18n,
    url: appPaths.paymentGateway.href(),
    routes: [{ path: appPaths.paymentGateway.path, element: <PaymentGatewayPage /> }],
    orgConfig: fakeOrgConfig({ features: { witnessLayout: false, paymentGateway: isGatewayOn } }),
  });

/** Chooses the key type by its translated name, enters the quantity and asks for the price. */
const fillForm = async (keyType: string, quantity: string) => {
  fireEvent.mouseDown(await screen.findByRole('combobox'));
  fireEvent.click(await screen.findByRole('option', { name: keyType }));
  fireEvent.change(screen.getByTestId('payment-quantity'), { target: { value: quantity } });
  fireEvent.click(screen.getByTestId('payment-get-price'));
};

describe('payment_gateway', () => {
  it('quotes the keys, opens the checkout with the order, verifies the signed result and shows the keys credited', async () => {
    const opened = stubCheckout('pay');
    const api = stubApi({
      [paths.payments.validate]: () => QUOTE,
      [paths.payments.create]: () => ORDER,
      [paths.payments.verify]: () => PAID,
    });
    renderPage();
    await fillForm('Device policy controller', '3');
    expect((await screen.findByTestId('payment-total')).textContent).toContain('₹1,497.00');
    expect(await api.bodiesTo(paths.payments.validate)).toEqual([{ appType: 0, quantity: 3 }]);

    fireEvent.click(screen.getByTestId('payment-pay'));
    expect((await screen.findByTestId('payment-success')).textContent).toContain(
      'Payment received: 3 Device policy controller keys added to your balance.',
    );
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({
      key: 'rzp_test_key',
      order_id: ORDER.gatewayOrderId,
      amount: 149_700,
      currency: 'INR',
      prefill: ORDER.prefill,
    });
    expect(await api.bodiesTo(paths.payments.create)).toEqual([{ appType: 0, quantity: 3 }]);
    expect(await api.bodiesTo(paths.payments.verify)).toEqual([SIGNED]);
  });

  it("says 'Please contact admin for prices' when the server has no price", async () => {
    stubApi({
      [paths.payments.validate]: () =>
        failureResponse(409, 'Please contact admin for prices', { code: 'PRICES_NOT_SET' }),
    });
    renderPage();
    await fillForm('Anti-hacking', '1');
    expect((await screen.findByTestId('payment-no-price')).textContent).toBe(
      'Please contact admin for prices',
    );
    expect(screen.queryByTestId('payment-pay')).toBeNull();
  });

  it('checks the form with the domain schema before any request, and shows server field errors under fields', async () => {
    const api = stubApi({
      [paths.payments.validate]: () =>
        failureResponse(400, 'Invalid quantity', {
          fields: [{ field: 'quantity', message: 'At most 1000 keys at a time' }],
        }),
    });
    renderPage();
    fireEvent.change(await screen.findByTestId('payment-quantity'), { target: { value: '0' } });
    fireEvent.click(screen.getByTestId('payment-get-price'));
    expect(await screen.findByText('Choose a key type')).toBeTruthy();
    expect(screen.getByText('Enter a whole number from 1 to 1000')).toBeTruthy();
    expect(api.requestsTo(paths.payments.validate)).toHaveLength(0);

    await fillForm('Device policy controller', '5');
    expect(await screen.findByText('At most 1000 keys at a time')).toBeTruthy();
  });

  it('reports a failed or closed checkout and verifies nothing', async () => {
    const api = stubApi({
      [paths.payments.validate]: () => QUOTE,
      [paths.payments.create]: () => ORDER,
      [paths.payments.verify]: () => PAID,
    });
    stubCheckout('fail');
    renderPage();
    await fillForm('Device policy controller', '3');
    fireEvent.click(await screen.findByTestId('payment-pay'));
    expect((await screen.findByTestId('payment-failed')).textContent).toBe('Card declined by bank');
    stubCheckout('dismiss');
    fireEvent.click(screen.getByTestId('payment-pay'));
    expect(await screen.findByTestId('payment-dismissed')).toBeTruthy();
    expect(api.requestsTo(paths.payments.verify)).toHaveLength(0);
  });

  it('shows the server’s answer when the gateway is down', async () => {
    stubCheckout('pay');
    stubApi({
      [paths.payments.validate]: () => QUOTE,
      [paths.payments.create]: () =>
        failureResponse(503, 'The payment service is not answering. Nothing was charged; please try again', {
          code: 'PAYMENT_GATEWAY_UNAVAILABLE',
        }),
    });
    renderPage();
    await fillForm('Device policy controller', '3');
    fireEvent.click(await screen.findByTestId('payment-pay'));
    await waitFor(() =>
      expect(screen.getByTestId('payment-failed').textContent).toContain('Nothing was charged'),
    );
  });

  it('says online payment is off when the organisation flag is off', async () => {
    stubApi({});
    renderPage(false);
    expect(await screen.findByTestId('payment-gateway-off')).toBeTruthy();
    expect(screen.queryByTestId('payment-keys-form')).toBeNull();
  });
});
