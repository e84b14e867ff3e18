import type { TDpdBucket } from '@kisht/domain/collections/collections.rules';
import type { TCustomerStatusWord, TUserType } from '@kisht/domain/common/enums';
import type { UPCOMING_RANGES } from '@kisht/domain/emi/emi.schema';

/**
 * Query parameter of customer_navigate, customer_documents, signature, witness_signature,
 * emi_details, view_emi_details, emm_qr, apple_details and apple_sync (and of add_customer once
 * the customer is created), and path parameter of customer_details (spec §2, §3).
 */
export const CUSTOMER_ID_PARAM = 'customer_id';

/** The tabs of up_coming_emi: due today, due this week, overdue (domain UPCOMING_RANGES). */
export type TUpcomingRange = (typeof UPCOMING_RANGES)[number];
/** Query parameter carrying the up_coming_emi tab. */
export const UPCOMING_RANGE_PARAM = 'range';

/**
 * Query parameter of customer_list and dashboard carrying the shop a retailer narrows them to
 * (itself or one of its mini-retailers; spec §3 `retailer_id`). Absent: all its shops.
 */
export const RETAILER_ID_PARAM = 'retailer_id';

/** The shop id in a URL's RETAILER_ID_PARAM, or undefined when absent or not a positive whole number. */
export const readRetailerIdParam = (params: URLSearchParams): number | undefined => {
  const value = Number(params.get(RETAILER_ID_PARAM) ?? '');
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
};

/** The customer list's filters, carried in its URL (it loads further pages as it scrolls). */
export type TCustomerListFilters = {
  status?: TCustomerStatusWord | 'all' | undefined;
  search?: string | undefined;
  /** Only this shop's customers (RETAILER_ID_PARAM); undefined: all the actor's shops. */
  retailerId?: number | undefined;
};

/** top_up_history's filters, carried in its URL (spec §3 query parameters from, to, user_id). */
export type TTopUpHistoryFilters = {
  from?: string | undefined;
  to?: string | undefined;
  type?: string | undefined;
  userId?: number | undefined;
};

const withQuery = (path: string, query: Record<string, string | number | undefined>): string => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
};

/** The command tab groups of customer_details (spec §2): customer, device, actions. */
export const CUSTOMER_DETAILS_TABS = ['customer', 'device', 'actions'] as const;
export type TCustomerDetailsTab = (typeof CUSTOMER_DETAILS_TABS)[number];
/** Query parameter carrying the customer_details tab (absent for the first, customer). */
export const CUSTOMER_DETAILS_TAB_PARAM = 'tab';

/** Query parameter of collections_loans carrying the days-past-due bucket it lists (issue 29). */
export const BUCKET_PARAM = 'bucket';

/** Query parameter carrying the bulk request multiple_lock_unlock shows the progress of. */
export const BATCH_ID_PARAM = 'batch_id';

/** The tabs of pending_commands: waiting for offline phones, or waiting for their scheduled time. */
export const PENDING_COMMANDS_TABS = ['offline', 'scheduled'] as const;
export type TPendingCommandsTab = (typeof PENDING_COMMANDS_TABS)[number];
/** Query parameter carrying the pending_commands tab (absent for the first, offline). */
export const PENDING_COMMANDS_TAB_PARAM = 'tab';

/**
 * The tabs of key_requests (issue 30): the shop's own requests to its parent, those of the shops
 * below it (a retailer's mini-retailers), and a retailer's prices to them.
 */
export const KEY_REQUESTS_TABS = ['sent', 'received', 'prices'] as const;
export type TKeyRequestsTab = (typeof KEY_REQUESTS_TABS)[number];
/** Query parameter carrying the key_requests tab (absent for the first, sent). */
export const KEY_REQUESTS_TAB_PARAM = 'tab';

/** The modes of the m_pin screen: log in with an MPIN, or set one after an OTP login. */
export type TMpinMode = 'login' | 'set';
/** Query parameter carrying the m_pin screen's mode. */
export const MPIN_MODE_PARAM = 'mode';

/** Query parameter of the network page carrying the node whose children it lists (issue 30). */
export const NETWORK_NODE_PARAM = 'node';

/** A route without parameters: its path is its link. */
const plain = <const TPath extends string>(path: TPath) => ({ path, href: () => path });

/**
 * The app's route table (spec §2 route segments, spelled as the spec spells them). Each route has
 * the `path` the router matches and an `href(...)` that builds a link to it; nobody writes a URL
 * by hand. login, otp and m_pin are outside authentication (PUBLIC_ROUTES); all others are
 * protected.
 */
export const appPaths = {
  root: plain('/'),
  login: plain('/login'),
  otp: plain('/otp'),
  mPin: {
    path: '/m_pin',
    href: (mode: TMpinMode = 'login') =>
      withQuery('/m_pin', { [MPIN_MODE_PARAM]: mode === 'login' ? undefined : mode }),
  },
  dashboard: {
    path: '/dashboard',
    /** With a retailer id: the figures of that shop only (RETAILER_ID_PARAM). */
    href: (retailerId?: number) => withQuery('/dashboard', { [RETAILER_ID_PARAM]: retailerId }),
  },
  customerList: {
    path: '/customer_list',
    href: (filters: TCustomerListFilters = {}) =>
      withQuery('/customer_list', {
        status: filters.status === 'all' ? undefined : filters.status,
        search: filters.search,
        [RETAILER_ID_PARAM]: filters.retailerId,
      }),
  },
  addCustomer: {
    path: '/add_customer',
    /** With a customer id: the customer just created, on the photo, documents and signature step. */
    href: (customerId?: number) => withQuery('/add_customer', { [CUSTOMER_ID_PARAM]: customerId }),
  },
  customerNavigate: {
    path: '/customer_navigate',
    href: (customerId: number) => withQuery('/customer_navigate', { [CUSTOMER_ID_PARAM]: customerId }),
  },
  customerDetails: {
    path: `/customer_details/:${CUSTOMER_ID_PARAM}`,
    href: (customerId: number, tab: TCustomerDetailsTab = 'customer') =>
      withQuery(`/customer_details/${customerId}`, {
        [CUSTOMER_DETAILS_TAB_PARAM]: tab === 'customer' ? undefined : tab,
      }),
  },
  language: plain('/language'),
  sessions: plain('/sessions'),
  retailerList: plain('/retailer_list'),
  /** A mini-retailer's profile for its parent with `userId`; without it the signed-in user's own. */
  retailerProfile: {
    path: '/retailer_profile',
    href: (userId?: number) => withQuery('/retailer_profile', { user_id: userId }),
  },
  sendAdvertisement: plain('/send_advertisement'),
  /** The collections view (issue 29); with a retailer id, that shop's loans only. */
  collections: {
    path: '/collections',
    href: (retailerId?: number) => withQuery('/collections', { [RETAILER_ID_PARAM]: retailerId }),
  },
  /** The open loans of one days-past-due bucket (issue 29), with Lock and Remind. */
  collectionsLoans: {
    path: '/collections_loans',
    href: (bucket: TDpdBucket, retailerId?: number) =>
      withQuery('/collections_loans', { [BUCKET_PARAM]: bucket, [RETAILER_ID_PARAM]: retailerId }),
  },
  upComingEmi: {
    path: '/up_coming_emi',
    href: (range?: TUpcomingRange) => withQuery('/up_coming_emi', { [UPCOMING_RANGE_PARAM]: range }),
  },
  simChanges: plain('/sim_changes'),
  privacyPolicy: plain('/privacy_policy'),
  help: plain('/help'),
  support: plain('/support'),
  retailerPaymentQr: plain('/retailer_payment_qr'),
  signature: {
    path: '/signature',
    href: (customerId: number) => withQuery('/signature', { [CUSTOMER_ID_PARAM]: customerId }),
  },
  antiTheft: plain('/anti_theft'),
  addRetailer: plain('/add_retailer'),
  emiDetails: {
    path: '/emi_details',
    href: (customerId: number) => withQuery('/emi_details', { [CUSTOMER_ID_PARAM]: customerId }),
  },
  topUpHistory: {
    path: '/top_up_history',
    /** With filters: +05:30 days `from`/`to` (YYYY-MM-DD), a movement `type`, a mini-retailer's `user_id`. */
    href: (filters: TTopUpHistoryFilters = {}) =>
      withQuery('/top_up_history', {
        from: filters.from,
        to: filters.to,
        type: filters.type,
        user_id: filters.userId,
      }),
  },
  multipleLockUnlock: {
    path: '/multiple_lock_unlock',
    /** With a batch id: the progress of that bulk request. */
    href: (batchId?: string) => withQuery('/multiple_lock_unlock', { [BATCH_ID_PARAM]: batchId }),
  },
  /** The enrolment QR of one customer's phone (spec §2 edit menu EMM_QR_CODE). */
  emmQr: {
    path: '/emm_qr',
    href: (customerId: number) => withQuery('/emm_qr', { [CUSTOMER_ID_PARAM]: customerId }),
  },
  viewEmiDetails: {
    path: '/view_emi_details',
    href: (customerId: number) => withQuery('/view_emi_details', { [CUSTOMER_ID_PARAM]: customerId }),
  },
  /** What an Apple customer's iPhone reported through the MDM, with its Apple commands. */
  appleDetails: {
    path: '/apple_details',
    href: (customerId: number) => withQuery('/apple_details', { [CUSTOMER_ID_PARAM]: customerId }),
  },
  witnessSignature: {
    path: '/witness_signature',
    href: (customerId: number) => withQuery('/witness_signature', { [CUSTOMER_ID_PARAM]: customerId }),
  },
  customerDocuments: {
    path: '/customer_documents',
    href: (customerId: number) => withQuery('/customer_documents', { [CUSTOMER_ID_PARAM]: customerId }),
  },
  extendedWarranty: plain('/extended_warranty'),
  paymentGateway: plain('/payment_gateway'),
  familycare: plain('/familycare'),
  antihacking: plain('/antihacking'),
  /** Ask an Apple customer's iPhone for its information (spec §2 edit menu CHECK_STATUS). */
  appleSync: {
    path: '/apple_sync',
    href: (customerId: number) => withQuery('/apple_sync', { [CUSTOMER_ID_PARAM]: customerId }),
  },
  // Screens beyond spec §2's list (PRODUCT_ROUTES): the device-command queues and settings.
  pendingCommands: {
    path: '/pending_commands',
    href: (tab: TPendingCommandsTab = 'offline') =>
      withQuery('/pending_commands', {
        [PENDING_COMMANDS_TAB_PARAM]: tab === 'offline' ? undefined : tab,
      }),
  },
  deviceSettings: plain('/device_settings'),
  /** In-app notifications (issue 16): the signed-in user's own, newest first. */
  notifications: plain('/notifications'),
  /**
   * Key requests and returns up the chain (issue 30): a shop asks its parent for keys, returns
   * unused ones, and (a retailer) decides its mini-retailers' requests and sets their prices.
   */
  keyRequests: {
    path: '/key_requests',
    href: (tab: TKeyRequestsTab = 'sent') =>
      withQuery('/key_requests', { [KEY_REQUESTS_TAB_PARAM]: tab === 'sent' ? undefined : tab }),
  },
  /** The organisation admin's home: join requests, retailers (credit keys), key prices. */
  admin: plain('/admin'),
  /**
   * A distributor's home (issue 30): the nodes below it with their key stock (`?node=` the node
   * looked into, one of its subtree), and the join requests made to it.
   */
  network: {
    path: '/network',
    href: (node?: number) => withQuery('/network', { [NETWORK_NODE_PARAM]: node }),
  },
} as const;

export type TRouteKey = keyof typeof appPaths;

/** Routes that can be linked to without arguments (menus, tabs). */
export type TLinkableRouteKey = {
  [K in TRouteKey]: [] extends Parameters<(typeof appPaths)[K]['href']> ? K : never;
}[TRouteKey];

/**
 * Routes Kisht adds to spec §2's list: pending_commands (commands waiting for offline phones or for
 * their scheduled time), device_settings (the organisation's device-control settings), admin
 * (the organisation admin's home, issue 13), notifications (spec §7 `/api/notifications`, issue 16),
 * collections (issue 29), key_requests and network (issue 30).
 */
export const PRODUCT_ROUTES: readonly TRouteKey[] = [
  'pendingCommands',
  'collections',
  'collectionsLoans',
  'deviceSettings',
  'admin',
  'notifications',
  'keyRequests',
  'network',
];

/** Spec §2: the routes outside authentication. */
export const PUBLIC_ROUTES: readonly TRouteKey[] = ['login', 'otp', 'mPin'];

/**
 * The protected routes a customer user (spec §4) may open: their dashboard (which shows their own
 * loan), language, sessions, help, support, privacy policy and notifications. Every other protected route is for
 * retailers and mini-retailers; a customer who opens one is sent to the dashboard.
 */
export const CUSTOMER_ROUTES: readonly TRouteKey[] = [
  'root',
  'dashboard',
  'language',
  'sessions',
  'help',
  'support',
  'privacyPolicy',
  'notifications',
];

/**
 * The protected routes an organisation admin (user type 'admin') may open: their home, language,
 * sessions, and the help, support and privacy pages they write (issue 16). Every other protected
 * route sends an admin to the admin home, and the admin home sends everyone else to the dashboard.
 */
export const ADMIN_ROUTES: readonly TRouteKey[] = [
  'admin',
  'collections',
  'collectionsLoans',
  'language',
  'sessions',
  'help',
  'support',
  'privacyPolicy',
];

/**
 * The protected routes a distributor (issue 30) may open: its network home, key requests, key
 * history, collections of its subtree, notifications, language, sessions and the help pages. It
 * holds no customer and commands no phone.
 */
export const DISTRIBUTOR_ROUTES: readonly TRouteKey[] = [
  'network',
  'keyRequests',
  'topUpHistory',
  'collections',
  'collectionsLoans',
  'notifications',
  'language',
  'sessions',
  'help',
  'support',
  'privacyPolicy',
];

/** Routes only one kind of office user opens: a shop (retailer, mini-retailer) opens every other. */
const NOT_FOR_SHOPS: readonly TRouteKey[] = ['admin', 'network'];

/**
 * Whether a user of `userType` may open the protected route `route`: a customer CUSTOMER_ROUTES, an
 * organisation admin ADMIN_ROUTES, a distributor DISTRIBUTOR_ROUTES, a retailer or mini-retailer
 * (or a session of unknown type) everything but the admin's and the distributor's homes.
 */
export const mayOpen = (route: TRouteKey, userType: TUserType | null): boolean => {
  if (userType === 'customer') return CUSTOMER_ROUTES.includes(route);
  if (userType === 'admin') return ADMIN_ROUTES.includes(route);
  if (userType === 'distributor') return DISTRIBUTOR_ROUTES.includes(route);
  return !NOT_FOR_SHOPS.includes(route);
};

/** Where a user of `userType` lands, and is sent from a route it may not open. */
export const homeOf = (userType: TUserType | null): TLinkableRouteKey => {
  if (userType === 'admin') return 'admin';
  if (userType === 'distributor') return 'network';
  return 'dashboard';
};

/** The spec §2 segment of a route ('root' for '/'): its path's first segment. */
export const routeSegment = (key: TRouteKey): string => appPaths[key].path.split('/')[1] || 'root';

/** Parses a customer id from a URL parameter: a positive integer, or null. */
export const parseCustomerId = (value: string | null | undefined): number | null => {
  if (!value || !/^\d+$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
};
