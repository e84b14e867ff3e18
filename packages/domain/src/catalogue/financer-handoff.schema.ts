import { z } from 'zod';
import { ZId } from '../common/identifiers';

/**
 * The financer whose customers are also created in its own system (issue 13, spec §7
 * `create-customer-hdb`): HDB Financial Services. The financers table has no code column, so a
 * financer is HDB by this name (case and surrounding spaces ignored).
 */
export const HDB_FINANCER_NAME = 'HDB Financial Services';

/** True when a financer (by its name in financer_list) is HDB, whose customers are handed off. */
export const isHdbFinancer = (name: string | null | undefined): boolean =>
  typeof name === 'string' && name.trim().toLowerCase() === HDB_FINANCER_NAME.toLowerCase();

/**
 * Where a customer's hand-off to the financer stands: `pending` (not yet answered), `done` (the
 * financer's reference is stored) or `failed` (the last try failed; it is tried again with
 * back-off). Null on customers whose financer takes no hand-off.
 */
export const FINANCER_HANDOFF_STATUSES = ['pending', 'done', 'failed'] as const;
export const ZFinancerHandoffStatus = z.enum(FINANCER_HANDOFF_STATUSES);
export type TFinancerHandoffStatus = z.infer<typeof ZFinancerHandoffStatus>;

/** create-customer-hdb (POST): hand the actor's customer to HDB now. */
export const ZCreateHdbRequest = z.object({ customer_id: ZId });
export type TCreateHdbRequest = z.input<typeof ZCreateHdbRequest>;
