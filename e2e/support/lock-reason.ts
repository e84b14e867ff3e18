import type { Locator, Page } from '@playwright/test';

/** The reason categories the web app's picker offers (packages/domain lock-reasons LOCK_REASON_CATEGORIES). */
export type TLockReasonCategory =
  | 'overdue_emi'
  | 'customer_request'
  | 'fraud_or_theft'
  | 'device_misuse'
  | 'other';

/**
 * Says why a phone is restricted in the open dialog's reason picker (issue 25): chooses the
 * category and, when given, writes the note (required with `other`).
 */
export const chooseLockReason = async (
  scope: Page | Locator,
  category: TLockReasonCategory,
  note?: string,
): Promise<void> => {
  await scope.getByTestId('lock-reason-category').selectOption(category);
  if (note !== undefined) await scope.getByTestId('lock-reason').fill(note);
};
