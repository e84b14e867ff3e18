import { CustomerStatus } from '../common/enums';
import type { TPlanActivation } from './plans.schema';

/** What the anti-theft column of a sale shows (spec §4): Enabled or Disabled. */
export type TAntiTheftDisplay = 'enabled' | 'disabled';

/**
 * Spec §4 "Anti-theft display: inactive shows disabled; any other status shows enabled", for an
 * anti-theft sale (app_type 4 or 9):
 * - sold to a customer: that customer's status decides: 0 inactive (the phone is not enrolled yet)
 *   → disabled; any other status (install, deactivate, uninstall, Apple removed, EMIs completed,
 *   EMIs maturing) → enabled, as the spec says, without exceptions;
 * - a stand-alone sale (no customer, or no status known): the activation stands in for the status:
 *   `issued` (the code was not yet redeemed on a phone, so anti-theft runs nowhere) → disabled;
 *   `redeemed` → enabled.
 */
export const antiTheftDisplay = (
  activation: Pick<TPlanActivation, 'status'> & { customerStatus?: number | null | undefined },
): TAntiTheftDisplay => {
  const { customerStatus } = activation;
  if (customerStatus !== null && customerStatus !== undefined)
    return customerStatus === CustomerStatus.INACTIVE ? 'disabled' : 'enabled';
  return activation.status === 'redeemed' ? 'enabled' : 'disabled';
};
