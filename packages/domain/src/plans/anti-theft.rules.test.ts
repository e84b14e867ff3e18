import { describe, expect, it } from 'vitest';
import { AppType, DeviceType } from '../common/enums';
import { customerEditActions } from '../customers/customers.rules';
import { controlAvailability } from '../devices/control-availability';
import { antiTheftDisplay } from './anti-theft.rules';

describe('anti-theft display (spec §4: inactive shows disabled; any other status shows enabled)', () => {
  it.each([
    ['inactive customer, code not redeemed', 0, 'issued', 'disabled'],
    ['inactive customer, even with the code redeemed', 0, 'redeemed', 'disabled'],
    ['installed customer', 1, 'issued', 'enabled'],
    ['deactivated customer', 2, 'issued', 'enabled'],
    ['uninstalled customer', 3, 'issued', 'enabled'],
    ['Apple-removed customer', 4, 'issued', 'enabled'],
    ['EMIs completed', 5, 'redeemed', 'enabled'],
    ['EMIs maturing', 6, 'issued', 'enabled'],
    ['stand-alone sale, code not yet on a phone', null, 'issued', 'disabled'],
    ['stand-alone sale, code redeemed on a phone', null, 'redeemed', 'enabled'],
    ['no status known (undefined), code not redeemed', undefined, 'issued', 'disabled'],
  ] as const)('%s → %s', (_label, customerStatus, status, expected) => {
    expect(antiTheftDisplay({ customerStatus, status })).toBe(expected);
  });
});

/**
 * How an anti-theft customer's phone is offered the anti-theft controls on customer_details. Spec
 * §6 keys availability on the device family (device_type 0 for app_type 9) and names anti-theft
 * lost mode and anti-theft uninstall for no family; issue 14 sends them through the device channel
 * for anti-theft customers, so app_types 4 and 9 get them by default, and others only through the
 * organisation's allowed list.
 */
describe('anti-theft controls of an anti-theft customer (spec §6, issue 14)', () => {
  const DPC = DeviceType.DEVICE_POLICY_CONTROLLER;

  it.each([
    [AppType.DEVICE_POLICY_CONTROLLER_ANTI_THEFT, true],
    [AppType.ANTI_THEFT, true],
    [AppType.DEVICE_POLICY_CONTROLLER, false],
    [undefined, false],
  ])(
    'without an allowed list, app_type %s: anti-theft lost mode and uninstall offered → %s',
    (appType, isOffered) => {
      const { controls, actions } = controlAvailability({ deviceType: DPC, isLocked: false, appType });
      expect(controls.includes('antitheft_lost_mode')).toBe(isOffered);
      expect(actions.includes('uninstall_antitheft')).toBe(isOffered);
      // The family's own defaults stay as they are.
      expect(controls).toEqual(
        expect.arrayContaining(controlAvailability({ deviceType: DPC, isLocked: false }).controls),
      );
    },
  );

  it('when locked without a list: neither (only lock and tracking remain)', () => {
    const { controls, actions } = controlAvailability({
      deviceType: DPC,
      isLocked: true,
      appType: AppType.DEVICE_POLICY_CONTROLLER_ANTI_THEFT,
    });
    expect(controls).toEqual(['lock', 'tracking']);
    expect(actions).not.toContain('uninstall_antitheft');
  });

  it('with a list naming them: both offered, and only what the list names', () => {
    expect(
      controlAvailability({
        deviceType: DPC,
        isLocked: false,
        allowedList: ['lock', 'antitheft_lost_mode', 'uninstall_antitheft'],
      }),
    ).toEqual({ controls: ['lock', 'antitheft_lost_mode'], actions: ['uninstall_antitheft'] });
  });

  it('when locked: neither, even if listed (only lock, tracking and the locked actions remain)', () => {
    const { controls, actions } = controlAvailability({
      deviceType: DPC,
      isLocked: true,
      allowedList: ['lock', 'antitheft_lost_mode', 'uninstall_antitheft'],
    });
    expect(controls).toEqual(['lock']);
    expect(actions).toEqual([]);
  });

  it('edit menu (spec §2): only IMEI edit and the QR option', () => {
    expect(customerEditActions({ appType: 9, deviceType: DPC })).toEqual(['IMEI_EDIT', 'EMM_QR_CODE']);
  });
});
