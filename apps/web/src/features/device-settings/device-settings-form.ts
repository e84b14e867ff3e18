import { zodResolver } from '@hookform/resolvers/zod';
import type { TControlFeature } from '@kisht/domain/common/enums';
import { PRIMARY_CONTROLS, SECOND_ACTIONS } from '@kisht/domain/devices/control-availability';
import type { TDeviceControlSettings } from '@kisht/domain/devices/devices.schema';
import {
  LOCK_SCREEN_TEXT_MAX_LINES,
  LOCK_SCREEN_TEXT_MIN,
  ZDeviceControlSettings,
} from '@kisht/domain/devices/devices.schema';
import { DEFAULT_PAID_THROUGH_GRACE_DAYS } from '@kisht/domain/devices/paid-through';
import { LOCK_SCREEN_TEXT_MAX } from '@kisht/domain/devices/protocol.schema';
import type { ParseKeys } from 'i18next';
import type { Resolver } from 'react-hook-form';
import { z } from 'zod';

/**
 * The features the allowed list offers, as the screen groups them: the controls, then the
 * actions. `unlock` is not listed: an allowed list's `lock` stands for the lock and unlock pair
 * (spec §6), and a list that names `unlock` is read as naming `lock`.
 */
export const SETTINGS_FEATURE_GROUPS: ReadonlyArray<{
  group: 'controls' | 'actions';
  features: readonly TControlFeature[];
}> = [
  { group: 'controls', features: PRIMARY_CONTROLS },
  { group: 'actions', features: SECOND_ACTIONS },
];
export const SETTINGS_FEATURES: readonly TControlFeature[] = SETTINGS_FEATURE_GROUPS.flatMap(
  ({ features }) => features,
);

/**
 * What the device_settings form holds: each "off or a number" setting as a switch and the typed
 * text, named like the settings so errors (the schema's and the server's) land on their field.
 */
export type TDeviceSettingsForm = {
  /** The phone family's defaults (allowedControls null), or the ticked list. */
  useFamilyDefaults: boolean;
  allowedControls: TControlFeature[];
  /** The paid-through lock (device protocol §12.5): on with its grace days, or off. */
  hasPaidThrough: boolean;
  paidThroughGraceDays: string;
  hasOfflineLimit: boolean;
  offlineLockAfterHours: string;
  hasCommandExpiry: boolean;
  commandExpiryHours: string;
  hasAutoLock: boolean;
  autoLock: {
    hasReminder: boolean;
    reminderDaysBefore: string;
    hasLock: boolean;
    lockAfterDaysOverdue: string;
    autoUnlock: boolean;
  };
  /** The "how to pay" text a locked phone shows (lockScreenText), or none. */
  hasLockScreenText: boolean;
  lockScreenText: string;
};

/** The bounds of the lock-screen text, from the domain (characters after trimming, lines). */
export const LOCK_SCREEN_TEXT_BOUNDS = {
  min: LOCK_SCREEN_TEXT_MIN,
  max: LOCK_SCREEN_TEXT_MAX,
  lines: LOCK_SCREEN_TEXT_MAX_LINES,
} as const;

/** The fields that hold a typed number, by their settings path. */
export type TNumberField =
  | 'paidThroughGraceDays'
  | 'offlineLockAfterHours'
  | 'commandExpiryHours'
  | 'autoLock.reminderDaysBefore'
  | 'autoLock.lockAfterDaysOverdue';

const settingsShape = ZDeviceControlSettings.shape;
const autoLockShape = settingsShape.autoLock.unwrap().shape;

/** The bounds of each number, read from the domain schema (so screen and server agree). */
export const NUMBER_BOUNDS: Record<TNumberField, { min: number; max: number }> = {
  paidThroughGraceDays: {
    min: settingsShape.paidThroughGraceDays.unwrap().unwrap().minValue ?? 0,
    max: settingsShape.paidThroughGraceDays.unwrap().unwrap().maxValue ?? 90,
  },
  offlineLockAfterHours: {
    min: settingsShape.offlineLockAfterHours.unwrap().minValue ?? 1,
    max: settingsShape.offlineLockAfterHours.unwrap().maxValue ?? 720,
  },
  commandExpiryHours: {
    min: settingsShape.commandExpiryHours.unwrap().minValue ?? 1,
    max: settingsShape.commandExpiryHours.unwrap().maxValue ?? 720,
  },
  'autoLock.reminderDaysBefore': {
    min: autoLockShape.reminderDaysBefore.unwrap().minValue ?? 0,
    max: autoLockShape.reminderDaysBefore.unwrap().maxValue ?? 30,
  },
  'autoLock.lockAfterDaysOverdue': {
    min: autoLockShape.lockAfterDaysOverdue.unwrap().minValue ?? 0,
    max: autoLockShape.lockAfterDaysOverdue.unwrap().maxValue ?? 90,
  },
};

/** The message of a number outside its bounds (or not a whole number). */
export const NUMBER_ERROR_KEYS: Record<TNumberField, ParseKeys> = {
  paidThroughGraceDays: 'deviceSettings.errors.days',
  offlineLockAfterHours: 'deviceSettings.errors.hours',
  commandExpiryHours: 'deviceSettings.errors.hours',
  'autoLock.reminderDaysBefore': 'deviceSettings.errors.days',
  'autoLock.lockAfterDaysOverdue': 'deviceSettings.errors.days',
};

/** What each number field starts with when its switch is first turned on. */
const SUGGESTED = {
  paidThroughGraceDays: String(DEFAULT_PAID_THROUGH_GRACE_DAYS),
  offlineLockAfterHours: '72',
  commandExpiryHours: '48',
  reminderDaysBefore: '3',
  lockAfterDaysOverdue: '3',
} as const;

const textOf = (value: number | null, suggested: string): string =>
  value === null ? suggested : String(value);

/** A typed whole number, or NaN (the schema refuses it) for anything else, empty included. */
const numberOf = (text: string): number => (/^\d{1,6}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

/**
 * The form's values for saved settings. A feature list that names `unlock` ticks `lock`; the
 * family's defaults start with every feature ticked, so turning them off changes nothing at once.
 */
export const formFromSettings = (settings: TDeviceControlSettings): TDeviceSettingsForm => {
  const listed = new Set<TControlFeature>(
    (settings.allowedControls ?? SETTINGS_FEATURES).map((f) => (f === 'unlock' ? 'lock' : f)),
  );
  const { autoLock } = settings;
  return {
    useFamilyDefaults: settings.allowedControls === null,
    allowedControls: SETTINGS_FEATURES.filter((feature) => listed.has(feature)),
    hasPaidThrough: settings.paidThroughGraceDays !== null,
    paidThroughGraceDays: textOf(settings.paidThroughGraceDays ?? null, SUGGESTED.paidThroughGraceDays),
    hasOfflineLimit: settings.offlineLockAfterHours !== null,
    offlineLockAfterHours: textOf(settings.offlineLockAfterHours, SUGGESTED.offlineLockAfterHours),
    hasCommandExpiry: settings.commandExpiryHours !== null,
    commandExpiryHours: textOf(settings.commandExpiryHours, SUGGESTED.commandExpiryHours),
    hasAutoLock: autoLock !== null,
    autoLock: {
      hasReminder: (autoLock?.reminderDaysBefore ?? null) !== null,
      reminderDaysBefore: textOf(autoLock?.reminderDaysBefore ?? null, SUGGESTED.reminderDaysBefore),
      hasLock: (autoLock?.lockAfterDaysOverdue ?? null) !== null,
      lockAfterDaysOverdue: textOf(autoLock?.lockAfterDaysOverdue ?? null, SUGGESTED.lockAfterDaysOverdue),
      autoUnlock: autoLock?.autoUnlock ?? true,
    },
    hasLockScreenText: settings.lockScreenText !== null,
    lockScreenText: settings.lockScreenText ?? '',
  };
};

/**
 * The settings the form says, before checking: a switched-off setting is null, a typed number is
 * that number (NaN when it is not one, which the schema refuses on its field).
 */
export const settingsFromForm = (form: TDeviceSettingsForm): TDeviceControlSettings => ({
  allowedControls: form.useFamilyDefaults
    ? null
    : SETTINGS_FEATURES.filter((feature) => form.allowedControls.includes(feature)),
  offlineLockAfterHours: form.hasOfflineLimit ? numberOf(form.offlineLockAfterHours) : null,
  paidThroughGraceDays: form.hasPaidThrough ? numberOf(form.paidThroughGraceDays) : null,
  commandExpiryHours: form.hasCommandExpiry ? numberOf(form.commandExpiryHours) : null,
  autoLock: form.hasAutoLock
    ? {
        reminderDaysBefore: form.autoLock.hasReminder ? numberOf(form.autoLock.reminderDaysBefore) : null,
        lockAfterDaysOverdue: form.autoLock.hasLock ? numberOf(form.autoLock.lockAfterDaysOverdue) : null,
        autoUnlock: form.autoLock.autoUnlock,
      }
    : null,
  lockScreenText: form.hasLockScreenText ? form.lockScreenText.trim() : null,
});

/** The form checked by the domain's own ZDeviceControlSettings: what it gives is the PUT body. */
const deviceSettingsFormSchema = z.preprocess(
  (values) => settingsFromForm(values as TDeviceSettingsForm),
  ZDeviceControlSettings,
) as unknown as z.ZodType<TDeviceControlSettings, TDeviceSettingsForm>;

export const deviceSettingsResolver: Resolver<TDeviceSettingsForm, unknown, TDeviceControlSettings> =
  zodResolver(deviceSettingsFormSchema);

/** The form field of a request field the server names in a field error, or null for none it shows. */
export const formFieldOfSetting = (
  requestField: string,
): TNumberField | 'allowedControls' | 'lockScreenText' | null => {
  if (requestField === 'allowedControls' || requestField.startsWith('allowedControls.'))
    return 'allowedControls';
  if (requestField === 'lockScreenText') return 'lockScreenText';
  return (Object.keys(NUMBER_BOUNDS) as TNumberField[]).find((field) => field === requestField) ?? null;
};
