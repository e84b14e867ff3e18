import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { canChangeDevicePin, sealDevicePin } from '@kisht/domain/devices/device-pin';
import type { TDeviceCommand } from '@kisht/domain/devices/devices.schema';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import type { AuthDeps } from '../auth/auth.service';
import { findCustomerForActor } from '../customers/customers.service';
import { getDeviceSettings } from '../orgs/orgs.service';
import { requireAccess } from '../users/users.service';
import type { CommandDispatcher } from './device-outbox.service';
import * as repo from './devices.repository';
import { toCommand } from './devices.service';
import { verifyOwnOtp } from './offline-code.service';

/**
 * change_device_pinV1: queues a `change_pin` command carrying the new screen-lock PIN sealed for
 * the customer's phone (devices/device-pin.ts: AES-256-GCM under a key only the server and that
 * phone can derive, bound to the command id), after the user's OTP of purpose BYPASS_CODE. In one
 * transaction a pending older change_pin is cancelled (superseded: the newest PIN wins), the row
 * and an audit entry (never the PIN) are written; the message goes out after commit, or on the
 * phone's next hello. Throws FORBIDDEN without feature access, CUSTOMER_NOT_FOUND for a customer
 * outside the actor's scope, COMMAND_NOT_AVAILABLE for a link-based or Apple phone, DEVICE_NOT_ENROLLED before enrolment, OTP_INVALID / OTP_EXPIRED
 * (field otp).
 */
export const changeDevicePin = async (
  deps: AuthDeps & { db: Db; dispatcher: CommandDispatcher },
  options: { actor: TActor; customerId: number; pin: string; otp: string },
): Promise<TDeviceCommand> => {
  const { actor, customerId } = options;
  const { customer, device } = await findCustomerForActor(deps.db, actor, customerId);
  await requireAccess(deps.db, actor, ['user.feature_access']);
  if (!canChangeDevicePin(customer.deviceType)) {
    throw new AppError(AppErrorCode.COMMAND_NOT_AVAILABLE, 'This phone’s PIN cannot be changed remotely', [
      {
        field: 'customer_id',
        message: 'Only Android device-owner and managed Android phones take a new PIN',
      },
    ]);
  }
  if (!device.enrolledAt || !device.secretHash) {
    throw new AppError(
      AppErrorCode.DEVICE_NOT_ENROLLED,
      'The phone has not been enrolled yet. Scan the enrolment QR first',
    );
  }
  await verifyOwnOtp(deps, actor, 'BYPASS_CODE', options.otp);

  const commandId = uuidv7();
  // The server stores SHA-256 hex of the device secret: the key the phone derives too.
  const sealedPin = await sealDevicePin({
    keyHex: device.secretHash,
    deviceId: device.id,
    commandId,
    pin: options.pin,
  });
  const { commandExpiryHours } = await getDeviceSettings(deps.db, actor.orgId);
  const command = await deps.db.transaction(async (tx) => {
    const superseded = await repo.cancelPendingCommands(
      tx,
      device.id,
      ['change_pin'],
      'superseded by a newer PIN',
    );
    const row = await repo.insertCommand(tx, {
      id: commandId,
      orgId: actor.orgId,
      deviceId: device.id,
      name: 'change_pin',
      args: { sealedPin },
      createdBy: actor.userId,
      expiresAt: commandExpiryHours ? new Date(Date.now() + commandExpiryHours * 3_600_000) : null,
    });
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'device.change_pin',
      entity: 'customer',
      entityId: String(customerId),
      details: { deviceId: device.id, commandId, superseded: superseded.map((c) => c.id) },
    });
    return row;
  });
  await deps.dispatcher.dispatch(command);
  return toCommand((await repo.findCommand(deps.db, command.id)) ?? command);
};
