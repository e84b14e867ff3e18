import { AppType, DeviceType } from '../common/enums';

/**
 * How Kisht reaches a phone of each device family (spec §1 device_type; issue 15):
 * - `mqtt`: Kisht's own device channel (design §5): the device policy controller (0) and the
 *   link-based family-locking app (2);
 * - `apple_mdm`: an iPhone (3) through NanoMDM, Apple's MDM protocol;
 * - `android_management`: a managed Android phone (1) through Google's Android Management API.
 */
export const DEVICE_CHANNELS = ['mqtt', 'apple_mdm', 'android_management'] as const;
export type TDeviceChannel = (typeof DEVICE_CHANNELS)[number];

/** The channel of device family `deviceType` (spec §1); an unknown family is treated as `mqtt`. */
export const channelOfDeviceType = (deviceType: number): TDeviceChannel => {
  if (deviceType === DeviceType.APPLE) return 'apple_mdm';
  if (deviceType === DeviceType.MANAGED_ANDROID_API) return 'android_management';
  return 'mqtt';
};

/**
 * What a customer is handed to enrol their phone (issue 15), by device family:
 * - `android_provisioning`: the Android device-owner provisioning JSON for a factory-reset phone
 *   (device policy controller 0, with anti-theft 9, lite 11);
 * - `link`: a deep link that installs and opens the link-based app (1, old link-based 6), with an
 *   APK download and a short code typed into the app;
 * - `managed_android`: the Android Management API's enrolment QR (its enrolment token);
 * - `apple_profile`: the URL of the Apple MDM enrolment profile, opened in Safari on the iPhone.
 */
export const ENROLMENT_KINDS = ['android_provisioning', 'link', 'managed_android', 'apple_profile'] as const;
export type TEnrolmentKind = (typeof ENROLMENT_KINDS)[number];

/** The enrolment kind of a customer's phone from its device family (spec §1 device_type). */
export const enrolmentKindOf = (deviceType: number): TEnrolmentKind => {
  if (deviceType === DeviceType.APPLE) return 'apple_profile';
  if (deviceType === DeviceType.MANAGED_ANDROID_API) return 'managed_android';
  if (deviceType === DeviceType.LINK_BASED) return 'link';
  return 'android_provisioning';
};

/**
 * The app types (spec §1) the managed-Android, link-based and Apple families may be sold with: the
 * family decides how the phone is reached, the app type which app and key it costs. The device
 * policy controller family takes any other app type (0, 4, 9, 11 and the plan types).
 */
export const APP_TYPES_OF_DEVICE_TYPE: Readonly<Record<number, readonly number[]>> = {
  [DeviceType.MANAGED_ANDROID_API]: [AppType.DEVICE_POLICY_CONTROLLER],
  [DeviceType.LINK_BASED]: [AppType.LINK_BASED, AppType.OLD_LINK_BASED],
  [DeviceType.APPLE]: [AppType.APPLE],
};

/** App types that belong to one family only (link-based 1 and 6, Apple 2). */
const FAMILY_ONLY_APP_TYPES: readonly number[] = [AppType.LINK_BASED, AppType.OLD_LINK_BASED, AppType.APPLE];

/**
 * True when a customer of device family `deviceType` may have app type `appType` (see
 * APP_TYPES_OF_DEVICE_TYPE); add_customer refuses another pair with 400 naming appType.
 */
export const isAppTypeOfDeviceType = (deviceType: number, appType: number): boolean => {
  const only = APP_TYPES_OF_DEVICE_TYPE[deviceType];
  return only ? only.includes(appType) : !FAMILY_ONLY_APP_TYPES.includes(appType);
};

/** The app type add_customer starts with for device family `deviceType`. */
export const defaultAppTypeOf = (deviceType: number): number =>
  APP_TYPES_OF_DEVICE_TYPE[deviceType]?.[0] ?? AppType.DEVICE_POLICY_CONTROLLER;
