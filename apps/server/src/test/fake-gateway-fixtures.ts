import { istWallClockToMs } from '@kisht/domain/common/time';
import { paths } from '@kisht/domain/paths';
import type { TAutopayDeps } from '../modules/autopay/autopay.service';
import type { TFakeGateway } from '../modules/payments/fake-gateway';
import { createRazorpayGateway } from '../modules/payments/payment-gateway';
import type { TestApp } from './harness';

/** The server settings that point a test's app at the fake gateway (createTestApp overrides). */
export const fakeGatewayConfig = (gateway: TFakeGateway) => ({
  RAZORPAY_KEY_ID: gateway.keyId,
  RAZORPAY_KEY_SECRET: gateway.keySecret,
  RAZORPAY_WEBHOOK_SECRET: gateway.webhookSecret,
  RAZORPAY_API_URL: gateway.url,
  RAZORPAY_CHECKOUT_URL: gateway.checkoutScriptUrl,
});

/** The AutoPay job's dependencies on a test's app, with the fake as its gateway (short retries). */
export const autopayDepsFor = (t: TestApp, gateway: TFakeGateway): TAutopayDeps => {
  const client = createRazorpayGateway({
    apiUrl: gateway.url,
    keyId: gateway.keyId,
    keySecret: gateway.keySecret,
    webhookSecret: gateway.webhookSecret,
    checkoutScriptUrl: gateway.checkoutScriptUrl,
    retryMinTimeoutMs: 10,
  });
  return {
    db: t.app.ctx.db,
    dispatcher: t.app.ctx.dispatcher,
    gateways: { get: async () => client, fake: () => null, close: async () => {} },
    log: t.app.log,
  };
};

/** Posts a signed event of the fake gateway to the app's AutoPay webhook, as the gateway would. */
export const postAutopayWebhook = (t: TestApp, event: { body: string; signature: string }) =>
  t.app.inject({
    method: 'POST',
    url: paths.autopay.webhook,
    headers: { 'content-type': 'application/json', 'x-razorpay-signature': event.signature },
    payload: event.body,
  });

/** 10:00 +05:30 on a calendar date (YYYY-MM-DD), as a UTC instant. */
export const istMorningOf = (isoDate: string) => new Date(istWallClockToMs(`${isoDate}T10:00`)!);
