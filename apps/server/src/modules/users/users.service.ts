import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import {
  DEFAULT_LOCK_ACCESS,
  DEFAULT_USER_ACCESS,
  type TLockAccess,
  type TUserAccess,
} from '@kisht/domain/devices/devices.schema';
import type { DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { ensureCustomerUser, findChildRetailerIds, findUserAccess } from './users.repository';

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

/** The actor's effective access flags: spec §6 defaults, overridden by the server's values for the user. */
export const getAccessFlags = async (
  db: DbOrTx,
  actor: TActor,
): Promise<{ userAccess: TUserAccess; lockAccess: TLockAccess }> => {
  const overrides = (await findUserAccess(db, actor.userId)) ?? {};
  return {
    userAccess: { ...DEFAULT_USER_ACCESS, ...pickFlags(overrides.userAccess, DEFAULT_USER_ACCESS) },
    lockAccess: { ...DEFAULT_LOCK_ACCESS, ...pickFlags(overrides.lockAccess, DEFAULT_LOCK_ACCESS) },
  };
};

/** Only the known flag names with '0' or '1' values, so a stray key never widens access. */
const pickFlags = <T extends Record<string, string>>(
  values: Record<string, string> | undefined,
  defaults: T,
): Partial<Record<keyof T, '0' | '1'>> =>
  Object.fromEntries(
    Object.entries(values ?? {}).filter(
      ([key, value]) => key in defaults && (value === '0' || value === '1'),
    ),
  ) as Partial<Record<keyof T, '0' | '1'>>;

/**
 * Throws FORBIDDEN unless every named flag is '1' for the actor (spec §6 user and lock access).
 * `flags` name user access keys as `user.<key>` and lock access keys as `lock.<key>`.
 */
export const requireAccess = async (
  db: DbOrTx,
  actor: TActor,
  flags: (`user.${keyof TUserAccess}` | `lock.${keyof TLockAccess}`)[],
): Promise<void> => {
  const { userAccess, lockAccess } = await getAccessFlags(db, actor);
  for (const flag of flags) {
    const [group, key] = flag.split('.') as ['user' | 'lock', string];
    const value =
      group === 'user' ? userAccess[key as keyof TUserAccess] : lockAccess[key as keyof TLockAccess];
    if (value !== '1') throw new AppError(AppErrorCode.FORBIDDEN, `Your access does not allow this (${key})`);
  }
};
