import type { AddressInfo } from 'node:net';
import { zEnvelope } from '@kisht/domain/common/envelope';
import { paths } from '@kisht/domain/paths';
import {
  ZCheckoutOrder,
  ZCheckoutResult,
  ZInstalmentOrderRequest,
  ZKeyPrices,
  ZPaymentOrderStatus,
  ZPaymentQuote,
  ZPaymentQuoteRequest,
  ZPaymentStatusQuery,
} from '@kisht/domain/payments/payments.schema';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../lib/context';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { createGatewayProvider } from './gateway-provider';
import {
  createInstalmentOrder,
  createKeyOrder,
  getKeyPrices,
  getOrderStatus,
  handleWebhook,
  quoteKeyPurchase,
  saveKeyPrices,
  type TPaymentsDeps,
  verifyCheckout,
} from './payments.service';

/** Where this server is reached by a gateway running on the same machine (the in-process fake). */
const ownWebhookUrl = (app: FastifyInstance) => (): string | null => {
  const address = app.server.address() as AddressInfo | string | null;
  return address && typeof address === 'object'
    ? `http://127.0.0.1:${address.port}${paths.payments.webhook}`
    : null;
};

/**
 * payment_gateway (issue 13 "Payments"; Razorpay model, docs/payment-gateway.md): admin key prices,
 * quotes and orders for keys, a customer's instalment order, the checkout callback, order status
 * (session routes), and the gateway's signed webhook (public, raw body). The gateway is chosen
 * from config (createGatewayProvider).
 */
export const paymentsRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  const gateways = createGatewayProvider(ctx.config, { webhookUrl: ownWebhookUrl(app), log: app.log });
  app.addHook('onClose', async () => {
    await gateways.close();
  });
  const deps: TPaymentsDeps = { db: ctx.db, dispatcher: ctx.dispatcher, gateways, log: app.log };

  // The webhook: public, signed over the exact body bytes, so this scope keeps them raw.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // Only JSON, as the gateway sends it (anything else is 415), kept as the bytes that were signed.
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: 1024 * 1024 },
      (_request, body, done) => done(null, body),
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      paths.payments.webhook,
      {
        schema: {
          tags: ['payments'],
          summary: 'Payment gateway webhook (payment.captured, order.paid), signed with X-Razorpay-Signature',
          description:
            'Called by the gateway, not the app. X-Razorpay-Signature must be the hex HMAC-SHA256 of ' +
            'the raw body under the webhook secret (else 400 PAYMENT_SIGNATURE_INVALID). A paid order ' +
            'is settled once, also when the checkout callback reports it too; events for unknown ' +
            'orders are acknowledged and ignored.',
          response: { 200: zEnvelope(z.object({ outcome: z.enum(['settled', 'ignored']) })) },
        },
      },
      async (request) => {
        const signature = request.headers['x-razorpay-signature'];
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        return ok(
          await handleWebhook(deps, {
            rawBody,
            signature: typeof signature === 'string' ? signature : undefined,
          }),
        );
      },
    );
  });

  await app.register(async (scope) => {
    requireSession(scope, ctx);
    const r = scope.withTypeProvider<ZodTypeProvider>();
    r.get(
      paths.admin.keyPrices,
      {
        schema: {
          tags: ['payments'],
          summary: "The organisation's price per key, by app_type, for online purchase (admin)",
          response: { 200: zEnvelope(ZKeyPrices) },
        },
      },
      async (request) => ok(await getKeyPrices(ctx.db, request.actor)),
    );
    r.put(
      paths.admin.keyPrices,
      {
        schema: {
          tags: ['payments'],
          summary: 'Set the price per key, by app_type (admin); an app_type left out cannot be bought',
          body: ZKeyPrices,
          response: { 200: zEnvelope(ZKeyPrices) },
        },
      },
      async (request) => ok(await saveKeyPrices(ctx.db, request.actor, request.body), 'Prices saved'),
    );
    r.post(
      paths.payments.validate,
      {
        schema: {
          tags: ['payments'],
          summary: 'What keys cost (retailers); 409 PRICES_NOT_SET "Please contact admin for prices"',
          body: ZPaymentQuoteRequest,
          response: { 200: zEnvelope(ZPaymentQuote) },
        },
      },
      async (request) => ok(await quoteKeyPurchase(ctx.db, request.actor, request.body)),
    );
    r.post(
      paths.payments.create,
      {
        schema: {
          tags: ['payments'],
          summary: 'Order keys online: a gateway order to open the checkout with (retailers)',
          body: ZPaymentQuoteRequest,
          response: { 200: zEnvelope(ZCheckoutOrder) },
        },
      },
      async (request) =>
        ok(
          await createKeyOrder(deps, {
            actor: request.actor,
            request: request.body,
            requestHostname: request.hostname,
          }),
        ),
    );
    r.post(
      paths.payments.instalment,
      {
        schema: {
          tags: ['payments'],
          summary: 'Pay your own loan online: a gateway order for what is due (customers)',
          body: ZInstalmentOrderRequest,
          response: { 200: zEnvelope(ZCheckoutOrder) },
        },
      },
      async (request) =>
        ok(
          await createInstalmentOrder(deps, {
            actor: request.actor,
            request: request.body,
            requestHostname: request.hostname,
          }),
        ),
    );
    r.post(
      paths.payments.verify,
      {
        schema: {
          tags: ['payments'],
          summary: "The checkout's success callback: verify razorpay_signature, then credit or record once",
          body: ZCheckoutResult,
          response: { 200: zEnvelope(ZPaymentOrderStatus) },
        },
      },
      async (request) =>
        ok(await verifyCheckout(deps, { actor: request.actor, result: request.body }), 'Payment received'),
    );
    r.get(
      paths.payments.status,
      {
        schema: {
          tags: ['payments'],
          summary: 'One of your payment orders: created, paid or failed',
          querystring: ZPaymentStatusQuery,
          response: { 200: zEnvelope(ZPaymentOrderStatus) },
        },
      },
      async (request) =>
        ok(await getOrderStatus(deps, { actor: request.actor, orderId: request.query.order_id })),
    );
  });
};
