import { z } from 'zod';
import { CUSTOMER_STATUS_WORDS } from '../common/enums';
import { ZQueryId } from '../common/identifiers';

/** Dashboard figures: customers by status word (spec §4) and in total. */
export const ZDashboard = z.object({
  countsByStatus: z.record(z.enum(CUSTOMER_STATUS_WORDS), z.number().int()),
  total: z.number().int(),
});
export type TDashboard = z.infer<typeof ZDashboard>;

/** Dashboard query: `retailer_id` narrows the figures to one of the actor's retailers (itself or a mini-retailer). */
export const ZDashboardQuery = z.object({ retailer_id: ZQueryId.optional() });
export type TDashboardQuery = z.input<typeof ZDashboardQuery>;
