/**
 * The client contract of spec §7: header names every request carries, the auth-session header
 * (AES-CBC of the current millisecond timestamp, key derived from the path) and the request token
 * (org id, path tail, fixed secret). Web Crypto only, so the browser builds and the server checks
 * with the same code. Design §3: these headers are not where security lives (sessions are).
 */

/** Header names (lower case, as HTTP/2 and Node see them). */
export const CLIENT_HEADERS = {
  platform: 'platform',
  deviceDetails: 'device-details',
  browserName: 'browser-name',
  browserVersion: 'browser-version',
  deviceType: 'device-type',
  devicePlatform: 'device-platform',
  authSession: 'auth-session',
  requestToken: 'request-token',
} as const;

/** Every request says it comes from the mobile shell (spec §7). */
export const PLATFORM_MOBILE = 'mobile';

const encoder = new TextEncoder();

const toHex = (bytes: ArrayBuffer | Uint8Array): string =>
  Array.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');

const fromHex = (hex: string): Uint8Array<ArrayBuffer> | null => {
  if (!/^(?:[0-9a-f]{2})+$/i.test(hex)) return null;
  const bytes = new Uint8Array(new ArrayBuffer(hex.length / 2));
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
};

/** The path a header is bound to: the URL's pathname, without query or origin. */
export const requestPath = (url: string): string => {
  const withoutOrigin = url.replace(/^[a-z]+:\/\/[^/]+/i, '');
  return withoutOrigin.split(/[?#]/)[0] || '/';
};

/** The AES-256 key for a path: SHA-256 of the path's UTF-8 bytes. */
const authSessionKey = async (path: string) => {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(path));
  return crypto.subtle.importKey('raw', digest, { name: 'AES-CBC' }, false, ['encrypt', 'decrypt']);
};

/**
 * Builds the auth-session header for a request path: a random 16-byte IV in hex, a colon, and the
 * AES-CBC (PKCS#7) ciphertext in hex of the decimal millisecond timestamp `nowMs` (spec §7).
 */
export const buildAuthSession = async (path: string, nowMs: number = Date.now()): Promise<string> => {
  const iv = crypto.getRandomValues(new Uint8Array(16));
  const key = await authSessionKey(requestPath(path));
  const cipher = await crypto.subtle.encrypt({ name: 'AES-CBC', iv }, key, encoder.encode(String(nowMs)));
  return `${toHex(iv)}:${toHex(cipher)}`;
};

/**
 * Reads an auth-session header: returns the millisecond timestamp it carries, or null when the
 * value is malformed or was not made for this path.
 */
export const readAuthSession = async (path: string, value: string): Promise<number | null> => {
  const [ivHex, cipherHex, ...rest] = value.split(':');
  const iv = fromHex(ivHex ?? '');
  const cipher = fromHex(cipherHex ?? '');
  if (rest.length > 0 || !iv || iv.length !== 16 || !cipher || cipher.length % 16 !== 0) return null;
  try {
    const key = await authSessionKey(requestPath(path));
    const plain = new TextDecoder().decode(await crypto.subtle.decrypt({ name: 'AES-CBC', iv }, key, cipher));
    return /^\d{10,16}$/.test(plain) ? Number(plain) : null;
  } catch {
    return null;
  }
};

/** The last segment of a request path ("/api/customer/get_customers_qrCode" → "get_customers_qrCode"). */
export const pathTail = (path: string): string => requestPath(path).split('/').filter(Boolean).at(-1) ?? '';

/**
 * The request token of spec §7: hex SHA-256 of `${orgId}:${pathTail}:${secret}`, where the secret
 * is the fixed value the app config hands out.
 */
export const buildRequestToken = async (options: {
  orgId: number;
  path: string;
  secret: string;
}): Promise<string> =>
  toHex(
    await crypto.subtle.digest(
      'SHA-256',
      encoder.encode(`${options.orgId}:${pathTail(options.path)}:${options.secret}`),
    ),
  );
