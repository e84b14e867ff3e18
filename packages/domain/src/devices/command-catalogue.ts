import { z } from 'zod';
import type { TCommandName, TControlFeature, TMessageFeature } from '../common/enums';

/**
 * Every control feature of spec §6 as the device channel carries it: which command names it sends
 * (spec §7 names where §7 has one), whether it is a toggle (an on and an off command, and a state
 * the device reports) or a one-shot action, and what arguments it takes. The server's command
 * routes, the reference agent and docs/device-protocol.md are all built from this table.
 */
export type TCommandSpec = {
  /** The spec §6 control feature, or a message feature (issue 16: customer_message, advertisement). */
  feature: TControlFeature | TMessageFeature;
  /** 'toggle': `on` and `off` commands and a reported on/off state; 'action': one command, once. */
  kind: 'toggle' | 'action';
  /** The command sent to turn the feature on (toggles) or to run it (actions). */
  on: TCommandName;
  /** The command that turns a toggle off. */
  off?: TCommandName;
  /** Arguments the `on` command carries to the device as `args` (the device validates them too). */
  args: z.ZodObject;
  /**
   * What a person sends for the `on` command when it differs from `args`: the server completes the
   * rest (a lost mode's `message` is built from the lock's reason category, issue 25). Absent: `args`.
   */
  requestArgs?: z.ZodObject;
};

const NO_ARGS = z.object({});

/** set_wallpaper: the text (e.g. an EMI reminder) or an https image the phone shows as wallpaper. */
export const ZWallpaperArgs = z
  .object({
    text: z.string().trim().min(1).max(200).optional(),
    imageUrl: z
      .url({ protocol: /^https$/ })
      .max(500)
      .optional(),
  })
  .refine((a) => a.text !== undefined || a.imageUrl !== undefined, {
    path: ['text'],
    message: 'Give the wallpaper text or an https image URL',
  });

const ZLostModePhone = z
  .string()
  .regex(/^\+?\d{10,13}$/, 'Give a phone number to call')
  .optional();

/**
 * lost_mode_on (Android lost mode / Apple lost mode) as the device gets it: the message and phone
 * number on the lock screen. The server writes the message from the lock's reason category
 * (lock-reasons lostModeMessage), never from a person's free text.
 */
export const ZLostModeArgs = z.object({
  message: z.string().trim().min(1, 'Say what the lock screen shows').max(160),
  phone: ZLostModePhone,
});

/** lost_mode_on as a person asks for it: only the number to call (default: the retailer's). */
export const ZLostModeRequestArgs = z.object({ phone: ZLostModePhone });

/** app_lock / app_hide: Android package names the command applies to. */
export const ZPackagesArgs = z.object({
  packages: z
    .array(z.string().regex(/^[a-zA-Z][\w]*(\.[a-zA-Z][\w]*)+$/, 'Not an Android package name'))
    .min(1, 'Choose at least one app')
    .max(50),
});

/** emi_alert: the reminder the phone shows (the server fills these from the schedule). */
export const ZEmiAlertArgs = z.object({
  amountPaise: z.number().int().nonnegative(),
  dueDate: z.string(),
  overduePaise: z.number().int().nonnegative(),
  message: z.string().max(160),
});

/** show_message: a text message from the retailer, shown on the phone until dismissed (issue 16). */
export const ZShowMessageArgs = z.object({
  title: z.string().trim().max(60).optional(),
  text: z.string().trim().min(1, 'Write the message').max(500),
  /** Who sent it, as the phone shows it: the shop's name. */
  from: z.string().trim().min(1).max(100),
});

/**
 * show_ad: the retailer's advertisement (issue 16). `imageUrl` is an https (or, on a development
 * server, http) address the phone fetches once, valid until the command's notAfter; `imageSha256`
 * (hex) is the image's digest, which the phone checks before showing it.
 */
export const ZShowAdArgs = z.object({
  advertisementId: z.number().int().positive(),
  title: z.string().trim().min(1, 'Give the ad a title').max(80),
  text: z.string().trim().max(500),
  from: z.string().trim().min(1).max(100),
  imageUrl: z
    .url({ protocol: /^https?$/ })
    .max(1000)
    .optional(),
  imageSha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'A SHA-256 digest in hex')
    .optional(),
});

const toggle = (
  feature: TControlFeature,
  on: TCommandName,
  off: TCommandName,
  args: z.ZodObject = NO_ARGS,
  requestArgs?: z.ZodObject,
): TCommandSpec => ({ feature, kind: 'toggle', on, off, args, ...(requestArgs ? { requestArgs } : {}) });
const action = (
  feature: TControlFeature | TMessageFeature,
  on: TCommandName,
  args: z.ZodObject = NO_ARGS,
): TCommandSpec => ({
  feature,
  kind: 'action',
  on,
  args,
});

/** The catalogue, one entry per control feature (`unlock` is the off half of `lock`). */
export const COMMAND_CATALOGUE: readonly TCommandSpec[] = [
  toggle('lock', 'lock', 'unlock'),
  toggle('app_lock', 'app_lock', 'app_unlock', ZPackagesArgs),
  toggle('wallpaper', 'set_wallpaper', 'remove_wallpaper', ZWallpaperArgs as unknown as z.ZodObject),
  toggle('camera_lock', 'camera_lock', 'camera_unlock'),
  toggle('usb_debugging', 'usb_on', 'usb_off'),
  toggle('tracking', 'tracking_on', 'tracking_off'),
  toggle('sim_tracking_online', 'SIMTRACKINGON', 'SIMTRACKINGOFF'),
  toggle('sim_tracking_offline', 'SIMTRACKINGOFFLINEON', 'SIMTRACKINGOFFLINEOFF'),
  toggle('lost_mode', 'lost_mode_on', 'lost_mode_off', ZLostModeArgs, ZLostModeRequestArgs),
  toggle('outgoing_call', 'outgoing_call_block', 'outgoing_call_allow'),
  toggle('bluetooth_lock_unlock', 'bluetooth_lock', 'bluetooth_unlock'),
  toggle('wifi_on_off', 'wifi_on', 'wifi_off'),
  toggle('airplane_mode_on_off', 'airplane_mode_on', 'airplane_mode_off'),
  toggle('accessibility_on_off', 'accessibility_on', 'accessibility_off'),
  toggle('app_hide_unhide', 'app_hide', 'app_unhide', ZPackagesArgs),
  toggle('sim_lock_unlock', 'sim_lock', 'sim_unlock'),
  toggle(
    'antitheft_lost_mode',
    'antitheft_lost_mode_on',
    'antitheft_lost_mode_off',
    ZLostModeArgs,
    ZLostModeRequestArgs,
  ),
  action('fetch_location', 'location'),
  action('sim_info', 'sim_info'),
  action('reboot', 'reboot'),
  action('emi_alert', 'emi_alert', ZEmiAlertArgs),
  action('uninstall', 'uninstall'),
  action('miui_permission', 'miui_permission'),
  action('uninstall_antitheft', 'uninstall_antitheft'),
  action('install_apple_onemodapp', 'install_apple_onemodapp'),
  action('customer_message', 'show_message', ZShowMessageArgs),
  action('advertisement', 'show_ad', ZShowAdArgs),
];

/** The catalogue entry of a feature (`unlock` finds `lock`), or undefined. */
export const commandSpecOf = (feature: string): TCommandSpec | undefined =>
  COMMAND_CATALOGUE.find((spec) => spec.feature === (feature === 'unlock' ? 'lock' : feature));

/** The catalogue entry a command name belongs to, and whether it is the `on` half; or undefined. */
export const commandSpecByName = (name: string): { spec: TCommandSpec; isOn: boolean } | undefined => {
  for (const spec of COMMAND_CATALOGUE) {
    if (spec.on === name) return { spec, isOn: true };
    if (spec.off === name) return { spec, isOn: false };
  }
  return undefined;
};

/** The command a toggle sends to reach `enable`, or an action's one command. */
export const commandNameFor = (spec: TCommandSpec, enable: boolean): TCommandName =>
  spec.kind === 'toggle' && !enable ? spec.off! : spec.on;
