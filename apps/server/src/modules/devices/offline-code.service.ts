import type { TLoginWithOtpResponse } from '@kisht/domain/auth/auth.schema';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TOfflineCode } from '@kisht/domain/devices/devices.schema';
import {
  offlineCodeFor,
  offlineCodeSlot,
  offlineCodeValidUntil,
  type TOfflineCodeAction,
} from '@kisht/domain/devices/offline-code';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import { type AuthDeps, findUser, requestOtp, verifyOtp } from '../auth/auth.service';
import { requireAccess } from '../users/users.service';
import type { DeviceRow } from './devices.repository';

const actorMobile = async (deps: Pick<AuthDeps, 'db'>, actor: TActor): Promise<string> => {
  const user = await findUser(deps.db, actor.userId);
  if (!user) throw new AppError(AppErrorCode.SESSION_INVALID, 'Your session has ended. Please log in again');
  return user.mobile;
};

/**
 * Checks an OTP of `purpose` that send-otp-to-user sent to the logged-in user's own mobile (it is
 * used up). Throws OTP_INVALID / OTP_EXPIRED (field otp), SESSION_INVALID when the user is gone.
 */
export const verifyOwnOtp = async (
  deps: AuthDeps,
  actor: TActor,
  purpose: 'BYPASS_CODE' | 'UNINSTALL',
  code: string,
): Promise<void> => {
  await verifyOtp(deps, { orgId: actor.orgId, mobile: await actorMobile(deps, actor), purpose, code });
};

/**
 * send-otp-to-user: sends an OTP of the given purpose (BYPASS_CODE or UNINSTALL, spec §4) to the
 * logged-in user's own mobile. Throws RATE_LIMITED inside the resend cool-down.
 */
export const sendOtpToUser = async (
  deps: AuthDeps,
  actor: TActor,
  purpose: 'BYPASS_CODE' | 'UNINSTALL',
): Promise<TLoginWithOtpResponse> =>
  requestOtp(deps, { orgId: actor.orgId, mobile: await actorMobile(deps, actor), purpose });

/**
 * get_device_bypass_code / offline_lock_unlock (design §5): after the user's OTP of purpose
 * BYPASS_CODE, the 8-digit code the phone accepts offline for its challenge and the action, valid
 * for this slot and the next. Audited (challenge and action, never the code). Throws OTP_INVALID /
 * OTP_EXPIRED (field otp), FORBIDDEN without lock access for the action, DEVICE_NOT_ENROLLED
 * before enrolment.
 */
export const issueOfflineCode = async (
  deps: AuthDeps,
  options: {
    actor: TActor;
    customerId: number;
    device: DeviceRow;
    challenge: string;
    action: TOfflineCodeAction;
    otp: string;
  },
): Promise<TOfflineCode> => {
  const { actor, device, challenge, action } = options;
  await requireAccess(deps.db, actor, ['user.lock_unlock', `lock.${action}`]);
  if (!device.enrolledAt || !device.secretHash) {
    throw new AppError(
      AppErrorCode.DEVICE_NOT_ENROLLED,
      'The phone has not been enrolled yet. Scan the enrolment QR first',
    );
  }
  await verifyOwnOtp(deps, actor, 'BYPASS_CODE', options.otp);
  const now = Date.now();
  // The server keeps SHA-256 hex of the device secret: exactly the offline-code key.
  const code = await offlineCodeFor({
    keyHex: device.secretHash,
    deviceId: device.id,
    challenge,
    action,
    slot: offlineCodeSlot(now),
  });
  await insertAudit(deps.db, {
    orgId: actor.orgId,
    actorUserId: actor.userId,
    action: 'device.offline_code',
    entity: 'customer',
    entityId: String(options.customerId),
    details: { deviceId: device.id, challenge, action },
  });
  return { code, action, challenge, validUntil: new Date(offlineCodeValidUntil(now)).toISOString() };
};
