import type { TBulkLockRequest } from '@kisht/domain/devices/devices.schema';
import type { ParseKeys, TFunction } from 'i18next';

type TBulkAction = TBulkLockRequest['action'];
type TBulkFilter = NonNullable<TBulkLockRequest['filter']>;

/** The confirmation's title when a filter names the customers and their number is not known (yet). */
const FILTER_CONFIRM_TITLES: Record<TBulkAction, Record<TBulkFilter, ParseKeys>> = {
  lock: { all_enrolled: 'bulkLock.confirm.lockAllEnrolled', overdue: 'bulkLock.confirm.lockOverdue' },
  unlock: { all_enrolled: 'bulkLock.confirm.unlockAllEnrolled', overdue: 'bulkLock.confirm.unlockOverdue' },
};

/**
 * The words of a bulk lock or unlock's confirmation (multiple_lock_unlock, and "Lock all overdue" on
 * up_coming_emi, issue 28): the title names how many phones (`phoneCount`: the chosen customers, or
 * the server's preview of a filter) or, while that is not known, the filter; the body says what
 * the customers will see, and that the count comes with the request when it is not known.
 */
export const bulkConfirmCopy = (
  t: TFunction,
  request: { action: TBulkAction; filter: TBulkFilter | null; phoneCount: number | undefined },
): { title: string; body: string } => {
  const { action, filter, phoneCount } = request;
  const title =
    phoneCount !== undefined || filter === null
      ? t(action === 'lock' ? 'bulkLock.confirm.lockCount' : 'bulkLock.confirm.unlockCount', {
          count: phoneCount ?? 0,
        })
      : t(FILTER_CONFIRM_TITLES[action][filter]);
  const body = [
    t(action === 'unlock' ? 'bulkLock.confirm.unlockBody' : 'bulkLock.confirm.lockBody'),
    phoneCount === undefined ? t('bulkLock.confirm.filterNote') : null,
  ]
    .filter(Boolean)
    .join(' ');
  return { title, body };
};
