import type { TDeviceControlSettings } from '@kisht/domain/devices/devices.schema';
import { describe, expect, it } from 'vitest';
import {
  formFieldOfSetting,
  formFromSettings,
  NUMBER_BOUNDS,
  SETTINGS_FEATURES,
  settingsFromForm,
} from './device-settings-form';

const ALL_OFF: TDeviceControlSettings = {
  allowedControls: null,
  offlineLockAfterHours: null,
  commandExpiryHours: null,
  autoLock: null,
  lockScreenText: null,
  paidThroughGraceDays: null,
};

describe('device settings form ↔ TDeviceControlSettings', () => {
  it('reads the bounds from the domain schema', () => {
    expect(NUMBER_BOUNDS).toEqual({
      paidThroughGraceDays: { min: 0, max: 90 },
      offlineLockAfterHours: { min: 1, max: 720 },
      commandExpiryHours: { min: 1, max: 720 },
      'autoLock.reminderDaysBefore': { min: 0, max: 30 },
      'autoLock.lockAfterDaysOverdue': { min: 0, max: 90 },
    });
  });

  it('turns everything off into nulls and back', () => {
    const form = formFromSettings(ALL_OFF);
    expect(form.useFamilyDefaults).toBe(true);
    expect(form.hasOfflineLimit).toBe(false);
    expect(form.hasPaidThrough).toBe(false);
    expect(form.hasCommandExpiry).toBe(false);
    expect(form.hasAutoLock).toBe(false);
    // Turning the defaults off starts from every feature ticked, not from none.
    expect(form.allowedControls).toEqual(SETTINGS_FEATURES);
    expect(settingsFromForm(form)).toEqual(ALL_OFF);
  });

  it('keeps every value it is given', () => {
    const settings: TDeviceControlSettings = {
      allowedControls: ['lock', 'camera_lock', 'fetch_location'],
      offlineLockAfterHours: 72,
      commandExpiryHours: 720,
      autoLock: { reminderDaysBefore: 0, lockAfterDaysOverdue: null, autoUnlock: false },
      lockScreenText: 'Pay by UPI to ravimobiles@okaxis\nor at Shop 4',
      paidThroughGraceDays: 5,
    };
    const form = formFromSettings(settings);
    expect(form).toMatchObject({ hasLockScreenText: true, lockScreenText: settings.lockScreenText });
    expect(form.offlineLockAfterHours).toBe('72');
    expect(form).toMatchObject({ hasPaidThrough: true, paidThroughGraceDays: '5' });
    expect(form.autoLock).toMatchObject({ hasReminder: true, reminderDaysBefore: '0', hasLock: false });
    expect(settingsFromForm(form)).toEqual(settings);
  });

  it("reads a list's `unlock` as the lock pair, and never lists unlock itself", () => {
    const form = formFromSettings({ ...ALL_OFF, allowedControls: ['unlock', 'reboot'] });
    expect(form.allowedControls).toEqual(['lock', 'reboot']);
    expect(SETTINGS_FEATURES).not.toContain('unlock');
    expect(settingsFromForm(form).allowedControls).toEqual(['lock', 'reboot']);
  });

  it('makes a typed value that is not a whole number NaN, for the schema to refuse', () => {
    const form = { ...formFromSettings(ALL_OFF), hasOfflineLimit: true, offlineLockAfterHours: '' };
    expect(settingsFromForm(form).offlineLockAfterHours).toBeNaN();
    expect(settingsFromForm({ ...form, offlineLockAfterHours: '1.5' }).offlineLockAfterHours).toBeNaN();
  });

  it('sends the lock-screen text trimmed, and none when it is off', () => {
    const form = {
      ...formFromSettings(ALL_OFF),
      hasLockScreenText: true,
      lockScreenText: '  UPI ravi@okaxis  ',
    };
    expect(settingsFromForm(form).lockScreenText).toBe('UPI ravi@okaxis');
    expect(settingsFromForm({ ...form, hasLockScreenText: false }).lockScreenText).toBeNull();
    expect(formFieldOfSetting('lockScreenText')).toBe('lockScreenText');
  });

  it('maps the server’s field names to the form’s fields', () => {
    expect(formFieldOfSetting('offlineLockAfterHours')).toBe('offlineLockAfterHours');
    expect(formFieldOfSetting('autoLock.lockAfterDaysOverdue')).toBe('autoLock.lockAfterDaysOverdue');
    expect(formFieldOfSetting('allowedControls.3')).toBe('allowedControls');
    expect(formFieldOfSetting('orgId')).toBeNull();
  });
});
