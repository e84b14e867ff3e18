import type { TCustomerStatus } from '@kisht/domain/common/enums';
import { CustomerStatus } from '@kisht/domain/common/enums';
import { appPaths } from '../../app/paths';

/** Spec §2: these organisations see a warning instead of the enrolment screen for an inactive customer. */
export const INACTIVE_WARNING_ORG_IDS: readonly number[] = [35, 36, 46];

export type TOpenCustomerTarget = { kind: 'navigate'; href: string } | { kind: 'inactive-warning' };

/**
 * Where opening a customer goes (spec §2): inactive → customer_navigate (the enrolment QR), or a
 * 'Customer is Inactive' warning for organisations 35, 36 and 46; any other status → customer_details.
 */
export const openCustomerTarget = (
  customer: { id: number; status: TCustomerStatus },
  orgId: number,
): TOpenCustomerTarget => {
  if (customer.status !== CustomerStatus.INACTIVE) {
    return { kind: 'navigate', href: appPaths.customerDetails.href(customer.id) };
  }
  if (INACTIVE_WARNING_ORG_IDS.includes(orgId)) return { kind: 'inactive-warning' };
  return { kind: 'navigate', href: appPaths.customerNavigate.href(customer.id) };
};
