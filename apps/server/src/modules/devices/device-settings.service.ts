import type { TDeviceControlSettings } from '@kisht/domain/devices/devices.schema';
import type { TActor } from '../../lib/actor';
import { getDeviceControlSettings, writeDeviceControlSettings } from '../orgs/orgs.service';
import {
  dispatchOutcome,
  enqueueOrders,
  loadTargets,
  offlineLimitOrder,
  paidThroughOrder,
  type TGateDeps,
} from './command-gate';
import { offlineLimitMs } from './enrolment.service';

/**
 * Saves the organisation's device-control settings (device_settings PUT; see
 * writeDeviceControlSettings) and, when the offline limit or the paid-through grace days changed,
 * gives every enrolled phone a new policy version carrying the limit (device protocol §6, §12.2)
 * or its paid-through date (§12.5) through the command gate, in the same
 * transaction: a paid-up customer's phone gets no limit (it would restrict it), a released one
 * nothing. Publishing
 * runs in the background after commit; a phone that is off gets the newest version with its next
 * sync, so two changes while it is away reach it as one. Returns the saved settings and how many
 * phones were told. Throws FORBIDDEN unless the actor is a retailer.
 */
export const saveDeviceControlSettings = async (
  deps: TGateDeps,
  actor: TActor,
  next: TDeviceControlSettings,
): Promise<{ settings: TDeviceControlSettings; phonesTold: number }> => {
  const outcome = await deps.db.transaction(async (tx) => {
    const before = await writeDeviceControlSettings(tx, actor, next);
    const isLimitChanged = before.offlineLockAfterHours !== next.offlineLockAfterHours;
    const isGraceChanged =
      next.paidThroughGraceDays !== undefined && before.paidThroughGraceDays !== next.paidThroughGraceDays;
    if (!isLimitChanged && !isGraceChanged) return null;
    // Read after the write: the targets carry the new settings (the grace days of their dates).
    const targets = await loadTargets(tx, { orgId: actor.orgId }, { filter: 'all_enrolled' });
    const offlineLockAfterMs = offlineLimitMs(next.offlineLockAfterHours);
    return enqueueOrders(
      tx,
      targets
        .filter((target) => target.device.secretHash)
        // Both changed: the gate merges a phone's two edits into one new version (enqueueOrders).
        .flatMap((target) => {
          const paidThrough = isGraceChanged ? paidThroughOrder(target) : null;
          return [
            ...(isLimitChanged ? [offlineLimitOrder(target, offlineLockAfterMs)] : []),
            ...(paidThrough ? [paidThrough] : []),
          ];
        }),
      { onRefused: 'skip' },
    );
  });
  if (outcome) await dispatchOutcome(deps.dispatcher, outcome, { background: true });
  return {
    settings: await getDeviceControlSettings(deps.db, actor),
    phonesTold: outcome?.policyDeviceIds.length ?? 0,
  };
};
