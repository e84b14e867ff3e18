import type { TCommandName } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TDeviceCommand, TDeviceSummary } from '@kisht/domain/devices/devices.schema';
import { v7 as uuidv7 } from 'uuid';
import type { Db, DbOrTx } from '../../db/client';
import type { CommandDispatcher } from '../../device-channel/dispatcher';
import type { TActor } from '../../lib/actor';
import { hexEquals, sha256Hex } from '../../lib/crypto';
import { insertAudit } from '../audit/audit.repository';
import type { CommandRow, DeviceRow } from './devices.repository';
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

/** Reported state plus the newest pending command of a device (design §5). */
export const getDeviceSummary = async (db: DbOrTx, device: DeviceRow): Promise<TDeviceSummary> => {
  const [pending, last] = await Promise.all([
    repo.findNewestPendingCommand(db, device.id),
    repo.findNewestCommand(db, device.id),
  ]);
  return {
    id: device.id,
    enrolledAt: device.enrolledAt?.toISOString() ?? null,
    lockStatus: device.reportedLocked ? 1 : 0,
    lastSeenAt: device.lastSeenAt?.toISOString() ?? null,
    isOnline: device.isOnline,
    pendingCommand: pending ? toCommand(pending) : null,
    lastCommand: last ? toCommand(last) : null,
  };
};

const OPPOSITE: Partial<Record<TCommandName, TCommandName>> = { lock: 'unlock', unlock: 'lock' };

/**
 * Queues a lock or unlock for an enrolled device (transactional outbox, design §5): in one
 * transaction a pending opposite command is cancelled (superseded), the desired state is recorded,
 * the command row and an audit entry are written; the message is published after commit. A
 * pending command of the same name is returned instead of queuing a duplicate.
 * Throws DEVICE_NOT_ENROLLED when the device has not enrolled yet.
 */
export const queueLockCommand = async (
  deps: { db: Db; dispatcher: CommandDispatcher },
  options: { actor: TActor; device: DeviceRow; customerId: number; name: 'lock' | 'unlock' },
): Promise<TDeviceCommand> => {
  const { actor, device, customerId, name } = options;
  if (!device.enrolledAt) {
    throw new AppError(
      AppErrorCode.DEVICE_NOT_ENROLLED,
      'The phone has not been enrolled yet. Scan the enrolment QR first',
    );
  }
  const result = await deps.db.transaction(async (tx) => {
    const pending = await repo.findNewestPendingCommand(tx, device.id);
    if (pending?.name === name) return { command: pending, isNew: false };
    const opposite = OPPOSITE[name]!;
    const cancelled = await repo.cancelPendingCommands(tx, device.id, [opposite], `superseded by ${name}`);
    const command = await repo.insertCommand(tx, {
      id: uuidv7(),
      orgId: actor.orgId,
      deviceId: device.id,
      name,
      createdBy: actor.userId,
    });
    await repo.updateDevice(tx, device.id, { desiredLocked: name === 'lock' });
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: `device.${name}`,
      entity: 'customer',
      entityId: String(customerId),
      details: { deviceId: device.id, commandId: command.id, superseded: cancelled.map((c) => c.id) },
    });
    return { command, isNew: true };
  });
  if (result.isNew) await deps.dispatcher.dispatch(result.command);
  const fresh = await repo.findCommand(deps.db, result.command.id);
  return toCommand(fresh ?? result.command);
};

/**
 * Queues a command that changes no lock state (e.g. emi_alert) for an enrolled device: the command
 * row and an audit entry in one transaction, the message after commit (design §5).
 * Throws DEVICE_NOT_ENROLLED when the device has not enrolled yet.
 */
export const queueDeviceCommand = async (
  deps: { db: Db; dispatcher: CommandDispatcher },
  options: {
    actor: TActor;
    device: DeviceRow;
    customerId: number;
    name: TCommandName;
    args: Record<string, unknown>;
  },
): Promise<TDeviceCommand> => {
  const { actor, device, customerId, name, args } = options;
  if (!device.enrolledAt) {
    throw new AppError(
      AppErrorCode.DEVICE_NOT_ENROLLED,
      'The phone has not been enrolled yet. Scan the enrolment QR first',
    );
  }
  const command = await deps.db.transaction(async (tx) => {
    const inserted = await repo.insertCommand(tx, {
      id: uuidv7(),
      orgId: actor.orgId,
      deviceId: device.id,
      name,
      args,
      createdBy: actor.userId,
    });
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: `device.${name}`,
      entity: 'customer',
      entityId: String(customerId),
      details: { deviceId: device.id, commandId: inserted.id, args },
    });
    return inserted;
  });
  await deps.dispatcher.dispatch(command);
  return toCommand((await repo.findCommand(deps.db, command.id)) ?? command);
};

/** True when the id and secret belong to an enrolled device (MQTT authentication). */
export const isValidDeviceSecret = async (db: DbOrTx, deviceId: string, secret: string): Promise<boolean> => {
  if (!/^[0-9a-f-]{36}$/i.test(deviceId)) return false;
  const device = await repo.findDeviceById(db, deviceId);
  return Boolean(device?.enrolledAt && device.secretHash && hexEquals(device.secretHash, sha256Hex(secret)));
};

/** Records MQTT presence of a device. */
export const setDevicePresence = async (db: DbOrTx, deviceId: string, isOnline: boolean): Promise<void> => {
  if (!/^[0-9a-f-]{36}$/i.test(deviceId)) return;
  await repo.updateDevice(db, deviceId, isOnline ? { isOnline, lastSeenAt: new Date() } : { isOnline });
};
