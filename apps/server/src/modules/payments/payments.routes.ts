import { paymentsContract } from '@kisht/domain/contract/payments';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { createGatewayProvider, loopbackUrlOf, registerGatewayWebhook } from './gateway-provider';
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

/**
 * payment_gateway (issue 13 "Payments"; Razorpay model, docs/payment-gateway.md): admin key prices,
 * quotes and orders for keys, a customer's instalment order, the checkout callback, order status
 * (session routes), and the gateway's signed webhook (public, raw body). The gateway is chosen
 * from config (createGatewayProvider).
 */
export const paymentsRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  const gateways = createGatewayProvider(ctx.config, {
    webhookUrl: loopbackUrlOf(app, paths.payments.webhook),
    log: app.log,
  });
  app.addHook('onClose', async () => {
    await gateways.close();
  });
  const deps: TPaymentsDeps = { db: ctx.db, dispatcher: ctx.dispatcher, gateways, log: app.log };

  // The webhook: public, signed over the exact body bytes, so this scope keeps them raw.
  await registerGatewayWebhook(
    app,
    {
      contract: paymentsContract.webhook,
      docs: {
        tags: ['payments'],
        summary: 'Payment gateway webhook (payment.captured, order.paid), signed with X-Razorpay-Signature',
        description:
          'Called by the gateway, not the app. X-Razorpay-Signature must be the hex HMAC-SHA256 of ' +
          'the raw body under the webhook secret (else 400 PAYMENT_SIGNATURE_INVALID). A paid order ' +
          'is settled once, also when the checkout callback reports it too; events for unknown ' +
          'orders are acknowledged and ignored.',
      },
    },
    (input) => handleWebhook(deps, input),
  );

  await app.register(async (scope) => {
    requireSession(scope, ctx);
    const r = scope.withTypeProvider<ZodTypeProvider>();
    r.route({
      ...contractRoute(paymentsContract.getKeyPrices, {
        tags: ['payments'],
        summary: "The organisation's price per key, by app_type, for online purchase (admin)",
      }),
      handler: async (request) => ok(await getKeyPrices(ctx.db, request.actor)),
    });
    r.route({
      ...contractRoute(paymentsContract.saveKeyPrices, {
        tags: ['payments'],
        summary: 'Set the price per key, by app_type (admin); an app_type left out cannot be bought',
      }),
      handler: async (request) =>
        ok(await saveKeyPrices(ctx.db, request.actor, request.body), 'Prices saved'),
    });
    r.route({
      ...contractRoute(paymentsContract.validate, {
        tags: ['payments'],
        summary: 'What keys cost (retailers); 409 PRICES_NOT_SET "Please contact admin for prices"',
      }),
      handler: async (request) => ok(await quoteKeyPurchase(ctx.db, request.actor, request.body)),
    });
    r.route({
      ...contractRoute(paymentsContract.create, {
        tags: ['payments'],
        summary: 'Order keys online: a gateway order to open the checkout with (retailers)',
      }),
      handler: async (request) =>
        ok(
          await createKeyOrder(deps, {
            actor: request.actor,
            request: request.body,
            requestHostname: request.hostname,
          }),
        ),
    });
    r.route({
      ...contractRoute(paymentsContract.instalment, {
        tags: ['payments'],
        summary: 'Pay your own loan online: a gateway order for what is due (customers)',
      }),
      handler: async (request) =>
        ok(
          await createInstalmentOrder(deps, {
            actor: request.actor,
            request: request.body,
            requestHostname: request.hostname,
          }),
        ),
    });
    r.route({
      ...contractRoute(paymentsContract.verify, {
        tags: ['payments'],
        summary: "The checkout's success callback: verify razorpay_signature, then credit or record once",
      }),
      handler: async (request) =>
        ok(await verifyCheckout(deps, { actor: request.actor, result: request.body }), 'Payment received'),
    });
    r.route({
      ...contractRoute(paymentsContract.status, {
        tags: ['payments'],
        summary: 'One of your payment orders: created, paid or failed',
      }),
      handler: async (request) =>
        ok(await getOrderStatus(deps, { actor: request.actor, orderId: request.query.order_id })),
    });
  });
};
