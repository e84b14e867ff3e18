import {
  CONTROL_FEATURES,
  type TCommandName,
  type TControlFeature,
  type TMessageFeature,
} from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { commandSpecByName, type TCommandSpec } from '@kisht/domain/devices/command-catalogue';
import { controlAvailability } from '@kisht/domain/devices/control-availability';
import type {
  TCommandHistoryItem,
  TDeviceCommand,
  TDeviceSummary,
  TLockAccess,
  TUserAccess,
} from '@kisht/domain/devices/devices.schema';
import type { DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { hexEquals, sha256Hex } from '../../lib/crypto';
import { getDeviceSettings } from '../orgs/orgs.service';
import { getAccessFlags, type TAccessFlag } from '../users/users.service';
import type { CommandRow } from './commands.repository';
import * as commandsRepo from './commands.repository';
import type { DeviceRow } from './devices.repository';
import * as repo from './devices.repository';

export type { CommandRow } from './commands.repository';
export type { DeviceRow } from './devices.repository';

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
  const { pending, newest: last } = await commandsRepo.findPendingAndNewestCommand(db, device.id);
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
    paidThrough: device.desiredPaidThrough?.toISOString() ?? null,
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
  reasonCategory: (row.reasonCategory as TCommandHistoryItem['reasonCategory']) ?? null,
  reason: row.reason,
});

/**
 * The arguments of `spec`'s `on` command, checked against its catalogue schema (COMMAND_CATALOGUE)
 * and as the schema outputs them. Throws VALIDATION_FAILED (400) naming each `args.<field>`.
 */
export const parseCommandArgs = (
  spec: TCommandSpec,
  raw: Record<string, unknown>,
): Record<string, unknown> => {
  const parsed = (spec.requestArgs ?? spec.args).safeParse(raw);
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

/** A device's commands, newest first (at most 200), for customer_details. */
export const listCommandHistory = async (db: DbOrTx, device: DeviceRow): Promise<TCommandHistoryItem[]> =>
  (await commandsRepo.findCommandHistory(db, device.id, 200)).map((row) =>
    toHistoryItem(row.command, row.createdByName),
  );

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
 * The device summary of customer_details for an actor (spec §6 availability with the actor's
 * access flags and the organisation's allowed list). Without lock access `read` (spec §6, '0') the
 * lock state and command information are blanked: lockStatus, pendingCommand and lastCommand null,
 * pendingControls empty (the command history refuses such an actor with 403 naming lock.read; the
 * rest of customer_details still answers).
 */
export const getDeviceSummaryForActor = async (
  db: DbOrTx,
  actor: TActor,
  target: { deviceType: number; appType: number; device: DeviceRow },
): Promise<TDeviceSummary> => {
  const [access, settings] = await Promise.all([getAccessFlags(db, actor), getDeviceSettings(db, actor)]);
  const availability = availabilityFor({
    deviceType: target.deviceType,
    appType: target.appType,
    isLocked: target.device.reportedLocked,
    allowedControls: settings.allowedControls,
    access,
  });
  const summary = await getDeviceSummary(db, target.device, availability);
  if (access.lockAccess.read === '1') return summary;
  return { ...summary, lockStatus: null, pendingCommand: null, lastCommand: null, pendingControls: {} };
};
