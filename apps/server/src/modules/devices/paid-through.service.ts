import type { DbOrTx } from '../../db/client';
import {
  enqueueOrders,
  loadTargetsOfDevices,
  paidThroughOrder,
  type TCommandTarget,
  type TGateOutcome,
} from './command-gate';

/*
 * The paid-through date on the phone (issue 29, device protocol §12.5): whenever what a customer
 * owes changes (a payment, a waiver, new loan terms, the organisation's grace days), every
 * enrolled phone it concerns gets a new signed policy version carrying the date as it now is
 * (command-gate paidThroughOrder), through the command gate in the caller's transaction.
 */

/**
 * Gives the enrolled phones `deviceIds` their paid-through date as it is now, in the caller's
 * transaction (one read, and one write when a date changed): a phone whose policy already carries
 * it, or never enrolled, gets nothing. With `liveChannels` (the outbox's) the new versions are
 * written sent, to publish as written with no further read. Publish the outcome after commit
 * (payoff.service publishAfterCommit); null when no phone was told.
 */
export const refreshPaidThrough = async (
  tx: DbOrTx,
  deviceIds: string[],
  liveChannels?: readonly string[],
): Promise<TGateOutcome | null> => {
  const targets = [...(await loadTargetsOfDevices(tx, deviceIds)).values()];
  return refreshTargets(tx, targets, liveChannels);
};

const refreshTargets = async (
  tx: DbOrTx,
  targets: TCommandTarget[],
  liveChannels: readonly string[] | undefined,
): Promise<TGateOutcome | null> => {
  const orders = targets
    .filter((target) => target.device.enrolledAt && target.device.secretHash)
    .flatMap((target) => paidThroughOrder(target) ?? []);
  if (orders.length === 0) return null;
  return enqueueOrders(tx, orders, { onRefused: 'skip', liveChannels });
};
