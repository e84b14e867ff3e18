import type { TLoginWithOtpResponse } from '@kisht/domain/auth/auth.schema';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TReasonInput } from '@kisht/domain/devices/command-rules';
import type { TOfflineCode } from '@kisht/domain/devices/devices.schema';
import {
  offlineCodeFor,
  offlineCodeSlot,
  offlineCodeValidUntil,
  type TOfflineCodeAction,
} from '@kisht/domain/devices/offline-code';
import type { TActor } from '../../lib/actor';
import { type AuthDeps, findUser, requestOtp, verifyOtp } from '../auth/auth.service';
import { requireAccess } from '../users/users.service';
import { assertOrdersAllowed, enqueueOrders, type TGateDeps, type TOrder } from './command-gate';
import { loadTargetForActor } from './control-commands.service';

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
 * for this slot and the next, through the command gate: a lock code is a restriction (never for a
 * paid-up or released customer; with nothing overdue only with a reason category that is not a
 * payment; managed Android refuses a payment reason), an unlock code frees. Audited (challenge,
 * action and reason, never the code). Throws CUSTOMER_NOT_FOUND outside the actor's scope,
 * FORBIDDEN without lock access for the action, the gate's refusals (LOAN_COMPLETED,
 * DEVICE_RELEASED, DEVICE_NOT_ENROLLED, PAYMENT_LOCK_NOT_ALLOWED, 400 naming reason_category)
 * before the OTP is used up, OTP_INVALID / OTP_EXPIRED (field otp).
 */
export const issueOfflineCode = async (
  deps: AuthDeps & Pick<TGateDeps, 'db'>,
  options: {
    actor: TActor;
    customerId: number;
    challenge: string;
    action: TOfflineCodeAction;
    otp: string;
    reason?: TReasonInput | undefined;
  },
): Promise<TOfflineCode> => {
  const { actor, challenge, action } = options;
  const target = await loadTargetForActor(deps, actor, options.customerId);
  await requireAccess(deps.db, actor, ['user.lock_unlock', `lock.${action}`]);
  const order: TOrder = {
    target,
    name: action === 'lock' ? 'offline_code_lock' : 'offline_code_unlock',
    reason: options.reason,
    needsEnrolment: true,
    audit: ({ reason }) => ({
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'device.offline_code',
      entity: 'customer',
      entityId: String(target.customerId),
      details: {
        deviceId: target.device.id,
        challenge,
        action,
        ...(reason
          ? { reasonCategory: reason.category, ...(reason.note ? { reason: reason.note } : {}) }
          : {}),
      },
    }),
  };
  // Judged before the OTP is used up: a refused code keeps the user's OTP.
  assertOrdersAllowed([order]);
  const keyHex = target.device.secretHash;
  if (!keyHex) {
    throw new AppError(
      AppErrorCode.DEVICE_NOT_ENROLLED,
      'The phone has not been enrolled yet. Scan the enrolment QR first',
    );
  }
  await verifyOwnOtp(deps, actor, 'BYPASS_CODE', options.otp);
  await deps.db.transaction((tx) => enqueueOrders(tx, [order], { onRefused: 'throw' }));
  const now = Date.now();
  // The server keeps SHA-256 hex of the device secret: exactly the offline-code key.
  const code = await offlineCodeFor({
    keyHex,
    deviceId: target.device.id,
    challenge,
    action,
    slot: offlineCodeSlot(now),
  });
  return { code, action, challenge, validUntil: new Date(offlineCodeValidUntil(now)).toISOString() };
};
