import { and, eq, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { rowsFromJson } from '../../db/json-rows';
import { bulkBatches } from '../../db/schema';
import { checkAuditEntry, type TAuditEntry } from '../audit/audit.repository';

/*
 * Bulk lock and unlock batches (issue 26): the request's accepted customers, written in chunks by
 * the bulk job (bulk-batches.service).
 */

export type BulkBatchRow = typeof bulkBatches.$inferSelect;

/** A customer a bulk left out, with why. */
export type TBulkSkip = { customerId: number; reason: string };

/**
 * Writes a batch, claimed by the caller from now, and its audit entry, in one statement. Throws
 * (under test) when the audit entry is not a ZAuditEvent.
 */
export const insertBatch = async (
  db: DbOrTx,
  batch: Omit<typeof bulkBatches.$inferInsert, 'written' | 'claimedAt' | 'doneAt' | 'createdAt'>,
  audit: TAuditEntry,
): Promise<BulkBatchRow> => {
  checkAuditEntry(audit);
  const [row] = await queryRows<{ batch: unknown }>(
    db,
    sql`with batch as (
          insert into bulk_batches (id, org_id, created_by, action, filter, customer_ids, skipped, claimed_at,
                                    done_at)
          values (${batch.id}::uuid, ${batch.orgId}, ${batch.createdBy}, ${batch.action}, ${batch.filter ?? null},
                  ${sql.param(batch.customerIds)}::int[], ${JSON.stringify(batch.skipped ?? [])}::jsonb, now(),
                  case when cardinality(${sql.param(batch.customerIds)}::int[]) = 0 then now() end)
          returning *
        ),
        audited as (
          insert into audit_log (org_id, actor_user_id, action, entity, entity_id, details)
          values (${audit.orgId}, ${audit.actorUserId ?? null}, ${audit.action}, ${audit.entity},
                  ${audit.entityId}, ${JSON.stringify(audit.details ?? {})}::jsonb)
        )
        select to_jsonb(b) as batch from batch b`,
  );
  return rowsFromJson(bulkBatches, [row!.batch])[0]!;
};

/**
 * Records that the `count` customers after the first `from` of a batch have their commands written
 * (some perhaps refused by the gate then: `skipped`), refreshing its claim; done once all are. In
 * the chunk's transaction. Returns the batch as it now is, or null when it had moved on from
 * `from` (another process wrote that chunk: the caller rolls its own back).
 */
export const advanceBatch = async (
  db: DbOrTx,
  id: string,
  progress: { from: number; count: number; skipped: TBulkSkip[] },
): Promise<BulkBatchRow | null> => {
  const [row] = await db
    .update(bulkBatches)
    .set({
      written: sql`${bulkBatches.written} + ${progress.count}`,
      skipped: sql`${bulkBatches.skipped} || ${JSON.stringify(progress.skipped)}::jsonb`,
      claimedAt: sql`now()`,
      doneAt: sql`case when ${bulkBatches.written} + ${progress.count} >= cardinality(${bulkBatches.customerIds})
                       then now() end`,
    })
    .where(and(eq(bulkBatches.id, id), eq(bulkBatches.written, progress.from)))
    .returning();
  return row ?? null;
};

/** A batch of the organisation, or null. */
export const findBatch = async (db: DbOrTx, orgId: number, id: string): Promise<BulkBatchRow | null> => {
  const [row] = await db
    .select()
    .from(bulkBatches)
    .where(and(eq(bulkBatches.orgId, orgId), eq(bulkBatches.id, id)))
    .limit(1);
  return row ?? null;
};

/**
 * Claims unfinished batches whose claim is older than `staleMs` (the process writing them stopped),
 * oldest first, at most `limit`, FOR UPDATE SKIP LOCKED so two processes never take the same one.
 */
export const claimStaleBatches = (db: DbOrTx, staleMs: number, limit: number): Promise<BulkBatchRow[]> =>
  queryRows<unknown>(
    db,
    sql`update bulk_batches b set claimed_at = now()
        where b.id in (select id from bulk_batches
                       where done_at is null
                         and (claimed_at is null or claimed_at < now() - ${staleMs} * interval '1 millisecond')
                       order by created_at limit ${limit} for update skip locked)
        returning to_jsonb(b) as batch`,
  ).then((rows) =>
    rowsFromJson(
      bulkBatches,
      rows.map((r) => (r as { batch: unknown }).batch),
    ),
  );
