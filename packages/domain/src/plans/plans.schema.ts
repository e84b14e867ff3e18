import { z } from 'zod';
import { AppType, type TAppType } from '../common/enums';
import { ZIsoDate } from '../common/envelope';
import { ZId, ZImei, ZMobile, ZQueryId } from '../common/identifiers';
import { addDays, formatCalendarDate } from '../common/time';
import { addMonthsToDate } from '../emi/emi.rules';

/**
 * Protection plans (issue 14): what an organisation sells beside the phone, one app_type each
 * (spec §1): anti-theft 4 and 9, extended warranty 5, family care 7, anti-hacking 8, 12 (pro) and
 * 13 (premium). A sale issues an activation code that costs the seller one key of the plan's
 * app_type and that the app on the customer's phone redeems once.
 */

/** The app_types a plan may have. */
export const PLAN_APP_TYPES = [
  AppType.ANTI_THEFT,
  AppType.EXTENDED_WARRANTY,
  AppType.FAMILY_CARE,
  AppType.ANTI_HACKING,
  AppType.DEVICE_POLICY_CONTROLLER_ANTI_THEFT,
  AppType.ANTI_HACKING_PRO,
  AppType.ANTI_HACKING_PREMIUM,
] as const satisfies readonly TAppType[];
export type TPlanAppType = (typeof PLAN_APP_TYPES)[number];

/** Anti-hacking tiers (spec §1): anti-hacking, pro and premium. */
export const ANTIHACKING_APP_TYPES = [
  AppType.ANTI_HACKING,
  AppType.ANTI_HACKING_PRO,
  AppType.ANTI_HACKING_PREMIUM,
] as const satisfies readonly TPlanAppType[];

/** Anti-theft app_types (spec §1): anti-theft alone, and device policy controller plus anti-theft. */
export const ANTI_THEFT_APP_TYPES = [
  AppType.ANTI_THEFT,
  AppType.DEVICE_POLICY_CONTROLLER_ANTI_THEFT,
] as const satisfies readonly TPlanAppType[];

/** A plan's app_type field: one of PLAN_APP_TYPES. */
export const ZPlanAppType = z.union(PLAN_APP_TYPES.map((code) => z.literal(code)));

/** Longest plan term, in months (ten years). */
export const MAX_PLAN_MONTHS = 120;

/** A plan of the organisation's catalogue. Price in paise; duration in whole months. */
export const ZPlan = z.object({
  id: ZId,
  name: z.string(),
  appType: z.number().int(),
  pricePaise: z.number().int().nonnegative(),
  durationMonths: z.number().int().min(1),
  description: z.string(),
  isActive: z.boolean(),
  /** The products it applies to; empty: every product. */
  productIds: z.array(ZId),
});
export type TPlan = z.infer<typeof ZPlan>;

/**
 * A plan as spec §3's plan calls answer it (get_plans_antihacking, get_plans_familycare; spec §3
 * "Anti-hacking plan: id, name, app_type"): the plan with its app type named `app_type`.
 */
export const ZSellablePlan = ZPlan.omit({ appType: true }).extend({ app_type: z.number().int() });
export type TSellablePlan = z.infer<typeof ZSellablePlan>;

/** A plan as the sellable-plan calls name it (ZSellablePlan). */
export const toSellablePlan = ({ appType, ...plan }: TPlan): TSellablePlan => ({
  ...plan,
  app_type: appType,
});

/** GET /api/plans: a plan list, optionally of one app_type or for one product; inactive plans only for the admin. */
export const ZPlansQuery = z.object({
  app_type: z.coerce.number().pipe(ZPlanAppType).optional(),
  product_id: ZQueryId.optional(),
});
export type TPlansQuery = z.infer<typeof ZPlansQuery>;

/** GET /api/plans/readById?plan_id=. */
export const ZPlanByIdQuery = z.object({ plan_id: ZQueryId });

/** The admin creates (no plan_id) or edits (plan_id) a plan of its organisation. */
export const ZSavePlanRequest = z.object({
  plan_id: ZId.optional(),
  name: z.string().trim().min(1, 'This is a required field').max(80, 'At most 80 characters'),
  appType: ZPlanAppType,
  pricePaise: z.number().int('Enter the price in whole paise').min(0).max(100_000_000, 'At most ₹10,00,000'),
  durationMonths: z
    .number()
    .int('Enter whole months')
    .min(1, 'At least 1 month')
    .max(MAX_PLAN_MONTHS, `At most ${MAX_PLAN_MONTHS} months`),
  description: z.string().trim().max(500, 'At most 500 characters').default(''),
  isActive: z.boolean().default(true),
  productIds: z.array(ZId).max(500).default([]),
});
export type TSavePlanRequest = z.input<typeof ZSavePlanRequest>;

const ZName = (label: string) =>
  z.string().trim().min(1, 'This is a required field').max(60, `${label} is at most 60 characters`);

/**
 * Sell a plan (spec §3 "Anti-hacking customer request": mobile, plan_id, app_type, plan_name, with
 * the form fields firstName, lastName, email). `app_type` may be null (then the plan's own);
 * `plan_name` is what the form showed and is not trusted. `customer_id` sells to an existing
 * customer (the code then shows on their page); `product_id` must be one the plan applies to.
 * Extended warranty needs `imei` and takes `start_date` (+05:30 day, default today).
 */
export const ZSellPlanRequest = z.object({
  firstName: ZName('First name'),
  lastName: z.string().trim().max(60, 'Last name is at most 60 characters').default(''),
  email: z
    .string()
    .trim()
    .max(120)
    .email('Enter a valid email')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  mobile: ZMobile,
  plan_id: ZId,
  app_type: ZPlanAppType.nullable().optional(),
  plan_name: z.string().max(120).optional(),
  product_id: ZId.optional(),
  customer_id: ZId.optional(),
  imei: ZImei.optional(),
  start_date: ZIsoDate.refine((value) => formatCalendarDate(value) !== '', 'Enter a real date').optional(),
});
export type TSellPlanRequest = z.input<typeof ZSellPlanRequest>;

/** Redemption states of an activation code. */
export const ACTIVATION_STATUSES = ['issued', 'redeemed'] as const;

/** A plan sold: who bought it, its code and term, and whether the phone redeemed it. */
export const ZPlanActivation = z.object({
  id: ZId,
  planId: ZId,
  planName: z.string(),
  appType: z.number().int(),
  retailerId: ZId,
  customerId: ZId.nullable(),
  productId: ZId.nullable(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  mobile: z.string(),
  imei: z.string().nullable(),
  code: z.string(),
  pricePaise: z.number().int(),
  startsOn: ZIsoDate.nullable(),
  endsOn: ZIsoDate.nullable(),
  status: z.enum(ACTIVATION_STATUSES),
  redeemedAt: z.string().nullable(),
  createdAt: z.string(),
  /**
   * The linked customer's status (spec §4 codes) for the anti-theft display; null for a sale
   * without a customer (absent only where an activation is built without the list's join).
   */
  customerStatus: z.number().int().nullable().optional(),
});
export type TPlanActivation = z.infer<typeof ZPlanActivation>;

/**
 * The answer to a sale (spec §3: message and data[] whose first item has antihacking_code): the
 * code under the spec's name for every plan, and the activation.
 */
export const ZSellPlanResponseItem = z.object({ antihacking_code: z.string(), activation: ZPlanActivation });
export type TSellPlanResponseItem = z.infer<typeof ZSellPlanResponseItem>;

/**
 * GET /api/plans/activations: plans sold, newest first, of some app_types (`app_type=8,12,13`, one
 * or more, comma-separated) or for one customer.
 */
export const ZActivationsQuery = z.object({
  app_type: z
    .string()
    .max(40)
    .regex(/^\d{1,2}(,\d{1,2})*$/, 'app_type is one or more plan app types, comma-separated')
    .transform((value) => value.split(',').map(Number))
    .pipe(z.array(ZPlanAppType))
    .optional(),
  customer_id: ZQueryId.optional(),
});
export type TActivationsQuery = z.infer<typeof ZActivationsQuery>;

/** The activation code format: three groups of four of Crockford's base-32 letters (60 bits). */
export const ACTIVATION_CODE_PATTERN = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/**
 * An activation code as typed: case and spaces do not matter, the dashes are optional, and the
 * look-alikes I, L (→ 1) and O (→ 0) are read as Crockford's base 32 reads them.
 */
export const ZActivationCode = z
  .string()
  .trim()
  .max(40)
  .transform((value, ctx) => {
    const compact = value.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
    const code =
      compact.length === 12 ? `${compact.slice(0, 4)}-${compact.slice(4, 8)}-${compact.slice(8)}` : '';
    if (!ACTIVATION_CODE_PATTERN.test(code)) {
      ctx.addIssue({ code: 'custom', message: 'Enter the 12-character activation code' });
      return z.NEVER;
    }
    return code;
  });

/**
 * The app on the customer's phone redeems a code (public call, rate-limited): the organisation the
 * app belongs to, the code, and what the phone says of itself. 404 ACTIVATION_CODE_NOT_FOUND for an
 * unknown code; 409 ACTIVATION_ALREADY_REDEEMED when another phone redeemed it; 409
 * ACTIVATION_FOR_ANOTHER_PHONE when it was sold for another phone (the IMEI given at the sale, or
 * the financed customer's phone); the same phone (same IMEI or serial number) redeeming again gets
 * the same answer.
 */
export const ZRedeemActivationRequest = z.object({
  orgId: ZId,
  code: ZActivationCode,
  imei: ZImei.optional(),
  serialNumber: z.string().trim().min(1).max(64).optional(),
  model: z.string().trim().max(80).optional(),
});
export type TRedeemActivationRequest = z.input<typeof ZRedeemActivationRequest>;

/** What the app learns when a code is redeemed: the plan to switch on and its term. */
export const ZRedeemActivationResponse = z.object({
  planName: z.string(),
  appType: z.number().int(),
  startsOn: ZIsoDate.nullable(),
  endsOn: ZIsoDate.nullable(),
  redeemedAt: z.string(),
});
export type TRedeemActivationResponse = z.infer<typeof ZRedeemActivationResponse>;

/**
 * The last day of a plan's term: a term of `months` starting on `startsOn` (+05:30 calendar days,
 * `YYYY-MM-DD`) ends the day before the same date `months` later (01-03-2026 + 12 → 28-02-2027).
 */
export const planTermEnd = (startsOn: string, months: number): string =>
  addDays(addMonthsToDate(startsOn, months), -1);
