import { isDeepStrictEqual } from 'node:util';
import { messageCommandOf } from '@kisht/domain/audit/audit-events';
import type { TMessageFeature } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { formatIstDateTime } from '@kisht/domain/common/time';
import { commandSpecOf } from '@kisht/domain/devices/command-catalogue';
import type { TDeviceCommand } from '@kisht/domain/devices/devices.schema';
import { canShowMessages } from '@kisht/domain/messages/messages.schema';
import type { TActor } from '../../lib/actor';
import { requireAccess } from '../users/users.service';
import {
  assertOrdersAllowed,
  dispatchOutcome,
  enqueueOrders,
  type TGateDeps,
  type TOrder,
} from './command-gate';
import { findCommand, findCommandTimesSince, findPendingCommandsNewestFirst } from './commands.repository';
import { loadTargetForActor } from './control-commands.service';
import { lockDeviceForUpdate } from './devices.repository';
import { accessFlagsFor, parseCommandArgs, toCommand } from './devices.service';

const DAY_MS = 86_400_000;

/**
 * Queues a message command (issue 16: customer_message → show_message, advertisement → show_ad)
 * to the actor's customer's phone through the command gate, as every one-shot command (design §5,
 * transactional outbox): the row (with its notAfter) and an audit entry `device.<name>` in one
 * transaction, published after commit. The same message still pending is returned instead of a
 * second copy (a double tap). Checks, in this order: the customer in scope (404), the arguments
 * (the catalogue's schema; 400 naming `args.<field>`), the actor's access flags
 * (`user.feature_access`; 403 naming it), the gate (a released phone takes nothing: 409
 * DEVICE_RELEASED; enrolment: 409 DEVICE_NOT_ENROLLED), the device family (only Kisht's own
 * channel shows messages; 409 NOT_FOR_THIS_DEVICE_FAMILY, field customer_id), and, with
 * `perDayLimit`, at most that many of these commands to the phone in any 24 hours (429
 * RATE_LIMITED saying when the next may go; cancelled ones do not count), checked with the device
 * row locked so two requests at once cannot both take the last place.
 */
export const queueMessageCommand = async (
  deps: TGateDeps,
  options: {
    actor: TActor;
    customerId: number;
    feature: TMessageFeature;
    args: Record<string, unknown>;
    perDayLimit?: number | undefined;
  },
): Promise<TDeviceCommand> => {
  const { actor, feature } = options;
  const target = await loadTargetForActor(deps, actor, options.customerId);
  const spec = commandSpecOf(feature)!;
  const args = parseCommandArgs(spec, options.args);
  const name = messageCommandOf(feature);
  await requireAccess(deps.db, actor, accessFlagsFor(feature, name));
  const order: TOrder = {
    target,
    name,
    row: { args, createdBy: actor.userId },
    audit: ({ command }) => ({
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: `device.${name}`,
      entity: 'customer',
      entityId: String(target.customerId),
      details: { deviceId: target.device.id, commandId: command!.id, args },
    }),
  };
  assertOrdersAllowed([order]);
  if (!canShowMessages(target.deviceType)) {
    throw new AppError(
      AppErrorCode.NOT_FOR_THIS_DEVICE_FAMILY,
      'This kind of phone cannot show messages: only phones with the Kisht app can',
      [{ field: 'customer_id', message: 'iPhones and managed-Android phones cannot show a message' }],
    );
  }
  if (!target.device.secretHash) {
    throw new AppError(
      AppErrorCode.DEVICE_RELEASED,
      'The phone was released from Kisht: it takes no messages',
      [{ field: 'customer_id', message: 'The phone no longer holds Kisht credentials' }],
    );
  }
  const result = await deps.db.transaction(async (tx) => {
    await lockDeviceForUpdate(tx, target.device.id);
    const pending = await findPendingCommandsNewestFirst(tx, target.device.id);
    const same = pending.find((c) => c.name === name && isDeepStrictEqual(c.args, args));
    if (same) return { command: same, outcome: null };
    if (options.perDayLimit !== undefined) {
      const now = Date.now();
      const recent = await findCommandTimesSince(tx, target.device.id, name, new Date(now - DAY_MS));
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
    const outcome = await enqueueOrders(tx, [order], { onRefused: 'throw' });
    return { command: outcome.commands[0]!, outcome };
  });
  if (result.outcome) await dispatchOutcome(deps.dispatcher, result.outcome);
  const fresh = await findCommand(deps.db, result.command.id);
  return toCommand(fresh ?? result.command);
};
