import { zodResolver } from '@hookform/resolvers/zod';
import { ZId, ZQueryId } from '@kisht/domain/common/identifiers';
import { type TPlan, type TSellablePlan, ZSellPlanRequest } from '@kisht/domain/plans/plans.schema';
import type { Path, Resolver } from 'react-hook-form';
import { z } from 'zod';

/** Query parameters of /antihacking and /familycare (spec §3): what to pre-select. */
export const PLAN_QUERY_PARAMS = { appType: 'app_type', planId: 'plan_id', productId: 'product_id' } as const;

/**
 * The sale form's schema: spec §3's form fields firstName, lastName, email, mobile (10 local
 * digits, sent +91…) and plan_id, checked with the domain's sale request. The plan is chosen from
 * a list, so its id is held as text until sent.
 */
export const ZPlanSaleForm = ZSellPlanRequest.pick({
  firstName: true,
  lastName: true,
  email: true,
  mobile: true,
}).extend({
  plan_id: z.string().min(1, 'This is a required field').transform(Number).pipe(ZId),
});

/** What the form sends (mobile +91…, empty email left out, plan_id a number). */
export type TPlanSaleFormOutput = z.output<typeof ZPlanSaleForm>;

/** What the form holds while it is filled in (text as typed). */
export type TPlanSaleFormValues = {
  firstName: string;
  lastName: string;
  email: string;
  mobile: string;
  plan_id: string;
};

/** A blank sale form. */
export const EMPTY_PLAN_SALE_FORM: TPlanSaleFormValues = {
  firstName: '',
  lastName: '',
  email: '',
  mobile: '',
  plan_id: '',
};

/** The sale form's resolver: the domain schema, as zodResolver checks it. */
export const planSaleResolver = (): Resolver<TPlanSaleFormValues, unknown, TPlanSaleFormOutput> =>
  zodResolver<TPlanSaleFormValues, unknown, TPlanSaleFormOutput>(
    ZPlanSaleForm as unknown as z.ZodType<TPlanSaleFormOutput, TPlanSaleFormValues>,
  );

/** The form field a sale request's field is shown under (a server 400's `fields`), or null. */
export const planSaleFormPath = (field: string): Path<TPlanSaleFormValues> | null => {
  if (field === 'app_type' || field === 'plan_name' || field === 'product_id') return 'plan_id';
  return (
    (['firstName', 'lastName', 'email', 'mobile', 'plan_id'] as const).find((name) => name === field) ?? null
  );
};

const positiveId = (text: string | null): number | undefined => {
  const parsed = ZQueryId.safeParse(text ?? '');
  return text && parsed.success ? parsed.data : undefined;
};

/** What the URL asks a plan screen to pre-select (spec §3 app_type, plan_id, product_id). */
export type TPlanPreselection = { appType?: number; planId?: number; productId?: number };

/** Reads TPlanPreselection from a plan screen's query; malformed values are ignored. */
export const readPlanPreselection = (params: URLSearchParams): TPlanPreselection => {
  const appType = positiveId(params.get(PLAN_QUERY_PARAMS.appType));
  const planId = positiveId(params.get(PLAN_QUERY_PARAMS.planId));
  const productId = positiveId(params.get(PLAN_QUERY_PARAMS.productId));
  return {
    ...(appType === undefined ? {} : { appType }),
    ...(planId === undefined ? {} : { planId }),
    ...(productId === undefined ? {} : { productId }),
  };
};

/** Whether a plan may be sold for a product (a plan naming no products applies to all). */
export const isPlanForProduct = (plan: Pick<TPlan, 'productIds'>, productId: number | undefined): boolean =>
  productId === undefined || plan.productIds.length === 0 || plan.productIds.includes(productId);

/**
 * The plan the URL pre-selects among those offered: the one with `plan_id`, else the first of
 * `app_type`; undefined when neither names an offered plan.
 */
export const preselectedPlan = (
  plans: TSellablePlan[],
  preselection: TPlanPreselection,
): TSellablePlan | undefined =>
  plans.find((plan) => plan.id === preselection.planId) ??
  (preselection.appType === undefined
    ? undefined
    : plans.find((plan) => plan.app_type === preselection.appType));
