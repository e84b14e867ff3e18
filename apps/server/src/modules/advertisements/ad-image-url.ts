import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { paths } from '@kisht/domain/paths';

/**
 * The key of advertisement image addresses: HKDF-SHA256 of the server's JWT secret with its own
 * info string, so it is a key of its own (no signature of one kind passes as another).
 */
const keyOf = (secret: string): Buffer =>
  Buffer.from(hkdfSync('sha256', secret, 'kisht', 'kisht advertisement image url v1', 32));

/** The signature of an image address: HMAC-SHA256 of `{mediaId}.{exp}` (exp Unix seconds), base64url. */
export const signAdImage = (secret: string, mediaId: number, exp: number): string =>
  createHmac('sha256', keyOf(secret)).update(`${mediaId}.${exp}`).digest('base64url');

/**
 * The absolute address a phone fetches an advertisement image from without a session
 * (`{baseUrl}/api/device/ad_image?image=&exp=&sig=`), valid until `notAfter` (the command's).
 */
export const adImageUrl = (options: {
  baseUrl: string;
  secret: string;
  mediaId: number;
  notAfter: Date;
}): string => {
  const exp = Math.ceil(options.notAfter.getTime() / 1000);
  const sig = signAdImage(options.secret, options.mediaId, exp);
  return `${options.baseUrl}${paths.advertisements.deviceImage}?image=${options.mediaId}&exp=${exp}&sig=${sig}`;
};

/** Whether `sig` signs this media id and expiry and `exp` (Unix seconds) has not passed at `now`. */
export const isAdImageSignatureValid = (
  secret: string,
  query: { image: number; exp: number; sig: string },
  now: Date = new Date(),
): boolean => {
  if (query.exp * 1000 < now.getTime()) return false;
  const expected = Buffer.from(signAdImage(secret, query.image, query.exp));
  const given = Buffer.from(query.sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
};

/** SHA-256 of the bytes, hex (show_ad's imageSha256). */
export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
