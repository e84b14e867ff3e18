import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { DbOrTx } from '../../db/client';
import * as repo from './ledger.repository';

/**
 * One movement of keys to post (double entry): `quantity` (> 0) keys of `appType` leave
 * `fromAccountId` and reach `toAccountId`.
 */
export type TPostMovement = {
  orgId: number;
  kind: repo.TMovementKind;
  appType: number;
  quantity: number;
  fromAccountId: number;
  toAccountId: number;
  customerId?: number | null;
  imei?: string | null;
  paymentOrderId?: string | null;
  actorUserId?: number | null;
  note?: string | null;
};

/**
 * Posts a movement in the caller's transaction: the movement row, its two entries (−quantity on
 * the source, +quantity on the destination) and the user accounts' running balances. A user
 * account never goes below zero: a source without enough keys throws `insufficient` (default
 * AppError(INSUFFICIENT_KEYS)) and, as the caller's transaction rolls back, nothing is written.
 * System accounts (issuance, sales, consumption) have no balance row and may go negative.
 * Returns the movement id, or null when the movement's unique key (payment order; key use of the
 * IMEI and app_type) was already posted: then nothing changes (exactly-once credit and spend).
 */
export const postMovement = async (
  db: DbOrTx,
  movement: TPostMovement,
  insufficient: () => AppError = () =>
    new AppError(AppErrorCode.INSUFFICIENT_KEYS, 'Not enough keys for this transfer', [
      { field: 'quantity', message: 'Not enough keys' },
    ]),
): Promise<number | null> => {
  if (!Number.isInteger(movement.quantity) || movement.quantity <= 0)
    throw new AppError(AppErrorCode.VALIDATION_FAILED, 'Quantity must be a positive whole number', [
      { field: 'quantity', message: 'Must be a positive whole number' },
    ]);
  const movementId = await repo.insertMovement(db, {
    orgId: movement.orgId,
    kind: movement.kind,
    appType: movement.appType,
    quantity: movement.quantity,
    fromAccountId: movement.fromAccountId,
    toAccountId: movement.toAccountId,
    customerId: movement.customerId ?? null,
    imei: movement.imei ?? null,
    paymentOrderId: movement.paymentOrderId ?? null,
    actorUserId: movement.actorUserId ?? null,
    note: movement.note ?? null,
  });
  if (movementId === null) return null;
  if ((await repo.findAccountKind(db, movement.fromAccountId)) === 'user') {
    const isDebited = await repo.debitBalance(
      db,
      movement.fromAccountId,
      movement.appType,
      movement.quantity,
    );
    if (!isDebited) throw insufficient();
  }
  if ((await repo.findAccountKind(db, movement.toAccountId)) === 'user')
    await repo.creditBalance(db, movement.toAccountId, movement.appType, movement.quantity);
  await repo.insertEntries(db, [
    { movementId, accountId: movement.fromAccountId, appType: movement.appType, delta: -movement.quantity },
    { movementId, accountId: movement.toAccountId, appType: movement.appType, delta: movement.quantity },
  ]);
  return movementId;
};

/**
 * Credits keys bought through the payment gateway to the buyer, once per payment order: a second
 * call for the same order (webhook and client callback both, or a repeat) changes nothing.
 * Run inside the transaction that marks the order paid. Returns whether this call credited.
 */
export const creditPurchasedKeys = async (
  db: DbOrTx,
  options: { orgId: number; userId: number; appType: number; quantity: number; paymentOrderId: string },
): Promise<{ isCredited: boolean }> => {
  const from = await repo.ensureSystemAccount(db, options.orgId, 'sales');
  const to = await repo.ensureUserAccount(db, options.orgId, options.userId);
  const movementId = await postMovement(db, {
    orgId: options.orgId,
    kind: 'purchase',
    appType: options.appType,
    quantity: options.quantity,
    fromAccountId: from,
    toAccountId: to,
    paymentOrderId: options.paymentOrderId,
    actorUserId: options.userId,
  });
  return { isCredited: movementId !== null };
};
