import { AppType } from '@kisht/domain/common/enums';
import { plansContract } from '@kisht/domain/contract/plans';
import { ANTIHACKING_APP_TYPES, toSellablePlan } from '@kisht/domain/plans/plans.schema';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { listActivations, listPlans, readPlan, redeemActivation, savePlan, sellPlan } from './plans.service';

/** Redemptions per client address: a code has 60 bits, and this keeps guessing pointless. */
const REDEEM_RATE_LIMIT = { rateLimit: { max: 20, timeWindow: '1 minute' } };

/** The redeem call of the app on the customer's phone (public, rate-limited; issue 14). */
export const plansPublicRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...contractRoute(plansContract.redeem, {
      tags: ['plans'],
      summary: 'The app on the customer’s phone redeems a plan’s activation code (once per phone)',
    }),
    config: REDEEM_RATE_LIMIT,
    handler: async (request) => ok(await redeemActivation(ctx.db, request.body), 'Plan activated'),
  });
};

/**
 * Protection plans (issue 14; session required): the catalogue (spec §7 plans, plans/readById,
 * get_plans_familycare, get_plans_antihacking), the admin's edits, a sale (spec §3 add anti-hacking
 * customer) and the plans sold.
 */
export const plansRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...contractRoute(plansContract.list, {
      tags: ['plans'],
      summary:
        'The organisation’s plans, of one app_type or for one product (the admin also sees inactive ones)',
    }),
    handler: async (request) => ok(await listPlans(ctx.db, request.actor, request.query)),
  });
  r.route({
    ...contractRoute(plansContract.readById, { tags: ['plans'], summary: 'One plan' }),
    handler: async (request) => ok(await readPlan(ctx.db, request.actor, request.query.plan_id)),
  });
  r.route({
    ...contractRoute(plansContract.familycare, {
      tags: ['plans'],
      summary: 'The family-care plans (app_type 7), as spec §3 names a plan: id, name, app_type',
    }),
    handler: async (request) =>
      ok((await listPlans(ctx.db, request.actor, { appTypes: [AppType.FAMILY_CARE] })).map(toSellablePlan)),
  });
  r.route({
    ...contractRoute(plansContract.antihacking, {
      tags: ['plans'],
      summary: 'The anti-hacking plans (app_types 8, 12 and 13), as spec §3 names a plan: id, name, app_type',
    }),
    handler: async (request) =>
      ok((await listPlans(ctx.db, request.actor, { appTypes: ANTIHACKING_APP_TYPES })).map(toSellablePlan)),
  });
  r.route({
    ...contractRoute(plansContract.save, {
      tags: ['plans'],
      summary: 'Create (no plan_id) or edit a plan (organisation admin)',
    }),
    handler: async (request) => ok(await savePlan(ctx.db, request.actor, request.body), 'Plan saved'),
  });
  r.route({
    ...contractRoute(plansContract.sell, {
      tags: ['plans'],
      summary: 'Sell a plan: the activation code costs one key of the plan’s app_type',
    }),
    handler: async (request) =>
      ok(
        [await sellPlan(ctx.db, request.actor, request.body)],
        'Plan activated. Share the code with the customer',
      ),
  });
  r.route({
    ...contractRoute(plansContract.activations, {
      tags: ['plans'],
      summary: 'Plans sold that you may see, newest first (a customer: their own)',
    }),
    handler: async (request) => ok(await listActivations(ctx.db, request.actor, request.query)),
  });
};
