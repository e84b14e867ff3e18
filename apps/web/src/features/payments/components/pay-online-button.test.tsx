import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/fake-api';
import { fakeOrgConfig, renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import type { TRazorpayOptions } from '../checkout';
import { PayOnlineButton } from './pay-online-button';

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
  delete window.Razorpay;
});

const SIGNED = {
  razorpay_order_id: 'order_Emi0000000001',
  razorpay_payment_id: 'pay_Emi0000000001',
  razorpay_signature: 'b'.repeat(64),
};

const render = (isGatewayOn: boolean, isOwing = true) =>
  renderRoutes({
    i18n,
    url: '/',
    routes: [{ path: '/', element: <PayOnlineButton customerId={7} isOwing={isOwing} /> }],
    orgConfig: fakeOrgConfig({ features: { witnessLayout: false, paymentGateway: isGatewayOn } }),
  });

describe('Pay online (the customer’s own loan)', () => {
  it('orders what is due for this loan, opens the checkout, verifies and shows the receipt', async () => {
    const opened: TRazorpayOptions[] = [];
    window.Razorpay = class {
      constructor(private readonly options: TRazorpayOptions) {}
      on() {}
      open() {
        opened.push(this.options);
        this.options.handler(SIGNED);
      }
    };
    const api = stubApi({
      [paths.payments.instalment]: () => ({
        orderId: '0190c6d0-0000-7000-8000-000000000002',
        gatewayOrderId: SIGNED.razorpay_order_id,
        amountPaise: 208_000,
        currency: 'INR',
        keyId: 'rzp_test_key',
        checkoutScriptUrl: 'http://127.0.0.1:9/v1/checkout.js',
        name: 'Kisht Demo',
        description: 'EMI',
        prefill: { name: 'Priya', contact: '+919811111102' },
      }),
      [paths.payments.verify]: () => ({
        orderId: '0190c6d0-0000-7000-8000-000000000002',
        status: 'paid',
        purpose: 'instalment',
        amountPaise: 208_000,
        receiptNo: 'KR-41-000007',
      }),
    });
    render(true);
    fireEvent.click(await screen.findByTestId('pay-online'));
    expect((await screen.findByTestId('pay-online-success')).textContent).toBe(
      'Payment received. Receipt KR-41-000007.',
    );
    expect(await api.bodiesTo(paths.payments.instalment)).toEqual([{ customerId: 7 }]);
    expect(await api.bodiesTo(paths.payments.verify)).toEqual([SIGNED]);
    expect(opened[0]).toMatchObject({ order_id: SIGNED.razorpay_order_id, amount: 208_000 });
  });

  it('is not shown when the organisation flag is off, or nothing is owed', async () => {
    stubApi({});
    render(false);
    expect(screen.queryByTestId('pay-online')).toBeNull();
    cleanup();
    render(true, false);
    expect(screen.queryByTestId('pay-online')).toBeNull();
  });
});
