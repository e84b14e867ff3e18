import { AppType, CONTROL_FEATURES, DeviceType, type TControlFeature } from '../common/enums';

/**
 * The controls of customer_details (spec §6 "control availability"): switches and toggles that
 * change how the phone behaves. `lock` stands for the lock/unlock pair (spec §6 lists `unlock` as a
 * feature too; an allowed list may name either).
 */
export const PRIMARY_CONTROLS: readonly TControlFeature[] = [
  'lock',
  'app_lock',
  'wallpaper',
  'camera_lock',
  'usb_debugging',
  'tracking',
  'sim_tracking_online',
  'sim_tracking_offline',
  'lost_mode',
  'outgoing_call',
  'bluetooth_lock_unlock',
  'wifi_on_off',
  'airplane_mode_on_off',
  'accessibility_on_off',
  'app_hide_unhide',
  'sim_lock_unlock',
  'antitheft_lost_mode',
];

/** The second action list of spec §6: one-shot actions. */
export const SECOND_ACTIONS: readonly TControlFeature[] = [
  'fetch_location',
  'sim_info',
  'reboot',
  'emi_alert',
  'uninstall',
  'miui_permission',
  'uninstall_antitheft',
  'install_apple_onemodapp',
];

/** Actions the spec names for no family by default: offered only when an allowed list names them. */
const EXTRA_ACTIONS: readonly TControlFeature[] = ['uninstall_antitheft', 'install_apple_onemodapp'];

/** What a device may still do while locked (spec §6), before the type and allowed list narrow it. */
const LOCKED_ACTIONS: readonly TControlFeature[] = ['fetch_location', 'sim_info', 'reboot'];

/**
 * Controls each device family offers when the organisation sends no allowed list (spec §6 "without
 * a list"). Features the spec names for no family by default (anti-theft lost mode and uninstall,
 * the Apple one-mode app) are offered only through an allowed list.
 */
const DEFAULT_CONTROLS: Record<number, readonly TControlFeature[]> = {
  // Device policy controller: everything except lost mode and accessibility.
  [DeviceType.DEVICE_POLICY_CONTROLLER]: [
    'lock',
    'app_lock',
    'wallpaper',
    'camera_lock',
    'usb_debugging',
    'tracking',
    'sim_tracking_online',
    'sim_tracking_offline',
    'outgoing_call',
    'bluetooth_lock_unlock',
    'wifi_on_off',
    'airplane_mode_on_off',
    'app_hide_unhide',
    'sim_lock_unlock',
  ],
  // Managed Android API: as the policy controller, less tracking, app hide, bluetooth, wifi,
  // airplane mode, SIM tracking, and outgoing call (policy controller only).
  [DeviceType.MANAGED_ANDROID_API]: [
    'lock',
    'app_lock',
    'wallpaper',
    'camera_lock',
    'usb_debugging',
    'sim_lock_unlock',
  ],
  [DeviceType.LINK_BASED]: ['lock', 'tracking', 'accessibility_on_off'],
  [DeviceType.APPLE]: ['lock', 'lost_mode', 'usb_debugging', 'camera_lock', 'app_lock'],
};

/** The second action list per device family while unlocked (spec §6). */
const DEFAULT_ACTIONS: Record<number, readonly TControlFeature[]> = {
  [DeviceType.DEVICE_POLICY_CONTROLLER]: SECOND_ACTIONS.filter((f) => !EXTRA_ACTIONS.includes(f)),
  // Managed API drops MIUI permission.
  [DeviceType.MANAGED_ANDROID_API]: SECOND_ACTIONS.filter(
    (f) => f !== 'miui_permission' && !EXTRA_ACTIONS.includes(f),
  ),
  [DeviceType.LINK_BASED]: ['sim_info', 'fetch_location', 'emi_alert', 'uninstall'],
  [DeviceType.APPLE]: ['fetch_location', 'reboot', 'uninstall', 'sim_info'],
};

/** What customer_details offers for one device: its controls and its second action list. */
export type TControlAvailability = {
  controls: TControlFeature[];
  actions: TControlFeature[];
};

export type TControlAvailabilityInput = {
  /** Device family, spec §1 (0 policy controller, 1 managed API, 2 link-based, 3 Apple). */
  deviceType: number;
  /** Reported lock state: true when the phone is locked (lock status 1). */
  isLocked: boolean;
  /**
   * The organisation's allowed list (server override), or null/undefined for none. An empty list
   * allows nothing. `unlock` in the list counts as `lock` (they are one pair).
   */
  allowedList?: readonly string[] | null | undefined;
  /**
   * The customer's app_type (spec §1), when known: an anti-theft customer (4, or 9 device policy
   * controller plus anti-theft) is also offered anti-theft lost mode and uninstall_antitheft by
   * default (issue 14), which spec §6 names for no device family.
   */
  appType?: number | undefined;
};

/** App types whose phones carry the anti-theft app (spec §1): anti-theft, and policy controller plus anti-theft. */
const ANTI_THEFT_APP_TYPES: readonly number[] = [
  AppType.ANTI_THEFT,
  AppType.DEVICE_POLICY_CONTROLLER_ANTI_THEFT,
];

/**
 * What the MDM families' services can carry out (issues 15, 25): Google's Android Management API
 * has no wallpaper, SIM lock, tracking or location command; it reads the SIMs of the phone's last
 * status report (sim_info) and shows an EMI alert as the lock screen's device-owner information
 * (emi_alert). A location would need lost mode, which locks the phone, or an app of Kisht's own on
 * it, so fetch_location is not offered (spec §6's second list keeps it for the family: a departure,
 * for that reason). Apple's MDM carries every feature spec §6 gives an iPhone. A feature outside
 * this list is never offered for the family, even where spec §6's table or an allowed list names
 * it: its command could only fail. Families reached through Kisht's own channel carry everything.
 */
export const MDM_CARRIED_FEATURES: Readonly<Record<number, readonly TControlFeature[]>> = {
  [DeviceType.MANAGED_ANDROID_API]: [
    'lock',
    'app_lock',
    'camera_lock',
    'usb_debugging',
    'lost_mode',
    'antitheft_lost_mode',
    'reboot',
    'sim_info',
    'emi_alert',
    'uninstall',
  ],
  [DeviceType.APPLE]: [
    'lock',
    'app_lock',
    'camera_lock',
    'usb_debugging',
    'lost_mode',
    'fetch_location',
    'reboot',
    'sim_info',
    'uninstall',
    'install_apple_onemodapp',
  ],
};

const inCanonicalOrder = (features: Iterable<TControlFeature>, deviceType: number): TControlFeature[] => {
  const set = new Set(features);
  const carried = MDM_CARRIED_FEATURES[deviceType];
  return CONTROL_FEATURES.filter((f) => set.has(f) && (!carried || carried.includes(f)));
};

/**
 * Which controls and actions customer_details shows for a device, and so which commands the
 * server accepts (spec §6 control availability and second action list):
 * - With an allowed list, only listed features show: the list replaces the family's default
 *   controls, and the family's actions are narrowed to the list.
 * - When locked, only lock and tracking (not Apple) remain of the controls, and of the actions only
 *   fetch location, SIM info and reboot where the family has them; both intersected with the
 *   allowed list when there is one.
 * - Without a list, each family has its defaults (DEFAULT_CONTROLS, DEFAULT_ACTIONS), and an
 *   anti-theft customer (app_type 4 or 9) also anti-theft lost mode and uninstall_antitheft.
 * - An MDM family is offered only what its service can carry out (MDM_CARRIED_FEATURES, issue 15).
 * An unknown device type offers nothing. Results are in the canonical CONTROL_FEATURES order.
 */
export const controlAvailability = (input: TControlAvailabilityInput): TControlAvailability => {
  const familyControls = DEFAULT_CONTROLS[input.deviceType];
  const familyActions = DEFAULT_ACTIONS[input.deviceType];
  if (!familyControls || !familyActions) return { controls: [], actions: [] };
  const allowed = input.allowedList
    ? new Set(input.allowedList.map((f) => (f === 'unlock' ? 'lock' : f)))
    : null;
  const isAllowed = (feature: TControlFeature) => !allowed || allowed.has(feature);

  if (input.isLocked) {
    const lockedControls: TControlFeature[] =
      input.deviceType === DeviceType.APPLE ? ['lock'] : ['lock', 'tracking'];
    return {
      controls: inCanonicalOrder(lockedControls.filter(isAllowed), input.deviceType),
      actions: inCanonicalOrder(
        familyActions.filter((f) => LOCKED_ACTIONS.includes(f) && isAllowed(f)),
        input.deviceType,
      ),
    };
  }
  const hasAntiTheft = input.appType !== undefined && ANTI_THEFT_APP_TYPES.includes(input.appType);
  const defaultControls: readonly TControlFeature[] = hasAntiTheft
    ? [...familyControls, 'antitheft_lost_mode']
    : familyControls;
  const defaultActions: readonly TControlFeature[] = hasAntiTheft
    ? [...familyActions, 'uninstall_antitheft']
    : familyActions;
  const controls = allowed ? PRIMARY_CONTROLS.filter((f) => allowed.has(f)) : defaultControls;
  // With a list, the actions it names that no family offers by default are offered too.
  const actions = allowed ? [...familyActions, ...EXTRA_ACTIONS].filter(isAllowed) : defaultActions;
  return {
    controls: inCanonicalOrder(controls, input.deviceType),
    actions: inCanonicalOrder(actions, input.deviceType),
  };
};

/** True when `feature` is offered for the device (see controlAvailability). */
export const isControlAvailable = (input: TControlAvailabilityInput, feature: TControlFeature): boolean => {
  const { controls, actions } = controlAvailability(input);
  const wanted = feature === 'unlock' ? 'lock' : feature;
  return controls.includes(wanted) || actions.includes(wanted);
};
