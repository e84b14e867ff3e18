import { autopayContract } from '@kisht/domain/contract/autopay';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { startProtectedJob } from '../../jobs/scheduler';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { createGatewayProvider, loopbackUrlOf, registerGatewayWebhook } from '../payments/gateway-provider';
import {
  cancelMandate,
  createInstalmentQr,
  getMandate,
  handleAutopayWebhook,
  runAutopayCharges,
  setUpMandate,
  type TAutopayDeps,
} from './autopay.service';

/** How often the "autopay charges" job runs at most, ms (it only charges in the 09:00–21:00 +05:30 window). */
export const AUTOPAY_JOB_INTERVAL_MS = 15 * 60_000;

/**
 * UPI AutoPay (issue 29, docs/autopay.md): a customer's mandate read, set up and cancelled
 * (session routes), the gateway's signed webhook (public, raw body; configure it at the gateway for
 * token.*, payment.captured, payment.failed and qr_code.credited), and the "autopay charges" job
 * (startProtectedJob, every JOBS_INTERVAL_MINUTES or 15 minutes when that is shorter; none when
 * JOBS_INTERVAL_MINUTES is 0). The gateway is chosen from config as for payments.
 */
export const autopayRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  const gateways = createGatewayProvider(ctx.config, {
    webhookUrl: loopbackUrlOf(app, paths.autopay.webhook),
    log: app.log,
  });
  const deps: TAutopayDeps = { db: ctx.db, dispatcher: ctx.dispatcher, gateways, log: app.log };
  ctx.jobs.register('autopay_charges', async (at) => ({ created: await runAutopayCharges(deps, at) }));
  const job =
    ctx.config.JOBS_INTERVAL_MINUTES > 0
      ? startProtectedJob({
          name: 'autopay charges',
          intervalMs: Math.min(ctx.config.JOBS_INTERVAL_MINUTES * 60_000, AUTOPAY_JOB_INTERVAL_MS),
          log: app.log,
          run: async () => {
            const created = await runAutopayCharges(deps);
            if (created > 0) app.log.info({ job: 'autopay charges', created }, 'AutoPay charges created');
          },
        })
      : null;
  app.addHook('preClose', async () => {
    job?.stop();
  });
  app.addHook('onClose', async () => {
    await gateways.close();
  });

  await registerGatewayWebhook(
    app,
    {
      contract: autopayContract.webhook,
      docs: {
        tags: ['autopay'],
        summary:
          'AutoPay webhook (token.*, payment.captured/failed, qr_code.credited), signed with X-Razorpay-Signature',
        description:
          'Called by the gateway, not the app. X-Razorpay-Signature must be the hex HMAC-SHA256 of the raw ' +
          'body under the webhook secret (else 400 PAYMENT_SIGNATURE_INVALID). Events about unknown tokens, ' +
          'orders or references are acknowledged and ignored.',
      },
    },
    (input) => handleAutopayWebhook(deps, input),
  );

  await app.register(async (scope) => {
    requireSession(scope, ctx);
    const r = scope.withTypeProvider<ZodTypeProvider>();
    r.route({
      ...contractRoute(autopayContract.get, {
        tags: ['autopay'],
        summary: "A customer's UPI AutoPay mandate and its charges (shops in scope; the customer, their own)",
      }),
      handler: async (request) =>
        ok(await getMandate(deps, { actor: request.actor, customerId: request.query.customer_id })),
    });
    r.route({
      ...contractRoute(autopayContract.setUp, {
        tags: ['autopay'],
        summary: 'Set up UPI AutoPay: answers the authorisation link (QR) for the customer’s UPI app',
      }),
      handler: async (request) =>
        ok(
          await setUpMandate(deps, {
            actor: request.actor,
            request: request.body,
            requestHostname: request.hostname,
          }),
          'Show the customer the QR to approve AutoPay',
        ),
    });
    r.route({
      ...contractRoute(autopayContract.instalmentQr, {
        tags: ['autopay'],
        summary: 'A single-use gateway UPI QR for the oldest unpaid instalment, matched to it by its tr',
      }),
      handler: async (request) =>
        ok(
          await createInstalmentQr(deps, {
            actor: request.actor,
            request: request.body,
            requestHostname: request.hostname,
          }),
          'Scan with any UPI app to pay this EMI',
        ),
    });
    r.route({
      ...contractRoute(autopayContract.cancel, {
        tags: ['autopay'],
        summary: 'Cancel UPI AutoPay (at the gateway too); no instalment is charged after it',
      }),
      handler: async (request) =>
        ok(
          await cancelMandate(deps, { actor: request.actor, customerId: request.query.customer_id }),
          'AutoPay cancelled',
        ),
    });
  });
};
