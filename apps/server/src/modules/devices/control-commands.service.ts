import { isControlCommandName, type TControlCommandName } from '@kisht/domain/audit/audit-events';
import type { TControlFeature } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { commandNameFor, commandSpecOf } from '@kisht/domain/devices/command-catalogue';
import type { TReasonInput } from '@kisht/domain/devices/command-rules';
import { isPolicyCommand } from '@kisht/domain/devices/device-policy';
import type { TCommandHistoryItem, TDeviceCommand } from '@kisht/domain/devices/devices.schema';
import type { DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import { requireAccess, type TAccessFlag } from '../users/users.service';
import {
  dispatchOutcome,
  endPendingCommandsNamed,
  enqueueOrders,
  loadTargets,
  revertPolicyEdits,
  type TCommandTarget,
  type TGateDeps,
  type TOrder,
} from './command-gate';
import * as commandsRepo from './commands.repository';
import { accessFlagsFor, parseCommandArgs, toCommand, toHistoryItem } from './devices.service';

/*
 * Commands to one customer's phone (spec §6, §7): the intents of customer_details, each through
 * the command gate.
 */

const customerNotFound = () => new AppError(AppErrorCode.CUSTOMER_NOT_FOUND, 'Customer not found');

/**
 * The actor's customer as a command target (command-gate loadTargets: one read with what the gate
 * judges by). Throws CUSTOMER_NOT_FOUND (404) outside the actor's scope, other tenants too.
 */
export const loadTargetForActor = async (
  deps: Pick<TGateDeps, 'db'>,
  actor: TActor,
  customerId: number,
): Promise<TCommandTarget> => {
  const [target] = await loadTargets(deps.db, { actor }, { customerIds: [customerId] });
  if (!target) throw customerNotFound();
  return target;
};

/** A scheduled command goes out 1 minute to 90 days from now; throws VALIDATION_FAILED (field run_at) else. */
const checkRunAt = (runAt: Date | undefined) => {
  if (runAt && (runAt.getTime() < Date.now() + 60_000 || runAt.getTime() > Date.now() + 90 * 86_400_000)) {
    throw new AppError(AppErrorCode.VALIDATION_FAILED, 'Schedule it between 1 minute and 90 days from now', [
      { field: 'run_at', message: 'Schedule it between 1 minute and 90 days from now' },
    ]);
  }
};

/**
 * Sends a control command of spec §6 (lock/unlock, every toggle, every action) to the actor's
 * customer's phone through the command gate (transactional outbox, design §5): a pending command
 * of the same toggle's other half is ended (supersede), the row written (a lock or toggle edits the
 * policy as a new version, a lock with its lock screen), audited, and published after commit. A
 * pending command with the same name and args is returned instead of a duplicate. With `runAt` it
 * waits, queued, and is judged again when due (dispatchDueScheduledCommands). Checks, in order:
 * the customer in scope (404 CUSTOMER_NOT_FOUND), the feature (404), `enable` and the arguments
 * (400 naming `enable` or `args.<field>`), `run_at` (400), the actor's access flags (403 naming the
 * flag), then the gate: a paid-up customer takes no restriction (409 LOAN_COMPLETED), a released
 * phone nothing (409 DEVICE_RELEASED), a lock with nothing overdue needs a reason category that is
 * not a payment (400 naming reason_category), managed Android refuses a payment reason (409
 * PAYMENT_LOCK_NOT_ALLOWED), enrolment (409 DEVICE_NOT_ENROLLED), spec §6 availability (409
 * COMMAND_NOT_AVAILABLE).
 */
export const sendControlCommand = async (
  deps: TGateDeps,
  options: {
    actor: TActor;
    customerId: number;
    feature: TControlFeature;
    enable?: boolean | undefined;
    args?: Record<string, unknown> | undefined;
    runAt?: Date | undefined;
    reason?: TReasonInput | undefined;
  },
): Promise<TDeviceCommand> => {
  const { actor, feature, runAt } = options;
  const target = await loadTargetForActor(deps, actor, options.customerId);
  const spec = commandSpecOf(feature);
  if (!spec) throw new AppError(AppErrorCode.NOT_FOUND, `No control named ${feature}`);
  if (spec.kind === 'toggle' && options.enable === undefined) {
    throw new AppError(AppErrorCode.VALIDATION_FAILED, 'Say whether to turn it on or off', [
      { field: 'enable', message: 'Required: true to turn on, false to turn off' },
    ]);
  }
  if (spec.kind === 'action' && options.enable !== undefined) {
    throw new AppError(AppErrorCode.VALIDATION_FAILED, `${feature} is an action, not an on/off control`, [
      { field: 'enable', message: 'Not used by this action' },
    ]);
  }
  const name = commandNameFor(spec, options.enable ?? true);
  // A control's commands are audited as device.<name> (audit-events); none has a member of its own.
  if (!isControlCommandName(name)) throw new AppError(AppErrorCode.NOT_FOUND, `No control named ${feature}`);
  const args = name === spec.on ? parseCommandArgs(spec, options.args ?? {}) : {};
  checkRunAt(runAt);
  await requireAccess(deps.db, actor, accessFlagsFor(feature, name));
  const opposite = spec.kind === 'toggle' ? (name === spec.on ? spec.off! : spec.on) : null;
  return queueOne(deps, {
    actor,
    target,
    name,
    args,
    runAt,
    reason: options.reason,
    supersedes: opposite ? [opposite] : [],
    availability: feature,
  });
};

/**
 * Sends a one-shot command that is not a spec §6 control (an EMI alert, the Apple-only
 * check_status and disable_activation_lock, install_apple_onemodapp) to a target the caller found
 * in the actor's scope, through the gate, after the actor's `flags` (403). A pending one of the same
 * name and args is returned instead of a second. Throws as the gate (sendControlCommand).
 */
export const sendOneShotCommand = async (
  deps: TGateDeps,
  options: {
    actor: TActor;
    target: TCommandTarget;
    name: TControlCommandName;
    args: Record<string, unknown>;
    flags: TAccessFlag[];
    availability?: TControlFeature | undefined;
  },
): Promise<TDeviceCommand> => {
  await requireAccess(deps.db, options.actor, options.flags);
  return queueOne(deps, { ...options, supersedes: [] });
};

/** One command through the gate: judged, a pending twin reused, written, audited, published. */
const queueOne = async (
  deps: TGateDeps,
  options: {
    actor: TActor;
    target: TCommandTarget;
    name: TControlCommandName;
    args: Record<string, unknown>;
    runAt?: Date | undefined;
    reason?: TReasonInput | undefined;
    supersedes: string[];
    availability?: string | undefined;
  },
): Promise<TDeviceCommand> => {
  const { actor, target, name, runAt } = options;
  const order: TOrder = {
    target,
    name,
    reason: options.reason,
    availability: options.availability,
    row: {
      args: options.args,
      createdBy: actor.userId,
      runAt: runAt ?? null,
      supersedes: options.supersedes,
    },
    audit: ({ command, reason, superseded }) => {
      const who = { orgId: actor.orgId, actorUserId: actor.userId } as const;
      const about = { entity: 'customer', entityId: String(target.customerId) } as const;
      const sent = { deviceId: target.device.id, commandId: command!.id, args: command!.args };
      const why = reason
        ? { reasonCategory: reason.category, ...(reason.note ? { reason: reason.note } : {}) }
        : {};
      return runAt
        ? {
            ...who,
            ...about,
            action: `device.schedule_${name}`,
            details: { ...sent, runAt: runAt.toISOString(), ...why },
          }
        : { ...who, ...about, action: `device.${name}`, details: { ...sent, superseded, ...why } };
    },
  };
  // One statement (issue 26): a pending twin (same name and args, due) is answered instead of a
  // duplicate; else the gate's write, the row written sent when the phone can be reached now.
  const outcome = await enqueueOrders(deps.db, [order], {
    onRefused: 'throw',
    liveChannels: deps.dispatcher.liveChannels,
    twin: runAt ? undefined : { deviceId: target.device.id, name, args: options.args },
  });
  if (outcome.twin) return toCommand(outcome.twin);
  await dispatchOutcome(deps.dispatcher, outcome);
  const written = outcome.commands[0]!;
  // An MDM bridge may finish the command while delivering it (Android Management applies a policy
  // at once): answer what it made of it. An MQTT phone answers with acks later.
  if (target.device.channel === 'mqtt') return toCommand(written);
  return toCommand((await commandsRepo.findCommand(deps.db, written.id)) ?? written);
};

/**
 * Cancels a pending command of the actor's customer's phone, with an audit entry. A lock/unlock or
 * toggle is taken back from the policy (command-gate revertPolicyEdits: the feature returns to what
 * the phone reports, never to a restriction the rules refuse), as a new policy version (device
 * protocol §6), so the cancelled intent never reaches the phone, also when its old policy is still
 * queued at the broker. A one-shot command gets a signed `cancel` (protocol §7). Throws
 * CUSTOMER_NOT_FOUND outside scope, NOT_FOUND (field command_id) for another device's command,
 * COMMAND_NOT_PENDING once it is final.
 */
export const cancelCommand = async (
  deps: TGateDeps,
  options: { actor: TActor; customerId: number; commandId: string },
): Promise<TCommandHistoryItem> => {
  const { db } = deps;
  const { actor, commandId } = options;
  const target = await loadTargetForActor(deps, actor, options.customerId);
  const command = await commandsRepo.findCommand(db, commandId);
  if (!command || command.deviceId !== target.device.id) {
    throw new AppError(AppErrorCode.NOT_FOUND, 'Command not found', [
      { field: 'command_id', message: 'No such command for this customer' },
    ]);
  }
  const { row: updated, reverted } = await db.transaction(async (tx) => {
    const row = await commandsRepo.transitionCommand(tx, command.id, 'cancel', {
      error: 'cancelled by the retailer',
    });
    if (!row) {
      throw new AppError(AppErrorCode.COMMAND_NOT_PENDING, 'This command has already finished', [
        { field: 'command_id', message: `The command is ${command.state}` },
      ]);
    }
    const reverted = await revertPolicyEdits(tx, [row], new Map([[target.device.id, target]]));
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'device.cancel',
      entity: 'customer',
      entityId: String(target.customerId),
      details: { deviceId: target.device.id, commandId: command.id, name: command.name, was: command.state },
    });
    return { row, reverted };
  });
  if (reverted.length > 0) await deps.dispatcher.publishPolicies(reverted);
  else if (!isPolicyCommand(updated.name) && updated.runAt === null)
    await deps.dispatcher.publishCancel(updated);
  const history = await commandsRepo.findCommandHistory(db, target.device.id, 200);
  return toHistoryItem(updated, history.find((h) => h.command.id === updated.id)?.createdByName ?? null);
};

/** Ends every pending command of a device that left (released, app removed, deleted at its MDM), with why. */
export const endCommandsOfGoneDevice = (tx: DbOrTx, deviceId: string, reason: string) =>
  endPendingCommandsNamed(tx, {
    deviceIds: [deviceId],
    names: 'all',
    event: 'release',
    error: reason,
    includeScheduled: true,
  });
