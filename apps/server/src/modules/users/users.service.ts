import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import {
  DEFAULT_LOCK_ACCESS,
  DEFAULT_USER_ACCESS,
  type TLockAccess,
  type TUserAccess,
} from '@kisht/domain/devices/devices.schema';
import type { DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import {
  ensureCustomerUser,
  findChildRetailerIds,
  findDescendantIds,
  findUserAccess,
} from './users.repository';

/**
 * The retailer ids whose customers the actor may see (design §6 scoping): a retailer sees their own
 * and their mini-retailers'; a mini-retailer sees their own. Customers (user type) are refused
 * here with FORBIDDEN: they use their own routes; so are the organisation admin and distributors
 * (issue 30), who look after the network and its keys but hold no customer and command no phone.
 */
export const visibleRetailerIds = async (db: DbOrTx, actor: TActor): Promise<number[]> => {
  if (actor.userType === 'retailer')
    return [
      actor.userId,
      ...(actor.known?.childRetailerIds ?? (await findChildRetailerIds(db, actor.orgId, actor.userId))),
    ];
  if (actor.userType === 'miniretailer') return [actor.userId];
  throw new AppError(AppErrorCode.FORBIDDEN, 'Only retailers can do this');
};

/**
 * The ids of every node below a distributor in its organisation's network (issue 30): its
 * distributors, retailers and their mini-retailers at any depth, as the request's session read
 * found them, else read. Empty for anyone but a distributor.
 */
export const descendantIdsOf = async (db: DbOrTx, actor: TActor): Promise<number[]> => {
  if (actor.userType !== 'distributor') return [];
  return actor.known?.descendantIds ?? (await findDescendantIds(db, actor.orgId, actor.userId));
};

/** Lets a customer log in with their mobile (OTP) to see their own loans. */
export const createCustomerLogin = (db: DbOrTx, options: { orgId: number; mobile: string; name: string }) =>
  ensureCustomerUser(db, options.orgId, options.mobile, options.name);

/**
 * The retailer ids whose customers a list or dashboard shows: all the actor's visible ones
 * (visibleRetailerIds), or only `retailerId` when it is one of them. Throws NOT_FOUND (field
 * retailer_id) for any other id, the same for another organisation's as for none, and FORBIDDEN
 * for customers.
 */
export const scopedRetailerIds = async (
  db: DbOrTx,
  actor: TActor,
  retailerId?: number | undefined,
): Promise<number[]> => {
  const visible = await visibleRetailerIds(db, actor);
  if (retailerId === undefined) return visible;
  if (!visible.includes(retailerId)) {
    throw new AppError(AppErrorCode.NOT_FOUND, 'Retailer not found', [
      { field: 'retailer_id', message: 'Choose one of your retailers' },
    ]);
  }
  return [retailerId];
};

/** The access overrides stored on a user (users.access). */
export type TAccessOverrides = { userAccess?: Record<string, string>; lockAccess?: Record<string, string> };

/** Effective access flags from stored overrides: spec §6 defaults, overridden by known '0'/'1' values. */
export const effectiveAccess = (
  overrides: TAccessOverrides | null | undefined,
): { userAccess: TUserAccess; lockAccess: TLockAccess } => ({
  userAccess: { ...DEFAULT_USER_ACCESS, ...pickFlags(overrides?.userAccess, DEFAULT_USER_ACCESS) },
  lockAccess: { ...DEFAULT_LOCK_ACCESS, ...pickFlags(overrides?.lockAccess, DEFAULT_LOCK_ACCESS) },
});

/**
 * The actor's effective access flags: spec §6 defaults, overridden by the server's values for the
 * user (as the request's session read found them, else read).
 */
export const getAccessFlags = async (
  db: DbOrTx,
  actor: TActor,
): Promise<{ userAccess: TUserAccess; lockAccess: TLockAccess }> =>
  effectiveAccess(actor.known ? actor.known.user.access : await findUserAccess(db, actor.userId));

/** The name of a flag as requireAccess takes it: `user.<key>` or `lock.<key>`. */
export type TAccessFlag = `user.${keyof TUserAccess}` | `lock.${keyof TLockAccess}`;

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
 * The first of `flags` that is not '1' for the user (by id, e.g. the creator of a scheduled
 * command when it comes due), or null when all are allowed.
 */
export const firstDeniedFlag = async (
  db: DbOrTx,
  userId: number,
  flags: TAccessFlag[],
): Promise<TAccessFlag | null> => deniedFlagOf(effectiveAccess(await findUserAccess(db, userId)), flags);

/** The first of `flags` that is not '1' in these effective flags, or null. */
const deniedFlagOf = (
  { userAccess, lockAccess }: { userAccess: TUserAccess; lockAccess: TLockAccess },
  flags: TAccessFlag[],
): TAccessFlag | null => {
  for (const flag of flags) {
    const [group, key] = flag.split('.') as ['user' | 'lock', string];
    const value =
      group === 'user' ? userAccess[key as keyof TUserAccess] : lockAccess[key as keyof TLockAccess];
    if (value !== '1') return flag;
  }
  return null;
};

/**
 * Throws FORBIDDEN unless every named flag is '1' for the actor (spec §6 user and lock access).
 * `flags` name user access keys as `user.<key>` and lock access keys as `lock.<key>`; the message
 * names the first flag that is off (e.g. `lock.unlock is off`).
 */
export const requireAccess = async (db: DbOrTx, actor: TActor, flags: TAccessFlag[]): Promise<void> => {
  const denied = deniedFlagOf(await getAccessFlags(db, actor), flags);
  if (denied) {
    throw new AppError(
      AppErrorCode.FORBIDDEN,
      `Your access does not allow this (${denied} is off). Ask your retailer`,
    );
  }
};
