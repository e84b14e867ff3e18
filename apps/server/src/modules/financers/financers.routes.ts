import { financersContract } from '@kisht/domain/contract/financers';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { startProtectedJob } from '../../jobs/scheduler';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { createFinancerGateway, handOffDueCustomers, requestHdbHandoff } from './financers.service';

/** How often the hand-off job looks for pending or failed hand-offs (more often when JOBS_INTERVAL_MINUTES is shorter). */
export const HANDOFF_JOB_INTERVAL_MS = 30_000;

/**
 * Financer hand-off (issue 13, spec §7 create-customer-hdb): the HDB gateway chosen from config
 * (financers.service createFinancerGateway), the job that sends pending and failed hand-offs
 * (every HANDOFF_JOB_INTERVAL_MS while jobs run, JOBS_INTERVAL_MINUTES > 0) and the route that
 * hands one customer off now.
 */
export const financersRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  const { gateway, close } = createFinancerGateway(ctx.config, app.log);
  const job =
    ctx.config.JOBS_INTERVAL_MINUTES > 0
      ? startProtectedJob({
          name: 'financer hand-off',
          intervalMs: Math.min(ctx.config.JOBS_INTERVAL_MINUTES * 60_000, HANDOFF_JOB_INTERVAL_MS),
          log: app.log,
          run: async () => {
            const { done, failed } = await handOffDueCustomers({ db: ctx.db, gateway, log: app.log });
            if (done + failed > 0)
              app.log.info({ job: 'financer hand-off', done, failed }, 'HDB hand-offs ran');
          },
        })
      : null;
  app.addHook('preClose', async () => {
    job?.stop();
  });
  app.addHook('onClose', close);

  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...contractRoute(financersContract.createHdb, {
      tags: ['customers'],
      summary: 'Hand the customer to HDB now (create-customer-hdb); answers the details with the reference',
    }),
    handler: async (request) =>
      ok(
        await requestHdbHandoff({
          db: ctx.db,
          gateway,
          actor: request.actor,
          customerId: request.body.customer_id,
          log: request.log,
        }),
        'Customer sent to HDB',
      ),
  });
};
