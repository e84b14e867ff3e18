import { isDeepStrictEqual } from 'node:util';
import {
  CONTROL_FEATURES,
  type TCommandName,
  type TControlFeature,
  type TMessageFeature,
} from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { istDate } from '@kisht/domain/common/time';
import {
  commandNameFor,
  commandSpecByName,
  commandSpecOf,
  type TCommandSpec,
} from '@kisht/domain/devices/command-catalogue';
import { controlAvailability } from '@kisht/domain/devices/control-availability';
import { isPaymentLockAllowed } from '@kisht/domain/devices/device-families';
import { editPolicy, isPolicyCommand, isSameControl } from '@kisht/domain/devices/device-policy';
import { isPhoneLockingCommand, lockRuleFor } from '@kisht/domain/devices/devices.rules';
import type {
  TCommandHistoryItem,
  TDeviceCommand,
  TDeviceSummary,
  TLockAccess,
  TUserAccess,
} from '@kisht/domain/devices/devices.schema';
import { INITIAL_POLICY } from '@kisht/domain/devices/protocol.schema';
import { v7 as uuidv7 } from 'uuid';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { hexEquals, sha256Hex } from '../../lib/crypto';
import { insertAudit } from '../audit/audit.repository';
import { notifyLockFailed } from '../notifications/notifications.service';
import { getDeviceSettings } from '../orgs/orgs.service';
import { firstDeniedFlag, requireAccess, type TAccessFlag } from '../users/users.service';
import type { CommandDispatcher } from './device-outbox.service';
import type { CommandRow, DeviceRow } from './devices.repository';

export type { CommandRow, DeviceRow } from './devices.repository';

import * as repo from './devices.repository';

/** A command row as the API shows it. */
export const toCommand = (row: CommandRow): TDeviceCommand => ({
  id: row.id,
  name: row.name as TCommandName,
  state: row.state as TDeviceCommand['state'],
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  error: row.error,
});

/** What customer_details offers for a device (spec §6 availability with access flags applied). */
export type TAvailability = TDeviceSummary['availability'];

/** The features a user's access flags forbid (spec §6 user and lock access). */
const forbiddenByAccess = (access: { userAccess: TUserAccess; lockAccess: TLockAccess }): Set<string> => {
  const forbidden = new Set<string>();
  const canLock = access.userAccess.lock_unlock === '1' && access.lockAccess.lock === '1';
  const canUnlock = access.userAccess.lock_unlock === '1' && access.lockAccess.unlock === '1';
  if (!canLock && !canUnlock) forbidden.add('lock');
  if (access.userAccess.unistall !== '1' || access.lockAccess.uninstall !== '1') forbidden.add('uninstall');
  if (access.userAccess.feature_access !== '1') {
    for (const feature of CONTROL_FEATURES)
      if (feature !== 'lock' && feature !== 'uninstall') forbidden.add(feature);
  }
  return forbidden;
};

/**
 * The spec §6 access flags a control command needs: lock and unlock `user.lock_unlock` and
 * `lock.lock` / `lock.unlock`; uninstall (and unclaim) `user.unistall` and `lock.uninstall`; every
 * other control feature `user.feature_access`.
 */
export const accessFlagsFor = (feature: TControlFeature | TMessageFeature, name: string): TAccessFlag[] => {
  if (feature === 'lock') return ['user.lock_unlock', name === 'lock' ? 'lock.lock' : 'lock.unlock'];
  if (feature === 'uninstall') return ['user.unistall', 'lock.uninstall'];
  return ['user.feature_access'];
};

/**
 * The spec §6 availability of a device's controls for an actor: the device family's rules with the
 * reported lock state and the organisation's allowed list, less what the actor's access flags deny.
 */
export const availabilityFor = (input: {
  deviceType: number;
  appType?: number;
  isLocked: boolean;
  allowedControls: string[] | null;
  access: { userAccess: TUserAccess; lockAccess: TLockAccess };
}): TAvailability => {
  const { controls, actions } = controlAvailability({
    deviceType: input.deviceType,
    appType: input.appType,
    isLocked: input.isLocked,
    allowedList: input.allowedControls,
  });
  const forbidden = forbiddenByAccess(input.access);
  return {
    controls: controls.filter((f) => !forbidden.has(f)),
    actions: actions.filter((f) => !forbidden.has(f)),
  };
};

/** Reported state, pending commands and what may be done now, for customer screens (design §5). */
export const getDeviceSummary = async (
  db: DbOrTx,
  device: DeviceRow,
  availability: TAvailability,
): Promise<TDeviceSummary> => {
  const [pending, last] = await Promise.all([
    repo.findPendingCommandsNewestFirst(db, device.id),
    repo.findNewestCommand(db, device.id),
  ]);
  const pendingControls: Record<string, TDeviceCommand> = {};
  for (const command of pending) {
    const found = commandSpecByName(command.name);
    if (found?.spec.kind === 'toggle' && !pendingControls[found.spec.feature])
      pendingControls[found.spec.feature] = toCommand(command);
  }
  const newestPending = pending[0];
  return {
    id: device.id,
    enrolledAt: device.enrolledAt?.toISOString() ?? null,
    lockStatus: device.reportedLocked ? 1 : 0,
    lastSeenAt: device.lastSeenAt?.toISOString() ?? null,
    isOnline: device.isOnline,
    pendingCommand: newestPending ? toCommand(newestPending) : null,
    lastCommand: last ? toCommand(last) : null,
    controls: device.reportedControls,
    pendingControls,
    availability,
    lastLocation: device.lastLocation ?? null,
    sims: device.sims ?? null,
  };
};

/**
 * A command row with who sent it, as the command history shows it. A change_pin command's args
 * (the sealed PIN) are never shown.
 */
export const toHistoryItem = (row: CommandRow, createdByName: string | null): TCommandHistoryItem => ({
  ...toCommand(row),
  feature: commandSpecByName(row.name)?.spec.feature ?? null,
  args: row.name === 'change_pin' ? {} : row.args,
  result: row.result ?? null,
  createdByName,
  deliveryAttempts: row.deliveryAttempts,
  runAt: row.runAt?.toISOString() ?? null,
  batchId: row.batchId,
  reason: row.reason,
});

/** The device a control command goes to, with its customer's id and device family. */
export type TControlTarget = {
  customerId: number;
  deviceType: number;
  /** The customer's app_type (anti-theft customers are offered the anti-theft controls). */
  appType?: number;
  device: DeviceRow;
};

/**
 * The arguments of `spec`'s `on` command, checked against its catalogue schema (COMMAND_CATALOGUE)
 * and as the schema outputs them. Throws VALIDATION_FAILED (400) naming each `args.<field>`.
 */
export const parseCommandArgs = (
  spec: TCommandSpec,
  raw: Record<string, unknown>,
): Record<string, unknown> => {
  const parsed = spec.args.safeParse(raw);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const fields = parsed.error.issues.map((issue) => ({
    field: ['args', ...issue.path].join('.'),
    message: issue.message,
  }));
  throw new AppError(
    AppErrorCode.VALIDATION_FAILED,
    `Invalid ${fields.map((f) => f.field).join(', ')}`,
    fields,
  );
};

/**
 * Checks that `feature` may be sent to the target now and builds its command name and args (with
 * the organisation's command expiry, read with its allowed list). Throws VALIDATION_FAILED naming `enable` or `args.<field>` for a missing on/off or bad
 * arguments, FORBIDDEN naming the flag when the actor's access flags deny it (accessFlagsFor),
 * DEVICE_NOT_ENROLLED before
 * enrolment, COMMAND_NOT_AVAILABLE when spec §6 does not offer it (type, lock state, allowed list).
 */
export const prepareControlCommand = async (
  db: DbOrTx,
  options: {
    actor: TActor;
    target: TControlTarget;
    feature: TControlFeature;
    enable?: boolean | undefined;
    args?: Record<string, unknown> | undefined;
  },
): Promise<{
  name: TCommandName;
  args: Record<string, unknown>;
  spec: TCommandSpec;
  commandExpiryHours: number | null;
}> => {
  const { actor, target, feature } = options;
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
  const args = name === spec.on ? parseCommandArgs(spec, options.args ?? {}) : {};
  await requireAccess(db, actor, accessFlagsFor(feature, name));
  if (!target.device.enrolledAt) {
    throw new AppError(
      AppErrorCode.DEVICE_NOT_ENROLLED,
      'The phone has not been enrolled yet. Scan the enrolment QR first',
    );
  }
  const { allowedControls, commandExpiryHours } = await getDeviceSettings(db, actor.orgId);
  const offered = controlAvailability({
    deviceType: target.deviceType,
    appType: target.appType,
    isLocked: target.device.reportedLocked,
    allowedList: allowedControls,
  });
  if (![...offered.controls, ...offered.actions].includes(feature)) {
    throw new AppError(
      AppErrorCode.COMMAND_NOT_AVAILABLE,
      'This control is not available for this phone now',
      [{ field: 'feature', message: `${feature} is not offered for this phone in its current state` }],
    );
  }
  return { name, args, spec, commandExpiryHours };
};

/** Why a lock must not go out: the customer's EMIs are completed (status 5). */
export const LOAN_COMPLETED_MESSAGE =
  'The EMIs of this customer are completed, so the phone cannot be locked';
/** Why a lock needs a reason: the customer has nothing overdue. */
export const NOTHING_OVERDUE_MESSAGE = 'Nothing is overdue for this customer: say why the phone is locked';

/**
 * Why a managed-Android phone is not locked for a payment (Google's permissible-usage rule for the
 * Android Management API, developers.google.com/android/management/permissible-usage).
 */
export const PAYMENT_LOCK_NOT_ALLOWED_MESSAGE =
  "Google's Android Management API policy forbids locking or restricting a managed-Android phone because a payment was missed. Lock it only for another reason (stolen, lost, the customer asked), given as the reason";

/**
 * A lock reason that speaks of a payment (EMI, instalment, overdue, dues, unpaid…): on a
 * managed-Android phone such a lock is payment-driven, which Google forbids.
 */
const PAYMENT_REASON = /\b(emis?|payments?|paid|unpaid|overdue|dues|instal+ments?|arrears?|default(ed)?)\b/i;

/**
 * The lock rule of issue 12 for command `name` to `deviceId` on `today` (+05:30), checked before a
 * command that leaves only a lock screen (isPhoneLockingCommand) is written: throws LOAN_COMPLETED
 * (409, field customer_id) when the customer's EMIs are completed (status 5); for a device family
 * that may not be locked over payments (`deviceType` 1, isPaymentLockAllowed) PAYMENT_LOCK_NOT_ALLOWED
 * (409, field reason) when something is overdue and no reason is given, or the reason speaks of a
 * payment (issue 15, Google's permissible-usage rule); and VALIDATION_FAILED (400, field reason)
 * when nothing is overdue and no reason is given. Other commands pass.
 */
export const checkLockRule = async (
  db: DbOrTx,
  options: {
    deviceId: string;
    name: string;
    reason?: string | undefined;
    today?: string | undefined;
    /** The customer's device family (spec §1); absent: the payment rule is not checked. */
    deviceType?: number | undefined;
  },
): Promise<void> => {
  if (!isPhoneLockingCommand(options.name)) return;
  const facts = (await repo.findLockFactsOfDevices(db, [options.deviceId], options.today ?? istDate())).get(
    options.deviceId,
  );
  if (!facts) throw new AppError(AppErrorCode.NOT_FOUND, 'Device not found');
  const rule = lockRuleFor(facts, options.today ?? istDate());
  if (rule.kind === 'refused') {
    throw new AppError(AppErrorCode.LOAN_COMPLETED, LOAN_COMPLETED_MESSAGE, [
      { field: 'customer_id', message: 'The EMIs of this customer are completed (status 5)' },
    ]);
  }
  if (
    options.deviceType !== undefined &&
    !isPaymentLockAllowed(options.deviceType) &&
    ((rule.kind === 'overdue' && !options.reason) || (options.reason && PAYMENT_REASON.test(options.reason)))
  ) {
    throw new AppError(AppErrorCode.PAYMENT_LOCK_NOT_ALLOWED, PAYMENT_LOCK_NOT_ALLOWED_MESSAGE, [
      {
        field: 'reason',
        message:
          'A managed-Android phone may not be locked for a missed payment; give a reason that is not a payment',
      },
    ]);
  }
  if (rule.kind === 'needs_reason' && !options.reason) {
    throw new AppError(AppErrorCode.VALIDATION_FAILED, NOTHING_OVERDUE_MESSAGE, [
      { field: 'reason', message: 'Required: nothing is overdue, so say why the phone is locked' },
    ]);
  }
};

/**
 * Queues a control command (transactional outbox, design §5): in one transaction a pending
 * command of the same toggle's other half is cancelled (supersede: a newer lock cancels a pending
 * unlock), the desired lock state recorded for lock/unlock, the command row and an audit entry
 * written; the message is published after commit. A pending command with the same name and args is
 * returned instead of queuing a duplicate. With `runAt` the command is stored for later instead
 * (scheduled: no supersede until it is due; see dispatchDueScheduledCommands). A command that
 * leaves only a lock screen (lock, lost modes) obeys the lock rule (checkLockRule); its `reason`
 * (trimmed by the request schema) is stored with it and in its audit entry. Throws as
 * prepareControlCommand and checkLockRule, and VALIDATION_FAILED (field run_at) for a time not
 * 1 minute to 90 days ahead.
 */
export const queueControlCommand = async (
  deps: { db: Db; dispatcher: CommandDispatcher },
  options: {
    actor: TActor;
    target: TControlTarget;
    feature: TControlFeature;
    enable?: boolean | undefined;
    args?: Record<string, unknown> | undefined;
    runAt?: Date | undefined;
    reason?: string | undefined;
  },
): Promise<TDeviceCommand> => {
  const { actor, target, runAt } = options;
  if (runAt && (runAt.getTime() < Date.now() + 60_000 || runAt.getTime() > Date.now() + 90 * 86_400_000)) {
    throw new AppError(AppErrorCode.VALIDATION_FAILED, 'Schedule it between 1 minute and 90 days from now', [
      { field: 'run_at', message: 'Schedule it between 1 minute and 90 days from now' },
    ]);
  }
  const { name, args, spec, commandExpiryHours } = await prepareControlCommand(deps.db, options);
  await checkLockRule(deps.db, {
    deviceId: target.device.id,
    name,
    reason: options.reason,
    deviceType: target.deviceType,
  });
  // A reason belongs to a command that locks the phone; anything else has none.
  const reason = isPhoneLockingCommand(name) ? (options.reason ?? null) : null;
  if (runAt) {
    const scheduled = await deps.db.transaction(async (tx) => {
      const command = await repo.insertCommand(tx, {
        id: uuidv7(),
        orgId: actor.orgId,
        deviceId: target.device.id,
        name,
        args,
        createdBy: actor.userId,
        runAt,
        expiresAt: commandExpiryHours ? new Date(runAt.getTime() + commandExpiryHours * 3_600_000) : null,
        reason,
      });
      await insertAudit(tx, {
        orgId: actor.orgId,
        actorUserId: actor.userId,
        action: `device.schedule_${name}`,
        entity: 'customer',
        entityId: String(target.customerId),
        details: {
          deviceId: target.device.id,
          commandId: command.id,
          args,
          runAt: runAt.toISOString(),
          ...(reason ? { reason } : {}),
        },
      });
      return command;
    });
    return toCommand(scheduled);
  }
  const result = await deps.db.transaction(async (tx) => {
    const pending = await repo.findPendingCommandsNewestFirst(tx, target.device.id);
    // Compared as values: a jsonb column does not keep the key order of the args it was given.
    const same = pending.find((c) => c.name === name && isDeepStrictEqual(c.args, args));
    if (same) return { command: same, isNew: false };
    const opposite = spec.kind === 'toggle' ? (name === spec.on ? spec.off! : spec.on) : null;
    const cancelled = opposite
      ? await repo.cancelPendingCommands(tx, target.device.id, [opposite], `superseded by ${name}`)
      : [];
    const command = await repo.insertCommand(tx, {
      id: uuidv7(),
      orgId: actor.orgId,
      deviceId: target.device.id,
      name,
      args,
      createdBy: actor.userId,
      expiresAt: commandExpiryHours ? new Date(Date.now() + commandExpiryHours * 3_600_000) : null,
      reason,
    });
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: `device.${name}`,
      entity: 'customer',
      entityId: String(target.customerId),
      details: {
        deviceId: target.device.id,
        commandId: command.id,
        args,
        superseded: cancelled.map((c) => c.id),
        ...(reason ? { reason } : {}),
      },
    });
    return { command, isNew: true };
  });
  if (result.isNew) await deps.dispatcher.dispatch(result.command);
  const fresh = await repo.findCommand(deps.db, result.command.id);
  return toCommand(fresh ?? result.command);
};

/** A device's commands, newest first (at most 200), for customer_details. */
export const listCommandHistory = async (db: DbOrTx, device: DeviceRow): Promise<TCommandHistoryItem[]> =>
  (await repo.findCommandHistory(db, device.id, 200)).map((row) =>
    toHistoryItem(row.command, row.createdByName),
  );

/**
 * Cancels a pending command of the device, with an audit entry. A lock/unlock or toggle is taken
 * back from the policy: the feature returns to what the phone reports, as a new policy version
 * (device protocol §6), so the cancelled intent never reaches the phone, also when its old policy
 * is still queued at the broker. A one-shot command gets a signed `cancel` (protocol §7). Throws
 * NOT_FOUND (field command_id) for another device's command, COMMAND_NOT_PENDING once it is final.
 */
export const cancelCommand = async (
  deps: { db: Db; dispatcher: CommandDispatcher },
  options: { actor: TActor; customerId: number; device: DeviceRow; commandId: string },
): Promise<TCommandHistoryItem> => {
  const { db } = deps;
  const { actor, device, commandId } = options;
  const command = await repo.findCommand(db, commandId);
  if (!command || command.deviceId !== device.id) {
    throw new AppError(AppErrorCode.NOT_FOUND, 'Command not found', [
      { field: 'command_id', message: 'No such command for this customer' },
    ]);
  }
  const { row: updated, reverted } = await db.transaction(async (tx) => {
    const row = await repo.transitionCommand(tx, command.id, ['queued', 'sent', 'received'], 'cancelled', {
      error: 'cancelled by the retailer',
    });
    if (!row) {
      throw new AppError(AppErrorCode.COMMAND_NOT_PENDING, 'This command has already finished', [
        { field: 'command_id', message: `The command is ${command.state}` },
      ]);
    }
    const reverted = await revertPolicyEdits(tx, [row]);
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'device.cancel',
      entity: 'customer',
      entityId: String(options.customerId),
      details: { deviceId: device.id, commandId: command.id, name: command.name, was: command.state },
    });
    return { row, reverted };
  });
  if (reverted.length > 0) await deps.dispatcher.publishPolicies(reverted);
  else if (!isPolicyCommand(updated.name) && updated.runAt === null)
    await deps.dispatcher.publishCancel(updated);
  const history = await repo.findCommandHistory(db, device.id, 200);
  return toHistoryItem(updated, history.find((h) => h.command.id === updated.id)?.createdByName ?? null);
};

/**
 * Takes the edits of cancelled or expired lock/unlock and toggle commands back from their devices'
 * policies: where the policy still holds a command's edit (no later command changed the feature),
 * the feature returns to what the phone reports (a toggle that is on keeps the arguments of its
 * newest done `on` command), as a new policy version. Scheduled commands never edited the policy.
 * Returns the ids of the devices whose policy changed, to publish after commit.
 */
export const revertPolicyEdits = async (tx: DbOrTx, commands: CommandRow[]): Promise<string[]> => {
  const released = commands.filter((c) => c.runAt === null && isPolicyCommand(c.name));
  if (released.length === 0) return [];
  const devices = new Map(
    (
      await repo.findDevicesByIds(
        tx,
        released.map((c) => c.deviceId),
      )
    ).map((d) => [d.id, d]),
  );
  const edits = new Map<string, repo.TPolicyEdit>();
  for (const command of released) {
    const device = devices.get(command.deviceId);
    const found = commandSpecByName(command.name);
    if (!device || !found) continue;
    const edit = edits.get(device.id) ?? { deviceId: device.id };
    if (found.spec.feature === 'lock') {
      if (device.desiredLocked === found.isOn) edit.locked = device.reportedLocked;
    } else {
      const feature = found.spec.feature;
      const own = editPolicy(INITIAL_POLICY, command.name, command.args).controls[feature];
      if (!isSameControl(device.desiredControls[feature], own)) continue;
      const isOn = device.reportedControls[feature] === true;
      const args = isOn
        ? ((await repo.findNewestDoneCommand(tx, device.id, found.spec.on))?.args ?? {})
        : undefined;
      edit.controls = { ...edit.controls, [feature]: isOn ? { on: true, args: args! } : { on: false } };
    }
    edits.set(device.id, edit);
  }
  const changed = [...edits.values()].filter((e) => e.locked !== undefined || e.controls !== undefined);
  await repo.editPolicies(tx, changed);
  return changed.map((e) => e.deviceId);
};

/** Whether `secret` is the device secret stored as `secretHash` (SHA-256 hex), compared in constant time. */
export const matchesDeviceSecret = (secretHash: string | null | undefined, secret: string): boolean =>
  Boolean(secretHash && hexEquals(secretHash, sha256Hex(secret)));

/** True when the id and secret belong to an enrolled device (MQTT authentication). */
export const isValidDeviceSecret = async (db: DbOrTx, deviceId: string, secret: string): Promise<boolean> => {
  if (!/^[0-9a-f-]{36}$/i.test(deviceId)) return false;
  const device = await repo.findDeviceById(db, deviceId);
  return Boolean(device?.enrolledAt) && matchesDeviceSecret(device?.secretHash, secret);
};

/**
 * Records MQTT presence of a device (the embedded broker's connect and disconnect). A disconnect
 * also forgets the connection, so a late event from it does not mark the device online again.
 */
export const setDevicePresence = async (db: DbOrTx, deviceId: string, isOnline: boolean): Promise<void> => {
  if (!/^[0-9a-f-]{36}$/i.test(deviceId)) return;
  await repo.updateDevice(
    db,
    deviceId,
    isOnline ? { isOnline, lastSeenAt: new Date() } : { isOnline, connectionId: null },
  );
};

/**
 * Expires pending commands past the expiry their organisation set (commandExpiryHours), each with
 * an audit entry; returns how many. Organisations without an expiry never lose a command.
 */
export const expireOverdueCommands = async (
  deps: { db: Db; dispatcher: CommandDispatcher },
  now: Date = new Date(),
): Promise<number> => {
  const { expired, reverted } = await deps.db.transaction(async (tx) => {
    const expired = await repo.expireOverdueCommands(tx, now);
    for (const command of expired) {
      await insertAudit(tx, {
        orgId: command.orgId,
        action: 'device.expire',
        entity: 'command',
        entityId: command.id,
        details: { name: command.name, deviceId: command.deviceId },
      });
      if (isPhoneLockingCommand(command.name)) {
        await notifyLockFailed(tx, {
          orgId: command.orgId,
          deviceId: command.deviceId,
          commandId: command.id,
          reason: command.error ?? 'expired before the phone took it',
        });
      }
    }
    return { expired, reverted: await revertPolicyEdits(tx, expired) };
  });
  if (reverted.length > 0) await deps.dispatcher.publishPolicies(reverted);
  return expired.length;
};

/**
 * Why a scheduled command that leaves only a lock screen must not go out now (the lock rule of
 * issue 12 checked again when it comes due), or null when it may: the loan was completed since, or
 * nothing is overdue any more and it was scheduled without a reason.
 */
/**
 * Why a scheduled command must not go out because its creator's access flags (spec §6) no longer
 * allow it (the parent turned a flag off after it was scheduled), or null.
 */
const whyAccessIsWithdrawn = async (db: DbOrTx, command: CommandRow): Promise<string | null> => {
  const found = commandSpecByName(command.name);
  if (!command.createdBy || !found) return null;
  const denied = await firstDeniedFlag(
    db,
    command.createdBy,
    accessFlagsFor(found.spec.feature, command.name),
  );
  return denied ? `not sent: ${denied} was turned off before it was due` : null;
};

const whyScheduledLockIsRefused = (
  command: CommandRow,
  facts:
    | { status: number; instalments: { dueDate: string; amountPaise: number; paidPaise: number }[] }
    | undefined,
  today: string,
): string | null => {
  if (!isPhoneLockingCommand(command.name) || !facts) return null;
  const rule = lockRuleFor(facts, today);
  if (rule.kind === 'refused') return "not sent: the customer's EMIs completed before it was due";
  if (rule.kind === 'needs_reason' && !command.reason)
    return 'not sent: nothing was overdue when it was due, and it had no reason';
  return null;
};

/**
 * Sends the scheduled commands that are due (at most `limit` a run): each is taken once across all
 * server processes (FOR UPDATE SKIP LOCKED), a lock/unlock supersedes a pending opposite and sets
 * the desired state, and the messages go out after commit. A lock (or lost mode) that the lock
 * rule refuses now (loan completed; nothing overdue and no reason) ends `cancelled` with why in its
 * error and an audit entry, and never goes out. Returns how many went out.
 */
export const dispatchDueScheduledCommands = async (
  deps: { db: Db; dispatcher: CommandDispatcher },
  now: Date = new Date(),
  limit = 500,
): Promise<number> => {
  const due = await deps.db.transaction(async (tx) => {
    const locked = await repo.lockDueScheduledCommands(tx, now, limit);
    const today = istDate(now);
    // Every device's facts: a command of any kind may be refused (access withdrawn), and its audit names the customer.
    const facts = await repo.findLockFactsOfDevices(tx, [...new Set(locked.map((c) => c.deviceId))], today);
    const refused: { command: CommandRow; error: string }[] = [];
    const released: CommandRow[] = [];
    for (const command of locked) {
      const error =
        whyScheduledLockIsRefused(command, facts.get(command.deviceId), today) ??
        (await whyAccessIsWithdrawn(tx, command));
      if (error) refused.push({ command, error });
      else released.push(command);
    }
    await repo.endScheduledCommands(
      tx,
      refused.map(({ command, error }) => ({ id: command.id, error })),
      'cancelled',
      now,
    );
    for (const { command, error } of refused) {
      await insertAudit(tx, {
        orgId: command.orgId,
        action: 'device.cancel',
        entity: 'customer',
        entityId: String(facts.get(command.deviceId)!.customerId),
        details: { deviceId: command.deviceId, commandId: command.id, name: command.name, why: error },
      });
    }
    const taken = await repo.releaseScheduledCommands(tx, released, now);
    // releaseScheduledCommands wrote the policy edits; a scheduled lock or toggle half also
    // supersedes a pending other half, as when sent at once.
    for (const command of taken) {
      const found = commandSpecByName(command.name);
      if (found?.spec.kind !== 'toggle') continue;
      const opposite = found.isOn ? found.spec.off! : found.spec.on;
      await repo.cancelPendingCommands(
        tx,
        command.deviceId,
        [opposite],
        `superseded by scheduled ${command.name}`,
      );
    }
    return taken;
  });
  for (const command of due) await deps.dispatcher.dispatch(command);
  return due.length;
};

/**
 * Re-sends what connected phones left unacknowledged (design §5: nothing is lost silently): for
 * every connected device with a pending command not acknowledged within the re-send interval
 * (1 minute after its last publish, doubling per attempt up to 1 hour; see
 * claimUnacknowledgedCommands), publishes all its pending commands again, oldest first, as after a
 * hello. Covers an acknowledgement lost with a server process that died, and a publish that failed
 * while the phone stayed connected. The device applies each id once, so a copy it already has is
 * only acknowledged again. Safe with several server processes. Returns how many messages went out.
 */
export const redeliverUnacknowledgedCommands = async (
  deps: { db: Db; dispatcher: CommandDispatcher },
  now: Date = new Date(),
  limit = 1_000,
): Promise<number> => {
  const deviceIds = await deps.db.transaction((tx) => repo.claimUnacknowledgedCommands(tx, now, limit));
  return deviceIds.length === 0 ? 0 : deps.dispatcher.resendPendingOfDevices(deviceIds, now);
};
