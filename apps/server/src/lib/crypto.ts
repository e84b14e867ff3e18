import { createHash, createHmac, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';

/** SHA-256 hex of a high-entropy secret (tokens, device secrets); not for low-entropy codes. */
export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');

/** HMAC-SHA256 hex, for low-entropy secrets such as OTPs (the key stays on the server). */
export const hmacHex = (key: string, value: string): string =>
  createHmac('sha256', key).update(value).digest('hex');

/** Constant-time comparison of two hex digests. */
export const hexEquals = (a: string, b: string): boolean => {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
};

/** A random URL-safe token of `bytes` random bytes. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** A uniformly random numeric code with `digits` digits (leading zeros kept). */
export const randomDigits = (digits: number): string =>
  String(randomInt(0, 10 ** digits)).padStart(digits, '0');

const scryptAsync = (password: string, salt: Buffer, keyLength: number) =>
  new Promise<Buffer>((resolve, reject) => {
    scrypt(password, salt, keyLength, { N: 16_384, r: 8, p: 1 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });

/** scrypt hash of a low-entropy secret (an MPIN) as `salthex:hashhex`; attempt limits do the rest. */
export const hashSecret = async (secret: string): Promise<string> => {
  const salt = randomBytes(16);
  return `${salt.toString('hex')}:${(await scryptAsync(secret, salt, 32)).toString('hex')}`;
};

/** Checks a secret against hashSecret's output in constant time. */
export const verifySecret = async (secret: string, stored: string): Promise<boolean> => {
  const [saltHex, hashHex] = stored.split(':');
  if (!saltHex || !hashHex) return false;
  return hexEquals(hashHex, (await scryptAsync(secret, Buffer.from(saltHex, 'hex'), 32)).toString('hex'));
};
