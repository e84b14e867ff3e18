import type { TAuthSession } from '@kisht/domain/auth/auth.schema';
import type { TUserType } from '@kisht/domain/common/enums';
import { USER_TYPES } from '@kisht/domain/common/enums';
import { STORAGE_KEYS } from './storage-keys';

/** Local storage keys of spec §3 that hold the signed-in session. */
export const AUTH_STORAGE_KEYS = {
  token: STORAGE_KEYS.token,
  userId: STORAGE_KEYS.userId,
  accountId: STORAGE_KEYS.accountId,
  phone: STORAGE_KEYS.phone,
  type: STORAGE_KEYS.type,
  parentType: STORAGE_KEYS.parentType,
  mpin: STORAGE_KEYS.mpin,
} as const;

/** What `MPIN` holds when the user has an MPIN: a flag, never the PIN itself. */
const HAS_MPIN_FLAG = '1';

const storage = (): Storage => window.localStorage;

/** The session's bearer token, or null when nobody is signed in. */
export const getToken = (from: Storage = storage()): string | null => from.getItem(AUTH_STORAGE_KEYS.token);

/**
 * Whether `token` (what a call was sent with) is the session stored now: not null, and not
 * replaced by a logout or another sign-in since. A 511 ends only that session (spec §8).
 */
export const isStoredSession = (token: string | null, from: Storage = storage()): boolean =>
  token !== null && getToken(from) === token;

/** True while a session token is stored. */
export const isSignedIn = (): boolean => Boolean(getToken());

/** The signed-in user's id from local storage `user_id`, or null when none. */
export const getUserId = (from: Storage = storage()): number | null => {
  const id = Number(from.getItem(AUTH_STORAGE_KEYS.userId) ?? '');
  return Number.isSafeInteger(id) && id > 0 ? id : null;
};

/** The signed-in user's type (spec §4) from local storage `type`, or null when none or unknown. */
export const getUserType = (from: Storage = storage()): TUserType | null => {
  const type = from.getItem(AUTH_STORAGE_KEYS.type);
  return USER_TYPES.find((known) => known === type) ?? null;
};

/**
 * True when the signed-in user is a customer (spec §4 user type): they see only their own loan,
 * never the retailer screens. Retailers and mini-retailers (and an unknown type) are not.
 */
export const isCustomerUser = (from: Storage = storage()): boolean => getUserType(from) === 'customer';

/**
 * True when the signed-in user looks after shops rather than customers: the organisation admin or a
 * distributor (issue 30). They hold no customer and command no phone, so the shop's bottom
 * navigation and the phone actions are not theirs.
 */
export const isOfficeUser = (from: Storage = storage()): boolean => {
  const type = getUserType(from);
  return type === 'admin' || type === 'distributor';
};

/**
 * Stores a verified session under the spec §3 keys (account_id is the organisation id). `mpin`
 * becomes '1' when the user has an MPIN and is removed when not; the MPIN itself is never stored.
 */
export const saveAuthSession = (session: TAuthSession, to: Storage = storage()): void => {
  to.setItem(AUTH_STORAGE_KEYS.token, session.token);
  to.setItem(AUTH_STORAGE_KEYS.userId, String(session.user.id));
  to.setItem(AUTH_STORAGE_KEYS.accountId, String(session.user.orgId));
  to.setItem(AUTH_STORAGE_KEYS.phone, session.user.mobile);
  to.setItem(AUTH_STORAGE_KEYS.type, session.user.userType);
  if (session.user.parentType) to.setItem(AUTH_STORAGE_KEYS.parentType, session.user.parentType);
  else to.removeItem(AUTH_STORAGE_KEYS.parentType);
  markHasMpin(session.user.hasMpin, to);
};

/**
 * The signed-in user's parent in the distribution network, whom it asks for keys (issue 30): a
 * distributor or a retailer from local storage `parent_type`, else the organisation.
 */
export const getParentType = (from: Storage = storage()): 'distributor' | 'retailer' | 'organisation' => {
  const type = from.getItem(AUTH_STORAGE_KEYS.parentType);
  if (type === 'distributor' || type === 'retailer') return type;
  // A session saved before the parent was: a mini-retailer's parent is always its retailer.
  return getUserType(from) === 'miniretailer' ? 'retailer' : 'organisation';
};

/** Records whether the user has an MPIN ('1' or absent; spec §3 `mpin` key, never the PIN). */
export const markHasMpin = (hasMpin: boolean, to: Storage = storage()): void => {
  if (hasMpin) to.setItem(AUTH_STORAGE_KEYS.mpin, HAS_MPIN_FLAG);
  else to.removeItem(AUTH_STORAGE_KEYS.mpin);
};

/** The mobile last signed in on this device (E.164), or null; prefills the MPIN login. */
export const getRememberedPhone = (from: Storage = storage()): string | null =>
  from.getItem(AUTH_STORAGE_KEYS.phone);

/**
 * Log out: forgets the session (token, user id, user type and parent) but keeps what identifies this device
 * and its person (phone and the MPIN flag for the MPIN login, organisation, device id, language).
 */
export const clearSession = (from: Storage = storage()): void => {
  from.removeItem(AUTH_STORAGE_KEYS.token);
  from.removeItem(AUTH_STORAGE_KEYS.userId);
  from.removeItem(AUTH_STORAGE_KEYS.type);
  from.removeItem(AUTH_STORAGE_KEYS.parentType);
};

/** Spec §8: when the session is gone, all local storage is cleared, not only the session keys. */
export const clearAllStorage = (from: Storage = storage()): void => from.clear();
