import { COMMAND_STATES, type TCommandState } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { istDate } from '@kisht/domain/common/time';
import { bulkExclusionReason } from '@kisht/domain/customers/customers.rules';
import { controlAvailability } from '@kisht/domain/devices/control-availability';
import { isPaymentLockAllowed } from '@kisht/domain/devices/device-families';
import { lockRuleFor } from '@kisht/domain/devices/devices.rules';
import type {
  TBulkPreview,
  TBulkPreviewQuery,
  TBulkProgress,
  TOfflineCommand,
  ZBulkLockRequest,
} from '@kisht/domain/devices/devices.schema';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import { findBulkTargets, scopeOf } from '../customers/customers.service';
import { getDeviceSettings } from '../orgs/orgs.service';
import { requireAccess } from '../users/users.service';
import type { CommandDispatcher } from './device-outbox.service';
import * as repo from './devices.repository';
import { toHistoryItem } from './devices.service';

/** Why a bulk lock leaves a customer out: nothing overdue (a bulk lock carries no reason; issue 12). */
export const NOTHING_OVERDUE_SKIP = 'nothing overdue';
/**
 * Why a bulk lock leaves a managed-Android customer out: a bulk lock is payment-driven, which
 * Google's permissible-usage rule forbids for the Android Management API (issue 15).
 */
export const PAYMENT_LOCK_NOT_ALLOWED_SKIP = 'managed Android: no lock for a missed payment (Google policy)';

/**
 * The customers of a bulk request that would get the command, and those skipped with the reason
 * (EMIs completed, uninstalled, Apple-removed; not enrolled; spec §6 does not offer lock; for a
 * lock, nothing overdue today, +05:30, as a bulk lock has no reason to give: lockRuleFor; and, as
 * a bulk lock is payment-driven, a managed-Android phone: isPaymentLockAllowed, issue 15). Throws
 * FORBIDDEN without the bulk_retailer and lock flags, CUSTOMER_NOT_FOUND (field customer_ids) when
 * any chosen id is outside the actor's scope.
 */
const bulkTargets = async (
  db: Db,
  actor: TActor,
  request: {
    action: 'lock' | 'unlock';
    customer_ids?: number[] | undefined;
    filter?: 'all_enrolled' | 'overdue' | undefined;
  },
) => {
  await requireAccess(db, actor, ['user.bulk_retailer', 'user.lock_unlock', `lock.${request.action}`]);
  const targets = await findBulkTargets(
    db,
    actor,
    request.customer_ids ? { customerIds: request.customer_ids } : { filter: request.filter! },
  );
  const { allowedControls } = await getDeviceSettings(db, actor.orgId);
  const skipped: TBulkProgress['skipped'] = [];
  const eligible = targets.filter(({ customer, device }) => {
    const excludedBecause = bulkExclusionReason(customer.status);
    if (excludedBecause) {
      skipped.push({ customerId: customer.id, reason: excludedBecause });
      return false;
    }
    if (!device.enrolledAt) {
      skipped.push({ customerId: customer.id, reason: 'not enrolled' });
      return false;
    }
    const offered = controlAvailability({
      deviceType: customer.deviceType,
      isLocked: device.reportedLocked,
      allowedList: allowedControls,
    });
    if (!offered.controls.includes('lock')) {
      skipped.push({ customerId: customer.id, reason: 'not available for this phone' });
      return false;
    }
    return true;
  });
  if (request.action === 'unlock') return { eligible, skipped };
  const today = istDate();
  const facts = await repo.findLockFactsOfDevices(
    db,
    eligible.map(({ device }) => device.id),
    today,
  );
  const overdue = eligible.filter(({ customer, device }) => {
    if (!isPaymentLockAllowed(customer.deviceType)) {
      skipped.push({ customerId: customer.id, reason: PAYMENT_LOCK_NOT_ALLOWED_SKIP });
      return false;
    }
    const loan = facts.get(device.id);
    if (loan && lockRuleFor(loan, today).kind === 'overdue') return true;
    skipped.push({ customerId: customer.id, reason: NOTHING_OVERDUE_SKIP });
    return false;
  });
  skipped.sort((a, b) => a.customerId - b.customerId);
  return { eligible: overdue, skipped };
};

/**
 * multiple_lock_unlock's confirmation: how many phones a bulk request with this filter would send
 * the command to, and how many customers it would skip; nothing is written. Throws as
 * bulkLockUnlock (FORBIDDEN without the bulk_retailer and lock flags).
 */
export const previewBulkLockUnlock = async (
  db: Db,
  options: { actor: TActor; query: TBulkPreviewQuery },
): Promise<TBulkPreview> => {
  const { eligible, skipped } = await bulkTargets(db, options.actor, options.query);
  return { total: eligible.length, skipped: skipped.length };
};

/**
 * multiple_device_lock_unlock: locks or unlocks many phones. In ONE transaction every command row
 * is written (with a shared batch id), pending opposite commands are superseded, desired states set
 * and one audit entry written; messages are published after commit. The filters never reach
 * customers uninstalled, Apple-removed or with EMIs completed; chosen by hand, they are skipped with
 * that reason, as are customers whose phone has not enrolled or for whom spec §6 does not offer the
 * command; a pending identical command is reused. Throws FORBIDDEN without the bulk_retailer and
 * lock flags, CUSTOMER_NOT_FOUND (field customer_ids) when any chosen id is outside the actor's
 * scope.
 */
export const bulkLockUnlock = async (
  deps: { db: Db; dispatcher: CommandDispatcher },
  options: { actor: TActor; request: z.output<typeof ZBulkLockRequest> },
): Promise<TBulkProgress> => {
  const { actor, request } = options;
  const { eligible, skipped } = await bulkTargets(deps.db, actor, request);
  const { commandExpiryHours } = await getDeviceSettings(deps.db, actor.orgId);
  const opposite = request.action === 'lock' ? 'unlock' : 'lock';
  const batchId = uuidv7();
  const expiresAt = commandExpiryHours ? new Date(Date.now() + commandExpiryHours * 3_600_000) : null;
  const inserted = await deps.db.transaction(async (tx) => {
    await repo.cancelPendingCommandsOfDevices(
      tx,
      eligible.map(({ device }) => device.id),
      [opposite],
      `superseded by bulk ${request.action}`,
    );
    const rows = [];
    for (const { device } of eligible) {
      rows.push({
        id: uuidv7(),
        orgId: actor.orgId,
        deviceId: device.id,
        name: request.action,
        args: {},
        createdBy: actor.userId,
        batchId,
        expiresAt,
      });
    }
    const commands = await repo.insertCommandsInChunks(tx, rows);
    // insertCommands wrote each phone's policy edit (desired lock state, a new policy version).
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: `device.bulk_${request.action}`,
      entity: 'batch',
      entityId: batchId,
      details: { total: commands.length, skipped, filter: request.filter ?? null },
    });
    return commands;
  });
  // The rows are committed: publishing goes on in the background and the screen follows progress.
  // Anything not published (a crash, a broker hiccup) stays queued and goes out on the next hello.
  void deps.dispatcher.dispatchMany(inserted).catch(() => undefined);
  return getBulkProgress(deps.db, actor, batchId, { known: { action: request.action, skipped } });
};

/**
 * How far before a poll's `since` its changed items are read again, ms: a row's updated_at is
 * taken just before its (short) transaction writes it, so one that commits just after an answer
 * was read may carry an earlier time. Items read twice are simply replaced again by the caller,
 * and the counts never depend on it (the web app reads every item once more when the batch ends).
 */
export const BULK_PROGRESS_OVERLAP_MS = 2_000;

/**
 * Progress of a bulk request: counts by state from one aggregate (never the rows), and the items
 * (each device's command): all of them, or with `options.since` (an earlier answer's cursor) only
 * those changed since (isChangesOnly). Throws NOT_FOUND (field batch_id) when no command of the
 * batch belongs to the actor's customers.
 */
export const getBulkProgress = async (
  db: DbOrTx,
  actor: TActor,
  batchId: string,
  options: { since?: Date; known?: { action: 'lock' | 'unlock'; skipped: TBulkProgress['skipped'] } } = {},
): Promise<TBulkProgress> => {
  const { since, known } = options;
  const cursor = new Date().toISOString();
  const scope = await scopeOf(db, actor);
  const [groups, rows] = await Promise.all([
    repo.countBatchCommandsInScope(db, scope, batchId),
    repo.findBatchCommands(
      db,
      scope,
      batchId,
      since ? new Date(since.getTime() - BULK_PROGRESS_OVERLAP_MS) : undefined,
    ),
  ]);
  if (groups.length === 0 && !known) {
    throw new AppError(AppErrorCode.NOT_FOUND, 'Bulk request not found', [
      { field: 'batch_id', message: 'No such bulk request' },
    ]);
  }
  const counts = Object.fromEntries(COMMAND_STATES.map((s) => [s, 0])) as Record<TCommandState, number>;
  for (const group of groups) counts[group.state as TCommandState] += group.count;
  const skipped = known?.skipped ?? (await repo.findBatchSkipped(db, actor.orgId, batchId));
  return {
    batchId,
    action: known?.action ?? (groups.some((group) => group.name === 'unlock') ? 'unlock' : 'lock'),
    total: groups.reduce((sum, group) => sum + group.count, 0),
    counts,
    skipped,
    items: rows.map((row) => ({
      customerId: row.customerId,
      customerName: `${row.firstName} ${row.lastName}`,
      commandId: row.command.id,
      state: row.command.state as TCommandState,
      error: row.command.error,
    })),
    isChangesOnly: since !== undefined,
    cursor,
  };
};

/** offline_command_log: commands still waiting for the actor's customers' offline phones, oldest first (at most 500). */
export const listOfflineCommands = (db: DbOrTx, actor: TActor): Promise<TOfflineCommand[]> =>
  listPendingInScope(db, actor, 'offline');

/** scheduled_commands: commands of the actor's customers waiting for their run_at, soonest first (at most 500). */
export const listScheduledCommands = (db: DbOrTx, actor: TActor): Promise<TOfflineCommand[]> =>
  listPendingInScope(db, actor, 'scheduled');

const listPendingInScope = async (
  db: DbOrTx,
  actor: TActor,
  kind: 'offline' | 'scheduled',
): Promise<TOfflineCommand[]> =>
  (await repo.findPendingInScope(db, await scopeOf(db, actor), kind, 500)).map((row) => ({
    ...toHistoryItem(row.command, row.createdByName),
    customerId: row.customerId,
    customerName: `${row.firstName} ${row.lastName}`,
  }));
