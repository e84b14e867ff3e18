import type { TAuthSession } from '@kisht/domain/auth/auth.schema';

/** Local storage keys of spec §3 that hold the signed-in session. */
export const AUTH_STORAGE_KEYS = {
  token: 'token',
  userId: 'user_id',
  accountId: 'account_id',
  phone: 'phone',
  type: 'type',
} as const;

const storage = (): Storage => window.localStorage;

/** The session's bearer token, or null when nobody is signed in. */
export const getToken = (from: Storage = storage()): string | null => from.getItem(AUTH_STORAGE_KEYS.token);

export const isSignedIn = (): boolean => Boolean(getToken());

/** Stores a verified session under the spec §3 keys (account_id is the organisation id). */
export const saveAuthSession = (session: TAuthSession, to: Storage = storage()): void => {
  to.setItem(AUTH_STORAGE_KEYS.token, session.token);
  to.setItem(AUTH_STORAGE_KEYS.userId, String(session.user.id));
  to.setItem(AUTH_STORAGE_KEYS.accountId, String(session.user.orgId));
  to.setItem(AUTH_STORAGE_KEYS.phone, session.user.mobile);
  to.setItem(AUTH_STORAGE_KEYS.type, session.user.userType);
};

/** Spec §8: when the session is gone, all local storage is cleared, not only the session keys. */
export const clearAllStorage = (from: Storage = storage()): void => from.clear();
