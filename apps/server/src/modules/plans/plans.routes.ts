import { AppType } from '@kisht/domain/common/enums';
import { zEnvelope } from '@kisht/domain/common/envelope';
import { paths } from '@kisht/domain/paths';
import {
  ANTIHACKING_APP_TYPES,
  toSellablePlan,
  ZActivationsQuery,
  ZPlan,
  ZPlanActivation,
  ZPlanByIdQuery,
  ZPlansQuery,
  ZRedeemActivationRequest,
  ZRedeemActivationResponse,
  ZSavePlanRequest,
  ZSellablePlan,
  ZSellPlanRequest,
  ZSellPlanResponseItem,
} from '@kisht/domain/plans/plans.schema';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../lib/context';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { listActivations, listPlans, readPlan, redeemActivation, savePlan, sellPlan } from './plans.service';

/** Redemptions per client address: a code has 60 bits, and this keeps guessing pointless. */
const REDEEM_RATE_LIMIT = { rateLimit: { max: 20, timeWindow: '1 minute' } };

/** The redeem call of the app on the customer's phone (public, rate-limited; issue 14). */
export const plansPublicRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    paths.plans.redeem,
    {
      config: REDEEM_RATE_LIMIT,
      schema: {
        tags: ['plans'],
        summary: 'The app on the customer’s phone redeems a plan’s activation code (once per phone)',
        body: ZRedeemActivationRequest,
        response: { 200: zEnvelope(ZRedeemActivationResponse) },
      },
    },
    async (request) => ok(await redeemActivation(ctx.db, request.body), 'Plan activated'),
  );
};

/**
 * Protection plans (issue 14; session required): the catalogue (spec §7 plans, plans/readById,
 * get_plans_familycare, get_plans_antihacking), the admin's edits, a sale (spec §3 add anti-hacking
 * customer) and the plans sold.
 */
export const plansRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    paths.plans.list,
    {
      schema: {
        tags: ['plans'],
        summary:
          'The organisation’s plans, of one app_type or for one product (the admin also sees inactive ones)',
        querystring: ZPlansQuery,
        response: { 200: zEnvelope(z.array(ZPlan)) },
      },
    },
    async (request) => ok(await listPlans(ctx.db, request.actor, request.query)),
  );
  r.get(
    paths.plans.readById,
    {
      schema: {
        tags: ['plans'],
        summary: 'One plan',
        querystring: ZPlanByIdQuery,
        response: { 200: zEnvelope(ZPlan) },
      },
    },
    async (request) => ok(await readPlan(ctx.db, request.actor, request.query.plan_id)),
  );
  r.get(
    paths.plans.familycare,
    {
      schema: {
        tags: ['plans'],
        summary: 'The family-care plans (app_type 7), as spec §3 names a plan: id, name, app_type',
        response: { 200: zEnvelope(z.array(ZSellablePlan)) },
      },
    },
    async (request) =>
      ok((await listPlans(ctx.db, request.actor, { appTypes: [AppType.FAMILY_CARE] })).map(toSellablePlan)),
  );
  r.get(
    paths.plans.antihacking,
    {
      schema: {
        tags: ['plans'],
        summary:
          'The anti-hacking plans (app_types 8, 12 and 13), as spec §3 names a plan: id, name, app_type',
        response: { 200: zEnvelope(z.array(ZSellablePlan)) },
      },
    },
    async (request) =>
      ok((await listPlans(ctx.db, request.actor, { appTypes: ANTIHACKING_APP_TYPES })).map(toSellablePlan)),
  );
  r.put(
    paths.plans.list,
    {
      schema: {
        tags: ['plans'],
        summary: 'Create (no plan_id) or edit a plan (organisation admin)',
        body: ZSavePlanRequest,
        response: { 200: zEnvelope(ZPlan) },
      },
    },
    async (request) => ok(await savePlan(ctx.db, request.actor, request.body), 'Plan saved'),
  );
  r.post(
    paths.plans.sell,
    {
      schema: {
        tags: ['plans'],
        summary: 'Sell a plan: the activation code costs one key of the plan’s app_type',
        body: ZSellPlanRequest,
        response: { 200: zEnvelope(z.array(ZSellPlanResponseItem)) },
      },
    },
    async (request) =>
      ok(
        [await sellPlan(ctx.db, request.actor, request.body)],
        'Plan activated. Share the code with the customer',
      ),
  );
  r.get(
    paths.plans.activations,
    {
      schema: {
        tags: ['plans'],
        summary: 'Plans sold that you may see, newest first (a customer: their own)',
        querystring: ZActivationsQuery,
        response: { 200: zEnvelope(z.array(ZPlanActivation)) },
      },
    },
    async (request) => ok(await listActivations(ctx.db, request.actor, request.query)),
  );
};
