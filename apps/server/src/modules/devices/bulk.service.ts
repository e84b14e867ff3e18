import { COMMAND_STATES, type TCommandState } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { BULK_EXCLUDED_STATUSES, bulkExclusionReason } from '@kisht/domain/customers/customers.rules';
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
import { scopeOf } from '../scope/scope.service';
import { requireAccess } from '../users/users.service';
import * as batchesRepo from './bulk-batches.repository';
import {
  bulkOrderOf,
  FIRST_CHUNK,
  SKIP_REASONS,
  writeBatchChunk,
  writeRestOfBatch,
} from './bulk-batches.service';
import { judgeOrder, loadTargets, type TGateDeps, type TOrder } from './command-gate';
import * as repo from './commands.repository';
import { toHistoryItem } from './devices.service';

type TBulkRequest = {
  action: 'lock' | 'unlock';
  customer_ids?: number[] | undefined;
  filter?: 'all_enrolled' | 'overdue' | undefined;
};

/**
 * The targets of a bulk lock or unlock and their orders for the command gate: the actor's chosen
 * customers or a filter's (which never reaches customers uninstalled, Apple-removed or with EMIs
 * completed; chosen by hand, those are skipped with that reason). A bulk lock is for overdue EMIs:
 * its orders carry the reason category `overdue_emi`, so the gate refuses a customer with nothing
 * overdue and a managed-Android phone (Google's rule). Throws FORBIDDEN without the bulk_retailer
 * and lock flags, CUSTOMER_NOT_FOUND (field customer_ids) when any chosen id is outside the
 * actor's scope.
 */
const bulkOrders = async (db: Db, actor: TActor, request: TBulkRequest, batchId: string | null) => {
  await requireAccess(db, actor, ['user.bulk_retailer', 'user.lock_unlock', `lock.${request.action}`]);
  const chosen = request.customer_ids ? [...new Set(request.customer_ids)] : null;
  const targets = await loadTargets(
    db,
    { actor },
    chosen ? { customerIds: chosen } : { filter: request.filter!, excludedStatuses: BULK_EXCLUDED_STATUSES },
  );
  if (chosen && targets.length !== chosen.length) {
    throw new AppError(AppErrorCode.CUSTOMER_NOT_FOUND, 'Some customers were not found', [
      { field: 'customer_ids', message: 'Some of these customers are not yours' },
    ]);
  }
  const skipped: TBulkProgress['skipped'] = [];
  const orders: TOrder[] = [];
  for (const target of targets) {
    const excludedBecause = bulkExclusionReason(target.status);
    if (excludedBecause) skipped.push({ customerId: target.customerId, reason: excludedBecause });
    else orders.push(bulkOrderOf(target, { action: request.action, createdBy: actor.userId, batchId }));
  }
  return { orders, skipped };
};

/** The orders the gate would accept and the customers it would skip with why (nothing written). */
const judgeBulk = (orders: TOrder[], skipped: TBulkProgress['skipped']) => {
  const accepted: TOrder[] = [];
  for (const order of orders) {
    const verdict = judgeOrder(order);
    if (verdict.ok) accepted.push(order);
    else skipped.push({ customerId: order.target.customerId, reason: SKIP_REASONS[verdict.refusal.code] });
  }
  skipped.sort((a, b) => a.customerId - b.customerId);
  return { accepted, skipped };
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
  const { orders, skipped } = await bulkOrders(db, options.actor, options.query, null);
  const { accepted } = judgeBulk(orders, skipped);
  return { total: accepted.length, skipped: skipped.length };
};

/**
 * multiple_device_lock_unlock: locks or unlocks many phones through the command gate, as a job
 * (issue 26). The request judges every customer (those the audience leaves out or the gate refuses
 * are skipped with why: bulkOrders, SKIP_REASONS), writes the batch with the accepted ones and its
 * audit entry in one statement, writes and publishes the first FIRST_CHUNK commands, and answers;
 * the rest are written and published CHUNK at a time after the answer (bulk-batches.service),
 * while the screen follows the progress. Throws as bulkOrders.
 */
export const bulkLockUnlock = async (
  deps: TGateDeps,
  options: { actor: TActor; request: z.output<typeof ZBulkLockRequest> },
): Promise<TBulkProgress> => {
  const { actor, request } = options;
  const batchId = uuidv7();
  const { orders, skipped: excluded } = await bulkOrders(deps.db, actor, request, batchId);
  const { accepted, skipped } = judgeBulk(orders, excluded);
  const batch = await batchesRepo.insertBatch(
    deps.db,
    {
      id: batchId,
      orgId: actor.orgId,
      createdBy: actor.userId,
      action: request.action,
      filter: request.filter ?? null,
      customerIds: accepted.map((order) => order.target.customerId),
      skipped,
    },
    {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: `device.bulk_${request.action}`,
      entity: 'batch',
      entityId: batchId,
      details: { total: accepted.length, skipped, filter: request.filter ?? null },
    },
  );
  const first = accepted.slice(0, FIRST_CHUNK);
  const written = await writeBatchChunk(deps, batch, { count: first.length, orders: first });
  if (!written.doneAt) {
    deps.dispatcher.inBackground('bulk batch', (shouldStop) => writeRestOfBatch(deps, written, shouldStop));
  }
  return getBulkProgress(deps.db, actor, batchId, { batch: written });
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
  options: { since?: Date; batch?: batchesRepo.BulkBatchRow } = {},
): Promise<TBulkProgress> => {
  const { since } = options;
  const cursor = new Date().toISOString();
  const scope = await scopeOf(db, actor);
  const [batch, groups, rows] = await Promise.all([
    options.batch ?? batchesRepo.findBatch(db, actor.orgId, batchId),
    repo.countBatchCommandsInScope(db, scope, batchId),
    repo.findBatchCommands(
      db,
      scope,
      batchId,
      since ? new Date(since.getTime() - BULK_PROGRESS_OVERLAP_MS) : undefined,
    ),
  ]);
  // A batch is the business of whoever sent it and their retailer; commands of a batch from
  // before issue 26 (no batch row) show where they are in scope.
  const isOurs = batch ? scope.retailerIds.includes(batch.createdBy) : groups.length > 0;
  if (!isOurs) {
    throw new AppError(AppErrorCode.NOT_FOUND, 'Bulk request not found', [
      { field: 'batch_id', message: 'No such bulk request' },
    ]);
  }
  const counts = Object.fromEntries(COMMAND_STATES.map((s) => [s, 0])) as Record<TCommandState, number>;
  for (const group of groups) counts[group.state as TCommandState] += group.count;
  const skipped = batch?.skipped ?? (await repo.findBatchSkipped(db, actor.orgId, batchId));
  const written = groups.reduce((sum, group) => sum + group.count, 0);
  // Customers whose commands are still to be written count as queued; those the gate refused when
  // their chunk came are among the skipped.
  const refusedLater = batch ? skipped.filter((s) => batch.customerIds.includes(s.customerId)).length : 0;
  const total = batch ? batch.customerIds.length - refusedLater : written;
  counts.queued += Math.max(0, total - written);
  return {
    batchId,
    action:
      (batch?.action as 'lock' | 'unlock' | undefined) ??
      (groups.some((group) => group.name === 'unlock') ? 'unlock' : 'lock'),
    total,
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
