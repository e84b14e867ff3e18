/**
 * The spec's enumerations (product spec §1, §4, §6, §7). Numeric codes are what the API stores and
 * sends; word forms are what filters and URLs use.
 */

/** Customer status codes, spec §4. */
export const CustomerStatus = {
  INACTIVE: 0,
  INSTALL: 1,
  DEACTIVATE: 2,
  UNINSTALL: 3,
  APPLE_REMOVED: 4,
  EMI_COMPLETED: 5,
  EMI_MATURING: 6,
} as const;
export type TCustomerStatus = (typeof CustomerStatus)[keyof typeof CustomerStatus];
export const CUSTOMER_STATUS_CODES = Object.values(CustomerStatus) as TCustomerStatus[];

/** Word forms of the status codes, spec §4, indexed by code. */
export const CUSTOMER_STATUS_WORDS = [
  'inactive',
  'install',
  'deactive',
  'uninstall',
  'apple_removed',
  'emi_completed',
  'emi_maturing',
] as const;
export type TCustomerStatusWord = (typeof CUSTOMER_STATUS_WORDS)[number];
/** The status filter also accepts 'all' (spec §4). */
export const STATUS_FILTER_ALL = 'all';

/** Returns the spec §4 word form of a status code. */
export const statusWord = (status: TCustomerStatus): TCustomerStatusWord => CUSTOMER_STATUS_WORDS[status]!;

/** Lock status, spec §4: 1 locked, anything else unlocked. */
export const LockStatus = { UNLOCKED: 0, LOCKED: 1 } as const;
export type TLockStatus = (typeof LockStatus)[keyof typeof LockStatus];
/** Display label of a lock status value (spec §4): 1 → 'Locked', anything else → 'Unlocked'. */
export const lockStatusLabel = (value: unknown): 'Locked' | 'Unlocked' =>
  value === 1 ? 'Locked' : 'Unlocked';

/** Device families, spec §1. */
export const DeviceType = {
  DEVICE_POLICY_CONTROLLER: 0,
  MANAGED_ANDROID_API: 1,
  LINK_BASED: 2,
  APPLE: 3,
} as const;
export type TDeviceType = (typeof DeviceType)[keyof typeof DeviceType];
export const DEVICE_TYPE_CODES = Object.values(DeviceType) as TDeviceType[];

/** Protection / app types, spec §1. */
export const AppType = {
  DEVICE_POLICY_CONTROLLER: 0,
  LINK_BASED: 1,
  APPLE: 2,
  ANTI_THEFT: 4,
  EXTENDED_WARRANTY: 5,
  OLD_LINK_BASED: 6,
  FAMILY_CARE: 7,
  ANTI_HACKING: 8,
  DEVICE_POLICY_CONTROLLER_ANTI_THEFT: 9,
  DEVICE_POLICY_CONTROLLER_LITE: 11,
  ANTI_HACKING_PRO: 12,
  ANTI_HACKING_PREMIUM: 13,
} as const;
export type TAppType = (typeof AppType)[keyof typeof AppType];
export const APP_TYPE_CODES = Object.values(AppType) as TAppType[];

/** OTP purposes, spec §4. */
export const OTP_PURPOSES = ['LOGIN', 'FORGOT_PASSWORD', 'UNINSTALL', 'BYPASS_CODE'] as const;
export type TOtpPurpose = (typeof OTP_PURPOSES)[number];
/**
 * The OTP purposes anyone may ask for by mobile number alone (resend-otp): signing in and a
 * forgotten MPIN. UNINSTALL and BYPASS_CODE go only to a signed-in user's own number
 * (send-otp-to-user), so nobody can make Kisht text a known number with them (issue 27).
 */
export const SIGN_IN_OTP_PURPOSES = ['LOGIN', 'FORGOT_PASSWORD'] as const satisfies readonly TOtpPurpose[];
export type TSignInOtpPurpose = (typeof SIGN_IN_OTP_PURPOSES)[number];

/**
 * User types, spec §4 (admin is ours: organisation staff who manage retailers; distributor is ours
 * too, issue 30: a level of the distribution network between the organisation and its retailers).
 */
export const USER_TYPES = ['retailer', 'customer', 'miniretailer', 'admin', 'distributor'] as const;
export type TUserType = (typeof USER_TYPES)[number];

/** SIM-tracking command strings, spec §7. */
export const SIM_TRACKING_COMMANDS = [
  'SIMTRACKINGON',
  'SIMTRACKINGOFF',
  'SIMTRACKINGOFFLINEON',
  'SIMTRACKINGOFFLINEOFF',
] as const;

/**
 * Command names sent to devices: the names and SIM-tracking strings of spec §7, then ours for the
 * control features of spec §6 that §7 names no command for (see devices/command-catalogue.ts).
 */
export const COMMAND_NAMES = [
  'lock',
  'unlock',
  'tracking',
  'tracking_on',
  'tracking_off',
  'location',
  'reboot',
  'sim_info',
  'usb_on',
  'usb_off',
  'camera_lock',
  'camera_unlock',
  'app_lock',
  'app_unlock',
  'lost_mode_on',
  'lost_mode_off',
  'set_wallpaper',
  'remove_wallpaper',
  ...SIM_TRACKING_COMMANDS,
  'emi_alert',
  'uninstall',
  'outgoing_call_block',
  'outgoing_call_allow',
  'bluetooth_lock',
  'bluetooth_unlock',
  'wifi_on',
  'wifi_off',
  'airplane_mode_on',
  'airplane_mode_off',
  'accessibility_on',
  'accessibility_off',
  'miui_permission',
  'app_hide',
  'app_unhide',
  'uninstall_antitheft',
  'antitheft_lost_mode_on',
  'antitheft_lost_mode_off',
  'install_apple_onemodapp',
  'sim_lock',
  'sim_unlock',
  /** change_device_pinV1: a new screen-lock PIN, sealed for the phone (devices/device-pin.ts). */
  'change_pin',
  /** The organisation changed its offline limit (design §5): args { offlineLockAfterMs: ms | null }. */
  'set_offline_limit',
  /** apple_request_sync / CHECK_STATUS: an iPhone reports its DeviceInformation (issue 15; Apple only). */
  'check_status',
  /** disable_activation_lock: fetch an iPhone's Activation Lock bypass code (issue 15; Apple only, supervised). */
  'disable_activation_lock',
  /** send_fcm_retailer_to_customer: a text message from the retailer the phone shows (issue 16). */
  'show_message',
  /** send_advertisement: the retailer's advertisement (title, text, image) the phone shows (issue 16). */
  'show_ad',
] as const;
export type TCommandName = (typeof COMMAND_NAMES)[number];

/** Control features, spec §6. */
export const CONTROL_FEATURES = [
  'lock',
  'app_lock',
  'wallpaper',
  'camera_lock',
  'usb_debugging',
  'tracking',
  'sim_tracking_online',
  'sim_tracking_offline',
  'fetch_location',
  'reboot',
  'sim_info',
  'lost_mode',
  'emi_alert',
  'uninstall',
  'outgoing_call',
  'bluetooth_lock_unlock',
  'wifi_on_off',
  'airplane_mode_on_off',
  'accessibility_on_off',
  'miui_permission',
  'unlock',
  'app_hide_unhide',
  'uninstall_antitheft',
  'antitheft_lost_mode',
  'install_apple_onemodapp',
  'sim_lock_unlock',
] as const;
export type TControlFeature = (typeof CONTROL_FEATURES)[number];

/**
 * What the device channel carries besides spec §6's control features (issue 16): the retailer's
 * messages and advertisements to the customer's phone. Not controls: never in an allowed list and
 * never subject to spec §6 availability, only to the phone being enrolled.
 */
export const MESSAGE_FEATURES = ['customer_message', 'advertisement'] as const;
export type TMessageFeature = (typeof MESSAGE_FEATURES)[number];

/** Command lifecycle states, design §5. Final states: done, failed, cancelled, expired. */
export const COMMAND_STATES = [
  'queued',
  'sent',
  'received',
  'done',
  'failed',
  'cancelled',
  'expired',
] as const;
export type TCommandState = (typeof COMMAND_STATES)[number];
export const PENDING_COMMAND_STATES: readonly TCommandState[] = ['queued', 'sent', 'received'];
/** True when a command in this state may still reach the device. */
export const isPendingCommandState = (state: TCommandState): boolean =>
  PENDING_COMMAND_STATES.includes(state);
