import { messageCommandOf } from '@kisht/domain/audit/audit-events';
import { COMMAND_STATES, type TCommandState, type TMessageFeature } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { BULK_EXCLUDED_STATUSES, bulkExclusionReason } from '@kisht/domain/customers/customers.rules';
import { commandSpecOf } from '@kisht/domain/devices/command-catalogue';
import { COMMAND_STALE_AFTER_MS } from '@kisht/domain/devices/device-policy';
import type { TBulkPreview, TBulkProgress } from '@kisht/domain/devices/devices.schema';
import { canShowMessages } from '@kisht/domain/messages/messages.schema';
import { v7 as uuidv7 } from 'uuid';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import { getDeviceSettings } from '../orgs/orgs.service';
import { requireAccess } from '../users/users.service';
import { dispatchOutcome, enqueueOrders, loadTargets, type TGateDeps } from './command-gate';
import * as repo from './commands.repository';
import { accessFlagsFor, parseCommandArgs } from './devices.service';

/** Whom a bulk message goes to: chosen customers, a bulk filter, or the enrolled customers of one spec §4 status. */
export type TMessageSelection =
  | { customerIds: number[] }
  | { filter: 'all_enrolled' | 'overdue' }
  | { status: number };

/** Why a bulk message leaves a customer out, besides bulkExclusionReason (uninstalled, Apple-removed, EMIs completed). */
export const MESSAGE_SKIP = {
  notEnrolled: 'not enrolled',
  /** Apple's MDM and Google's Android Management API have no command that shows a message or an ad. */
  channel: 'this kind of phone cannot show messages (iPhone or managed Android)',
  released: 'released from Kisht',
} as const;

/**
 * The phones a bulk message (show_message, show_ad) would go to, as orders for the command gate,
 * and the customers skipped with why: uninstalled, Apple-removed or EMIs completed (the audience of
 * a bulk send, bulkExclusionReason), not enrolled, a family whose channel cannot carry it
 * (canShowMessages), a phone since released. Throws FORBIDDEN without the feature's access flags
 * (`user.feature_access`), CUSTOMER_NOT_FOUND (field customer_ids) when any chosen id is outside
 * the actor's scope.
 */
export const bulkMessageTargets = async (
  db: Db,
  actor: TActor,
  feature: TMessageFeature,
  selection: TMessageSelection,
) => {
  await requireAccess(db, actor, accessFlagsFor(feature, commandSpecOf(feature)!.on));
  const chosen = 'customerIds' in selection ? [...new Set(selection.customerIds)] : null;
  const found = await loadTargets(
    db,
    { actor },
    chosen
      ? { customerIds: chosen }
      : {
          filter: 'filter' in selection ? selection.filter : 'all_enrolled',
          excludedStatuses: BULK_EXCLUDED_STATUSES,
        },
  );
  if (chosen && found.length !== chosen.length) {
    throw new AppError(AppErrorCode.CUSTOMER_NOT_FOUND, 'Some customers were not found', [
      { field: 'customer_ids', message: 'Some of these customers are not yours' },
    ]);
  }
  const targets = 'status' in selection ? found.filter((t) => t.status === selection.status) : found;
  const skipped: TBulkProgress['skipped'] = [];
  const eligible = targets.filter((target) => {
    const reason =
      bulkExclusionReason(target.status) ??
      (!target.device.enrolledAt
        ? MESSAGE_SKIP.notEnrolled
        : !canShowMessages(target.deviceType)
          ? MESSAGE_SKIP.channel
          : !target.device.secretHash
            ? MESSAGE_SKIP.released
            : null);
    if (reason) skipped.push({ customerId: target.customerId, reason });
    return reason === null;
  });
  return { eligible, skipped };
};

/** How many phones a bulk message would reach and how many customers it would skip; nothing is written. */
export const previewBulkMessage = async (
  db: Db,
  actor: TActor,
  feature: TMessageFeature,
  selection: TMessageSelection,
): Promise<TBulkPreview> => {
  const { eligible, skipped } = await bulkMessageTargets(db, actor, feature, selection);
  return { total: eligible.length, skipped: skipped.length };
};

/**
 * Sends a message command (show_ad, show_message) to many phones through the command gate, as a
 * bulk lock does (design §5): in ONE transaction one command row per eligible phone
 * (bulkMessageTargets) with a shared batch id (UUIDv7) and the same notAfter (the organisation's
 * command expiry, else 7 days), an audit entry `device.bulk_<name>` holding the skipped customers
 * (entity batch), and whatever `inTransaction` writes (the caller's own row naming the batch); the
 * commands are published after commit. `argsFor(notAfter)` builds the arguments, checked against
 * the catalogue (400 naming `args.<field>`). Throws as bulkMessageTargets.
 */
export const queueBulkMessage = async (
  deps: TGateDeps,
  options: {
    actor: TActor;
    feature: TMessageFeature;
    selection: TMessageSelection;
    argsFor: (notAfter: Date) => Record<string, unknown>;
    inTransaction?: (
      tx: Parameters<Parameters<Db['transaction']>[0]>[0],
      batch: { batchId: string; total: number; skipped: TBulkProgress['skipped'] },
    ) => Promise<void>;
  },
): Promise<{ batchId: string; total: number; skipped: TBulkProgress['skipped'] }> => {
  const { actor, feature } = options;
  const spec = commandSpecOf(feature)!;
  const name = messageCommandOf(feature);
  const { eligible, skipped } = await bulkMessageTargets(deps.db, actor, feature, options.selection);
  const { commandExpiryHours } = await getDeviceSettings(deps.db, actor.orgId);
  const now = Date.now();
  const notAfter = commandExpiryHours
    ? new Date(now + commandExpiryHours * 3_600_000)
    : new Date(now + COMMAND_STALE_AFTER_MS);
  const args = parseCommandArgs(spec, options.argsFor(notAfter));
  const batchId = uuidv7();
  const outcome = await deps.db.transaction(async (tx) => {
    const written = await enqueueOrders(
      tx,
      eligible.map((target) => ({
        target,
        name,
        row: { args, createdBy: actor.userId, batchId, notAfter },
        audit: null,
      })),
      { onRefused: 'skip' },
    );
    for (const { order, refusal } of written.refused)
      skipped.push({ customerId: order.target.customerId, reason: refusal.message });
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: `device.bulk_${name}`,
      entity: 'batch',
      entityId: batchId,
      details: { total: written.commands.length, skipped, args },
    });
    await options.inTransaction?.(tx, { batchId, total: written.commands.length, skipped });
    return written;
  });
  // Committed: publishing goes on in the background; anything not published goes out on the next hello.
  await dispatchOutcome(deps.dispatcher, outcome, { background: true });
  return { batchId, total: outcome.commands.length, skipped };
};

/**
 * A batch's commands counted by state (every COMMAND_STATES key present), read as one aggregate
 * over device_commands (countBatchCommandsByState), and the customers it skipped (from its audit
 * entry). The caller checks the batch is the actor's.
 */
export const batchProgressCounts = async (
  db: DbOrTx,
  orgId: number,
  batchId: string,
): Promise<{ counts: Record<TCommandState, number>; skipped: TBulkProgress['skipped'] }> => {
  const [byState, skipped] = await Promise.all([
    repo.countBatchCommandsByState(db, orgId, batchId),
    repo.findBatchSkipped(db, orgId, batchId),
  ]);
  const counts = Object.fromEntries(COMMAND_STATES.map((s) => [s, byState.get(s) ?? 0])) as Record<
    TCommandState,
    number
  >;
  return { counts, skipped };
};
