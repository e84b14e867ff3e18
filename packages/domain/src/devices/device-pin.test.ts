import { createCipheriv, hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DeviceType } from '../common/enums';
import { canChangeDevicePin, devicePinProblem, sealDevicePin, unsealDevicePin } from './device-pin';
import { offlineCodeKey } from './offline-code';

const deviceId = '0190f3a2-7c4e-7b1a-9d2e-3f4a5b6c7d8e';
const commandId = '0190f3a2-8000-7000-8000-000000000001';

describe('devicePinProblem', () => {
  it.each([
    ['4829', null],
    ['90210', null],
    ['13572468', null],
    ['123', 'The PIN is 4 to 8 digits'],
    ['123456789', 'The PIN is 4 to 8 digits'],
    ['12a4', 'The PIN is 4 to 8 digits'],
    ['1111', 'Choose a PIN that is not a repeated digit or a straight run'],
    ['1234', 'Choose a PIN that is not a repeated digit or a straight run'],
    ['98765', 'Choose a PIN that is not a repeated digit or a straight run'],
  ])('%s → %s', (pin, problem) => {
    expect(devicePinProblem(pin)).toBe(problem);
  });
});

describe('canChangeDevicePin', () => {
  it.each([
    [DeviceType.DEVICE_POLICY_CONTROLLER, true],
    [DeviceType.MANAGED_ANDROID_API, true],
    [DeviceType.LINK_BASED, false],
    [DeviceType.APPLE, false],
  ])('device type %i → %s', (deviceType, expected) => {
    expect(canChangeDevicePin(deviceType)).toBe(expected);
  });
});

describe('sealDevicePin / unsealDevicePin', () => {
  it('opens on the phone it was sealed for, and only there', async () => {
    const keyHex = await offlineCodeKey('the-device-secret');
    const sealed = await sealDevicePin({ keyHex, deviceId, commandId, pin: '4829' });
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('4829');
    expect(await unsealDevicePin({ keyHex, deviceId, commandId, sealed })).toBe('4829');

    const otherKey = await offlineCodeKey('another-secret');
    await expect(unsealDevicePin({ keyHex: otherKey, deviceId, commandId, sealed })).rejects.toThrow(
      'sealed PIN does not open',
    );
    await expect(
      unsealDevicePin({ keyHex, deviceId: deviceId.replace('8e', '8f'), commandId, sealed }),
    ).rejects.toThrow('sealed PIN does not open');
    await expect(
      unsealDevicePin({ keyHex, deviceId, commandId: commandId.replace('01', '02'), sealed }),
    ).rejects.toThrow('sealed PIN does not open');
    const altered = `${sealed.slice(0, -2)}${sealed.endsWith('AA') ? 'AB' : 'AA'}`;
    await expect(unsealDevicePin({ keyHex, deviceId, commandId, sealed: altered })).rejects.toThrow();
  });

  it('uses a fresh iv each time', async () => {
    const keyHex = await offlineCodeKey('s');
    const a = await sealDevicePin({ keyHex, deviceId, commandId, pin: '4829' });
    const b = await sealDevicePin({ keyHex, deviceId, commandId, pin: '4829' });
    expect(a).not.toBe(b);
  });

  it('matches HKDF + AES-256-GCM as Node computes them (what a DPC would implement)', async () => {
    const keyHex = await offlineCodeKey('cross-check');
    const key = Buffer.from(hkdfSync('sha256', keyHex, deviceId, 'kisht-device-pin-v1', 32));
    const iv = Buffer.alloc(12, 7);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(commandId));
    const body = Buffer.concat([cipher.update('70314'), cipher.final(), cipher.getAuthTag()]);
    const sealed = Buffer.concat([iv, body]).toString('base64url');
    expect(await unsealDevicePin({ keyHex, deviceId, commandId, sealed })).toBe('70314');
  });
});
