import type { TInstalmentRow, TUpdateEmiStatusRequest } from '@kisht/domain/emi/emi.schema';

/** What a retailer can do to one instalment on emi_details. */
export type TInstalmentAction = 'levyPenalty' | 'waivePenalty' | 'waive';

/** The waiver kinds of update_emi_status. */
export type TWaiveKind = TUpdateEmiStatusRequest['status'];

type TActionRow = Pick<
  TInstalmentRow,
  'outstandingPaise' | 'penaltyPaise' | 'waivedPaise' | 'penaltyDuePaise'
>;

/**
 * Whether the instalment still owes some of its penalty. The row does not say how much of what is
 * owed is penalty, so this reads the two ways a row can have been waived: a full waiver leaves
 * nothing outstanding, and a penalty waiver is the only one that leaves some outstanding with
 * waivedPaise above 0. Either way nothing of the penalty is left to waive.
 */
export const hasUnpaidPenalty = (row: TActionRow): boolean =>
  row.penaltyPaise > 0 && row.outstandingPaise > 0 && row.waivedPaise === 0;

/**
 * The actions on offer for an instalment, in menu order: levy the penalty the organisation's rule
 * makes due today (penaltyDuePaise above 0), waive the unpaid penalty, and waive what is still
 * owed. A paid instalment has none. The server checks each again (PENALTY_NOT_DUE,
 * NOTHING_TO_WAIVE).
 */
export const instalmentActions = (row: TActionRow): TInstalmentAction[] => {
  const actions: TInstalmentAction[] = [];
  if (row.penaltyDuePaise > 0) actions.push('levyPenalty');
  if (hasUnpaidPenalty(row)) actions.push('waivePenalty');
  if (row.outstandingPaise > 0) actions.push('waive');
  return actions;
};
