/**
 * The local storage keys of spec §3, spelled exactly as the spec spells them. Nothing else in the
 * app writes local storage (i18next's own cache is the `i18next` cookie).
 */
export const STORAGE_KEYS = {
  /** The organisation id (white-label account) this app runs for. */
  accountId: 'account_id',
  /** The signed-in user's id. */
  userId: 'user_id',
  /** A random UUID made once per installation. */
  deviceId: 'device_id',
  /** The signed-in (or last signed-in) user's mobile, E.164; prefills the MPIN login. */
  phone: 'phone',
  /** The session's bearer token. */
  token: 'token',
  /**
   * '1' when the user has set an MPIN, absent otherwise. Never the MPIN itself: a PIN must not sit
   * in plain text in storage any script on the origin can read.
   */
  mpin: 'mpin',
  /** The chosen interface language (spec §1 code); i18next also caches it in its cookie. */
  language: 'language',
  /** 'true' or 'false': whether the device runs Android (from the native shell, else the user agent). */
  isAndroid: 'isAndroid',
  /** '1' to show advertisements, '0' not to; '1' by default. */
  showAd: 'showAd',
  /** The id of the advertisement dismissed with showAd '0' (issue 16): a newer one shows again. */
  dismissedAdId: 'dismissedAdId',
  /** The native shell's device details, a JSON object string (see lib/native-bridge.ts). */
  deviceDetails: 'deviceDetails',
  /** The signed-in user's type (spec §4: retailer, customer, miniretailer; ours: admin, distributor). */
  type: 'type',
  /** The signed-in user's parent type in the network (issue 30: distributor, retailer; absent: organisation). */
  parentType: 'parent_type',
} as const;

export type TStorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];
