import type { TCustomerStatus } from '@kisht/domain/common/enums';
import { CustomerStatus } from '@kisht/domain/common/enums';
import type { TOrgAppConfig } from '@kisht/domain/orgs/orgs.schema';
import { appPaths } from '../../lib/paths';

export type TOpenCustomerTarget = { kind: 'navigate'; href: string } | { kind: 'inactive-warning' };

/**
 * Where opening a customer goes (spec §2): any status but inactive → customer_details; inactive →
 * customer_navigate (the enrolment QR), unless the organisation's config says
 * `pages.inactiveCustomer: 'warn'`, when the caller shows the warning 'Customer is Inactive' and
 * stays. Without a config (it could not be loaded) inactive customers are navigated.
 */
export const openCustomerTarget = (
  customer: { id: number; status: TCustomerStatus },
  orgConfig: Pick<TOrgAppConfig, 'pages'> | null,
): TOpenCustomerTarget => {
  if (customer.status !== CustomerStatus.INACTIVE) {
    return { kind: 'navigate', href: appPaths.customerDetails.href(customer.id) };
  }
  if (orgConfig?.pages.inactiveCustomer === 'warn') return { kind: 'inactive-warning' };
  return { kind: 'navigate', href: appPaths.customerNavigate.href(customer.id) };
};
