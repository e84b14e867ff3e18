import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { checkoutSignature, hmacSha256Hex } from './payment-gateway';

/**
 * A local payment gateway that speaks the Razorpay HTTP the adapter uses (tests, `npm start`
 * without keys, Playwright): `POST /v1/orders` (Basic auth key_id:key_secret, amount in integer
 * paise ≥ 100, currency INR, receipt ≤ 40 characters), `GET /v1/orders/{id}/payments`, a served
 * `/v1/checkout.js` defining `window.Razorpay` (an in-page "Pay ₹X" / "Fail" / "Cancel" dialog),
 * and `POST /v1/checkout/pay`, which the dialog calls to capture: the answer is what the real
 * checkout hands its `handler` (razorpay_order_id, razorpay_payment_id and the HMAC signature), and
 * a signed `payment.captured` webhook goes to the webhook URL. Money is never real.
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

  const webhookFor: TFakeGateway['webhookFor'] = (orderId, event = 'payment.captured') => {
    const order = orders.get(orderId);
    const payment = order?.payments.find((p) => p.status === 'captured');
    if (!order || !payment) throw new Error(`fake gateway: no captured payment of ${orderId}`);
    const body = JSON.stringify({
      entity: 'event',
      account_id: 'acc_FakeGateway0001',
      event,
      contains: event === 'order.paid' ? ['payment', 'order'] : ['payment'],
      payload: {
        payment: { entity: paymentEntity(order, payment) },
        ...(event === 'order.paid' ? { order: { entity: orderEntity(order) } } : {}),
      },
      created_at: Math.floor(Date.now() / 1000),
    });
    return { body, signature: hmacSha256Hex(webhookSecret, body) };
  };

  const deliver = (orderId: string) => {
    const url = options.webhookUrl?.();
    if (!url) return;
    const { body, signature } = webhookFor(orderId);
    const delivery = fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature },
      body,
      signal: AbortSignal.timeout(10_000),
    })
      .then(
        (response) => response.status,
        () => 0,
      )
      .then((status) => {
        webhookDeliveries.push({ event: 'payment.captured', orderId, status });
      });
    pending.add(delivery);
    void delivery.finally(() => pending.delete(delivery));
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
    const order: TFakeOrder = {
      id: gatewayId('order'),
      amount: body.amount,
      currency: body.currency,
      receipt: (body.receipt as string | undefined) ?? null,
      notes,
      status: 'created',
      payments: [],
    };
    orders.set(order.id, order);
    return orderEntity(order);
  });

  app.get<{ Params: { id: string } }>('/v1/orders/:id/payments', async (request, reply) => {
    if (!requireAuth(request, reply)) return reply;
    const order = orders.get(request.params.id);
    if (!order) return badRequest(reply, 'The id provided does not exist', 'id');
    const items = order.payments.map((p) => paymentEntity(order, p));
    return { entity: 'collection', count: items.length, items };
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
    settled: async () => {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    close: async () => {
      await Promise.all([...pending]);
      await app.close();
    },
  };
};
