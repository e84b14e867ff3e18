import { webhooksContract } from '@kisht/domain/contract/webhooks';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { startProtectedJob } from '../../jobs/scheduler';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { webhookSubscriptionsOf } from './webhook-subscriptions';
import {
  createEndpoint,
  deliverWebhooks,
  enableEndpoint,
  listDeliveries,
  listEndpoints,
  removeEndpoint,
  resendMessage,
  rotateSecret,
} from './webhooks.service';

/** How often the "webhooks" job sends what is due, ms (5 s: the first retry's delay). */
export const WEBHOOKS_JOB_INTERVAL_MS = 5_000;

/**
 * Outbound webhooks (issue 30, docs/webhooks.md): the organisation admin's endpoints, their
 * delivery log and resend (session routes), and the "webhooks" job that reloads the subscriptions
 * (webhook-subscriptions.ts) and delivers the outbox every 5 seconds (none when
 * JOBS_INTERVAL_MINUTES is 0; tests call deliverWebhooks).
 */
export const webhooksRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  const subscriptions = webhookSubscriptionsOf(ctx.db);
  await subscriptions.refresh(ctx.db);
  const job =
    ctx.config.JOBS_INTERVAL_MINUTES > 0
      ? startProtectedJob({
          name: 'webhooks',
          intervalMs: WEBHOOKS_JOB_INTERVAL_MS,
          log: app.log,
          run: async () => {
            // Other server processes' endpoint changes, within one run.
            await subscriptions.refresh(ctx.db);
            await deliverWebhooks({ db: ctx.db, log: app.log });
          },
        })
      : null;
  app.addHook('preClose', async () => {
    job?.stop();
  });

  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const docs = (summary: string) => ({ tags: ['webhooks'], summary });
  r.route({
    ...contractRoute(webhooksContract.list, docs("The organisation's webhook endpoints (admin)")),
    handler: async (request) => ok(await listEndpoints(ctx.db, request.actor)),
  });
  r.route({
    ...contractRoute(
      webhooksContract.create,
      docs('Add a webhook endpoint (admin): answers its signing secret, shown this once'),
    ),
    handler: async (request) =>
      ok(
        await createEndpoint(ctx.db, {
          actor: request.actor,
          request: request.body,
          isProduction: ctx.config.NODE_ENV === 'production',
        }),
        'Endpoint added. Copy the secret now: it is not shown again',
      ),
  });
  r.route({
    ...contractRoute(webhooksContract.remove, docs('Remove a webhook endpoint (admin)')),
    handler: async (request) =>
      ok(await removeEndpoint(ctx.db, request.actor, request.query.endpoint_id), 'Endpoint removed'),
  });
  r.route({
    ...contractRoute(
      webhooksContract.rotate,
      docs('A new signing secret (admin); the previous one also signs for 24 hours'),
    ),
    handler: async (request) =>
      ok(await rotateSecret(ctx.db, request.actor, request.body.endpoint_id), 'Copy the new secret now'),
  });
  r.route({
    ...contractRoute(webhooksContract.enable, docs('Enable a disabled webhook endpoint again (admin)')),
    handler: async (request) =>
      ok(await enableEndpoint(ctx.db, request.actor, request.body.endpoint_id), 'Endpoint enabled'),
  });
  r.route({
    ...contractRoute(webhooksContract.deliveries, docs("An endpoint's delivery log (admin)")),
    handler: async (request) => ok(await listDeliveries(ctx.db, request.actor, request.query.endpoint_id)),
  });
  r.route({
    ...contractRoute(webhooksContract.resend, docs('Send a webhook message again now (admin)')),
    handler: async (request) =>
      ok(await resendMessage(ctx.db, request.actor, request.body.message_id), 'Message queued again'),
  });
};
