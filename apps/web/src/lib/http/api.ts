import type { TAppConfig, TOrgAppConfig } from '@kisht/domain/orgs/orgs.schema';
import { createApi } from '@reduxjs/toolkit/query/react';
import { BOOTSTRAP_API_BASE_URL, ORG_ID } from '../config';
import { errorCodeMessage } from '../error-messages';
import { i18n } from '../i18n';
import type { TRequestContext } from './base-query';
import { createBaseQuery } from './base-query';
import { offlineReadStore } from './offline-reads';

let sessionGoneHandler: () => void = () => {};

/** The app registers where to go when a call answers 511 (the login route). */
export const setSessionGoneHandler = (handler: () => void): void => {
  sessionGoneHandler = handler;
};

/** Runs the app's session-gone handler (spec §8), for a call made outside the base query (a 511). */
export const triggerSessionGone = (): void => sessionGoneHandler();

/** Where the one api keeps its cache in the store. */
export const API_REDUCER_PATH = 'api';

/** Spec §7: API data is cached 300 s by default. */
export const DEFAULT_CACHE_SECONDS = 300;
/** Spec §7: plans are cached 5 s; the plans endpoints (plans-api.ts) set keepUnusedDataFor to this. */
export const PLANS_CACHE_SECONDS = 5;

/** Tag types; cache keys and tags carry every parameter sent (organisation, filters, page). */
export const TAG_TYPES = [
  'OrgConfig',
  /** The organisation admin's join requests (id: 'LIST'). */
  'SignupRequest',
  /** The organisation admin's retailer search (id: 'LIST'). */
  'AdminRetailer',
  /** The organisation's key prices (admin). */
  'KeyPrices',
  /** The signed-in person's key balances per app_type (a purchase or transfer changes them). */
  'KeyBalances',
  'Dashboard',
  'Customer',
  'Product',
  /** The organisation's financers (financer_list). */
  'Financer',
  'Session',
  /** A customer's EMI schedule and payments (id: customer id), or a customer user's own loans ('MINE'). */
  'Emi',
  /** Upcoming-EMI lists and counts. */
  'UpcomingEmi',
  /** The money figures of the dashboard (outstanding, overdue, collected). */
  'Outstanding',
  /** A customer's photo, invoice, signatures and documents (id: customer id). */
  'CustomerMedia',
  /** A customer's status trail (id: customer id). */
  'StatusHistory',
  /** The commands sent to a customer's phone (id: customer id). */
  'CommandHistory',
  /** The signed-in person's access flags (spec §6 user access and lock access). */
  'Access',
  /** SIM changes the phones reported (id: 'LIST' for sim_changes pages, or a customer id). */
  'SimChange',
  /** Commands still waiting: for an offline phone ('OFFLINE') or for their run_at ('SCHEDULED'). */
  'PendingCommand',
  /** The organisation's device-control settings (device_settings). */
  'DeviceSettings',
  /** A retailer's mini-retailers (id: 'LIST', a user id, or 'ME' for the own profile). */
  'Retailer',
  /** The organisation's protection plans (every list, each filter). */
  'Plan',
  /** Protection plans sold (every list of activations, each filter). */
  'PlanActivation',
  /** What an Apple customer's iPhone reported through the MDM (apple_details; id: customer id). */
  'AppleDetails',
  /** The signed-in user's notifications (id: 'LIST' for every page, 'UNREAD' for the count). */
  'Notification',
  /** The organisation's help, support and privacy pages (id: `${page}:${language}`) and support contact. */
  'OrgPage',
  /** Payment reminders (issue 29): the schedule (id: 'SETTINGS') and a customer's (id: customer id). */
  'Reminder',
  /** A customer's UPI AutoPay mandate and its charges (issue 29; id: customer id). */
  'Autopay',
  /** The organisation's outbound webhook endpoints (issue 30; id: 'LIST'). */
  'WebhookEndpoints',
  /** An outbound webhook endpoint's delivery log (issue 30; id: endpoint id). */
  'WebhookDeliveries',
  /** The organisation's partner API keys (issue 30; id: 'LIST'). */
  'PartnerKeys',
  /**
   * Key requests up the chain (issue 30): the actor's own ('sent'), those of the shops below it
   * ('received'), and a retailer's prices to its mini-retailers ('PRICES').
   */
  'KeyRequests',
  /** The distribution network (issue 30): the nodes below a parent (id: 'LIST') and the levels. */
  'Network',
] as const;
/** Tags of data that belongs to the signed-in person (everything but the public org config). */
const SESSION_SCOPED_TAGS = [
  'SignupRequest',
  'AdminRetailer',
  'KeyPrices',
  'KeyBalances',
  'Dashboard',
  'Customer',
  'Product',
  'Financer',
  'Session',
  'Emi',
  'UpcomingEmi',
  'Outstanding',
  'CustomerMedia',
  'StatusHistory',
  'CommandHistory',
  'Access',
  'SimChange',
  'PendingCommand',
  'DeviceSettings',
  'Retailer',
  'Plan',
  'PlanActivation',
  'AppleDetails',
  'Notification',
  'OrgPage',
  'Reminder',
  'Autopay',
  'WebhookEndpoints',
  'WebhookDeliveries',
  'PartnerKeys',
  'KeyRequests',
  'Network',
] as const;

/** The part of the store the base query reads (the ui slice's configs), typed here to keep lib/http free of it. */
type TRequestContextState = {
  ui?: {
    org_config: Pick<TOrgAppConfig, 'orgId' | 'apiBaseUrl'> | null;
    app_config: Pick<TAppConfig, 'requestTokenSecret'> | null;
  };
};

/**
 * Spec §1, §7: once the organisation's config has loaded, its apiBaseUrl ('' = this origin) is
 * the base of every call and its orgId signs the request token; before that (the config call
 * itself) the build's bootstrap base URL and org id are used.
 */
export const selectRequestContext = (state: unknown): TRequestContext => {
  const ui = (state as TRequestContextState | undefined)?.ui;
  const orgConfig = ui?.org_config ?? null;
  return {
    baseUrl: orgConfig ? orgConfig.apiBaseUrl : BOOTSTRAP_API_BASE_URL,
    orgId: orgConfig?.orgId ?? ORG_ID,
    requestTokenSecret: ui?.app_config?.requestTokenSecret ?? null,
  };
};

/**
 * The base query of every call the app makes. RTK Query endpoints use it through `api`; a stored
 * file (use-media-url) is fetched with it directly, so its Blob never enters the store.
 */
export const appBaseQuery = createBaseQuery({
  getContext: (getState) => selectRequestContext(getState()),
  onSessionGone: () => sessionGoneHandler(),
  fallbackMessage: () => i18n.t('errors.somethingWentWrong'),
  // No answer at all: say so, rather than that something went wrong (issue 12).
  offlineMessage: () => i18n.t('errors.offline'),
  // A domain error in the user's language; the server's English message in English (issue 28).
  codeMessage: (code) => errorCodeMessage(code),
  // Issue 28: the customer list, details, EMI schedule and upcoming EMIs read offline as last
  // fetched; a change made offline is refused with this message, never kept to send later.
  offlineReads: offlineReadStore,
  needsConnectionMessage: () => i18n.t('errors.needsConnection'),
});

/**
 * The app's one RTK Query api (design §2). Features add endpoints with `api.injectEndpoints` in
 * their `<feature>-api.ts`.
 */
export const api = createApi({
  reducerPath: API_REDUCER_PATH,
  baseQuery: appBaseQuery,
  tagTypes: TAG_TYPES,
  keepUnusedDataFor: DEFAULT_CACHE_SECONDS,
  // Back online, what a screen shows is fetched again, so a saved read's "as of" gives way to
  // fresh data without the person asking (issue 28).
  refetchOnReconnect: true,
  endpoints: () => ({}),
});

/**
 * Drops the previous session's cached data when someone signs in, so nothing leaks from one
 * person to the next. Dispatched before the token is stored, while no protected screen is
 * mounted: invalidated entries without subscribers are removed, not refetched. The public org
 * config is kept, so the theme does not flash.
 */
export const purgeSessionCache = () => api.util.invalidateTags([...SESSION_SCOPED_TAGS]);
