import { randomInt, timingSafeEqual } from 'node:crypto';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import {
  ENROLMENT_CODE_ALPHABET,
  type TEnrolmentCodeState,
  type TExchangeEnrolmentCodeResponse,
} from '@kisht/domain/devices/link-enrolment';
import type { Db, DbOrTx } from '../../db/client';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { insertAudit } from '../audit/audit.repository';
import * as repo from './enrolment.repository';

/**
 * The link-based family's enrolment codes (issue 15): 8 of Crockford's base-32 letters from the
 * system's CSPRNG (40 bits), shown as `XXXX-XXXX`, stored only as SHA-256 in
 * devices.enrolment_code_hash (unique per organisation). A code stands for the device's current
 * enrolment token and expires with it; the app exchanges it (exchangeEnrolmentCode) for a token.
 */

/** Tries at drawing a code no other device of the organisation holds, before giving up. */
const CODE_ATTEMPTS = 5;

/** A fresh enrolment code, `XXXX-XXXX` (40 bits from the system's CSPRNG). */
export const generateEnrolmentCode = (): string => {
  const letters = Array.from(
    { length: 8 },
    () => ENROLMENT_CODE_ALPHABET[randomInt(ENROLMENT_CODE_ALPHABET.length)],
  ).join('');
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
};

/** SHA-256 hex of a canonical code (`XXXX-XXXX`), as devices.enrolment_code_hash keeps it. */
export const enrolmentCodeHash = (code: string): string => sha256Hex(code);

/**
 * Gives the device a fresh enrolment code in the caller's transaction (it replaces any earlier one)
 * and returns it; the code works while the device's enrolment token does. Throws INTERNAL in the
 * (2^-40-ish) case that CODE_ATTEMPTS draws all collide with other devices' codes.
 */
export const issueEnrolmentCode = async (
  tx: DbOrTx,
  device: { id: string; orgId: number },
): Promise<string> => {
  for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt += 1) {
    const code = generateEnrolmentCode();
    const hash = enrolmentCodeHash(code);
    const holder = await repo.findDeviceByCodeHash(tx, device.orgId, hash);
    if (holder && holder.id !== device.id) continue;
    await repo.setEnrolmentCodeHash(tx, device.id, hash);
    return code;
  }
  throw new AppError(AppErrorCode.INTERNAL, 'Could not draw a free enrolment code; try again');
};

const codeNotFound = () =>
  new AppError(AppErrorCode.NOT_FOUND, 'Code not found', [
    { field: 'code', message: 'Unknown or expired code: ask the shop for a new one' },
  ]);

/** Constant-time equality of two hex digests of the same length. */
const sameDigest = (a: string, b: string): boolean => {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
};

/**
 * The link-based app exchanges a typed enrolment code (canonical `XXXX-XXXX`) of organisation
 * `orgId` for a one-time enrolment token and the server URL to enrol with. The token is fresh: it
 * replaces the one in the deep link (only the latest of the two enrols), keeping its expiry, and
 * the code keeps working until then, so a phone that lost the answer can ask again. Audited.
 * Throws NOT_FOUND 'Code not found' (404, field code) for an unknown code, another organisation's,
 * an expired or voided one, or one whose phone has enrolled; the digests are compared in constant
 * time.
 */
export const exchangeEnrolmentCode = async (
  db: Db,
  options: { orgId: number; code: string; baseUrl: string },
): Promise<TExchangeEnrolmentCodeResponse> => {
  const hash = enrolmentCodeHash(options.code);
  const device = await repo.findDeviceByCodeHash(db, options.orgId, hash);
  if (
    !device?.enrolmentCodeHash ||
    !sameDigest(device.enrolmentCodeHash, hash) ||
    device.enrolledAt ||
    !device.enrolmentTokenHash ||
    !device.enrolmentExpiresAt ||
    device.enrolmentExpiresAt.getTime() <= Date.now()
  ) {
    throw codeNotFound();
  }
  const token = randomToken();
  const expiresAt = device.enrolmentExpiresAt;
  await db.transaction(async (tx) => {
    if (!(await repo.replaceTokenOfCode(tx, device.id, hash, sha256Hex(token)))) throw codeNotFound();
    await insertAudit(tx, {
      orgId: device.orgId,
      action: 'device.enrolment_code_used',
      entity: 'customer',
      entityId: String(device.customerId),
      details: { deviceId: device.id },
    });
  });
  return { token, serverUrl: options.baseUrl, expiresAt: expiresAt.toISOString() };
};

/**
 * The state of a device's link-based enrolment (get_customers_keygen): used once it enrolled,
 * issued while its code and token stand, expired once they ran out (or were voided), none before
 * any code.
 */
export const enrolmentCodeStateOf = (
  customerId: number,
  device: {
    enrolmentCodeHash: string | null;
    enrolmentExpiresAt: Date | null;
    enrolledAt: Date | null;
  },
  now = new Date(),
): TEnrolmentCodeState => {
  const expiresAt = device.enrolmentExpiresAt?.toISOString() ?? null;
  const enrolledAt = device.enrolledAt?.toISOString() ?? null;
  if (device.enrolledAt) {
    return {
      customerId,
      state: 'used',
      isCodeIssued: device.enrolmentCodeHash !== null,
      expiresAt,
      enrolledAt,
    };
  }
  if (!device.enrolmentCodeHash) {
    return { customerId, state: 'none', isCodeIssued: false, expiresAt: null, enrolledAt };
  }
  const isLive = device.enrolmentExpiresAt !== null && device.enrolmentExpiresAt.getTime() > now.getTime();
  return { customerId, state: isLive ? 'issued' : 'expired', isCodeIssued: true, expiresAt, enrolledAt };
};
