import {
  type TPlan,
  type TPlanAppType,
  type TSavePlanRequest,
  ZSavePlanRequest,
} from '@kisht/domain/plans/plans.schema';
import { z } from 'zod';
import { paiseToRupeesInput, rupeesToPaise } from '../../lib/format';

/** What the admin types in the plan dialog: the price as rupee text, the rest as the request has it. */
export type TPlanFormInput = {
  plan_id?: number;
  name: string;
  appType: number;
  rupees: string;
  durationMonths: number;
  description: string;
  isActive: boolean;
  productIds: number[];
};

/** The message under the price when the rupees typed are not a price (translated by the dialog). */
export const INVALID_RUPEES = 'Enter a price in rupees';

/**
 * The plan dialog's schema: the rupee text becomes integer paise by its digits (`rupeesToPaise`,
 * no float arithmetic: `199.99` → 19999), then the whole is checked by the domain's ZSavePlanRequest,
 * so the form refuses exactly what the server would.
 */
export const ZPlanForm = z
  .object({
    // The domain's own field rules, so every field's problem shows at once, not after the price.
    plan_id: z.number().optional(),
    name: ZSavePlanRequest.shape.name,
    appType: z.number(),
    rupees: z.string().refine((text) => rupeesToPaise(text) !== null, INVALID_RUPEES),
    durationMonths: ZSavePlanRequest.shape.durationMonths,
    description: z.string(),
    isActive: z.boolean(),
    productIds: z.array(z.number()),
  })
  // appType stays a number here: ZSavePlanRequest says which numbers are plan types.
  .transform(
    ({ rupees, appType, ...rest }): TSavePlanRequest => ({
      ...rest,
      appType: appType as TPlanAppType,
      pricePaise: rupeesToPaise(rupees)!,
    }),
  )
  .pipe(ZSavePlanRequest);

/** The request the form sends. */
export type TPlanFormOutput = z.output<typeof ZPlanForm> & TSavePlanRequest;

/** The dialog's starting values: the plan being edited, or an empty active plan of `appType`. */
export const planFormValues = (plan: TPlan | null, appType: number): TPlanFormInput =>
  plan
    ? {
        plan_id: plan.id,
        name: plan.name,
        appType: plan.appType,
        rupees: paiseToRupeesInput(plan.pricePaise),
        durationMonths: plan.durationMonths,
        description: plan.description,
        isActive: plan.isActive,
        productIds: plan.productIds,
      }
    : {
        name: '',
        appType,
        rupees: '',
        durationMonths: 12,
        description: '',
        isActive: true,
        productIds: [],
      };

/** The form field that shows a server field error (`productIds.0` → productIds, pricePaise → rupees). */
export const planFormFieldOf = (field: string): keyof TPlanFormInput | null => {
  const head = field.split('.')[0];
  if (head === 'pricePaise') return 'rupees';
  const known = ['name', 'appType', 'durationMonths', 'description', 'isActive', 'productIds'] as const;
  return known.find((name) => name === head) ?? null;
};
