import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import { checkoutSignature, hmacSha256Hex } from './payment-gateway';

/**
 * A local payment gateway that speaks the Razorpay HTTP the adapter uses (tests, `npm start`
 * without keys, Playwright): `POST /v1/orders` (Basic auth key_id:key_secret, amount in integer
 * paise ≥ 100, currency INR, receipt ≤ 40 characters), `GET /v1/orders/{id}/payments`, a served
 * `/v1/checkout.js` defining `window.Razorpay` (an in-page "Pay ₹X" / "Fail" / "Cancel" dialog),
 * and `POST /v1/checkout/pay`, which the dialog calls to capture: the answer is what the real
 * checkout hands its `handler` (razorpay_order_id, razorpay_payment_id and the HMAC signature), and
 * a signed `payment.captured` webhook goes to the webhook URL. For UPI AutoPay (docs/autopay.md)
 * it also speaks `POST /v1/customers`, mandate orders (`method: upi`, `customer_id`, `token`),
 * `POST /v1/payments/create/upi` (intent link), `GET`/`DELETE /v1/customers/{id}/tokens[/{token}]`,
 * `POST /v1/payments/create/recurring`, `POST /v1/payments/qr_codes` and `POST
 * /v1/payments/{id}/refund` (of a captured recurring payment), with test hooks that play
 * the customer's UPI app and bank (approveMandate, tokenEvent, settleRecurring, creditQr) and, for
 * a person, `GET /v1/fake/mandates/{order id}` (an approve/decline page), `GET
 * /v1/fake/recurring?tr=` (the recurring debits carrying an instalment reference) and `POST
 * /v1/fake/recurring/{payment id} {outcome}` (the bank's answer), and a QR code's image (`GET
 * /v1/fake/qr_codes/{id}.png`, its `image_url`) and a page that pays it as a UPI app would (`GET`
 * and `POST /v1/fake/qr_codes/{id}`). Money is never real.
 */
export type TFakeGateway = {
  /** Base URL, e.g. http://127.0.0.1:43121 (the adapter's RAZORPAY_API_URL). */
  url: string;
  /** URL of the served checkout script. */
  checkoutScriptUrl: string;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** Orders by gateway id. */
  orders: Map<string, TFakeOrder>;
  /** Every request received (method, path, whether its Basic auth was right). */
  requests: { method: string; path: string; isAuthorised: boolean }[];
  /** Answers of webhooks delivered (HTTP status, or 0 when the POST failed). */
  webhookDeliveries: { event: string; orderId: string; status: number }[];
  /**
   * Test hook: captures a payment of the order as the checkout's Pay does (without the webhook
   * unless `withWebhook`), returning what the checkout hands its handler.
   */
  capture: (orderId: string, options?: { withWebhook?: boolean }) => Promise<TFakeCheckoutResult>;
  /** Test hook: the signed webhook of a captured payment of the order (body bytes and signature). */
  webhookFor: (
    orderId: string,
    event?: 'payment.captured' | 'order.paid',
  ) => { body: string; signature: string };
  /** UPI AutoPay: gateway customers, tokens (mandates), recurring payments and UPI QR codes by id. */
  customers: Map<string, { id: string; name: string; contact: string }>;
  tokens: Map<string, TFakeToken>;
  recurringPayments: Map<string, TFakeRecurringPayment>;
  qrCodes: Map<string, TFakeQrCode>;
  /** Refunds of recurring payments, by refund id (POST /v1/payments/{id}/refund). */
  refunds: Map<string, TFakeRefund>;
  /**
   * Test hook: the customer approves (or declines) the mandate of an authorisation order in their
   * UPI app: a token is made (confirmed or rejected) and its signed webhook (token.confirmed /
   * token.rejected) answered and delivered to the webhook URL, if any.
   */
  approveMandate: (
    authOrderId: string,
    outcome?: 'confirmed' | 'rejected',
  ) => { tokenId: string; body: string; signature: string };
  /** Test hook: the customer pauses, resumes or cancels a token in their UPI app (signed webhook). */
  tokenEvent: (
    tokenId: string,
    event: 'token.paused' | 'token.confirmed' | 'token.cancelled',
  ) => { body: string; signature: string };
  /** Test hook: the bank's answer to a recurring debit: payment.captured or payment.failed (signed webhook). */
  settleRecurring: (paymentId: string, outcome: 'captured' | 'failed') => { body: string; signature: string };
  /** Test hook: a payment into a UPI QR code (qr_code.credited, signed), by default its fixed amount. */
  creditQr: (qrId: string, amountPaise?: number) => { paymentId: string; body: string; signature: string };
  /** Resolves when every webhook delivery started so far has ended. */
  settled: () => Promise<void>;
  close: () => Promise<void>;
};

export type TFakeOrder = {
  id: string;
  amount: number;
  currency: string;
  receipt: string | null;
  notes: Record<string, string>;
  status: 'created' | 'paid';
  payments: { id: string; amount: number; status: 'captured' | 'failed'; createdAt: number }[];
  /** An authorisation order of a mandate: method upi, the customer and the recurring token terms. */
  customerId?: string;
  token?: { max_amount: number; expire_at: number; frequency: string };
  /** The order's payment_capture, when sent (a recurring debit's order needs true). */
  paymentCapture?: boolean;
};

/** A recurring token (UPI AutoPay mandate) at the fake. */
export type TFakeToken = {
  id: string;
  customerId: string;
  authOrderId: string;
  maxAmount: number;
  expireAt: number;
  frequency: string;
  status: 'initiated' | 'confirmed' | 'rejected' | 'paused' | 'cancelled';
};

/** A recurring debit at the fake: created, then captured or failed by settleRecurring. */
export type TFakeRecurringPayment = {
  id: string;
  orderId: string;
  tokenId: string;
  amount: number;
  notes: Record<string, string>;
  status: 'created' | 'captured' | 'failed';
};

/** A refund at the fake: the payment refunded, amount paise, its idempotency key. */
export type TFakeRefund = {
  id: string;
  paymentId: string;
  amount: number;
  idempotencyKey: string | null;
  notes: Record<string, string>;
};

/** A UPI QR code at the fake. */
export type TFakeQrCode = {
  id: string;
  amount: number;
  notes: Record<string, string>;
  status: 'active' | 'closed';
};

export type TFakeCheckoutResult = {
  razorpay_order_id: string;
  razorpay_payment_id: string;
  razorpay_signature: string;
};

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A Razorpay-looking id: `prefix_` and 14 letters or digits. */
const gatewayId = (prefix: string) =>
  `${prefix}_${[...randomBytes(14)].map((b) => ALPHABET[b % ALPHABET.length]).join('')}`;

const badRequest = (reply: FastifyReply, description: string, field: string | null, status = 400) =>
  reply.code(status).send({ error: { code: 'BAD_REQUEST_ERROR', description, field } });

/** The checkout script: window.Razorpay with open() and on('payment.failed'), as Razorpay's checkout.js. */
const CHECKOUT_JS = `(function () {
  var script = document.currentScript;
  var origin = new URL(script ? script.src : window.location.href).origin;
  function rupees(paise) {
    return '\\u20b9' + (paise / 100).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }
  function Razorpay(options) {
    this.options = options || {};
    this.handlers = {};
  }
  Razorpay.prototype.on = function (event, fn) { this.handlers[event] = fn; };
  Razorpay.prototype.close = function () { if (this.dialog) { this.dialog.remove(); this.dialog = null; } };
  Razorpay.prototype.open = function () {
    var self = this;
    var o = self.options;
    var overlay = document.createElement('div');
    overlay.setAttribute('role', 'dialog');
    overlay.setAttribute('aria-label', 'Fake payment gateway');
    overlay.setAttribute('data-testid', 'fake-gateway');
    overlay.style.cssText = 'position:fixed;inset:0;background:rgba(0,0,0,.5);display:flex;align-items:center;justify-content:center;z-index:99999;font-family:sans-serif';
    var box = document.createElement('div');
    box.style.cssText = 'background:#fff;border-radius:8px;padding:20px;min-width:260px;max-width:90vw;text-align:center';
    var title = document.createElement('p');
    title.textContent = (o.name || 'Payment') + (o.description ? ' \\u2013 ' + o.description : '');
    var note = document.createElement('p');
    note.textContent = 'Test gateway: no money moves.';
    note.style.cssText = 'color:#666;font-size:12px';
    function button(label, testId) {
      var b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      b.setAttribute('data-testid', testId);
      b.style.cssText = 'display:block;width:100%;margin:8px 0;padding:10px;font-size:16px';
      box.appendChild(b);
      return b;
    }
    box.appendChild(title);
    box.appendChild(note);
    var pay = button('Pay ' + rupees(Number(o.amount)), 'fake-gateway-pay');
    var fail = button('Fail', 'fake-gateway-fail');
    var cancel = button('Cancel', 'fake-gateway-cancel');
    overlay.appendChild(box);
    document.body.appendChild(overlay);
    self.dialog = overlay;
    function send(outcome) {
      pay.disabled = fail.disabled = cancel.disabled = true;
      return fetch(origin + '/v1/checkout/pay', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ key: o.key, order_id: o.order_id, outcome: outcome })
      }).then(function (r) { return r.json(); });
    }
    pay.onclick = function () {
      send('pay').then(function (result) {
        self.close();
        if (result.error) { if (self.handlers['payment.failed']) self.handlers['payment.failed'](result); return; }
        if (o.handler) o.handler(result);
      }, function () {
        self.close();
        if (self.handlers['payment.failed']) self.handlers['payment.failed']({ error: { code: 'NETWORK_ERROR', description: 'Payment could not be completed' } });
      });
    };
    fail.onclick = function () {
      send('fail').then(function (result) {
        self.close();
        if (self.handlers['payment.failed']) self.handlers['payment.failed'](result);
      });
    };
    cancel.onclick = function () {
      self.close();
      if (o.modal && o.modal.ondismiss) o.modal.ondismiss();
    };
  };
  window.Razorpay = Razorpay;
})();
`;

/**
 * Starts the fake gateway on an ephemeral port of `host` (default 127.0.0.1). `webhookUrl` is
 * asked at each capture (the app's own address may be known only once it listens); null sends none.
 * Secrets default to random ones.
 */
export const startFakeGateway = async (
  options: {
    keyId?: string;
    keySecret?: string;
    webhookSecret?: string;
    webhookUrl?: () => string | null;
    /** Where AutoPay's events (token.*, recurring payments, QR codes) go; by default webhookUrl. */
    autopayWebhookUrl?: () => string | null;
    host?: string;
    port?: number;
  } = {},
): Promise<TFakeGateway> => {
  const keyId = options.keyId ?? `rzp_test_${randomBytes(7).toString('hex')}`;
  const keySecret = options.keySecret ?? randomBytes(18).toString('base64url');
  const webhookSecret = options.webhookSecret ?? randomBytes(18).toString('base64url');
  const orders = new Map<string, TFakeOrder>();
  const requests: TFakeGateway['requests'] = [];
  const webhookDeliveries: TFakeGateway['webhookDeliveries'] = [];
  const pending = new Set<Promise<void>>();
  const customers: TFakeGateway['customers'] = new Map();
  const tokens = new Map<string, TFakeToken>();
  const recurringPayments = new Map<string, TFakeRecurringPayment>();
  const qrCodes = new Map<string, TFakeQrCode>();
  const refunds = new Map<string, TFakeRefund>();
  const expectedAuth = `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`;

  const app: FastifyInstance = Fastify({ logger: false });
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    requests.push({
      method: request.method,
      path: request.url.split('?')[0]!,
      isAuthorised: request.headers.authorization === expectedAuth,
    });
    // The checkout runs on the web app's origin and calls /v1/checkout/pay from there.
    reply.header('access-control-allow-origin', '*');
  });
  const requireAuth = (request: FastifyRequest, reply: FastifyReply): boolean => {
    if (request.headers.authorization === expectedAuth) return true;
    void badRequest(reply, 'Authentication failed', null, 401);
    return false;
  };

  const paymentEntity = (order: TFakeOrder, payment: TFakeOrder['payments'][number]) => ({
    id: payment.id,
    entity: 'payment',
    amount: payment.amount,
    currency: order.currency,
    status: payment.status,
    order_id: order.id,
    method: 'upi',
    captured: payment.status === 'captured',
    created_at: Math.floor(payment.createdAt / 1000),
  });
  const orderEntity = (order: TFakeOrder) => ({
    id: order.id,
    entity: 'order',
    amount: order.amount,
    amount_paid: order.status === 'paid' ? order.amount : 0,
    amount_due: order.status === 'paid' ? 0 : order.amount,
    currency: order.currency,
    receipt: order.receipt,
    status: order.status,
    attempts: order.payments.length,
    notes: order.notes,
  });

  /** A webhook event as the gateway sends it (its envelope around `payload`), signed. */
  const signedEvent = (event: string, payload: Record<string, unknown>) => {
    const body = JSON.stringify({
      entity: 'event',
      account_id: 'acc_FakeGateway0001',
      event,
      contains: Object.keys(payload),
      payload,
      created_at: Math.floor(Date.now() / 1000),
    });
    return { body, signature: hmacSha256Hex(webhookSecret, body) };
  };

  /** Posts a signed event to `url` (none: nothing) and records the delivery's status (0: no answer). */
  const post = (
    url: string | null | undefined,
    signed: { body: string; signature: string },
    record: { event: string; orderId: string },
  ) => {
    if (!url) return;
    const delivery = fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': signed.signature },
      body: signed.body,
      signal: AbortSignal.timeout(10_000),
    })
      .then(
        (response) => response.status,
        () => 0,
      )
      .then((status) => {
        webhookDeliveries.push({ ...record, status });
      });
    pending.add(delivery);
    void delivery.finally(() => pending.delete(delivery));
  };

  const webhookFor: TFakeGateway['webhookFor'] = (orderId, event = 'payment.captured') => {
    const order = orders.get(orderId);
    const payment = order?.payments.find((p) => p.status === 'captured');
    if (!order || !payment) throw new Error(`fake gateway: no captured payment of ${orderId}`);
    return signedEvent(event, {
      payment: { entity: paymentEntity(order, payment) },
      ...(event === 'order.paid' ? { order: { entity: orderEntity(order) } } : {}),
    });
  };

  const deliver = (orderId: string) => {
    const url = options.webhookUrl?.();
    if (url) post(url, webhookFor(orderId), { event: 'payment.captured', orderId });
  };

  const capture = (orderId: string, outcome: 'pay' | 'fail', withWebhook: boolean) => {
    const order = orders.get(orderId);
    if (!order) return null;
    const captured = order.payments.find((p) => p.status === 'captured');
    if (captured) return { order, payment: captured };
    const payment = {
      id: gatewayId('pay'),
      amount: order.amount,
      status: outcome === 'pay' ? ('captured' as const) : ('failed' as const),
      createdAt: Date.now(),
    };
    order.payments.push(payment);
    if (outcome === 'pay') {
      order.status = 'paid';
      if (withWebhook) deliver(order.id);
    }
    return { order, payment };
  };

  app.post('/v1/orders', async (request, reply) => {
    if (!requireAuth(request, reply)) return reply;
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body.amount !== 'number' || !Number.isInteger(body.amount) || body.amount < 100)
      return badRequest(reply, 'The amount must be an integer of at least 100 paise', 'amount');
    if (body.currency !== 'INR') return badRequest(reply, 'Currency is not supported', 'currency');
    if (body.receipt !== undefined && (typeof body.receipt !== 'string' || body.receipt.length > 40))
      return badRequest(reply, 'receipt: at most 40 characters', 'receipt');
    const notes = (body.notes ?? {}) as Record<string, string>;
    if (typeof notes !== 'object' || Object.keys(notes).length > 15)
      return badRequest(reply, 'notes: at most 15 keys', 'notes');
    let mandate: Pick<TFakeOrder, 'customerId' | 'token'> = {};
    if (body.token !== undefined) {
      const token = body.token as Record<string, unknown>;
      if (body.method !== 'upi') return badRequest(reply, 'method must be upi for a UPI mandate', 'method');
      if (typeof body.customer_id !== 'string' || !customers.has(body.customer_id))
        return badRequest(reply, 'The customer_id provided does not exist', 'customer_id');
      if (
        typeof token.max_amount !== 'number' ||
        !Number.isInteger(token.max_amount) ||
        token.max_amount < 100
      )
        return badRequest(reply, 'token.max_amount: an integer of at least 100 paise', 'token.max_amount');
      if (typeof token.expire_at !== 'number' || token.expire_at * 1000 <= Date.now())
        return badRequest(reply, 'token.expire_at must be in the future', 'token.expire_at');
      if (token.frequency !== 'as_presented' && token.frequency !== 'monthly')
        return badRequest(reply, 'token.frequency: as_presented or monthly for UPI', 'token.frequency');
      mandate = {
        customerId: body.customer_id,
        token: { max_amount: token.max_amount, expire_at: token.expire_at, frequency: token.frequency },
      };
    }
    const order: TFakeOrder = {
      id: gatewayId('order'),
      amount: body.amount,
      currency: body.currency,
      receipt: (body.receipt as string | undefined) ?? null,
      notes,
      status: 'created',
      payments: [],
      ...mandate,
      ...(typeof body.payment_capture === 'boolean' ? { paymentCapture: body.payment_capture } : {}),
    };
    orders.set(order.id, order);
    return orderEntity(order);
  });

  app.get<{ Params: { id: string } }>('/v1/orders/:id/payments', async (request, reply) => {
    if (!requireAuth(request, reply)) return reply;
    const order = orders.get(request.params.id);
    if (!order) return badRequest(reply, 'The id provided does not exist', 'id');
    // As Razorpay: the order's payments whatever their state, a recurring debit's too (created
    // until the bank answers).
    const recurring = [...recurringPayments.values()]
      .filter((p) => p.orderId === order.id)
      .map((p) => ({
        id: p.id,
        entity: 'payment',
        amount: p.amount,
        currency: 'INR',
        status: p.status,
        order_id: order.id,
        method: 'upi',
        recurring: true,
        token_id: p.tokenId,
        notes: p.notes,
      }));
    const items = [...order.payments.map((p) => paymentEntity(order, p)), ...recurring];
    return { entity: 'collection', count: items.length, items };
  });

  const sendEvent = (event: string, payload: Record<string, unknown>) => {
    const signed = signedEvent(event, payload);
    post((options.autopayWebhookUrl ?? options.webhookUrl)?.(), signed, { event, orderId: '' });
    return signed;
  };
  const tokenEntity = (token: TFakeToken) => ({
    id: token.id,
    entity: 'token',
    customer_id: token.customerId,
    method: 'upi',
    recurring: true,
    recurring_details: {
      status: token.status,
      failure_reason: token.status === 'rejected' ? 'declined' : null,
    },
    max_amount: token.maxAmount,
    expired_at: token.expireAt,
    frequency: token.frequency,
  });

  const approve = (authOrderId: string, outcome: 'confirmed' | 'rejected') => {
    const order = orders.get(authOrderId);
    if (!order?.token || !order.customerId) throw new Error(`fake gateway: no mandate order ${authOrderId}`);
    const token: TFakeToken = {
      id: gatewayId('token'),
      customerId: order.customerId,
      authOrderId,
      maxAmount: order.token.max_amount,
      expireAt: order.token.expire_at,
      frequency: order.token.frequency,
      status: outcome,
    };
    tokens.set(token.id, token);
    if (outcome === 'confirmed') order.status = 'paid';
    const event = sendEvent(`token.${outcome}`, { token: { entity: tokenEntity(token) } });
    return { tokenId: token.id, ...event };
  };
  /** The fake's own base URL (known once it listens), for the image_url of its QR codes. */
  let selfUrl = '';
  const creditQr = (qrId: string, amountPaise?: number) => {
    const qr = qrCodes.get(qrId);
    if (!qr) throw new Error(`fake gateway: no QR code ${qrId}`);
    const paymentId = gatewayId('pay');
    qr.status = 'closed';
    const event = sendEvent('qr_code.credited', {
      payment: {
        entity: {
          id: paymentId,
          entity: 'payment',
          amount: amountPaise ?? qr.amount,
          currency: 'INR',
          status: 'captured',
          order_id: null,
          method: 'upi',
          captured: true,
          notes: [],
          created_at: Math.floor(Date.now() / 1000),
        },
      },
      qr_code: {
        entity: {
          id: qr.id,
          entity: 'qr_code',
          type: 'upi_qr',
          usage: 'single_use',
          fixed_amount: true,
          payment_amount: qr.amount,
          payments_amount_received: amountPaise ?? qr.amount,
          payments_count_received: 1,
          status: 'closed',
          close_reason: 'paid',
          notes: qr.notes,
        },
      },
    });
    return { paymentId, ...event };
  };

  const settleRecurring = (paymentId: string, outcome: 'captured' | 'failed') => {
    const payment = recurringPayments.get(paymentId);
    if (!payment) throw new Error(`fake gateway: no recurring payment ${paymentId}`);
    payment.status = outcome;
    const order = orders.get(payment.orderId);
    if (order && outcome === 'captured') order.status = 'paid';
    const token = tokens.get(payment.tokenId);
    return sendEvent(outcome === 'captured' ? 'payment.captured' : 'payment.failed', {
      payment: {
        entity: {
          id: payment.id,
          entity: 'payment',
          amount: payment.amount,
          currency: 'INR',
          status: outcome,
          order_id: payment.orderId,
          method: 'upi',
          customer_id: token?.customerId ?? null,
          token_id: payment.tokenId,
          recurring: true,
          notes: payment.notes,
          error_code: outcome === 'failed' ? 'BAD_REQUEST_ERROR' : null,
          error_reason: outcome === 'failed' ? 'insufficient_funds' : null,
          error_description: outcome === 'failed' ? 'Debit failed: insufficient balance' : null,
          created_at: Math.floor(Date.now() / 1000),
        },
      },
    });
  };

  app.post('/v1/customers', async (request, reply) => {
    if (!requireAuth(request, reply)) return reply;
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body.name !== 'string' || body.name.length === 0 || body.name.length > 50)
      return badRequest(reply, 'name: 1 to 50 characters', 'name');
    if (typeof body.contact !== 'string' || !/^\+?\d{8,15}$/.test(body.contact))
      return badRequest(reply, 'contact is invalid', 'contact');
    const existing = [...customers.values()].find((c) => c.contact === body.contact);
    if (existing) {
      if (body.fail_existing !== '0')
        return badRequest(reply, 'Customer already exists for the merchant', null);
      return { ...existing, entity: 'customer' };
    }
    const customer = { id: gatewayId('cust'), name: body.name, contact: body.contact };
    customers.set(customer.id, customer);
    return { ...customer, entity: 'customer' };
  });

  app.post('/v1/payments/create/upi', async (request, reply) => {
    if (!requireAuth(request, reply)) return reply;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const order = typeof body.order_id === 'string' ? orders.get(body.order_id) : undefined;
    if (!order?.token)
      return badRequest(reply, 'The order_id is not a mandate authorisation order', 'order_id');
    if (body.customer_id !== order.customerId)
      return badRequest(reply, 'customer_id does not match the order', 'customer_id');
    if (body.amount !== order.amount) return badRequest(reply, 'amount does not match the order', 'amount');
    if ((body.upi as { flow?: unknown } | undefined)?.flow !== 'intent')
      return badRequest(reply, 'Only the intent flow is supported for UPI AutoPay registration', 'upi.flow');
    const paymentId = gatewayId('pay');
    const link = `upi://mandate?pa=kisht.fake@razorpay&pn=Kisht%20Fake&tr=${order.id}&am=${(order.token.max_amount / 100).toFixed(2)}&cu=INR&mc=5732&purpose=14&recur=ASPRESENTED`;
    return { razorpay_payment_id: paymentId, link };
  });

  app.get<{ Params: { id: string } }>('/v1/customers/:id/tokens', async (request, reply) => {
    if (!requireAuth(request, reply)) return reply;
    if (!customers.has(request.params.id)) return badRequest(reply, 'The id provided does not exist', 'id');
    const items = [...tokens.values()].filter((t) => t.customerId === request.params.id).map(tokenEntity);
    return { entity: 'collection', count: items.length, items };
  });

  app.delete<{ Params: { id: string; token: string } }>(
    '/v1/customers/:id/tokens/:token',
    async (request, reply) => {
      if (!requireAuth(request, reply)) return reply;
      const token = tokens.get(request.params.token);
      if (!token || token.customerId !== request.params.id)
        return badRequest(reply, 'The id provided does not exist', 'token');
      token.status = 'cancelled';
      sendEvent('token.cancelled', { token: { entity: tokenEntity(token) } });
      return { deleted: true };
    },
  );

  app.post('/v1/payments/create/recurring', async (request, reply) => {
    if (!requireAuth(request, reply)) return reply;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const order = typeof body.order_id === 'string' ? orders.get(body.order_id) : undefined;
    if (!order) return badRequest(reply, 'The order_id provided does not exist', 'order_id');
    const token = typeof body.token === 'string' ? tokens.get(body.token) : undefined;
    if (!token || token.customerId !== body.customer_id)
      return badRequest(reply, 'The token provided does not exist for this customer', 'token');
    if (token.status !== 'confirmed') return badRequest(reply, `The token is ${token.status}`, 'token');
    if (body.recurring !== '1' && body.recurring !== true)
      return badRequest(reply, 'recurring must be 1', 'recurring');
    if (body.amount !== order.amount) return badRequest(reply, 'amount does not match the order', 'amount');
    if (order.paymentCapture !== true)
      return badRequest(reply, 'The order of a recurring payment must have payment_capture true', 'order_id');
    if (order.amount > token.maxAmount)
      return badRequest(reply, 'amount exceeds the mandate max_amount', 'amount');
    if ([...recurringPayments.values()].some((p) => p.orderId === order.id))
      return badRequest(reply, 'A payment was already created for this order', 'order_id');
    const payment: TFakeRecurringPayment = {
      id: gatewayId('pay'),
      orderId: order.id,
      tokenId: token.id,
      amount: order.amount,
      notes: { ...order.notes, ...((body.notes as Record<string, string> | undefined) ?? {}) },
      status: 'created',
    };
    recurringPayments.set(payment.id, payment);
    return { razorpay_payment_id: payment.id, razorpay_order_id: order.id };
  });

  // A normal refund of a captured recurring payment, at most what is left of it, once per
  // X-Refund-Idempotency key (the same key answers the same refund).
  app.post<{ Params: { id: string } }>('/v1/payments/:id/refund', async (request, reply) => {
    if (!requireAuth(request, reply)) return reply;
    const payment = recurringPayments.get(request.params.id);
    if (!payment) return badRequest(reply, 'The id provided does not exist', 'id');
    if (payment.status !== 'captured')
      return badRequest(reply, 'Only a captured payment can be refunded', 'id');
    const key = request.headers['x-refund-idempotency'];
    const idempotencyKey = typeof key === 'string' ? key : null;
    if (idempotencyKey !== null && !/^[A-Za-z0-9_-]{10,64}$/.test(idempotencyKey))
      return badRequest(reply, 'The idempotency key is invalid', 'x-refund-idempotency');
    const again = [...refunds.values()].find(
      (r) => idempotencyKey !== null && r.idempotencyKey === idempotencyKey,
    );
    const body = (request.body ?? {}) as Record<string, unknown>;
    const refunded = [...refunds.values()]
      .filter((r) => r.paymentId === payment.id)
      .reduce((total, r) => total + r.amount, 0);
    const amount = body.amount === undefined ? payment.amount - refunded : body.amount;
    if (!again) {
      if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 100)
        return badRequest(reply, 'The amount must be at least INR 1.00', 'amount');
      if (amount > payment.amount - refunded)
        return badRequest(reply, 'The refund amount provided is greater than amount captured', 'amount');
    }
    const refund = again ?? {
      id: gatewayId('rfnd'),
      paymentId: payment.id,
      amount: amount as number,
      idempotencyKey,
      notes: (body.notes as Record<string, string> | undefined) ?? {},
    };
    refunds.set(refund.id, refund);
    return {
      id: refund.id,
      entity: 'refund',
      amount: refund.amount,
      currency: 'INR',
      payment_id: refund.paymentId,
      notes: refund.notes,
      receipt: null,
      status: 'processed',
      speed_requested: 'normal',
      created_at: Math.floor(Date.now() / 1000),
    };
  });

  app.post('/v1/payments/qr_codes', async (request, reply) => {
    if (!requireAuth(request, reply)) return reply;
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (body.type !== 'upi_qr') return badRequest(reply, 'type must be upi_qr', 'type');
    if (body.fixed_amount !== true || typeof body.payment_amount !== 'number' || body.payment_amount < 100)
      return badRequest(reply, 'payment_amount: at least 100 paise with fixed_amount', 'payment_amount');
    const qr: TFakeQrCode = {
      id: gatewayId('qr'),
      amount: body.payment_amount,
      notes: (body.notes as Record<string, string> | undefined) ?? {},
      status: 'active',
    };
    qrCodes.set(qr.id, qr);
    return {
      id: qr.id,
      entity: 'qr_code',
      type: 'upi_qr',
      usage: body.usage ?? 'single_use',
      fixed_amount: true,
      payment_amount: qr.amount,
      status: qr.status,
      notes: qr.notes,
      image_url: `${selfUrl}/v1/fake/qr_codes/${qr.id}.png`,
    };
  });

  // The customer's UPI app, for a person trying AutoPay against the fake (no real UPI app can open
  // the fake's upi://mandate link): a page that approves or declines the mandate of an order.
  app.get<{ Params: { orderId: string } }>('/v1/fake/mandates/:orderId', async (request, reply) => {
    const order = orders.get(request.params.orderId);
    if (!order?.token) return badRequest(reply, 'No mandate order with this id', 'orderId', 404);
    const id = JSON.stringify(order.id);
    return reply
      .type('text/html; charset=utf-8')
      .send(`<!doctype html><meta name="viewport" content="width=device-width">
<title>Fake UPI app</title><body style="font-family:sans-serif;text-align:center;padding:24px">
<p>Test gateway: approve UPI AutoPay up to &#8377;${(order.token.max_amount / 100).toFixed(2)} per debit?</p>
<button id="approve" style="padding:10px 24px;font-size:16px">Approve</button>
<button id="decline" style="padding:10px 24px;font-size:16px">Decline</button><p id="done"></p>
<script>
function send(outcome) {
  fetch('/v1/fake/mandates/' + encodeURIComponent(${id}), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ outcome: outcome }) })
    .then(function (r) { return r.json(); }).then(function (r) { document.getElementById('done').textContent = r.status || r.error.description; });
}
document.getElementById('approve').onclick = function () { send('confirmed'); };
document.getElementById('decline').onclick = function () { send('rejected'); };
</script></body>`);
  });
  app.post<{ Params: { orderId: string } }>('/v1/fake/mandates/:orderId', async (request, reply) => {
    const order = orders.get(request.params.orderId);
    if (!order?.token) return badRequest(reply, 'No mandate order with this id', 'orderId', 404);
    if ([...tokens.values()].some((t) => t.authOrderId === order.id))
      return badRequest(reply, 'This mandate was already answered', 'orderId', 409);
    const outcome =
      (request.body as { outcome?: unknown } | null)?.outcome === 'rejected' ? 'rejected' : 'confirmed';
    approve(order.id, outcome);
    return { status: outcome };
  });
  app.get<{ Querystring: { tr?: string } }>('/v1/fake/recurring', async (request) => {
    const items = [...recurringPayments.values()].filter(
      (p) => request.query.tr === undefined || p.notes.tr === request.query.tr,
    );
    return { entity: 'collection', count: items.length, items };
  });
  // A UPI QR code's image (what image_url points at) and a page that plays the UPI app paying it.
  app.get<{ Params: { file: string } }>('/v1/fake/qr_codes/:file', async (request, reply) => {
    const isImage = request.params.file.endsWith('.png');
    const qr = qrCodes.get(request.params.file.replace(/\.png$/, ''));
    if (!qr) return badRequest(reply, 'No QR code with this id', 'id', 404);
    const upiLink = `upi://pay?pa=kisht.fake@razorpay&pn=Kisht%20Fake&tr=${qr.id}&am=${(qr.amount / 100).toFixed(2)}&cu=INR`;
    if (isImage)
      return reply.type('image/png').send(await QRCode.toBuffer(upiLink, { margin: 2, width: 240 }));
    const id = JSON.stringify(qr.id);
    return reply
      .type('text/html; charset=utf-8')
      .send(`<!doctype html><meta name="viewport" content="width=device-width">
<title>Fake UPI app</title><body style="font-family:sans-serif;text-align:center;padding:24px">
<p>Test gateway: pay &#8377;${(qr.amount / 100).toFixed(2)} to this UPI QR?</p>
<button id="pay" style="padding:10px 24px;font-size:16px">Pay</button><p id="done"></p>
<script>
document.getElementById('pay').onclick = function () {
  fetch('/v1/fake/qr_codes/' + encodeURIComponent(${id}), { method: 'POST' })
    .then(function (r) { return r.json(); }).then(function (r) { document.getElementById('done').textContent = r.status || r.error.description; });
};
</script></body>`);
  });
  app.post<{ Params: { file: string } }>('/v1/fake/qr_codes/:file', async (request, reply) => {
    const qr = qrCodes.get(request.params.file);
    if (!qr) return badRequest(reply, 'No QR code with this id', 'id', 404);
    if (qr.status !== 'active') return badRequest(reply, 'This QR code is closed', 'id', 409);
    creditQr(qr.id);
    return { status: 'paid' };
  });
  // A bank's answer to a recurring debit, for a person trying AutoPay against the fake.
  app.post<{ Params: { paymentId: string } }>('/v1/fake/recurring/:paymentId', async (request, reply) => {
    if (!recurringPayments.has(request.params.paymentId))
      return badRequest(reply, 'No recurring payment with this id', 'paymentId', 404);
    const outcome =
      (request.body as { outcome?: unknown } | null)?.outcome === 'failed' ? 'failed' : 'captured';
    settleRecurring(request.params.paymentId, outcome);
    return { status: outcome };
  });

  app.get('/v1/checkout.js', async (_request, reply) =>
    reply.type('application/javascript; charset=utf-8').send(CHECKOUT_JS),
  );

  app.options('/v1/checkout/pay', async (_request, reply) =>
    reply
      .header('access-control-allow-methods', 'POST')
      .header('access-control-allow-headers', 'content-type')
      .code(204)
      .send(),
  );

  app.post('/v1/checkout/pay', async (request, reply) => {
    const body = (request.body ?? {}) as { key?: unknown; order_id?: unknown; outcome?: unknown };
    if (body.key !== keyId) return badRequest(reply, 'The key is not valid', 'key', 401);
    if (typeof body.order_id !== 'string') return badRequest(reply, 'order_id is required', 'order_id');
    const result = capture(body.order_id, body.outcome === 'fail' ? 'fail' : 'pay', true);
    if (!result) return badRequest(reply, 'The id provided does not exist', 'order_id');
    if (result.payment.status === 'failed') {
      return {
        error: {
          code: 'BAD_REQUEST_ERROR',
          description: 'Payment failed',
          source: 'customer',
          step: 'payment_authorization',
          reason: 'payment_failed',
          metadata: { order_id: result.order.id, payment_id: result.payment.id },
        },
      };
    }
    return {
      razorpay_order_id: result.order.id,
      razorpay_payment_id: result.payment.id,
      razorpay_signature: checkoutSignature(keySecret, result.order.id, result.payment.id),
    } satisfies TFakeCheckoutResult;
  });

  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  const { port } = app.server.address() as AddressInfo;
  const url = `http://${options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1'}:${port}`;
  selfUrl = url;
  return {
    url,
    checkoutScriptUrl: `${url}/v1/checkout.js`,
    keyId,
    keySecret,
    webhookSecret,
    orders,
    requests,
    webhookDeliveries,
    capture: async (orderId, captureOptions = {}) => {
      const result = capture(orderId, 'pay', captureOptions.withWebhook ?? false);
      if (!result) throw new Error(`fake gateway: no order ${orderId}`);
      return {
        razorpay_order_id: result.order.id,
        razorpay_payment_id: result.payment.id,
        razorpay_signature: checkoutSignature(keySecret, result.order.id, result.payment.id),
      };
    },
    webhookFor,
    customers,
    tokens,
    recurringPayments,
    qrCodes,
    refunds,
    approveMandate: (authOrderId, outcome = 'confirmed') => approve(authOrderId, outcome),
    tokenEvent: (tokenId, event) => {
      const token = tokens.get(tokenId);
      if (!token) throw new Error(`fake gateway: no token ${tokenId}`);
      token.status =
        event === 'token.paused' ? 'paused' : event === 'token.cancelled' ? 'cancelled' : 'confirmed';
      return sendEvent(event, { token: { entity: tokenEntity(token) } });
    },
    settleRecurring: (paymentId, outcome) => settleRecurring(paymentId, outcome),
    creditQr,
    settled: async () => {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    close: async () => {
      await Promise.all([...pending]);
      await app.close();
    },
  };
};
