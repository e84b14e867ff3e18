import { COMMAND_CATALOGUE } from '@kisht/domain/devices/command-catalogue';
import { isRestrictingCommand, RESTRICTING_COMMANDS } from '@kisht/domain/devices/command-rules';
import { ZOfflineLockData } from '@kisht/domain/devices/protocol.schema';
import type { DbOrTx } from '../../db/client';
import { insertAudit } from '../audit/audit.repository';
import {
  dispatchOutcome,
  endPendingCommandsNamed,
  enqueueOrders,
  loadTargets,
  loadTargetsOfDevices,
  paidThroughOfTarget,
  type TCommandTarget,
  type TGateDeps,
  type TGateOutcome,
  type TOrder,
} from './command-gate';
import * as devicesRepo from './devices.repository';

/** For the modules above that free a phone in their own transaction (a payment, a waiver). */
export { dispatchOutcome as publishAfterCommit, type TGateDeps, type TGateOutcome } from './command-gate';

/*
 * Payoff as an event (issue 25, design §5): the last EMI paid makes the phone the customer's, and
 * the phone is told so; and a lock the phone made by itself is never kept for a paid-up loan.
 */

/** Why a paid-up loan's pending restrictions were cancelled (their error in the history). */
export const LOAN_COMPLETED_CANCEL = "cancelled: the customer's EMIs completed";

/** The toggles that restrict the phone, each with its freeing half (COMMAND_RULES). */
const RESTRICTING_TOGGLES = COMMAND_CATALOGUE.filter(
  (spec) => spec.kind === 'toggle' && spec.feature !== 'lock' && isRestrictingCommand(spec.on),
);

/**
 * Frees the phone of a loan that just reached EMIs completed (status 5), in the caller's
 * transaction (the payment's or waiver's, so the payoff commits with the status): every pending
 * restricting command (scheduled ones too) is cancelled with why, and through the command gate the
 * phone gets a new policy version with every restriction off, no offline limit and no paid-through
 * date (device protocol §12.5): an `unlock`
 * (always, so the history shows the payoff and the phone acknowledges the version) and the off
 * half of each restricting toggle that is on (wanted or reported); one `device.payoff` audit
 * entry. A phone that never enrolled gets nothing (its enrolment will start it free). Publish the
 * outcome after commit (dispatchOutcome); null when there was no phone to tell.
 */
export const freePhoneOnPayoff = async (
  tx: DbOrTx,
  loan: { orgId: number; customerId: number },
): Promise<TGateOutcome | null> => {
  const [target] = await loadTargets(tx, { orgId: loan.orgId }, { customerIds: [loan.customerId] });
  if (!target) return null;
  await devicesRepo.lockDeviceForUpdate(tx, target.device.id);
  const cancelled = await endPendingCommandsNamed(tx, {
    deviceIds: [target.device.id],
    names: RESTRICTING_COMMANDS,
    event: 'release',
    error: LOAN_COMPLETED_CANCEL,
    includeScheduled: true,
  });
  const { device } = target;
  if (!device.enrolledAt) {
    await auditPayoff(tx, target, { cancelled: cancelled.map((c) => c.id), commandIds: [] });
    return null;
  }
  const freeing = RESTRICTING_TOGGLES.filter(
    (spec) =>
      device.desiredControls[spec.feature]?.on === true || device.reportedControls[spec.feature] === true,
  );
  const orders: TOrder[] = [
    freeOrder(target, 'unlock', { offlineLockAfterMs: null, paidThrough: null }),
    ...freeing.map((spec) => freeOrder(target, spec.off!)),
  ];
  const outcome = await enqueueOrders(tx, orders, { onRefused: 'throw' });
  await auditPayoff(tx, target, {
    cancelled: cancelled.map((c) => c.id),
    commandIds: outcome.commands.map((c) => c.id),
  });
  return outcome;
};

/** A freeing command of the payoff (system, createdBy null), with an optional policy edit. */
const freeOrder = (target: TCommandTarget, name: string, policy?: TOrder['policy']): TOrder => ({
  target,
  name: name as TOrder['name'],
  row: { args: {}, createdBy: null, supersedes: [] },
  ...(policy ? { policy } : {}),
  audit: null,
});

const auditPayoff = (
  tx: DbOrTx,
  target: TCommandTarget,
  details: { cancelled: string[]; commandIds: string[] },
) =>
  insertAudit(tx, {
    orgId: target.orgId,
    actorUserId: null,
    action: 'device.payoff',
    entity: 'customer',
    entityId: String(target.customerId),
    details: { deviceId: target.device.id, ...details, why: LOAN_COMPLETED_CANCEL },
  });

/**
 * A phone locked or unlocked itself offline (an offline code, its offline limit, or its
 * paid-through date; `data` is the 'offline_lock' report's, device protocol §12.3): the policy
 * follows as a new version, so no policy sent later undoes what the phone did, and it is audited
 * with the report's data. A lock is judged like any restriction (issue 25): for a paid-up customer
 * the phone gets a new policy that frees it (unlocked, no offline limit or date) instead, so the
 * lock screen never comes back; a paid-through lock is one for the overdue EMI, so with nothing
 * overdue any more (paid while the phone was away) the phone is unlocked and gets its new date; a released
 * phone's report changes nothing, nor does a report whose data the protocol does not describe.
 */
export const recordOfflineLock = async (
  deps: TGateDeps,
  report: { deviceId: string; data: Record<string, unknown> },
): Promise<void> => {
  const parsed = ZOfflineLockData.safeParse(report.data);
  if (!parsed.success) return;
  const data = parsed.data;
  const { action } = data;
  const outcome = await deps.db.transaction(async (tx) => {
    const target = (await loadTargetsOfDevices(tx, [report.deviceId])).get(report.deviceId);
    if (!target) return null;
    const audit =
      (what: 'lock' | 'unlock' | 'lock_undone'): TOrder['audit'] =>
      () => ({
        orgId: target.orgId,
        action: `device.offline_${what}`,
        entity: 'customer',
        entityId: String(target.customerId),
        details: { deviceId: target.device.id, ...data },
      });
    // A lock for the paid-through date is a lock for the overdue EMI: kept only while something
    // is still overdue (the customer may have paid while the phone was away) and on a family
    // that may be locked for a payment.
    const isPaidThrough = data.source === 'paid_through';
    const follow: TOrder = {
      target,
      name: action === 'lock' ? 'offline_code_lock' : 'offline_code_unlock',
      reason: isPaidThrough
        ? { category: 'overdue_emi' }
        : { category: 'other', note: 'the phone locked itself offline' },
      policy: { locked: action === 'lock' },
      needsEnrolment: false,
      audit: audit(action),
    };
    const written = await enqueueOrders(tx, [follow], { onRefused: 'skip' });
    if (written.refused.length === 0 || action === 'unlock') return written;
    const paidThrough = isPaidThrough ? paidThroughOfTarget(target) : null;
    const undo: TOrder = isPaidThrough
      ? {
          target,
          name: paidThrough ? 'paid_through_set' : 'paid_through_clear',
          policy: { locked: false, paidThrough },
          needsEnrolment: false,
          audit: audit('lock_undone'),
        }
      : {
          target,
          name: 'offline_limit_clear',
          policy: { locked: false, offlineLockAfterMs: null, paidThrough: null },
          needsEnrolment: false,
          audit: audit('lock_undone'),
        };
    return enqueueOrders(tx, [undo], { onRefused: 'skip' });
  });
  if (outcome) await dispatchOutcome(deps.dispatcher, outcome);
};
