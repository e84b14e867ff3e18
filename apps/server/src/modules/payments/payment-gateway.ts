import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import pRetry, { AbortError } from 'p-retry';
import { z } from 'zod';

/**
 * The payment gateway as Kisht needs it (Razorpay model, https://razorpay.com/docs/api/orders/):
 * an order is created server-side for an amount in paise, the browser's checkout collects the
 * money and hands back `razorpay_signature` = hex HMAC-SHA256(key secret, `order_id|payment_id`),
 * and the gateway also posts a webhook signed with X-Razorpay-Signature = hex HMAC-SHA256(webhook
 * secret, raw body). One implementation speaks the real HTTP (createRazorpayGateway); tests and
 * `npm start` point it at the fake gateway (fake-gateway.ts), which speaks the same HTTP.
 */
export type TPaymentGateway = {
  /** The public key id the checkout is opened with. */
  keyId: string;
  /** The checkout script the browser loads (it defines window.Razorpay). */
  checkoutScriptUrl: string;
  /**
   * Creates an order (POST /v1/orders). Throws AppError(PAYMENT_GATEWAY_UNAVAILABLE) when the
   * gateway does not answer or refuses; nothing is charged then.
   */
  createOrder: (order: TCreateGatewayOrder) => Promise<TGatewayOrder>;
  /** Whether `signature` is the checkout's signature of this order and payment (constant-time). */
  verifyCheckoutSignature: (payment: { orderId: string; paymentId: string; signature: string }) => boolean;
  /** Whether `signature` (X-Razorpay-Signature) signs these exact body bytes (constant-time). */
  verifyWebhookSignature: (rawBody: Buffer, signature: string | undefined) => boolean;
  /**
   * The payments of an order (GET /v1/orders/{id}/payments), to reconcile an order whose callback
   * and webhook were both lost. Throws AppError(PAYMENT_GATEWAY_UNAVAILABLE).
   */
  fetchOrderPayments: (orderId: string) => Promise<TGatewayPayment[]>;
  /**
   * UPI AutoPay (docs/autopay.md): a gateway customer (POST /v1/customers, fail_existing "0", so
   * the same contact answers the existing one). Throws PAYMENT_GATEWAY_UNAVAILABLE.
   */
  createCustomer: (customer: { name: string; contact: string; notes: Record<string, string> }) => Promise<{
    id: string;
  }>;
  /**
   * The mandate's authorisation order (POST /v1/orders with method "upi", customer_id and the
   * recurring `token` {max_amount paise, expire_at unix seconds, frequency}). Throws
   * PAYMENT_GATEWAY_UNAVAILABLE.
   */
  createMandateOrder: (order: TCreateMandateOrder) => Promise<TGatewayOrder>;
  /**
   * The authorisation payment as a UPI intent (POST /v1/payments/create/upi, recurring, flow
   * "intent"): answers the payment id and the `upi://mandate` link the customer's UPI app opens
   * (shown as a QR). Throws PAYMENT_GATEWAY_UNAVAILABLE.
   */
  createMandateIntent: (intent: {
    orderId: string;
    customerId: string;
    amountPaise: number;
    contact: string;
  }) => Promise<{ paymentId: string; link: string }>;
  /** The customer's tokens (GET /v1/customers/{id}/tokens). Throws PAYMENT_GATEWAY_UNAVAILABLE. */
  fetchTokens: (customerId: string) => Promise<TGatewayToken[]>;
  /** Cancels a token (DELETE /v1/customers/{id}/tokens/{token}). Throws PAYMENT_GATEWAY_UNAVAILABLE. */
  cancelToken: (customerId: string, tokenId: string) => Promise<void>;
  /**
   * A subsequent debit on a confirmed token (POST /v1/payments/create/recurring with the order
   * created for it, `token`, `recurring: "1"`): answers the gateway payment id; the outcome comes
   * by webhook (payment.captured / payment.failed). Throws PAYMENT_GATEWAY_UNAVAILABLE.
   */
  createRecurringPayment: (payment: TCreateRecurringPayment) => Promise<{ paymentId: string }>;
  /**
   * A single-use UPI QR for an exact amount (POST /v1/payments/qr_codes, type upi_qr,
   * fixed_amount), its notes carrying the instalment reference `tr`; paid by `qr_code.credited`.
   * Throws PAYMENT_GATEWAY_UNAVAILABLE.
   */
  createUpiQr: (qr: {
    amountPaise: number;
    name: string;
    description: string;
    closeBy: Date;
    notes: Record<string, string>;
  }) => Promise<{ id: string; imageUrl: string | null }>;
  /**
   * A normal refund of part or all of a captured payment (POST /v1/payments/{id}/refund {amount,
   * speed: normal, notes}), made once per `idempotencyKey` (Razorpay's X-Refund-Idempotency header,
   * 10–64 letters, digits, hyphens, underscores), so a retried call never refunds twice. Amount in
   * integer paise, at least 100. Answers the refund id and its status. Throws
   * PAYMENT_GATEWAY_UNAVAILABLE.
   */
  refundPayment: (refund: {
    paymentId: string;
    amountPaise: number;
    idempotencyKey: string;
    notes: Record<string, string>;
  }) => Promise<{ refundId: string; status: string }>;
};

/** An authorisation order for a UPI AutoPay mandate: amount paise, recurring token terms. */
export type TCreateMandateOrder = {
  amountPaise: number;
  customerId: string;
  receipt: string;
  notes: Record<string, string>;
  token: { maxAmountPaise: number; expireAt: Date; frequency: string };
};

/** A recurring debit: the order created for it, the token, amount paise, notes. */
export type TCreateRecurringPayment = {
  orderId: string;
  customerId: string;
  tokenId: string;
  amountPaise: number;
  contact: string;
  description: string;
  notes: Record<string, string>;
};

/** The gateway's token entity (a UPI AutoPay mandate), as far as Kisht reads it. */
export const ZGatewayToken = z.object({
  id: z.string().min(1),
  method: z.string().optional(),
  recurring_details: z
    .object({ status: z.string(), failure_reason: z.string().nullable().optional() })
    .optional(),
});
export type TGatewayToken = z.infer<typeof ZGatewayToken>;

/** An order to create: amount in paise, currency, our receipt (≤ 40 characters) and notes. */
export type TCreateGatewayOrder = {
  amountPaise: number;
  currency: 'INR';
  receipt: string;
  notes: Record<string, string>;
  /** Sent as `payment_capture` when given (a recurring debit's order must auto-capture: true). */
  paymentCapture?: boolean;
};

/** The gateway's order entity, as far as Kisht reads it. */
export const ZGatewayOrder = z.object({
  id: z.string().min(1),
  amount: z.number().int(),
  currency: z.string(),
  receipt: z.string().nullable().optional(),
  status: z.string(),
});
export type TGatewayOrder = z.infer<typeof ZGatewayOrder>;

/**
 * A gateway webhook's event, read only after its X-Razorpay-Signature checks out over the exact
 * body bytes: the body parsed by `schema`, or null for a body that is not such an event (the
 * caller acknowledges and ignores it). Throws AppError(PAYMENT_SIGNATURE_INVALID, field
 * X-Razorpay-Signature) for a signature that does not match; nothing is read then.
 */
export const verifiedWebhookEvent = <T>(
  gateway: Pick<TPaymentGateway, 'verifyWebhookSignature'>,
  options: { rawBody: Buffer; signature: string | undefined },
  schema: z.ZodType<T>,
): T | null => {
  if (!gateway.verifyWebhookSignature(options.rawBody, options.signature))
    throw new AppError(AppErrorCode.PAYMENT_SIGNATURE_INVALID, 'The webhook signature does not match', [
      { field: 'X-Razorpay-Signature', message: 'Signature does not match' },
    ]);
  try {
    return schema.parse(JSON.parse(options.rawBody.toString('utf8')));
  } catch {
    return null;
  }
};

/** The gateway's payment entity, as far as Kisht reads it. */
export const ZGatewayPayment = z.object({
  id: z.string().min(1),
  order_id: z.string().nullable().optional(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.string(),
});
export type TGatewayPayment = z.infer<typeof ZGatewayPayment>;

/** Hex HMAC-SHA256 of `message` under `secret`: the gateway's signatures. */
export const hmacSha256Hex = (secret: string, message: string | Buffer): string =>
  createHmac('sha256', secret).update(message).digest('hex');

/** Whether hex `given` equals hex `expected`, compared in constant time (case-insensitive). */
export const isSameSignature = (expected: string, given: string | undefined): boolean => {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected.toLowerCase(), 'utf8');
  const b = Buffer.from(given.trim().toLowerCase(), 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
};

/** The signature the checkout hands back for a captured payment of an order. */
export const checkoutSignature = (keySecret: string, orderId: string, paymentId: string): string =>
  hmacSha256Hex(keySecret, `${orderId}|${paymentId}`);

/** How long one HTTP call to the gateway may take, ms; then it counts as failed. */
const CALL_TIMEOUT_MS = 8_000;

/** PAYMENT_GATEWAY_UNAVAILABLE (503), keeping what went wrong as its cause for the log. */
const unavailable = (cause?: unknown): AppError => {
  const error = new AppError(
    AppErrorCode.PAYMENT_GATEWAY_UNAVAILABLE,
    'The payment service is not answering. Nothing was charged; please try again',
  );
  error.cause = cause;
  return error;
};

/** An Error for an HTTP failure; a 4xx other than 408/429 is final (p-retry's AbortError). */
const httpError = (what: string, status: number, body: string): Error => {
  const error = new Error(`${what} answered HTTP ${status}: ${body.slice(0, 200)}`);
  return status >= 400 && status < 500 && ![408, 429].includes(status) ? new AbortError(error) : error;
};

/**
 * The gateway over Razorpay's HTTP API: Basic auth `key_id:key_secret`, JSON bodies, amounts in
 * paise. Each call is cut off after 8 s (AbortSignal.timeout); network errors, 408, 429 and 5xx
 * are tried again twice with back-off (p-retry); any failure ends as PAYMENT_GATEWAY_UNAVAILABLE.
 */
export const createRazorpayGateway = (options: {
  apiUrl: string;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  checkoutScriptUrl: string;
  retryMinTimeoutMs?: number;
  fetch?: typeof fetch;
}): TPaymentGateway => {
  const fetchFn = options.fetch ?? fetch;
  const base = options.apiUrl.replace(/\/$/, '');
  const authorization = `Basic ${Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64')}`;
  const call = async <T>(what: string, path: string, init: RequestInit, schema: z.ZodType<T>): Promise<T> => {
    try {
      return await pRetry(
        async () => {
          const response = await fetchFn(`${base}${path}`, {
            ...init,
            // A body-less call (GET, DELETE) sends no content-type, which a JSON server would refuse.
            headers: {
              ...(init.headers as Record<string, string> | undefined),
              authorization,
              accept: 'application/json',
              ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
          });
          const text = await response.text();
          if (!response.ok) throw httpError(what, response.status, text);
          return schema.parse(JSON.parse(text));
        },
        { retries: 2, minTimeout: options.retryMinTimeoutMs ?? 300 },
      );
    } catch (error) {
      throw unavailable(error);
    }
  };
  return {
    keyId: options.keyId,
    checkoutScriptUrl: options.checkoutScriptUrl,
    createOrder: (order) =>
      call(
        'create order',
        '/v1/orders',
        {
          method: 'POST',
          body: JSON.stringify({
            amount: order.amountPaise,
            currency: order.currency,
            receipt: order.receipt,
            notes: order.notes,
            ...(order.paymentCapture === undefined ? {} : { payment_capture: order.paymentCapture }),
          }),
        },
        ZGatewayOrder,
      ),
    verifyCheckoutSignature: ({ orderId, paymentId, signature }) =>
      isSameSignature(checkoutSignature(options.keySecret, orderId, paymentId), signature),
    verifyWebhookSignature: (rawBody, signature) =>
      isSameSignature(hmacSha256Hex(options.webhookSecret, rawBody), signature),
    fetchOrderPayments: async (orderId) =>
      (
        await call(
          'order payments',
          `/v1/orders/${encodeURIComponent(orderId)}/payments`,
          { method: 'GET' },
          z.object({ items: z.array(ZGatewayPayment) }),
        )
      ).items,
    createCustomer: (customer) =>
      call(
        'create customer',
        '/v1/customers',
        {
          method: 'POST',
          body: JSON.stringify({
            name: customer.name,
            contact: customer.contact,
            fail_existing: '0',
            notes: customer.notes,
          }),
        },
        z.object({ id: z.string().min(1) }),
      ),
    createMandateOrder: (order) =>
      call(
        'create mandate order',
        '/v1/orders',
        {
          method: 'POST',
          body: JSON.stringify({
            amount: order.amountPaise,
            currency: 'INR',
            method: 'upi',
            customer_id: order.customerId,
            receipt: order.receipt,
            notes: order.notes,
            token: {
              max_amount: order.token.maxAmountPaise,
              expire_at: Math.floor(order.token.expireAt.getTime() / 1000),
              frequency: order.token.frequency,
            },
          }),
        },
        ZGatewayOrder,
      ),
    createMandateIntent: async (intent) => {
      const answer = await call(
        'create mandate intent',
        '/v1/payments/create/upi',
        {
          method: 'POST',
          body: JSON.stringify({
            amount: intent.amountPaise,
            currency: 'INR',
            order_id: intent.orderId,
            customer_id: intent.customerId,
            contact: intent.contact,
            method: 'upi',
            recurring: '1',
            upi: { flow: 'intent' },
          }),
        },
        z.object({ razorpay_payment_id: z.string().min(1), link: z.string().min(1) }),
      );
      return { paymentId: answer.razorpay_payment_id, link: answer.link };
    },
    fetchTokens: async (customerId) =>
      (
        await call(
          'customer tokens',
          `/v1/customers/${encodeURIComponent(customerId)}/tokens`,
          { method: 'GET' },
          z.object({ items: z.array(ZGatewayToken) }),
        )
      ).items,
    cancelToken: async (customerId, tokenId) => {
      await call(
        'cancel token',
        `/v1/customers/${encodeURIComponent(customerId)}/tokens/${encodeURIComponent(tokenId)}`,
        { method: 'DELETE' },
        z.unknown(),
      );
    },
    createRecurringPayment: async (payment) => {
      const answer = await call(
        'create recurring payment',
        '/v1/payments/create/recurring',
        {
          method: 'POST',
          body: JSON.stringify({
            amount: payment.amountPaise,
            currency: 'INR',
            order_id: payment.orderId,
            customer_id: payment.customerId,
            token: payment.tokenId,
            recurring: '1',
            contact: payment.contact,
            description: payment.description,
            notes: payment.notes,
          }),
        },
        z.object({ razorpay_payment_id: z.string().min(1) }),
      );
      return { paymentId: answer.razorpay_payment_id };
    },
    createUpiQr: async (qr) => {
      const answer = await call(
        'create QR code',
        '/v1/payments/qr_codes',
        {
          method: 'POST',
          body: JSON.stringify({
            type: 'upi_qr',
            name: qr.name,
            usage: 'single_use',
            fixed_amount: true,
            payment_amount: qr.amountPaise,
            description: qr.description,
            close_by: Math.floor(qr.closeBy.getTime() / 1000),
            notes: qr.notes,
          }),
        },
        z.object({ id: z.string().min(1), image_url: z.string().nullable().optional() }),
      );
      return { id: answer.id, imageUrl: answer.image_url ?? null };
    },
    refundPayment: async (refund) => {
      const answer = await call(
        'refund payment',
        `/v1/payments/${encodeURIComponent(refund.paymentId)}/refund`,
        {
          method: 'POST',
          headers: { 'x-refund-idempotency': refund.idempotencyKey },
          body: JSON.stringify({ amount: refund.amountPaise, speed: 'normal', notes: refund.notes }),
        },
        z.object({ id: z.string().min(1), status: z.string() }),
      );
      return { refundId: answer.id, status: answer.status };
    },
  };
};
