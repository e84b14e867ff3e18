import { createHash } from 'node:crypto';
import type { TPushRefusal, TPushRefusalReason } from '@kisht/domain/customers/customers.schema';
import type { DbOrTx } from '../../db/client';
import { checkAuditEntry } from '../audit/audit.repository';
import { insertRefusalOnce, PUSH_TOKEN_REFUSED } from './push-refusal.repository';

/*
 * Issue 27: when FCM refuses a phone's push token for good, wake-ups to the phone stop until it
 * registers another token. The refusal is kept as the device's audit entry (no table of its own),
 * and customer_details shows it (`device.pushRefusal`) so the shop learns why, and what to do.
 */

/**
 * The first 16 hex digits of a push token's SHA-256: tells one token from another in the audit
 * log, which never keeps the token itself.
 */
export const pushTokenFingerprint = (token: string): string =>
  createHash('sha256').update(token, 'utf8').digest('hex').slice(0, 16);

/**
 * Records that FCM refused the device's push token (`reason` as the push gateway said it,
 * `fcmError` FCM's error code) as a `device.push_token_refused` audit entry on its customer, once
 * per token: a refusal of the token its newest entry is about writes nothing. Returns whether an
 * entry was written. Throws what the database throws; under test, when the entry is not a
 * ZAuditEvent.
 */
export const recordPushRefusal = async (
  db: DbOrTx,
  refusal: { deviceId: string; token: string; reason: TPushRefusalReason; fcmError: string },
): Promise<boolean> => {
  const details = {
    deviceId: refusal.deviceId,
    reason: refusal.reason,
    fcmError: refusal.fcmError,
    tokenFingerprint: pushTokenFingerprint(refusal.token),
  };
  const written = await insertRefusalOnce(db, details);
  if (written) checkAuditEntry({ ...written, action: PUSH_TOKEN_REFUSED, entity: 'customer', details });
  return written !== null;
};

/** A device's newest refusal as the audit log holds it (see recordPushRefusal). */
export type TStoredPushRefusal = { reason: TPushRefusalReason; at: string; tokenFingerprint: string };

/**
 * What customer_details says of the device's newest refusal (`device.pushRefusal`): the refusal
 * while the phone holds no token or still the refused one, null once it has registered another
 * (or when there was none). `pushToken` is the device's current token (devices.push_token).
 */
export const currentPushRefusal = (
  newest: TStoredPushRefusal | null,
  pushToken: string | null,
): TPushRefusal | null => {
  if (!newest) return null;
  if (pushToken !== null && pushTokenFingerprint(pushToken) !== newest.tokenFingerprint) return null;
  return { reason: newest.reason, at: newest.at };
};
