import type { TControlCommandName } from '@kisht/domain/audit/audit-events';
import { CustomerStatus } from '@kisht/domain/common/enums';
import { formatRupees } from '@kisht/domain/common/format';
import { addDays, istDate } from '@kisht/domain/common/time';
import type { DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { getAutoLockLadder, listAutoLockLadders } from '../orgs/orgs.service';
import {
  dispatchOutcome,
  enqueueOrders,
  loadTargets,
  loadTargetsOfDevices,
  type TCommandTarget,
  type TGateDeps,
  type TOrder,
} from './command-gate';
import * as commandsRepo from './commands.repository';
import * as targetsRepo from './targets.repository';

/** The loans the ladder locks for: installed and maturing ones (a deactivated customer is left alone). */
const LADDER_STATUSES = [CustomerStatus.INSTALL, CustomerStatus.EMI_MATURING];

const ddmmyyyy = (isoDate: string) => isoDate.split('-').reverse().join('-');

/**
 * A command of the auto-lock ladder (no user: createdBy null), audited as `device.auto_<name>`.
 * A lock is for the overdue EMI (reason category overdue_emi), so the command gate refuses it for
 * a family that may not be locked over payments (managed Android, Google's permissible-usage rule)
 * and for a paid-up or released customer.
 */
const systemOrder = (
  target: TCommandTarget,
  name: TControlCommandName,
  args: Record<string, unknown>,
  options: { category?: 'overdue_emi'; supersedes?: string[]; supersededBecause?: string } = {},
): TOrder => ({
  target,
  name,
  reason: options.category ? { category: options.category } : undefined,
  row: {
    args,
    createdBy: null,
    supersedes: options.supersedes ?? [],
    supersededBecause: options.supersededBecause,
  },
  audit: ({ command, reason }) => ({
    orgId: target.orgId,
    actorUserId: null,
    action: `device.auto_${name}`,
    entity: 'customer',
    entityId: String(target.customerId),
    details: {
      deviceId: target.device.id,
      commandId: command!.id,
      args,
      ...(reason ? { reasonCategory: reason.category } : {}),
    },
  }),
});

/**
 * The rows a job took FOR UPDATE, each with its command target (command-gate loadTargetsOfDevices,
 * one read); a row whose target is gone is left out.
 */
const withTargets = async <R extends { device: { id: string } }>(tx: DbOrTx, rows: R[], today: string) => {
  const targets = await loadTargetsOfDevices(
    tx,
    rows.map((row) => row.device.id),
    today,
  );
  return rows.flatMap((row) => {
    const target = targets.get(row.device.id);
    return target ? [{ row, target }] : [];
  });
};

/**
 * One run of every organisation's auto-lock ladder (issue 5, design §1 jobs) on `today` (+05:30),
 * through the command gate: an EMI reminder wallpaper `reminderDaysBefore` days before a due date
 * (once per instalment; only phones of Kisht's own channel, the MDM families having no wallpaper
 * command), and a lock (reason overdue EMI) for every phone with an instalment more than
 * `lockAfterDaysOverdue` days overdue. Devices are taken with FOR UPDATE SKIP LOCKED and a pending
 * lock or sent reminder is checked in the same transaction, so two server processes running it
 * together create each command once. The gate refuses what the rules forbid (a managed-Android
 * phone is never locked over a payment, a paid-up phone never), which the ladder then skips.
 * Commands go out after commit. Returns how many reminders and locks were queued.
 */
export const runAutoLockLadder = async (
  deps: TGateDeps,
  today: string = istDate(),
): Promise<{ reminders: number; locks: number }> => {
  let reminders = 0;
  let locks = 0;
  for (const { orgId, ladder } of await listAutoLockLadders(deps.db)) {
    const outcome = await deps.db.transaction(async (tx) => {
      const orders: TOrder[] = [];
      if (ladder.reminderDaysBefore !== null && ladder.reminderDaysBefore >= 0) {
        const dueDate = addDays(today, ladder.reminderDaysBefore);
        const rows = await targetsRepo.lockDevicesForReminder(tx, orgId, dueDate);
        for (const { row, target } of await withTargets(tx, rows, today)) {
          // An iPhone or a managed-Android phone has no wallpaper command (issue 15): no reminder
          // that could only fail.
          if (row.device.channel !== 'mqtt') continue;
          if (await commandsRepo.hasReminderFor(tx, row.device.id, row.emiId)) continue;
          const text = `EMI of ${formatRupees(row.owedPaise)} is due on ${ddmmyyyy(dueDate)}. Please pay on time.`;
          orders.push(systemOrder(target, 'set_wallpaper', { text, emiId: row.emiId }));
        }
      }
      if (ladder.lockAfterDaysOverdue !== null && ladder.lockAfterDaysOverdue >= 0) {
        // Overdue by more than M days: due on or before today − (M + 1).
        const dueOnOrBefore = addDays(today, -(ladder.lockAfterDaysOverdue + 1));
        const rows = await targetsRepo.lockDevicesForAutoLock(tx, orgId, dueOnOrBefore, LADDER_STATUSES);
        for (const { target } of await withTargets(tx, rows, today)) {
          orders.push(
            systemOrder(
              target,
              'lock',
              {},
              {
                category: 'overdue_emi',
                supersedes: ['unlock'],
                supersededBecause: 'superseded by auto-lock',
              },
            ),
          );
        }
      }
      return enqueueOrders(tx, orders, { onRefused: 'skip' });
    });
    for (const command of outcome.commands) {
      if (command.name === 'lock') locks += 1;
      else reminders += 1;
    }
    await dispatchOutcome(deps.dispatcher, outcome);
  }
  return { reminders, locks };
};

/**
 * The ladder's last rung: when the organisation has autoUnlock on and a customer whose phone we
 * intend locked (or that reports locked) has nothing overdue any more (paid or waived), an unlock
 * goes out through the gate (system, audited). A paid-up customer (status 5) was freed by the
 * payoff in the payment's own transaction (freePhoneOnPayoff), so nothing more happens here.
 * With `actor` (the request's, of the same organisation) its session read's organisation settings
 * are used instead of a read. Returns whether an unlock was queued.
 */
export const autoUnlockIfCleared = async (
  deps: TGateDeps,
  target: { orgId: number; customerId: number; deviceId: string },
  options: { today?: string | undefined; actor?: TActor | undefined } = {},
): Promise<boolean> => {
  const today = options.today ?? istDate();
  const ladder = await getAutoLockLadder(
    deps.db,
    options.actor?.orgId === target.orgId ? options.actor : target.orgId,
  );
  if (!ladder?.autoUnlock) return false;
  const outcome = await deps.db.transaction(async (tx) => {
    const device = await targetsRepo.lockDeviceIfClearedAndLocked(tx, target.deviceId, today);
    if (!device?.enrolledAt) return null;
    const loaded = (await loadTargetsOfDevices(tx, [device.id], today)).get(device.id);
    if (!loaded || loaded.status === CustomerStatus.EMI_COMPLETED) return null;
    return enqueueOrders(
      tx,
      [
        systemOrder(
          loaded,
          'unlock',
          { reason: 'overdue paid' },
          {
            supersedes: ['lock'],
            supersededBecause: 'superseded by auto-unlock',
          },
        ),
      ],
      {
        onRefused: 'skip',
      },
    );
  });
  if (!outcome || outcome.commands.length === 0) return false;
  await dispatchOutcome(deps.dispatcher, outcome);
  return true;
};

/**
 * A payment reminder on the phone (issue 29, modules/reminders): the emi_alert command with what
 * is due (`args`, the command catalogue's emi_alert arguments), as the ladder writes its own (no
 * user), through the command gate and out after commit. Answers the command's id, or why the gate
 * refused it (a phone never enrolled, a released customer, a family without the command) or that
 * the customer has no phone.
 */
export const remindOnPhone = async (
  deps: TGateDeps,
  options: { orgId: number; customerId: number; args: Record<string, unknown>; today?: string },
): Promise<{ commandId: string } | { refused: string }> => {
  const today = options.today ?? istDate();
  const [target] = await loadTargets(
    deps.db,
    { orgId: options.orgId },
    { customerIds: [options.customerId] },
    today,
  );
  if (!target) return { refused: 'The customer has no phone' };
  const outcome = await deps.db.transaction((tx) =>
    enqueueOrders(tx, [systemOrder(target, 'emi_alert', options.args)], { onRefused: 'skip' }),
  );
  const [refusal] = outcome.refused;
  if (refusal) return { refused: refusal.refusal.message };
  await dispatchOutcome(deps.dispatcher, outcome);
  const [command] = outcome.commands;
  return command ? { commandId: command.id } : { refused: 'Nothing was written' };
};
