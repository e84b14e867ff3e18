/**
 * Offline codes (design §5): a locked phone with no network shows a challenge; the retailer asks
 * the server (after an OTP with purpose BYPASS_CODE) for the response; the phone checks it with no
 * network. Both sides compute the same thing from a key only the server and that phone hold.
 *
 *   key      = SHA-256 of the device secret, as lowercase hex (what the server stores; the phone
 *              computes it from the secret it got at enrolment)
 *   message  = "kisht-offline-v1|{deviceId}|{challenge}|{action}|{slot}"
 *   slot     = floor(epoch ms / OFFLINE_CODE_SLOT_MS)       (the validity window)
 *   response = dynamic truncation of HMAC-SHA256(key, message) (RFC 4226 §5.3, as HOTP does),
 *              modulo 10^8, left-padded to 8 digits
 *
 * A code is bound to one device, one challenge and one action, and is valid in the slot it was
 * issued for and the next one (so it lives between OFFLINE_CODE_SLOT_MS and twice that). The phone
 * burns a challenge once a code for it is accepted and changes it after too many wrong tries.
 * Uses Web Crypto only, so the server, the browser and the reference agent share this code.
 */

/** Actions an offline code can carry. */
export const OFFLINE_CODE_ACTIONS = ['unlock', 'lock'] as const;
export type TOfflineCodeAction = (typeof OFFLINE_CODE_ACTIONS)[number];

/** Digits of a challenge the phone shows. */
export const OFFLINE_CHALLENGE_DIGITS = 6;
/** Digits of a response code (design §5: 8). */
export const OFFLINE_CODE_DIGITS = 8;
/** Length of one validity slot: 30 minutes. A code is accepted in its slot and the next. */
export const OFFLINE_CODE_SLOT_MS = 30 * 60 * 1000;
/** Wrong codes a phone accepts for one challenge before it changes the challenge. */
export const OFFLINE_CODE_MAX_WRONG_TRIES = 5;

const encoder = new TextEncoder();

const hexOfBytes = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** SHA-256 of a device secret, lowercase hex: the offline-code key. */
export const offlineCodeKey = async (deviceSecret: string): Promise<string> =>
  hexOfBytes(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(deviceSecret))));

/** The validity slot of an instant (epoch ms). */
export const offlineCodeSlot = (epochMs: number): number => Math.floor(epochMs / OFFLINE_CODE_SLOT_MS);

/** RFC 4226 §5.3 dynamic truncation of an HMAC to a 31-bit integer. */
const dynamicTruncate = (mac: Uint8Array): number => {
  const offset = mac[mac.length - 1]! & 0x0f;
  return (
    ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!
  );
};

/**
 * The 8-digit response for a challenge, action and slot. `keyHex` is offlineCodeKey(secret).
 * Throws Error for a challenge that is not OFFLINE_CHALLENGE_DIGITS digits.
 */
export const offlineCodeFor = async (input: {
  keyHex: string;
  deviceId: string;
  challenge: string;
  action: TOfflineCodeAction;
  slot: number;
}): Promise<string> => {
  if (!new RegExp(`^\\d{${OFFLINE_CHALLENGE_DIGITS}}$`).test(input.challenge)) {
    throw new Error(`challenge must be ${OFFLINE_CHALLENGE_DIGITS} digits`);
  }
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(input.keyHex),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const message = `kisht-offline-v1|${input.deviceId}|${input.challenge}|${input.action}|${input.slot}`;
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message)));
  return String(dynamicTruncate(mac) % 10 ** OFFLINE_CODE_DIGITS).padStart(OFFLINE_CODE_DIGITS, '0');
};

/**
 * Checks a code on the phone: true when it is the response for this device, challenge and action
 * in the current slot or the one before (the code was issued at most one slot ago). Comparison is
 * over the whole string; a wrong length or non-digit code is simply false.
 */
export const verifyOfflineCode = async (input: {
  keyHex: string;
  deviceId: string;
  challenge: string;
  action: TOfflineCodeAction;
  code: string;
  nowMs: number;
}): Promise<boolean> => {
  if (!new RegExp(`^\\d{${OFFLINE_CODE_DIGITS}}$`).test(input.code)) return false;
  const slot = offlineCodeSlot(input.nowMs);
  for (const candidate of [slot, slot - 1]) {
    const expected = await offlineCodeFor({ ...input, slot: candidate });
    let diff = 0;
    for (let i = 0; i < expected.length; i += 1) diff |= expected.charCodeAt(i) ^ input.code.charCodeAt(i);
    if (diff === 0) return true;
  }
  return false;
};

/** When a code issued at `issuedAtMs` stops being accepted (end of the next slot), epoch ms. */
export const offlineCodeValidUntil = (issuedAtMs: number): number =>
  (offlineCodeSlot(issuedAtMs) + 2) * OFFLINE_CODE_SLOT_MS;
