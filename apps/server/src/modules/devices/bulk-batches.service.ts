import type { TBulkProgress } from '@kisht/domain/devices/devices.schema';
import * as batchesRepo from './bulk-batches.repository';
import {
  dispatchOutcome,
  enqueueOrders,
  loadTargets,
  type TCommandTarget,
  type TGateDeps,
  type TGateRefusal,
  type TOrder,
} from './command-gate';

/*
 * A bulk lock or unlock as a job (issue 26): the request writes the batch (bulk.service) and the
 * first chunk of its commands; the rest are written and published here in chunks while the
 * progress view watches, each chunk one transaction that also moves the batch on. A batch left
 * half written (its process stopped) is taken up again by the bulk job.
 */

/** The first chunk goes out with the request (its phones get their commands before the answer). */
export const FIRST_CHUNK = 100;
/** Later chunks: one gate statement each (gate.repository writeOrders). */
export const CHUNK = 1_000;
/** A batch whose claim is older than this is taken up by another process, ms. */
export const BATCH_CLAIM_STALE_MS = 60_000;

/** Why a bulk lock leaves a customer out: nothing overdue (a bulk lock is for overdue EMIs; issue 12). */
export const NOTHING_OVERDUE_SKIP = 'nothing overdue';
/**
 * Why a bulk lock leaves a managed-Android customer out: a bulk lock is payment-driven, which
 * Google's permissible-usage rule forbids for the Android Management API (issue 15).
 */
export const PAYMENT_LOCK_NOT_ALLOWED_SKIP = 'managed Android: no lock for a missed payment (Google policy)';

/** The skip reason a bulk shows for each refusal of the command gate. */
export const SKIP_REASONS: Record<TGateRefusal['code'], string> = {
  DEVICE_NOT_ENROLLED: 'not enrolled',
  COMMAND_NOT_AVAILABLE: 'not available for this phone',
  VALIDATION_FAILED: NOTHING_OVERDUE_SKIP,
  PAYMENT_LOCK_NOT_ALLOWED: PAYMENT_LOCK_NOT_ALLOWED_SKIP,
  LOAN_COMPLETED: 'EMIs completed',
  DEVICE_RELEASED: 'released from Kisht',
};

/**
 * The gate order of a bulk's customer: a bulk lock is for overdue EMIs, so it carries the reason
 * category `overdue_emi` (the gate refuses a customer with nothing overdue and a managed-Android
 * phone); it supersedes a pending opposite command and belongs to the batch.
 */
export const bulkOrderOf = (
  target: TCommandTarget,
  batch: { action: 'lock' | 'unlock'; createdBy: number; batchId: string | null },
): TOrder => ({
  target,
  name: batch.action,
  reason: batch.action === 'lock' ? { category: 'overdue_emi' } : undefined,
  availability: 'lock',
  row: {
    args: {},
    createdBy: batch.createdBy,
    batchId: batch.batchId,
    supersedes: [batch.action === 'lock' ? 'unlock' : 'lock'],
    supersededBecause: `superseded by bulk ${batch.action}`,
  },
  audit: null,
});

/** Thrown inside a chunk's transaction when another process wrote that chunk first. */
export class BatchMovedOn extends Error {
  constructor(readonly batchId: string) {
    super(`bulk batch ${batchId} was moved on by another process`);
    this.name = 'BatchMovedOn';
  }
}

/**
 * Writes the next `count` customers of a batch: the gate writes their orders (those it refuses now
 * join the batch's skipped, as do customers gone since: `gone`) and the batch moves on, in one
 * transaction; then the chunk is published. Returns the batch as it now is. Throws BatchMovedOn
 * (nothing written) when another process wrote the chunk first.
 */
export const writeBatchChunk = async (
  deps: TGateDeps,
  batch: batchesRepo.BulkBatchRow,
  chunk: { count: number; orders: TOrder[]; gone?: batchesRepo.TBulkSkip[] },
): Promise<batchesRepo.BulkBatchRow> => {
  const { outcome, next } = await deps.db.transaction(async (tx) => {
    const outcome = await enqueueOrders(tx, chunk.orders, {
      onRefused: 'skip',
      liveChannels: deps.dispatcher.liveChannels,
    });
    const skipped: TBulkProgress['skipped'] = [
      ...(chunk.gone ?? []),
      ...outcome.refused.map(({ order, refusal }) => ({
        customerId: order.target.customerId,
        reason: SKIP_REASONS[refusal.code],
      })),
    ];
    const next = await batchesRepo.advanceBatch(tx, batch.id, {
      from: batch.written,
      count: chunk.count,
      skipped,
    });
    // Another process wrote this chunk meanwhile: nothing of ours stays.
    if (!next) throw new BatchMovedOn(batch.id);
    return { outcome, next };
  });
  await dispatchOutcome(deps.dispatcher, outcome);
  return next;
};

/**
 * Writes the rest of a batch, CHUNK customers at a time, each chunk's targets read again so the
 * gate judges them as they are now; stops early when `shouldStop` says so (the server closing).
 */
export const writeRestOfBatch = async (
  deps: TGateDeps,
  batch: batchesRepo.BulkBatchRow,
  shouldStop: () => boolean = () => false,
): Promise<void> => {
  let current = batch;
  while (!current.doneAt && current.written < current.customerIds.length && !shouldStop()) {
    // (A BatchMovedOn from a chunk ends this run: whoever moved the batch on writes the rest.)
    const ids = current.customerIds.slice(current.written, current.written + CHUNK);
    const targets = await loadTargets(deps.db, { orgId: current.orgId }, { customerIds: ids });
    const found = new Set(targets.map((target) => target.customerId));
    current = await writeBatchChunk(deps, current, {
      count: ids.length,
      orders: targets.map((target) =>
        bulkOrderOf(target, {
          action: current.action as 'lock' | 'unlock',
          createdBy: current.createdBy,
          batchId: current.id,
        }),
      ),
      gone: ids.filter((id) => !found.has(id)).map((customerId) => ({ customerId, reason: 'not found' })),
    });
  }
};

/**
 * The bulk job: takes up batches whose writing stopped (their process ended; claim older than
 * BATCH_CLAIM_STALE_MS) and writes the rest. Returns how many batches it took up.
 */
export const resumeStaleBulkBatches = async (deps: TGateDeps, limit = 5): Promise<number> => {
  const stale = await batchesRepo.claimStaleBatches(deps.db, BATCH_CLAIM_STALE_MS, limit);
  for (const batch of stale) await writeRestOfBatch(deps, batch);
  return stale.length;
};
