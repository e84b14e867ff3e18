import { STORAGE_KEYS } from './storage-keys';

/** Spec §1: "config shows org id 41". */
export const DEFAULT_ORG_ID = 41;

/** The query parameter that picks another organisation on first load (`?org=46`). */
export const ORG_QUERY_PARAM = 'org';

const parseOrgId = (value: string | null | undefined): number | null => {
  if (!value || !/^\d+$/.test(value)) return null;
  const orgId = Number(value);
  return Number.isSafeInteger(orgId) && orgId > 0 ? orgId : null;
};

/**
 * Which organisation the app runs for (spec §1 white-label): `?org=` on the URL, else the one
 * remembered in local storage `account_id` (spec §3), else the build's VITE_ORG_ID, else 41.
 */
export const resolveOrgId = (options: {
  search: string;
  remembered: string | null;
  envValue: string | undefined;
}): number =>
  parseOrgId(new URLSearchParams(options.search).get(ORG_QUERY_PARAM)) ??
  parseOrgId(options.remembered) ??
  parseOrgId(options.envValue) ??
  DEFAULT_ORG_ID;

const readRememberedOrgId = (): string | null => {
  try {
    return window.localStorage.getItem(STORAGE_KEYS.accountId);
  } catch {
    return null;
  }
};

/** The organisation this page load runs for, decided once when the app starts. */
export const ORG_ID = resolveOrgId({
  search: typeof window === 'undefined' ? '' : window.location.search,
  remembered: typeof window === 'undefined' ? null : readRememberedOrgId(),
  envValue: import.meta.env.VITE_ORG_ID,
});

/** Remembers the organisation in local storage `account_id`, so a reload keeps it. */
export const rememberOrgId = (orgId: number = ORG_ID, to: Storage = window.localStorage): void => {
  to.setItem(STORAGE_KEYS.accountId, String(orgId));
};

/**
 * Where the organisation's config is fetched from, before it names its own API base URL.
 * Empty: the API is served from the same origin as the app (design §1).
 */
export const BOOTSTRAP_API_BASE_URL = import.meta.env.VITE_API_BASE_URL ?? '';
