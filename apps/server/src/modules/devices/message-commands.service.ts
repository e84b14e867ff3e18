import { isDeepStrictEqual } from 'node:util';
import type { TMessageFeature } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { formatIstDateTime } from '@kisht/domain/common/time';
import { commandSpecOf } from '@kisht/domain/devices/command-catalogue';
import type { TDeviceCommand } from '@kisht/domain/devices/devices.schema';
import { canShowMessages } from '@kisht/domain/messages/messages.schema';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import { getDeviceSettings } from '../orgs/orgs.service';
import { requireAccess } from '../users/users.service';
import type { CommandDispatcher } from './device-outbox.service';
import * as repo from './devices.repository';
import { accessFlagsFor, parseCommandArgs, type TControlTarget, toCommand } from './devices.service';

const DAY_MS = 86_400_000;

/**
 * Queues a message command (issue 16: customer_message → show_message, advertisement → show_ad)
 * to one phone, the same way as every one-shot command (design §5, transactional outbox): in one
 * transaction the command row (with its notAfter) and an audit entry `device.<name>` are written,
 * and the message goes out through the dispatcher after commit. The same message still pending is
 * returned instead of a second copy (a double tap). Checks, in this order: the arguments (the
 * catalogue's schema; 400 VALIDATION_FAILED naming `args.<field>`), the actor's access flags
 * (`user.feature_access`; 403 naming it), enrolment (409 DEVICE_NOT_ENROLLED), the device family
 * (only Kisht's own channel shows messages; 409 NOT_FOR_THIS_DEVICE_FAMILY, field customer_id), a
 * phone since released (its credentials revoked by uninstall; 409 DEVICE_NOT_ENROLLED),
 * and, with `perDayLimit`, at most that many of these commands to the phone in any 24 hours (429
 * RATE_LIMITED saying when the next may go; cancelled ones do not count), checked with the device
 * row locked so two requests at once cannot both take the last place.
 */
export const queueMessageCommand = async (
  deps: { db: Db; dispatcher: CommandDispatcher },
  options: {
    actor: TActor;
    target: TControlTarget;
    feature: TMessageFeature;
    args: Record<string, unknown>;
    perDayLimit?: number | undefined;
  },
): Promise<TDeviceCommand> => {
  const { actor, target, feature } = options;
  const spec = commandSpecOf(feature)!;
  const args = parseCommandArgs(spec, options.args);
  const name = spec.on;
  await requireAccess(deps.db, actor, accessFlagsFor(feature, name));
  if (!target.device.enrolledAt) {
    throw new AppError(
      AppErrorCode.DEVICE_NOT_ENROLLED,
      'The phone has not been enrolled yet. Scan the enrolment QR first',
    );
  }
  if (!canShowMessages(target.deviceType)) {
    throw new AppError(
      AppErrorCode.NOT_FOR_THIS_DEVICE_FAMILY,
      'This kind of phone cannot show messages: only phones with the Kisht app can',
      [{ field: 'customer_id', message: 'iPhones and managed-Android phones cannot show a message' }],
    );
  }
  if (!target.device.secretHash) {
    throw new AppError(
      AppErrorCode.DEVICE_NOT_ENROLLED,
      'The phone was released from Kisht: it takes no messages',
    );
  }
  const { commandExpiryHours } = await getDeviceSettings(deps.db, actor.orgId);
  const result = await deps.db.transaction(async (tx) => {
    await repo.lockDeviceForUpdate(tx, target.device.id);
    const pending = await repo.findPendingCommandsNewestFirst(tx, target.device.id);
    const same = pending.find((c) => c.name === name && isDeepStrictEqual(c.args, args));
    if (same) return { command: same, isNew: false };
    if (options.perDayLimit !== undefined) {
      const now = Date.now();
      const recent = await repo.findCommandTimesSince(tx, target.device.id, name, new Date(now - DAY_MS));
      if (recent.length >= options.perDayLimit) {
        // The oldest of the window leaves it first; then one more may go.
        const retryAt = new Date(recent[recent.length - options.perDayLimit]!.getTime() + DAY_MS);
        throw new AppError(
          AppErrorCode.RATE_LIMITED,
          `At most ${options.perDayLimit} messages a day go to one phone. Try again after ${formatIstDateTime(retryAt)}`,
          [{ field: 'customer_id', message: `Try again after ${formatIstDateTime(retryAt)}` }],
        );
      }
    }
    const command = await repo.insertCommand(tx, {
      id: uuidv7(),
      orgId: actor.orgId,
      deviceId: target.device.id,
      name,
      args,
      createdBy: actor.userId,
      expiresAt: commandExpiryHours ? new Date(Date.now() + commandExpiryHours * 3_600_000) : null,
    });
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: `device.${name}`,
      entity: 'customer',
      entityId: String(target.customerId),
      details: { deviceId: target.device.id, commandId: command.id, args },
    });
    return { command, isNew: true };
  });
  if (result.isNew) await deps.dispatcher.dispatch(result.command);
  const fresh = await repo.findCommand(deps.db, result.command.id);
  return toCommand(fresh ?? result.command);
};
