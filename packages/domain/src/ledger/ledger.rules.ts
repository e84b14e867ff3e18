import { AppType, type TAppType } from '../common/enums';

/**
 * English names of the spec §1 app types, for server messages and CSV cells (the web app shows
 * its translated `appType.*` strings instead; the keys below are the same words).
 */
export const APP_TYPE_LABELS: Record<TAppType, string> = {
  [AppType.DEVICE_POLICY_CONTROLLER]: 'Device policy controller',
  [AppType.LINK_BASED]: 'Link-based',
  [AppType.APPLE]: 'Apple',
  [AppType.ANTI_THEFT]: 'Anti-theft',
  [AppType.EXTENDED_WARRANTY]: 'Extended warranty',
  [AppType.OLD_LINK_BASED]: 'Old link-based',
  [AppType.FAMILY_CARE]: 'Family care',
  [AppType.ANTI_HACKING]: 'Anti-hacking',
  [AppType.DEVICE_POLICY_CONTROLLER_ANTI_THEFT]: 'Device policy controller + anti-theft',
  [AppType.DEVICE_POLICY_CONTROLLER_LITE]: 'Device policy controller lite',
  [AppType.ANTI_HACKING_PRO]: 'Anti-hacking pro',
  [AppType.ANTI_HACKING_PREMIUM]: 'Anti-hacking premium',
};

/** The English name of an app_type code, or `App type <code>` for a code spec §1 does not list. */
export const appTypeLabel = (code: number): string => APP_TYPE_LABELS[code as TAppType] ?? `App type ${code}`;

/**
 * The translation key (under `appType.`) of each app_type code, as the web app's locale files
 * name them (`appType.devicePolicyController`, …).
 */
export const APP_TYPE_KEYS: Record<TAppType, string> = {
  [AppType.DEVICE_POLICY_CONTROLLER]: 'devicePolicyController',
  [AppType.LINK_BASED]: 'linkBased',
  [AppType.APPLE]: 'apple',
  [AppType.ANTI_THEFT]: 'antiTheft',
  [AppType.EXTENDED_WARRANTY]: 'extendedWarranty',
  [AppType.OLD_LINK_BASED]: 'oldLinkBased',
  [AppType.FAMILY_CARE]: 'familyCare',
  [AppType.ANTI_HACKING]: 'antiHacking',
  [AppType.DEVICE_POLICY_CONTROLLER_ANTI_THEFT]: 'devicePolicyControllerAntiTheft',
  [AppType.DEVICE_POLICY_CONTROLLER_LITE]: 'devicePolicyControllerLite',
  [AppType.ANTI_HACKING_PRO]: 'antiHackingPro',
  [AppType.ANTI_HACKING_PREMIUM]: 'antiHackingPremium',
};

/** The message of NO_KEYS: the enrolling retailer has no key of this app_type left. */
export const noKeysMessage = (appType: number): string =>
  `No ${appTypeLabel(appType)} keys left. Buy keys or ask your retailer.`;

/** The stock levels of a key balance, as traffic-light colours (issue 30): red, amber, green. */
export const KEY_STOCK_LEVELS = ['low', 'running_low', 'ok'] as const;
export type TKeyStockLevel = (typeof KEY_STOCK_LEVELS)[number];

/**
 * How a balance of keys stands against the organisation's low-keys threshold (the `keys_low`
 * notification's, default 5): `low` (red) at or under it, `running_low` (amber) at or under twice
 * it, `ok` (green) above.
 */
export const keyStockLevel = (balance: number, lowThreshold: number): TKeyStockLevel =>
  balance <= lowThreshold ? 'low' : balance <= 2 * lowThreshold ? 'running_low' : 'ok';
