import { istDate } from '@kisht/domain/common/time';
import { commandSpecByName } from '@kisht/domain/devices/command-catalogue';
import { locksScreen } from '@kisht/domain/devices/command-rules';
import type { DbOrTx } from '../../db/client';
import { insertAudit } from '../audit/audit.repository';
import { notifyLockFailed } from '../notifications/notifications.service';
import { firstDeniedFlag } from '../users/users.service';
import {
  dispatchOutcome,
  loadTargetsOfDevices,
  releaseScheduledOrders,
  revertPolicyEdits,
  type TGateDeps,
} from './command-gate';
import type { CommandRow } from './commands.repository';
import * as commandsRepo from './commands.repository';
import { accessFlagsFor } from './devices.service';

/*
 * The device module's jobs over command rows (design §5: nothing expires silently): expiry,
 * scheduled commands coming due (judged again by the command gate), and the re-send of what
 * connected phones left unacknowledged.
 */

/**
 * Expires pending commands past the expiry their organisation set (commandExpiryHours) or their
 * notAfter, each with an audit entry (and a lock_failed notification for a lock or lost mode); an
 * expired lock or toggle is taken back from the policy (command-gate revertPolicyEdits). Returns
 * how many expired. Organisations without an expiry lose no lock or toggle.
 */
export const expireOverdueCommands = async (deps: TGateDeps, now: Date = new Date()): Promise<number> => {
  const { expired, reverted } = await deps.db.transaction(async (tx) => {
    const expired = await commandsRepo.expireOverdueCommands(tx, now);
    for (const command of expired) {
      await insertAudit(tx, {
        orgId: command.orgId,
        action: 'device.expire',
        entity: 'command',
        entityId: command.id,
        details: { name: command.name, deviceId: command.deviceId },
      });
      if (locksScreen(command.name) && command.name !== 'change_pin') {
        await notifyLockFailed(tx, {
          orgId: command.orgId,
          deviceId: command.deviceId,
          commandId: command.id,
          reason: command.error ?? 'expired before the phone took it',
        });
      }
    }
    const targets = await loadTargetsOfDevices(
      tx,
      expired.map((c) => c.deviceId),
      istDate(now),
    );
    return { expired, reverted: await revertPolicyEdits(tx, expired, targets) };
  });
  if (reverted.length > 0) await deps.dispatcher.publishPolicies(reverted);
  return expired.length;
};

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

/**
 * Sends the scheduled commands that are due (at most `limit` a run): each is taken once across all
 * server processes (FOR UPDATE SKIP LOCKED) and judged again by the command gate
 * (releaseScheduledOrders): one the rules refuse now (the loan completed, the phone released,
 * nothing overdue and no reason) or whose creator lost the access flag ends `cancelled` with why in
 * its error and an audit entry, and never goes out; the others supersede a pending opposite, edit
 * the policy, and go out after commit. Returns how many went out.
 */
export const dispatchDueScheduledCommands = async (
  deps: TGateDeps,
  now: Date = new Date(),
  limit = 500,
): Promise<number> => {
  const released = await deps.db.transaction(async (tx) => {
    const locked = await commandsRepo.lockDueScheduledCommands(tx, now, limit);
    const targets = await loadTargetsOfDevices(
      tx,
      locked.map((c) => c.deviceId),
      istDate(now),
    );
    const withdrawn: { command: CommandRow; error: string }[] = [];
    const stillAllowed: CommandRow[] = [];
    for (const command of locked) {
      const error = await whyAccessIsWithdrawn(tx, command);
      if (error) withdrawn.push({ command, error });
      else stillAllowed.push(command);
    }
    const { released, refused } = await releaseScheduledOrders(tx, stillAllowed, targets, now);
    const ended = [
      ...withdrawn,
      ...refused.map(({ command, refusal }) => ({ command, error: `not sent: ${refusal.message}` })),
    ];
    await commandsRepo.refuseScheduledCommands(
      tx,
      ended.map(({ command, error }) => ({ id: command.id, error })),
      now,
    );
    for (const { command, error } of ended) {
      await insertAudit(tx, {
        orgId: command.orgId,
        action: 'device.cancel',
        entity: 'customer',
        entityId: String(targets.get(command.deviceId)?.customerId ?? 0),
        details: { deviceId: command.deviceId, commandId: command.id, name: command.name, why: error },
      });
    }
    return released;
  });
  await dispatchOutcome(deps.dispatcher, { commands: released, policyDeviceIds: [] });
  return released.length;
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
  deps: TGateDeps,
  now: Date = new Date(),
  limit = 1_000,
): Promise<number> => {
  const deviceIds = await deps.db.transaction((tx) =>
    commandsRepo.claimUnacknowledgedCommands(tx, now, limit),
  );
  return deviceIds.length === 0 ? 0 : deps.dispatcher.resendPendingOfDevices(deviceIds, now);
};

/**
 * Runs each device bridge's reconcile (what its service lost, such as NanoMDM's webhooks posted
 * once: TDeviceBridge.reconcile) and delivers the pending messages of the devices it names again.
 * Returns how many messages went out.
 */
export const reconcileDeviceServices = async (deps: TGateDeps, now: Date = new Date()): Promise<number> => {
  const deviceIds = new Set<string>();
  for (const bridge of Object.values(deps.dispatcher.bridges)) {
    for (const id of (await bridge?.reconcile?.(now)) ?? []) deviceIds.add(id);
  }
  return deviceIds.size === 0 ? 0 : deps.dispatcher.resendPendingOfDevices([...deviceIds], now);
};
