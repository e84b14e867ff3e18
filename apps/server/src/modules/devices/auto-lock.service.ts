import { CustomerStatus, DeviceType } from '@kisht/domain/common/enums';
import { addDays, istDate } from '@kisht/domain/common/time';
import { channelOfDeviceType } from '@kisht/domain/devices/device-families';
import { PHONE_LOCKING_COMMANDS } from '@kisht/domain/devices/devices.rules';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../../db/client';
import { insertAudit } from '../audit/audit.repository';
import { getAutoLockLadder, listAutoLockLadders } from '../orgs/orgs.service';
import type { CommandDispatcher } from './device-outbox.service';
import type { CommandRow, DeviceRow } from './devices.repository';
import * as repo from './devices.repository';

type Deps = { db: Db; dispatcher: CommandDispatcher };

/**
 * The channel of the family that may not be locked over payments (managed Android, Google's
 * permissible-usage rule; isPaymentLockAllowed): the ladder never locks its phones.
 */
const NO_PAYMENT_LOCK_CHANNEL = channelOfDeviceType(DeviceType.MANAGED_ANDROID_API);

const rupees = (paise: number) =>
  `₹${(paise / 100).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const ddmmyyyy = (isoDate: string) => isoDate.split('-').reverse().join('-');

/**
 * One run of every organisation's auto-lock ladder (issue 5, design §1 jobs) on `today` (+05:30):
 * an EMI reminder wallpaper `reminderDaysBefore` days before a due date (once per instalment; only
 * phones of Kisht's own channel, the MDM families having no wallpaper command), and
 * a lock for every phone with an instalment more than `lockAfterDaysOverdue` days overdue. Devices
 * are taken with FOR UPDATE SKIP LOCKED and a pending lock or sent reminder is checked in the same
 * transaction, so two server processes running it together create each command once. A phone of a
 * family that may not be locked over payments (managed Android, Google's permissible-usage rule;
 * NO_PAYMENT_LOCK_CHANNEL) is never locked by the ladder. Commands
 * carry no user (createdBy null) and an audit entry each; they go out after commit.
 * Returns how many reminders and locks were queued.
 */
export const runAutoLockLadder = async (
  deps: Deps,
  today: string = istDate(),
): Promise<{ reminders: number; locks: number }> => {
  let reminders = 0;
  let locks = 0;
  for (const { orgId, ladder } of await listAutoLockLadders(deps.db)) {
    const queued: CommandRow[] = [];
    await deps.db.transaction(async (tx) => {
      if (ladder.reminderDaysBefore !== null && ladder.reminderDaysBefore >= 0) {
        const dueDate = addDays(today, ladder.reminderDaysBefore);
        for (const row of await repo.lockDevicesForReminder(tx, orgId, dueDate)) {
          // An iPhone or a managed-Android phone has no wallpaper command (issue 15): no reminder
          // that could only fail.
          if (row.device.channel !== 'mqtt') continue;
          if (await repo.hasReminderFor(tx, row.device.id, row.emiId)) continue;
          const text = `EMI of ${rupees(row.owedPaise)} is due on ${ddmmyyyy(dueDate)}. Please pay on time.`;
          queued.push(
            await insertSystemCommand(tx, row.device, row.customerId, 'set_wallpaper', {
              text,
              emiId: row.emiId,
            }),
          );
          reminders += 1;
        }
      }
      if (ladder.lockAfterDaysOverdue !== null && ladder.lockAfterDaysOverdue >= 0) {
        // Overdue by more than M days: due on or before today − (M + 1).
        const dueOnOrBefore = addDays(today, -(ladder.lockAfterDaysOverdue + 1));
        for (const row of await repo.lockDevicesForAutoLock(tx, orgId, dueOnOrBefore)) {
          // A ladder lock is payment-driven: never for a managed-Android phone (issue 15).
          if (row.device.channel === NO_PAYMENT_LOCK_CHANNEL) continue;
          await repo.cancelPendingCommands(tx, row.device.id, ['unlock'], 'superseded by auto-lock');
          queued.push(
            await insertSystemCommand(tx, row.device, row.customerId, 'lock', { reason: 'overdue' }),
          );
          locks += 1;
        }
      }
    });
    for (const command of queued) await deps.dispatcher.dispatch(command);
  }
  return { reminders, locks };
};

const insertSystemCommand = async (
  tx: Parameters<Parameters<Db['transaction']>[0]>[0],
  device: DeviceRow,
  customerId: number,
  name: 'lock' | 'unlock' | 'set_wallpaper',
  args: Record<string, unknown>,
): Promise<CommandRow> => {
  const command = await repo.insertCommand(tx, {
    id: uuidv7(),
    orgId: device.orgId,
    deviceId: device.id,
    name,
    args,
    createdBy: null,
  });
  await insertAudit(tx, {
    orgId: device.orgId,
    actorUserId: null,
    action: `device.auto_${name}`,
    entity: 'customer',
    entityId: String(customerId),
    details: { deviceId: device.id, commandId: command.id, args },
  });
  return command;
};

/** Why a completed loan's pending locks were cancelled (their error in the history). */
export const LOAN_COMPLETED_CANCEL = "cancelled: the customer's EMIs completed";

/**
 * A loan that reached status 5 (EMIs completed, after a payment or waiver): the phone is the
 * customer's. In one transaction every pending lock and lost mode of the device (scheduled ones
 * too) is cancelled, with why in its error and an audit entry, and, when we intend it locked or it
 * reports locked, an unlock is queued (system, audited; a new policy version), whatever the
 * organisation's autoUnlock says. Returns whether an unlock was queued.
 */
const releaseCompletedLoan = async (
  deps: Deps,
  target: { orgId: number; customerId: number; device: DeviceRow },
): Promise<boolean> => {
  const command = await deps.db.transaction(async (tx) => {
    const device = await repo.lockDeviceForUpdate(tx, target.device.id);
    if (!device) return null;
    const cancelled = await repo.cancelPendingAndScheduledCommands(
      tx,
      device.id,
      PHONE_LOCKING_COMMANDS,
      LOAN_COMPLETED_CANCEL,
    );
    for (const row of cancelled) {
      await insertAudit(tx, {
        orgId: device.orgId,
        actorUserId: null,
        action: 'device.cancel',
        entity: 'customer',
        entityId: String(target.customerId),
        details: { deviceId: device.id, commandId: row.id, name: row.name, why: LOAN_COMPLETED_CANCEL },
      });
    }
    if (!device.enrolledAt || !(device.desiredLocked || device.reportedLocked)) return null;
    await repo.cancelPendingCommands(
      tx,
      device.id,
      ['unlock'],
      'superseded by the unlock of a completed loan',
    );
    return insertSystemCommand(tx, device, target.customerId, 'unlock', { reason: 'EMIs completed' });
  });
  if (command) await deps.dispatcher.dispatch(command);
  return command !== null;
};

/**
 * The ladder's last rung: when the organisation has autoUnlock on and a customer whose phone we
 * intend locked has nothing overdue any more (paid or waived), queue an unlock (system, audited).
 * A customer whose EMIs are now completed (status 5) is released whatever autoUnlock says: pending
 * locks cancelled and the phone unlocked (releaseCompletedLoan). Returns whether an unlock was queued.
 */
export const autoUnlockIfCleared = async (
  deps: Deps,
  target: { orgId: number; customerId: number; device: DeviceRow },
  today: string = istDate(),
): Promise<boolean> => {
  const facts = (await repo.findLockFactsOfDevices(deps.db, [target.device.id], today)).get(target.device.id);
  if (facts?.status === CustomerStatus.EMI_COMPLETED) return releaseCompletedLoan(deps, target);
  const ladder = await getAutoLockLadder(deps.db, target.orgId);
  if (!ladder?.autoUnlock || !target.device.enrolledAt) return false;
  const command = await deps.db.transaction(async (tx) => {
    const device = await repo.lockDeviceIfClearedAndLocked(tx, target.device.id, today);
    if (!device) return null;
    await repo.cancelPendingCommands(tx, device.id, ['lock'], 'superseded by auto-unlock');
    return insertSystemCommand(tx, device, target.customerId, 'unlock', { reason: 'overdue paid' });
  });
  if (command) await deps.dispatcher.dispatch(command);
  return command !== null;
};
