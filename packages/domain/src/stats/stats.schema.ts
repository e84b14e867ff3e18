import { z } from 'zod';
import { CUSTOMER_STATUS_WORDS } from '../common/enums';

/** Dashboard figures: customers by status word (spec §4) and in total. */
export const ZDashboard = z.object({
  countsByStatus: z.record(z.enum(CUSTOMER_STATUS_WORDS), z.number().int()),
  total: z.number().int(),
});
export type TDashboard = z.infer<typeof ZDashboard>;
