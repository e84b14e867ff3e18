import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { ensureCustomerUser, findChildRetailerIds } from './users.repository';

/**
 * The retailer ids whose customers the actor may see (design §6 scoping): a retailer sees their own
 * and their mini-retailers'; a mini-retailer sees their own. Customers (user type) are refused
 * here with FORBIDDEN: they use their own routes.
 */
export const visibleRetailerIds = async (db: DbOrTx, actor: TActor): Promise<number[]> => {
  if (actor.userType === 'retailer')
    return [actor.userId, ...(await findChildRetailerIds(db, actor.orgId, actor.userId))];
  if (actor.userType === 'miniretailer') return [actor.userId];
  throw new AppError(AppErrorCode.FORBIDDEN, 'Only retailers can do this');
};

/** Lets a customer log in with their mobile (OTP) to see their own loans. */
export const createCustomerLogin = (db: DbOrTx, options: { orgId: number; mobile: string; name: string }) =>
  ensureCustomerUser(db, options.orgId, options.mobile, options.name);
