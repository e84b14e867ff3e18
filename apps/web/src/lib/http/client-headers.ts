import {
  buildAuthSession,
  buildRequestToken,
  CLIENT_HEADERS,
  PLATFORM_MOBILE,
} from '@kisht/domain/client/client-headers';
import { toAsciiJson } from '../native-bridge';
import { STORAGE_KEYS } from '../storage-keys';
import { parseUserAgent } from '../user-agent';

export type TClientHeaderOptions = {
  /** The request URL's pathname ('/api/customer'): auth-session is keyed from it, the token from its tail. */
  path: string;
  /** The organisation the request token is derived from. */
  orgId: number;
  /** The request-token secret from the app config; null until it has loaded (no request-token then). */
  requestTokenSecret: string | null;
  /** Where the token and the device details are stored. */
  storage: Storage;
  /** The browser's user agent string. */
  userAgent: string;
  /** The timestamp to encrypt, ms; now by default. */
  nowMs?: number;
};

/** The stored device details as a header value (ASCII JSON), or null when none or unusable. */
const deviceDetailsHeader = (storage: Storage): string | null => {
  const stored = storage.getItem(STORAGE_KEYS.deviceDetails);
  if (!stored) return null;
  try {
    return toAsciiJson(JSON.parse(stored));
  } catch {
    return null;
  }
};

/**
 * Every header of spec §7 for one request: `Authorization: Bearer` (when a token is stored),
 * `platform: mobile`, `device-details` (when stored), `browser-name`, `browser-version`,
 * `device-type`, `device-platform` (from the user agent), `auth-session` (AES-CBC of now, keyed
 * from `path`) and `request-token` (org id, path tail, secret; only once the secret is known).
 */
export const buildClientHeaders = async (options: TClientHeaderOptions): Promise<Record<string, string>> => {
  const { storage, path } = options;
  const agent = parseUserAgent(options.userAgent);
  const headers: Record<string, string> = {
    [CLIENT_HEADERS.platform]: PLATFORM_MOBILE,
    [CLIENT_HEADERS.browserName]: agent.browserName,
    [CLIENT_HEADERS.browserVersion]: agent.browserVersion,
    [CLIENT_HEADERS.deviceType]: agent.deviceType,
    [CLIENT_HEADERS.devicePlatform]: agent.devicePlatform,
  };
  // Web Crypto exists only in secure contexts (https, localhost); elsewhere the signed headers are
  // left out and the server decides.
  const canSign = typeof crypto !== 'undefined' && crypto.subtle !== undefined;
  if (canSign) headers[CLIENT_HEADERS.authSession] = await buildAuthSession(path, options.nowMs);
  const token = storage.getItem(STORAGE_KEYS.token);
  if (token) headers.authorization = `Bearer ${token}`;
  const deviceDetails = deviceDetailsHeader(storage);
  if (deviceDetails) headers[CLIENT_HEADERS.deviceDetails] = deviceDetails;
  if (canSign && options.requestTokenSecret) {
    headers[CLIENT_HEADERS.requestToken] = await buildRequestToken({
      orgId: options.orgId,
      path,
      secret: options.requestTokenSecret,
    });
  }
  return headers;
};
