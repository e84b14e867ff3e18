import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TReasonInput } from '@kisht/domain/devices/command-rules';
import { canChangeDevicePin, sealDevicePin } from '@kisht/domain/devices/device-pin';
import type { TDeviceCommand } from '@kisht/domain/devices/devices.schema';
import { v7 as uuidv7 } from 'uuid';
import type { TActor } from '../../lib/actor';
import type { AuthDeps } from '../auth/auth.service';
import { requireAccess } from '../users/users.service';
import {
  assertOrdersAllowed,
  dispatchOutcome,
  enqueueOrders,
  type TGateDeps,
  type TOrder,
} from './command-gate';
import { findCommand } from './commands.repository';
import { loadTargetForActor } from './control-commands.service';
import { toCommand } from './devices.service';
import { verifyOwnOtp } from './offline-code.service';

/**
 * change_device_pinV1: a `change_pin` command carrying the new screen-lock PIN sealed for the
 * customer's phone (devices/device-pin.ts: AES-256-GCM under a key only the server and that phone
 * can derive, bound to the command id), after the user's OTP of purpose BYPASS_CODE, through the
 * command gate: a new PIN locks the customer out of their own, so it is judged as a lock (never
 * for a paid-up or released customer; with nothing overdue only with a reason category that is not
 * a payment). A pending older change_pin is superseded (the newest PIN wins); the row and an audit
 * entry (never the PIN) are written, and the message goes out after commit, or on the phone's next
 * hello. Throws CUSTOMER_NOT_FOUND outside the actor's scope, FORBIDDEN without feature access,
 * COMMAND_NOT_AVAILABLE for a link-based or Apple phone, the gate's refusals (LOAN_COMPLETED,
 * DEVICE_RELEASED, DEVICE_NOT_ENROLLED, 400 naming reason_category) before the OTP is used up, and
 * OTP_INVALID / OTP_EXPIRED (field otp).
 */
export const changeDevicePin = async (
  deps: AuthDeps & TGateDeps,
  options: { actor: TActor; customerId: number; pin: string; otp: string; reason?: TReasonInput | undefined },
): Promise<TDeviceCommand> => {
  const { actor } = options;
  const target = await loadTargetForActor(deps, actor, options.customerId);
  await requireAccess(deps.db, actor, ['user.feature_access']);
  if (!canChangeDevicePin(target.deviceType)) {
    throw new AppError(AppErrorCode.COMMAND_NOT_AVAILABLE, 'This phone’s PIN cannot be changed remotely', [
      {
        field: 'customer_id',
        message: 'Only Android device-owner and managed Android phones take a new PIN',
      },
    ]);
  }
  const commandId = uuidv7();
  const order = (sealedPin: string): TOrder => ({
    target,
    name: 'change_pin',
    reason: options.reason,
    row: {
      id: commandId,
      args: { sealedPin },
      createdBy: actor.userId,
      supersedes: ['change_pin'],
      supersededBecause: 'superseded by a newer PIN',
    },
    audit: ({ reason, superseded }) => ({
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'device.change_pin',
      entity: 'customer',
      entityId: String(target.customerId),
      details: {
        deviceId: target.device.id,
        commandId,
        superseded,
        ...(reason
          ? { reasonCategory: reason.category, ...(reason.note ? { reason: reason.note } : {}) }
          : {}),
      },
    }),
  });
  // Judged before the OTP is used up: a refused change keeps the user's OTP.
  assertOrdersAllowed([order('')]);
  // The PIN is sealed under the device secret: a phone without one (an MDM family's) cannot take it.
  if (!target.device.secretHash) {
    throw new AppError(
      AppErrorCode.DEVICE_NOT_ENROLLED,
      'The phone has not been enrolled yet. Scan the enrolment QR first',
    );
  }
  await verifyOwnOtp(deps, actor, 'BYPASS_CODE', options.otp);
  // The server stores SHA-256 hex of the device secret: the key the phone derives too.
  const sealedPin = await sealDevicePin({
    keyHex: target.device.secretHash,
    deviceId: target.device.id,
    commandId,
    pin: options.pin,
  });
  const outcome = await deps.db.transaction((tx) =>
    enqueueOrders(tx, [order(sealedPin)], { onRefused: 'throw' }),
  );
  await dispatchOutcome(deps.dispatcher, outcome);
  return toCommand((await findCommand(deps.db, commandId)) ?? outcome.commands[0]!);
};
