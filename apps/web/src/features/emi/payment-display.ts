import type { TPayment } from '@kisht/domain/emi/emi.schema';
import { formatRupees } from '../../lib/format';

/**
 * Which instalments a payment went to, in instalment order: `1 (₹8,814.86), 2 (₹500.00)`. The
 * amounts show a part payment at a glance.
 */
export const describeAllocations = (allocations: TPayment['allocations']): string =>
  [...allocations]
    .sort((a, b) => a.instalmentNo - b.instalmentNo)
    .map((allocation) => `${allocation.instalmentNo} (${formatRupees(allocation.amountPaise)})`)
    .join(', ');
