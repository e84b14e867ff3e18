import { STORAGE_KEYS } from './storage-keys';
import { parseUserAgent } from './user-agent';

/** A random RFC 4122 version 4 UUID; crypto.randomUUID is missing outside secure contexts. */
export const randomUuid = (): string => {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/**
 * Fills the device keys of spec §3 that are not set yet: `device_id` (a random UUID, made once),
 * `isAndroid` ('true'/'false' from the user agent; the native shell may correct it later) and
 * `showAd` ('1'). Existing values are kept.
 */
export const ensureClientDefaults = (options: { storage: Storage; userAgent: string }): void => {
  const { storage, userAgent } = options;
  if (!storage.getItem(STORAGE_KEYS.deviceId)) storage.setItem(STORAGE_KEYS.deviceId, randomUuid());
  if (storage.getItem(STORAGE_KEYS.isAndroid) === null) {
    const isAndroid = parseUserAgent(userAgent).devicePlatform === 'android';
    storage.setItem(STORAGE_KEYS.isAndroid, String(isAndroid));
  }
  if (storage.getItem(STORAGE_KEYS.showAd) === null) storage.setItem(STORAGE_KEYS.showAd, '1');
};
