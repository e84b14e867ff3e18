import { z } from 'zod';
import { paths } from '../paths';
import {
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
} from '../plans/plans.schema';
import { defineRoutes } from './define';

/**
 * The protection-plan routes of the wire contract (contract/define.ts; issue 14). Session required,
 * except the redeem call of the app on the customer's phone.
 */
export const plansContract = defineRoutes({
  /** The app on the customer's phone redeems a plan's activation code, once per phone (public, rate-limited). */
  redeem: {
    method: 'POST',
    path: paths.plans.redeem,
    body: ZRedeemActivationRequest,
    response: ZRedeemActivationResponse,
  },
  /** The organisation's plans, of one app_type or for one product (the admin also sees inactive ones). */
  list: { method: 'GET', path: paths.plans.list, query: ZPlansQuery, response: z.array(ZPlan) },
  /** One plan by plan_id. */
  readById: { method: 'GET', path: paths.plans.readById, query: ZPlanByIdQuery, response: ZPlan },
  /** The family-care plans (app_type 7), as spec §3 names a plan: id, name, app_type. */
  familycare: { method: 'GET', path: paths.plans.familycare, response: z.array(ZSellablePlan) },
  /** The anti-hacking plans (app_types 8, 12 and 13), as spec §3 names a plan. */
  antihacking: { method: 'GET', path: paths.plans.antihacking, response: z.array(ZSellablePlan) },
  /** Create (no plan_id) or edit a plan (organisation admin). */
  save: { method: 'PUT', path: paths.plans.list, body: ZSavePlanRequest, response: ZPlan },
  /** Sell a plan: the activation code costs one key of the plan's app_type; data[0] is the sale. */
  sell: {
    method: 'POST',
    path: paths.plans.sell,
    body: ZSellPlanRequest,
    response: z.array(ZSellPlanResponseItem),
  },
  /** Plans sold that the signed-in user may see, newest first (a customer: their own). */
  activations: {
    method: 'GET',
    path: paths.plans.activations,
    query: ZActivationsQuery,
    response: z.array(ZPlanActivation),
  },
});
