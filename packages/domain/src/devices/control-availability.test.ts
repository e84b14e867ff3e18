import { describe, expect, it } from 'vitest';
import { DeviceType } from '../common/enums';
import { controlAvailability, isControlAvailable } from './control-availability';

const { DEVICE_POLICY_CONTROLLER: DPC, MANAGED_ANDROID_API: MANAGED, LINK_BASED: LINK, APPLE } = DeviceType;
const unlocked = (deviceType: number, allowedList?: string[] | null) =>
  controlAvailability({ deviceType, isLocked: false, allowedList });
const locked = (deviceType: number, allowedList?: string[] | null) =>
  controlAvailability({ deviceType, isLocked: true, allowedList });

/** Spec §6, row by row. */
describe('control availability (spec §6)', () => {
  describe('without a list', () => {
    it.each([
      ['policy controller hides lost mode and accessibility', DPC, ['lost_mode', 'accessibility_on_off'], []],
      [
        'managed API also hides tracking, app hide, bluetooth, wifi, airplane mode and SIM tracking',
        MANAGED,
        [
          'lost_mode',
          'accessibility_on_off',
          'tracking',
          'app_hide_unhide',
          'bluetooth_lock_unlock',
          'wifi_on_off',
          'airplane_mode_on_off',
          'sim_tracking_online',
          'sim_tracking_offline',
        ],
        ['lock', 'app_lock', 'camera_lock', 'usb_debugging'],
      ],
    ])('%s', (_label, deviceType, hidden, shown) => {
      const { controls } = unlocked(deviceType);
      for (const feature of hidden) expect(controls).not.toContain(feature);
      for (const feature of shown) expect(controls).toContain(feature);
    });

    it('offers outgoing call only on the policy controller', () => {
      expect(unlocked(DPC).controls).toContain('outgoing_call');
      for (const type of [MANAGED, LINK, APPLE])
        expect(unlocked(type).controls).not.toContain('outgoing_call');
    });

    it('link-based offers only lock, tracking and accessibility', () => {
      expect(unlocked(LINK).controls).toEqual(['lock', 'tracking', 'accessibility_on_off']);
    });

    it('Apple offers lock, lost mode, USB debugging, camera lock and app lock', () => {
      expect(unlocked(APPLE).controls).toEqual([
        'lock',
        'app_lock',
        'camera_lock',
        'usb_debugging',
        'lost_mode',
      ]);
    });
  });

  describe('second action list', () => {
    it.each([
      [
        'policy controller: all six',
        DPC,
        ['fetch_location', 'reboot', 'sim_info', 'emi_alert', 'uninstall', 'miui_permission'],
      ],
      [
        'managed API drops MIUI permission, and location, which Google’s API cannot carry without locking (issue 25)',
        MANAGED,
        ['reboot', 'sim_info', 'emi_alert', 'uninstall'],
      ],
      [
        'link-based: SIM info, fetch location, EMI alert, uninstall',
        LINK,
        ['fetch_location', 'sim_info', 'emi_alert', 'uninstall'],
      ],
      [
        'Apple: fetch location, reboot, uninstall, SIM info',
        APPLE,
        ['fetch_location', 'reboot', 'sim_info', 'uninstall'],
      ],
    ])('%s', (_label, deviceType, actions) => {
      expect(unlocked(deviceType).actions).toEqual(actions);
    });
  });

  describe('when locked', () => {
    it.each([
      [
        'policy controller: lock and tracking; fetch location, reboot, SIM info',
        DPC,
        ['lock', 'tracking'],
        ['fetch_location', 'reboot', 'sim_info'],
      ],
      [
        'managed API: lock; reboot and SIM info (Google’s API carries no tracking or location)',
        MANAGED,
        ['lock'],
        ['reboot', 'sim_info'],
      ],
      ['link-based has no reboot', LINK, ['lock', 'tracking'], ['fetch_location', 'sim_info']],
      ['Apple: no tracking', APPLE, ['lock'], ['fetch_location', 'reboot', 'sim_info']],
    ])('%s', (_label, deviceType, controls, actions) => {
      expect(locked(deviceType)).toEqual({ controls, actions });
    });

    it('is intersected with the allowed list', () => {
      expect(locked(DPC, ['lock', 'fetch_location', 'wifi_on_off'])).toEqual({
        controls: ['lock'],
        actions: ['fetch_location'],
      });
    });
  });

  describe('with an allowed list', () => {
    it('shows only listed features, whatever the family defaults', () => {
      expect(unlocked(DPC, ['lock', 'wifi_on_off', 'reboot', 'miui_permission'])).toEqual({
        controls: ['lock', 'wifi_on_off'],
        actions: ['reboot', 'miui_permission'],
      });
    });

    it('never offers an MDM family what its service cannot carry out, even when listed (issue 15)', () => {
      expect(unlocked(MANAGED, ['lock', 'wifi_on_off', 'wallpaper', 'reboot', 'fetch_location'])).toEqual({
        controls: ['lock'],
        actions: ['reboot'],
      });
      expect(unlocked(MANAGED).controls).toEqual(['lock', 'app_lock', 'camera_lock', 'usb_debugging']);
      expect(unlocked(APPLE, ['lock', 'bluetooth_lock_unlock', 'install_apple_onemodapp'])).toEqual({
        controls: ['lock'],
        actions: ['install_apple_onemodapp'],
      });
    });

    it('treats unlock as the lock pair, and an empty list as nothing', () => {
      expect(unlocked(DPC, ['unlock']).controls).toEqual(['lock']);
      expect(unlocked(DPC, [])).toEqual({ controls: [], actions: [] });
    });

    it('ignores names that are not control features', () => {
      expect(unlocked(LINK, ['lock', 'self_destruct']).controls).toEqual(['lock']);
    });
  });

  it('offers nothing for an unknown device type', () => {
    expect(unlocked(9)).toEqual({ controls: [], actions: [] });
  });

  it('isControlAvailable answers for controls, actions and the unlock half of the pair', () => {
    expect(isControlAvailable({ deviceType: APPLE, isLocked: false }, 'lost_mode')).toBe(true);
    expect(isControlAvailable({ deviceType: APPLE, isLocked: true }, 'lost_mode')).toBe(false);
    expect(isControlAvailable({ deviceType: LINK, isLocked: true }, 'unlock')).toBe(true);
    expect(isControlAvailable({ deviceType: LINK, isLocked: false }, 'reboot')).toBe(false);
  });
});
