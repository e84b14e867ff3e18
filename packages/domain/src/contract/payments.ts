import { z } from 'zod';
import { paths } from '../paths';
import {
  ZCheckoutOrder,
  ZCheckoutResult,
  ZInstalmentOrderRequest,
  ZKeyPrices,
  ZPaymentOrderStatus,
  ZPaymentQuote,
  ZPaymentQuoteRequest,
  ZPaymentStatusQuery,
} from '../payments/payments.schema';
import { defineRoutes } from './define';

/** What the webhook answers the gateway: whether the event settled an order or was ignored. */
export const ZPaymentWebhookOutcome = z.object({ outcome: z.enum(['settled', 'ignored']) });
export type TPaymentWebhookOutcome = z.infer<typeof ZPaymentWebhookOutcome>;

/**
 * The payment_gateway routes of the wire contract (contract/define.ts; issue 13 "Payments",
 * docs/payment-gateway.md). All but the webhook need a session.
 */
export const paymentsContract = defineRoutes({
  /**
   * The gateway's webhook (payment.captured, order.paid; public): the raw JSON body is signed with
   * X-Razorpay-Signature, which the handler checks over the exact bytes (no body schema).
   */
  webhook: { method: 'POST', path: paths.payments.webhook, response: ZPaymentWebhookOutcome },
  /** The organisation's price per key, by app_type, for online purchase (organisation admin). */
  getKeyPrices: { method: 'GET', path: paths.admin.keyPrices, response: ZKeyPrices },
  /** Set the price per key, by app_type (organisation admin); an app_type left out cannot be bought. */
  saveKeyPrices: { method: 'PUT', path: paths.admin.keyPrices, body: ZKeyPrices, response: ZKeyPrices },
  /** What keys cost (retailers); 409 PRICES_NOT_SET without a price. */
  validate: {
    method: 'POST',
    path: paths.payments.validate,
    body: ZPaymentQuoteRequest,
    response: ZPaymentQuote,
  },
  /** Order keys online: a gateway order to open the checkout with (retailers). */
  create: {
    method: 'POST',
    path: paths.payments.create,
    body: ZPaymentQuoteRequest,
    response: ZCheckoutOrder,
  },
  /** Pay the signed-in customer's own loan online: a gateway order for what is due (customers). */
  instalment: {
    method: 'POST',
    path: paths.payments.instalment,
    body: ZInstalmentOrderRequest,
    response: ZCheckoutOrder,
  },
  /** The checkout's success callback: razorpay_signature verified, then keys credited or the EMI recorded once. */
  verify: {
    method: 'POST',
    path: paths.payments.verify,
    body: ZCheckoutResult,
    response: ZPaymentOrderStatus,
  },
  /** One of the signed-in user's payment orders: created, paid or failed. */
  status: {
    method: 'GET',
    path: paths.payments.status,
    query: ZPaymentStatusQuery,
    response: ZPaymentOrderStatus,
  },
});
