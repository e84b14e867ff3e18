import { COMMAND_STALE_AFTER_MS, isPolicyCommand } from '@kisht/domain/devices/device-policy';
import {
  type TCommandMessage,
  type TDeviceEvent,
  type TLockScreen,
  type TPolicyVersion,
  ZDeviceEvent,
  ZLockScreen,
} from '@kisht/domain/devices/protocol.schema';
import type { CommandRow } from './commands.repository';
import type { DeviceRow } from './devices.repository';

/**
 * The `notAfter` of a one-shot command: set when it went out (see insertCommand), else its expiry,
 * else COMMAND_STALE_AFTER_MS after it was written.
 */
export const notAfterOf = (command: Pick<CommandRow, 'notAfter' | 'expiresAt' | 'createdAt'>): Date =>
  command.notAfter ?? command.expiresAt ?? new Date(command.createdAt.getTime() + COMMAND_STALE_AFTER_MS);

/**
 * The command message for a one-shot command row (device protocol §7): the row id is the message
 * id; `policyVersion` is the device's policy version when it is sent, which the device applies
 * first. Throws Error for a lock/unlock or toggle, which travel as policies.
 */
export const commandMessage = (command: CommandRow, policyVersion: number): TCommandMessage => {
  if (isPolicyCommand(command.name)) throw new Error(`${command.name} travels as a policy, not a command`);
  return {
    type: 'command',
    deviceId: command.deviceId,
    id: command.id,
    name: command.name,
    args: command.args,
    issuedAt: command.createdAt.toISOString(),
    notAfter: notAfterOf(command).toISOString(),
    policyVersion,
  };
};

/**
 * The lock screen a device's policy carries: its desired_lock_screen when that is a ZLockScreen
 * (the server writes nothing else there), else null, so a bad row can never make the phone refuse
 * the whole signed policy.
 */
const lockScreenOf = (device: DeviceRow): TLockScreen | null => {
  const parsed = ZLockScreen.safeParse(device.desiredLockScreen);
  return parsed.success ? parsed.data : null;
};

/**
 * A device's current policy version as it goes out (device protocol §6): the desired lock state,
 * toggles, offline limit, paid-through date (§12.5) and lock screen (§9.2), and the pending lock/toggle commands it carries
 * out (`commands`, oldest first).
 */
export const policyVersionOf = (device: DeviceRow, commands: CommandRow[]): TPolicyVersion => ({
  version: device.policyVersion,
  policy: {
    locked: device.desiredLocked,
    controls: device.desiredControls,
    offlineLockAfterMs: device.desiredOfflineLockAfterMs,
    paidThrough: device.desiredPaidThrough?.toISOString() ?? null,
    lockScreen: lockScreenOf(device),
  },
  commands: commands.map((command) => ({ id: command.id, name: command.name })),
  issuedAt: (device.policyUpdatedAt ?? device.createdAt).toISOString(),
});

/** Parses a device event; returns null (and the reason) for anything malformed. */
export const parseDeviceEvent = (payload: Buffer): { event: TDeviceEvent } | { error: string } => {
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return { error: 'not JSON' };
  }
  const result = ZDeviceEvent.safeParse(json);
  return result.success
    ? { event: result.data }
    : { error: result.error.issues.map((i) => i.path.join('.')).join(', ') };
};
