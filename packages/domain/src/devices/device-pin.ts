/**
 * change_device_pinV1: the retailer sets a new screen-lock PIN on a financed phone (a customer who
 * forgot theirs, or a phone handed back). The PIN travels as a command argument, so it is sealed
 * for that one phone: neither the command row nor the broker ever holds it in clear.
 *
 *   ikm    = the offline-code key: SHA-256 of the device secret, lowercase hex (offline-code.ts)
 *   key    = HKDF-SHA256(ikm, salt = deviceId, info = "kisht-device-pin-v1"), 256 bits (RFC 5869)
 *   sealed = base64url(iv ‖ AES-256-GCM(key, iv, pin, additional data = commandId))  (NIST SP 800-38D)
 *
 * The additional data binds a sealed PIN to its command id, so it cannot be replayed under another
 * command; a 96-bit random iv is used once. Uses Web Crypto only: the server seals, the reference
 * agent (and a DPC, with the same steps) unseals.
 */

import { DeviceType } from '../common/enums';

/**
 * Whether phones of a device family can have their screen-lock PIN set remotely: a device-owner DPC
 * (DevicePolicyManager.resetPasswordWithToken) and the Android Management API (RESET_PASSWORD) can;
 * a link-based app and Apple MDM (which can only clear a passcode) cannot.
 */
export const canChangeDevicePin = (deviceType: number): boolean =>
  deviceType === DeviceType.DEVICE_POLICY_CONTROLLER || deviceType === DeviceType.MANAGED_ANDROID_API;

/** Digits a device PIN may have (Android's PIN minimum is 4). */
export const DEVICE_PIN_MIN_DIGITS = 4;
export const DEVICE_PIN_MAX_DIGITS = 8;

const encoder = new TextEncoder();
const IV_BYTES = 12;

/**
 * Why a PIN is refused, or null when it is acceptable: 4–8 digits, not one digit repeated
 * (1111) and not a straight run up or down (1234, 9876), which anyone would try first.
 */
export const devicePinProblem = (pin: string): string | null => {
  if (!new RegExp(`^\\d{${DEVICE_PIN_MIN_DIGITS},${DEVICE_PIN_MAX_DIGITS}}$`).test(pin)) {
    return `The PIN is ${DEVICE_PIN_MIN_DIGITS} to ${DEVICE_PIN_MAX_DIGITS} digits`;
  }
  const digits = [...pin].map(Number);
  const steps = new Set(digits.slice(1).map((d, i) => d - digits[i]!));
  if (steps.size === 1 && [0, 1, -1].includes([...steps][0]!)) {
    return 'Choose a PIN that is not a repeated digit or a straight run';
  }
  return null;
};

const pinKey = async (keyHex: string, deviceId: string) => {
  const ikm = await crypto.subtle.importKey('raw', encoder.encode(keyHex), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: encoder.encode(deviceId),
      info: encoder.encode('kisht-device-pin-v1'),
    },
    ikm,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
};

const toBase64Url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

const fromBase64Url = (text: string): Uint8Array => {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
};

/**
 * Seals a PIN for one device and one command: base64url(iv ‖ ciphertext ‖ tag). `keyHex` is the
 * offline-code key (SHA-256 hex of the device secret, as the server stores it).
 */
export const sealDevicePin = async (input: {
  keyHex: string;
  deviceId: string;
  commandId: string;
  pin: string;
}): Promise<string> => {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const cipher = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: encoder.encode(input.commandId) },
    await pinKey(input.keyHex, input.deviceId),
    encoder.encode(input.pin),
  );
  const sealed = new Uint8Array(IV_BYTES + cipher.byteLength);
  sealed.set(iv);
  sealed.set(new Uint8Array(cipher), IV_BYTES);
  return toBase64Url(sealed);
};

/**
 * Opens a sealed PIN on the phone. Throws Error('sealed PIN does not open') when it was sealed for
 * another device or command, with another key, or was altered.
 */
export const unsealDevicePin = async (input: {
  keyHex: string;
  deviceId: string;
  commandId: string;
  sealed: string;
}): Promise<string> => {
  try {
    const bytes = fromBase64Url(input.sealed);
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.slice(0, IV_BYTES), additionalData: encoder.encode(input.commandId) },
      await pinKey(input.keyHex, input.deviceId),
      bytes.slice(IV_BYTES),
    );
    return new TextDecoder().decode(plain);
  } catch {
    throw new Error('sealed PIN does not open');
  }
};
