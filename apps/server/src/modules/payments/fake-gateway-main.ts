/**
 * Runs the fake payment gateway as a process of its own (docs/payment-gateway.md):
 *
 *   RAZORPAY_KEY_ID=rzp_test_local RAZORPAY_KEY_SECRET=… RAZORPAY_WEBHOOK_SECRET=… \
 *   FAKE_GATEWAY_PORT=9100 FAKE_GATEWAY_WEBHOOK_URL=http://127.0.0.1:8080/api/payments/webhook \
 *   npx tsx apps/server/src/modules/payments/fake-gateway-main.ts
 *
 * then start the server with the same three secrets and RAZORPAY_API_URL=http://127.0.0.1:9100,
 * RAZORPAY_CHECKOUT_URL=http://127.0.0.1:9100/v1/checkout.js. UPI AutoPay's events (docs/autopay.md)
 * go to FAKE_GATEWAY_AUTOPAY_WEBHOOK_URL (e.g. http://127.0.0.1:8080/api/autopay/webhook), else to
 * the same webhook URL; a mandate is approved at http://127.0.0.1:9100/v1/fake/mandates/<order id>.
 */
import { startFakeGateway } from './fake-gateway';

const env = process.env;
const webhookUrl = env.FAKE_GATEWAY_WEBHOOK_URL ?? null;
const autopayWebhookUrl = env.FAKE_GATEWAY_AUTOPAY_WEBHOOK_URL ?? webhookUrl;
const fake = await startFakeGateway({
  ...(env.RAZORPAY_KEY_ID ? { keyId: env.RAZORPAY_KEY_ID } : {}),
  ...(env.RAZORPAY_KEY_SECRET ? { keySecret: env.RAZORPAY_KEY_SECRET } : {}),
  ...(env.RAZORPAY_WEBHOOK_SECRET ? { webhookSecret: env.RAZORPAY_WEBHOOK_SECRET } : {}),
  webhookUrl: () => webhookUrl,
  autopayWebhookUrl: () => autopayWebhookUrl,
  host: env.FAKE_GATEWAY_HOST ?? '127.0.0.1',
  port: Number(env.FAKE_GATEWAY_PORT ?? 0),
});
console.log(
  JSON.stringify({
    url: fake.url,
    checkoutScriptUrl: fake.checkoutScriptUrl,
    keyId: fake.keyId,
    keySecret: fake.keySecret,
    webhookSecret: fake.webhookSecret,
    webhookUrl,
    autopayWebhookUrl,
  }),
);
const stop = () => {
  void fake.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
