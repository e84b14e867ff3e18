import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { normaliseIndianMobile } from '@kisht/domain/common/identifiers';
import { addDays, formatIstDateTime, istWallClockToMs } from '@kisht/domain/common/time';
import { appTypeLabel, keyStockLevel, noKeysMessage } from '@kisht/domain/ledger/ledger.rules';
import type {
  TAdminRetailer,
  TCreditKeysRequest,
  TKeyBalance,
  TLedgerMovement,
  TLedgerMovementKind,
  TTransactionPage,
  TTransferKeysRequest,
  ZTransactionQuery,
} from '@kisht/domain/ledger/ledger.schema';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { toCsv } from '../../lib/csv';
import { insertAudit } from '../audit/audit.repository';
import { lowKeysThresholdOf, notifyIfKeysLow } from '../notifications/notifications.service';
import { descendantIdsOf } from '../users/users.service';
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
  planActivationId?: number | null;
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
    planActivationId: movement.planActivationId ?? null,
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

/** An end of a key movement between accounts: a user's account, or the organisation's issuance. */
export type TKeyHolder = { userId: number } | 'organisation';

/**
 * Moves `quantity` keys of `appType` between two holders in the caller's transaction (postMovement:
 * double entry, a user's balance never below zero), the accounts made on first use; a shop that
 * gave keys gets `keys_low` when its balance is now at or under the threshold (notifyIfKeysLow).
 * Answers the movement id. Throws `insufficient()` when the source holds fewer keys.
 */
export const moveKeysBetween = async (
  tx: DbOrTx,
  movement: {
    orgId: number;
    kind: 'top_up' | 'transfer' | 'return';
    appType: number;
    quantity: number;
    from: TKeyHolder;
    to: TKeyHolder;
    actorUserId: number;
    note?: string | null | undefined;
  },
  insufficient: () => AppError,
): Promise<number> => {
  const accountOf = (holder: TKeyHolder) =>
    holder === 'organisation'
      ? repo.ensureSystemAccount(tx, movement.orgId, 'issuance')
      : repo.ensureUserAccount(tx, movement.orgId, holder.userId);
  const fromAccountId = await accountOf(movement.from);
  const movementId = (await postMovement(
    tx,
    {
      orgId: movement.orgId,
      kind: movement.kind,
      appType: movement.appType,
      quantity: movement.quantity,
      fromAccountId,
      toAccountId: await accountOf(movement.to),
      actorUserId: movement.actorUserId,
      note: movement.note ?? null,
    },
    insufficient,
  ))!;
  // A shop that gave keys away may now run low: the keys_low notification, as a key spent does.
  if (movement.from !== 'organisation') {
    await notifyIfKeysLow(tx, {
      orgId: movement.orgId,
      userId: movement.from.userId,
      appType: movement.appType,
      balance: await repo.findBalance(tx, fromAccountId, movement.appType),
    });
  }
  return movementId;
};

/** What a user account holds of `appType` (0 for none), in the caller's transaction. */
export const balanceOf = async (
  tx: DbOrTx,
  orgId: number,
  userId: number,
  appType: number,
): Promise<number> => {
  const accountId = await repo.findUserAccountId(tx, orgId, userId);
  return accountId === null ? 0 : repo.findBalance(tx, accountId, appType);
};

/** A movement as `userId`'s history shows it (movementSeenBy of the user's account). */
export const movementSeenByUser = async (tx: DbOrTx, orgId: number, userId: number, movementId: number) =>
  movementSeenBy(tx, await repo.ensureUserAccount(tx, orgId, userId), movementId);

// ---------------------------------------------------------------------------------------------
// Key per enrolment, balances, transfers, admin credits and the transaction history (issue 13).
// ---------------------------------------------------------------------------------------------

/** Rows per page of top_up_history. */
export const TRANSACTION_PAGE_SIZE = 30;
/** Most rows one CSV download holds (newest first). */
export const TRANSACTION_CSV_MAX_ROWS = 10_000;

const userNotFound = () =>
  new AppError(AppErrorCode.USER_NOT_FOUND, 'User not found', [
    { field: 'user_id', message: 'No such retailer in your network' },
  ]);

const noKeys = (appType: number) => new AppError(AppErrorCode.NO_KEYS, noKeysMessage(appType));

/** Where one of a retailer's keys goes: spent (`key_use`) or held by an enrolment QR (`reserve`, issue 27). */
const KEY_DESTINATIONS = { key_use: 'consumption', reserve: 'reserved' } as const;

/**
 * One key of `appType` from the retailer's account to the organisation's consumption account (a
 * `key_use` movement) or its reserved account (a `reserve`), with what it is for. Null when the
 * movement already exists (the unique key use, or open reservation, of a phone); NO_KEYS when the
 * retailer has none left. A movement that leaves the retailer at or under the organisation's
 * lowKeysThreshold writes a `keys_low` notification (same transaction).
 */
const takeOneKey = async (
  tx: DbOrTx,
  options: { orgId: number; retailerId: number; appType: number; actorUserId: number },
  kind: keyof typeof KEY_DESTINATIONS,
  spentOn: Pick<TPostMovement, 'customerId' | 'imei' | 'planActivationId'>,
): Promise<number | null> => {
  const from = await repo.ensureUserAccount(tx, options.orgId, options.retailerId);
  const to = await repo.ensureSystemAccount(tx, options.orgId, KEY_DESTINATIONS[kind]);
  const movementId = await postMovement(
    tx,
    {
      orgId: options.orgId,
      kind,
      appType: options.appType,
      quantity: 1,
      fromAccountId: from,
      toAccountId: to,
      actorUserId: options.actorUserId,
      ...spentOn,
    },
    () => noKeys(options.appType),
  );
  if (movementId !== null) {
    await notifyIfKeysLow(tx, {
      orgId: options.orgId,
      userId: options.retailerId,
      appType: options.appType,
      balance: await repo.findBalance(tx, from, options.appType),
    });
  }
  return movementId;
};

/**
 * Reserves one key of `appType` from the enrolling retailer's account for a phone (IMEI 1), in the
 * caller's transaction (the one that writes the enrolment QR's token, before it writes it; issue
 * 27): a `reserve` movement from the retailer's account to the organisation's `reserved` account.
 * The key is spent when the phone enrols (spendReservedKey) and comes back when the QR lapses
 * (releaseLapsedReservations). A phone (IMEI and app_type) is charged once per organisation:
 * re-issuing its QR while a reservation is open, or enrolling a phone already charged (again, or
 * for a new customer record), reserves nothing (`isReserved` false). Throws NO_KEYS (409, naming
 * the app type) when the retailer has no key left; the transaction then rolls back. Two
 * reservations at once never take the same key (guarded balance UPDATE). A reservation that leaves
 * the retailer at or under the organisation's lowKeysThreshold writes a `keys_low` notification.
 */
export const reserveEnrolmentKey = async (
  tx: DbOrTx,
  options: {
    orgId: number;
    retailerId: number;
    customerId: number;
    appType: number;
    imei: string;
    actorUserId: number;
  },
): Promise<{ isReserved: boolean }> => {
  if (await repo.hasKeyUse(tx, options.orgId, options.imei, options.appType)) return { isReserved: false };
  const movementId = await takeOneKey(tx, options, 'reserve', {
    customerId: options.customerId,
    imei: options.imei,
  });
  if (movementId === null) return { isReserved: false };
  await insertAudit(tx, {
    orgId: options.orgId,
    actorUserId: options.actorUserId,
    action: 'ledger.key_reserve',
    entity: 'customer',
    entityId: String(options.customerId),
    details: { movementId, retailerId: options.retailerId, appType: options.appType, imei: options.imei },
  });
  return { isReserved: true };
};

/**
 * Spends the key reserved for a phone that has just enrolled (issue 27), in the enrolment's
 * transaction: the open reservation of the customer or of its IMEI 1 (findOpenReservationForUpdate)
 * is settled and a `key_use` movement takes the key from the `reserved` account to `consumption`.
 * When that phone was already charged (a key_use of its IMEI and app_type exists) the key goes back
 * to the retailer instead (a `release`). Nothing happens without an open reservation (the phone's
 * QR reserved nothing because it was already charged). Returns whether a key was spent.
 */
export const spendReservedKey = async (
  tx: DbOrTx,
  options: { orgId: number; customerId: number; imei: string },
): Promise<{ isSpent: boolean }> => {
  const reservation = await repo.findOpenReservationForUpdate(tx, options.orgId, options);
  if (!reservation) return { isSpent: false };
  await repo.markReservationSettled(tx, reservation.id);
  const consumption = await repo.ensureSystemAccount(tx, options.orgId, 'consumption');
  const movementId = await postMovement(tx, {
    orgId: options.orgId,
    kind: 'key_use',
    appType: reservation.appType,
    quantity: 1,
    fromAccountId: reservation.toAccountId,
    toAccountId: consumption,
    customerId: options.customerId,
    imei: reservation.imei,
  });
  if (movementId === null) {
    await releaseReservation(tx, reservation);
    return { isSpent: false };
  }
  await insertAudit(tx, {
    orgId: options.orgId,
    action: 'ledger.key_use',
    entity: 'customer',
    entityId: String(options.customerId),
    details: {
      movementId,
      reserveMovementId: reservation.id,
      retailerId: await repo.findAccountUserId(tx, reservation.fromAccountId),
      appType: reservation.appType,
      imei: reservation.imei ?? '',
    },
  });
  return { isSpent: true };
};

/**
 * Gives a reservation's key back to the account it came from, in the caller's transaction: a
 * `release` movement from the `reserved` account (the QR lapsed, or the phone had been charged
 * already), naming the customer and IMEI. The caller marks the reservation settled. Returns the
 * movement id.
 */
const releaseReservation = async (tx: DbOrTx, reservation: repo.TOpenReservation): Promise<number> => {
  const movementId = await postMovement(tx, {
    orgId: reservation.orgId,
    kind: 'release',
    appType: reservation.appType,
    quantity: 1,
    fromAccountId: reservation.toAccountId,
    toAccountId: reservation.fromAccountId,
    customerId: reservation.customerId,
    imei: reservation.imei,
  });
  return movementId!;
};

/** How long after its QR's token expired a reservation is returned, ms (an enrolment in flight wins). */
export const RESERVATION_RETURN_GRACE_MS = 5 * 60_000;
/** Most reservations one run of the return job takes. */
const RESERVATION_RETURN_BATCH = 200;

/**
 * Returns the keys of reservations whose enrolment QR lapsed (issue 27: a device key is reserved
 * when the QR is issued and comes back when its token expires): every open reservation with no
 * device waiting to enrol on a token valid until `now` − RESERVATION_RETURN_GRACE_MS gets a
 * `release` movement back to the retailer and a `ledger.key_release` audit entry, one transaction
 * per batch (rows FOR UPDATE SKIP LOCKED, so processes side by side share the work). Returns how
 * many keys came back.
 */
export const releaseLapsedReservations = async (db: Db, now = new Date()): Promise<number> => {
  const before = new Date(now.getTime() - RESERVATION_RETURN_GRACE_MS);
  let released = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const lapsed = await repo.findLapsedReservationsForUpdate(tx, before, RESERVATION_RETURN_BATCH);
      for (const reservation of lapsed) {
        await repo.markReservationSettled(tx, reservation.id);
        const movementId = await releaseReservation(tx, reservation);
        await insertAudit(tx, {
          orgId: reservation.orgId,
          action: 'ledger.key_release',
          entity: 'customer',
          entityId: String(reservation.customerId),
          details: { movementId, reserveMovementId: reservation.id, appType: reservation.appType },
        });
      }
      return lapsed.length;
    });
    released += count;
    if (count < RESERVATION_RETURN_BATCH) return released;
  }
};

/**
 * Spends one key of a protection plan's app_type (issue 14) from the selling retailer's account on
 * one activation, in the caller's transaction (the one that writes the activation): a `key_use`
 * movement naming the activation, and the customer when the plan went to a financed one. Every
 * sale costs a key. Throws NO_KEYS (409, naming the app type) when the seller has none left; the
 * transaction then rolls back.
 */
export const spendPlanKey = async (
  tx: DbOrTx,
  options: {
    orgId: number;
    retailerId: number;
    appType: number;
    planActivationId: number;
    customerId: number | null;
    actorUserId: number;
  },
): Promise<void> => {
  await takeOneKey(tx, options, 'key_use', {
    customerId: options.customerId,
    planActivationId: options.planActivationId,
  });
};

/**
 * Checks (spends nothing) that a retailer could enrol a phone of `appType`: it holds at least one
 * key of that type, or this IMEI was already charged for it (a re-enrolment is free). Throws
 * NO_KEYS (409, naming the app type) otherwise. Called before a customer is created.
 */
export const assertCanEnrol = async (
  db: DbOrTx,
  options: { orgId: number; retailerId: number; appType: number; imei: string },
): Promise<void> => {
  if (await repo.hasKeyUse(db, options.orgId, options.imei, options.appType)) return;
  const accountId = await repo.findUserAccountId(db, options.orgId, options.retailerId);
  const balance = accountId === null ? 0 : await repo.findBalance(db, accountId, options.appType);
  if (balance < 1) throw noKeys(options.appType);
};

/**
 * Whose keys the actor may look at: its own (no `userId`, or its own id); a retailer also its own
 * mini-retailers'; a distributor any node's of its subtree (issue 30); an admin any distributor,
 * retailer or mini-retailer of its organisation. Throws FORBIDDEN
 * for a customer and USER_NOT_FOUND (404) for anyone else's id.
 */
const viewedUserId = async (db: DbOrTx, actor: TActor, userId: number | undefined): Promise<number> => {
  if (actor.userType === 'customer') throw new AppError(AppErrorCode.FORBIDDEN, 'Only retailers hold keys');
  if (userId === undefined || userId === actor.userId) return actor.userId;
  // A distributor's subtree came with its session: a node of it needs no read.
  if (actor.userType === 'distributor') {
    if ((await descendantIdsOf(db, actor)).includes(userId)) return userId;
    throw userNotFound();
  }
  const user = await repo.findOrgUser(db, actor.orgId, userId);
  if (!user) throw userNotFound();
  if (actor.userType === 'retailer' && user.userType === 'miniretailer' && user.parentId === actor.userId)
    return user.id;
  if (
    actor.userType === 'admin' &&
    (user.userType === 'retailer' || user.userType === 'miniretailer' || user.userType === 'distributor')
  )
    return user.id;
  throw userNotFound();
};

/**
 * Keys per app_type (api/points/getBalanceTypesWithScheme): the actor's own, or with `userId` a
 * mini-retailer's for its parent (or any retailer's for the admin). Every app_type the account
 * ever held, ordered by code, balances ≥ 0, each with its stock level against the organisation's
 * low-keys threshold (keyStockLevel); [] for an account that never held keys.
 * Throws FORBIDDEN for a customer, USER_NOT_FOUND for another's id.
 */
export const getKeyBalances = async (
  db: DbOrTx,
  options: { actor: TActor; userId?: number | undefined },
): Promise<TKeyBalance[]> => {
  const userId = await viewedUserId(db, options.actor, options.userId);
  const accountId = await repo.findUserAccountId(db, options.actor.orgId, userId);
  if (accountId === null) return [];
  const balances = await repo.findBalances(db, accountId);
  if (balances.length === 0) return [];
  const threshold = await lowKeysThresholdOf(db, options.actor.orgId, options.actor.known?.organization);
  return balances.map((b) => ({ ...b, level: keyStockLevel(b.balance, threshold) }));
};

const toMovement = (row: repo.TAccountMovementRow): TLedgerMovement => ({
  id: row.id,
  kind: row.kind,
  appType: row.appType,
  quantity: row.quantity,
  direction: row.delta < 0 ? 'out' : 'in',
  counterpartyName: row.counterpartyName,
  customerId: row.customerId,
  customerName:
    row.customerFirstName === null ? null : `${row.customerFirstName} ${row.customerLastName ?? ''}`.trim(),
  note: row.note,
  createdAt: row.createdAt.toISOString(),
});

/** One movement (posted, id known) as `accountId`'s history shows it. */
export const movementSeenBy = async (
  db: DbOrTx,
  accountId: number,
  movementId: number,
): Promise<TLedgerMovement> => {
  const [row] = await repo.listAccountMovements(db, { accountId, beforeId: movementId + 1, limit: 1 });
  return toMovement(row!);
};

/**
 * A retailer moves keys to one of its own mini-retailers (`to_child`) or takes them back
 * (`from_child`): a `transfer` movement, audited, in one transaction. Answers the movement as the
 * retailer's history shows it. Throws FORBIDDEN unless the actor is a retailer, USER_NOT_FOUND
 * (404) unless `userId` is its own mini-retailer, INSUFFICIENT_KEYS (409, field quantity, saying
 * how many the source holds) when the source holds fewer than `quantity`.
 */
export const transferKeys = async (
  db: DbOrTx,
  options: { actor: TActor; request: TTransferKeysRequest },
): Promise<TLedgerMovement> => {
  const { actor, request } = options;
  if (actor.userType !== 'retailer')
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only a retailer can transfer keys to its mini-retailers');
  const child = await repo.findOrgUser(db, actor.orgId, request.userId);
  if (child?.userType !== 'miniretailer' || child.parentId !== actor.userId)
    throw new AppError(AppErrorCode.USER_NOT_FOUND, 'Mini-retailer not found', [
      { field: 'userId', message: 'Choose one of your mini-retailers' },
    ]);
  return db.transaction(async (tx) => {
    const own = await repo.ensureUserAccount(tx, actor.orgId, actor.userId);
    const childAccount = await repo.ensureUserAccount(tx, actor.orgId, child.id);
    const [from, to] = request.direction === 'to_child' ? [own, childAccount] : [childAccount, own];
    const held = await repo.findBalance(tx, from, request.appType);
    const holder = request.direction === 'to_child' ? 'You have' : `${child.name} has`;
    const movementId = await postMovement(
      tx,
      {
        orgId: actor.orgId,
        kind: 'transfer',
        appType: request.appType,
        quantity: request.quantity,
        fromAccountId: from,
        toAccountId: to,
        actorUserId: actor.userId,
      },
      () =>
        new AppError(
          AppErrorCode.INSUFFICIENT_KEYS,
          `Not enough keys: ${holder} ${held} ${appTypeLabel(request.appType)} keys, ${request.quantity} asked`,
          [{ field: 'quantity', message: `At most ${held}` }],
        ),
    );
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'ledger.transfer',
      entity: 'user',
      entityId: String(child.id),
      details: {
        movementId: movementId!,
        appType: request.appType,
        quantity: request.quantity,
        direction: request.direction,
      },
    });
    return movementSeenBy(tx, own, movementId!);
  });
};

/**
 * The organisation admin credits keys to a retailer of its organisation (a `top_up` from the
 * issuance account), audited, in one transaction. Answers the movement as the retailer's history
 * shows it. Throws FORBIDDEN unless the actor is an admin, USER_NOT_FOUND (404, field retailerId)
 * unless `retailerId` is a retailer of the admin's organisation.
 */
export const creditKeys = async (
  db: DbOrTx,
  options: { actor: TActor; request: TCreditKeysRequest },
): Promise<TLedgerMovement> => {
  const { actor, request } = options;
  if (actor.userType !== 'admin') throw new AppError(AppErrorCode.FORBIDDEN, 'Only an admin can credit keys');
  return creditRetailerKeys(db, {
    orgId: actor.orgId,
    actorUserId: actor.userId,
    retailerId: request.retailerId,
    appType: request.appType,
    quantity: request.quantity,
    note: request.note,
  });
};

/**
 * Credits keys to a retailer from the organisation's issuance account (the admin route and the
 * admin CLI): a `top_up` movement and an audit entry in one transaction. Throws USER_NOT_FOUND
 * (404, field retailerId) unless `retailerId` is a retailer of `orgId`.
 */
export const creditRetailerKeys = async (
  db: DbOrTx,
  options: {
    orgId: number;
    actorUserId: number | null;
    retailerId: number;
    appType: number;
    quantity: number;
    note?: string | undefined;
  },
): Promise<TLedgerMovement> => {
  const retailer = await repo.findOrgUser(db, options.orgId, options.retailerId);
  if (retailer?.userType !== 'retailer')
    throw new AppError(AppErrorCode.USER_NOT_FOUND, 'Retailer not found', [
      { field: 'retailerId', message: 'Choose a retailer of your organisation' },
    ]);
  return db.transaction(async (tx) => {
    const from = await repo.ensureSystemAccount(tx, options.orgId, 'issuance');
    const to = await repo.ensureUserAccount(tx, options.orgId, retailer.id);
    const movementId = await postMovement(tx, {
      orgId: options.orgId,
      kind: 'top_up',
      appType: options.appType,
      quantity: options.quantity,
      fromAccountId: from,
      toAccountId: to,
      actorUserId: options.actorUserId,
      note: options.note ?? null,
    });
    await insertAudit(tx, {
      orgId: options.orgId,
      actorUserId: options.actorUserId,
      action: 'ledger.credit',
      entity: 'user',
      entityId: String(retailer.id),
      details: {
        movementId: movementId!,
        appType: options.appType,
        quantity: options.quantity,
        note: options.note ?? null,
      },
    });
    return movementSeenBy(tx, to, movementId!);
  });
};

/** The UTC instant at which a +05:30 calendar day `YYYY-MM-DD` (already validated) begins. */
const istDayStart = (isoDate: string): Date => new Date(istWallClockToMs(`${isoDate}T00:00`)!);

/** The parsed filters of top_up_history. */
type TTransactionFilters = z.output<typeof ZTransactionQuery>;

const listFor = async (
  db: DbOrTx,
  actor: TActor,
  query: TTransactionFilters,
  limit: number,
): Promise<{ rows: repo.TAccountMovementRow[]; accountId: number | null }> => {
  const userId = await viewedUserId(db, actor, query.user_id);
  const accountId = await repo.findUserAccountId(db, actor.orgId, userId);
  if (accountId === null) return { rows: [], accountId };
  const rows = await repo.listAccountMovements(db, {
    accountId,
    fromAt: query.from ? istDayStart(query.from) : undefined,
    toAt: query.to ? istDayStart(addDays(query.to, 1)) : undefined,
    kind: query.type,
    beforeId: query.cursor === undefined ? undefined : Number(query.cursor),
    limit,
  });
  return { rows, accountId };
};

/**
 * top_up_history (`/api/transaction/getRetailerTransactionV2`): the movements touching the
 * viewed account (own, or a mini-retailer's for its parent with `user_id`), newest first,
 * TRANSACTION_PAGE_SIZE a page; `from`/`to` are +05:30 calendar days `YYYY-MM-DD`, both inclusive;
 * `type` one kind; `cursor` the previous page's `nextCursor` (keyset on the movement id).
 * Throws FORBIDDEN for a customer, USER_NOT_FOUND for another's id.
 */
export const listTransactions = async (
  db: DbOrTx,
  options: { actor: TActor; query: TTransactionFilters },
): Promise<TTransactionPage> => {
  const { rows } = await listFor(db, options.actor, options.query, TRANSACTION_PAGE_SIZE + 1);
  const page = rows.slice(0, TRANSACTION_PAGE_SIZE);
  return {
    items: page.map(toMovement),
    nextCursor: rows.length > TRANSACTION_PAGE_SIZE ? String(page.at(-1)!.id) : null,
  };
};

/** Labels of the movement kinds in the CSV. */
const KIND_LABELS: Record<TLedgerMovementKind, string> = {
  top_up: 'Top-up',
  transfer: 'Transfer',
  reserve: 'Key reserved',
  release: 'Reservation returned',
  key_use: 'Key used',
  refund: 'Refund',
  purchase: 'Purchase',
  return: 'Returned to the organisation',
};

/**
 * The same history (same filters, no cursor) as CSV (RFC 4180, header first), newest first, at
 * most TRANSACTION_CSV_MAX_ROWS rows; dates +05:30 `DD-MM-YYYY hh:mm A`; quantity signed from the
 * viewer's side. Same errors as listTransactions.
 */
export const transactionsCsv = async (
  db: DbOrTx,
  options: { actor: TActor; query: TTransactionFilters },
): Promise<string> => {
  const { rows } = await listFor(
    db,
    options.actor,
    { ...options.query, cursor: undefined },
    TRANSACTION_CSV_MAX_ROWS,
  );
  return toCsv(
    ['Date', 'Type', 'App type', 'Keys', 'Counterparty', 'Customer id', 'Customer', 'Note'],
    rows
      .map(toMovement)
      .map((m) => [
        formatIstDateTime(m.createdAt),
        KIND_LABELS[m.kind],
        appTypeLabel(m.appType),
        m.direction === 'in' ? m.quantity : -m.quantity,
        m.counterpartyName,
        m.customerId,
        m.customerName,
        m.note,
      ]),
  );
};

/** Retailers the admin may list at once. */
const ADMIN_RETAILERS_LIMIT = 50;

/**
 * The admin's list of its organisation's retailers (to credit keys), by name, shop or mobile
 * fragment, at most 50, by name. Throws FORBIDDEN unless the actor is an admin.
 */
export const listRetailersForAdmin = async (
  db: DbOrTx,
  options: { actor: TActor; search?: string | undefined },
): Promise<TAdminRetailer[]> => {
  if (options.actor.userType !== 'admin')
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only an admin can do this');
  return repo.searchRetailers(db, options.actor.orgId, options.search || undefined, ADMIN_RETAILERS_LIMIT);
};

/**
 * Grants keys from the organisation's issuance account to a retailer or mini-retailer, for the
 * demo seed and the test factories only (no actor, no audit; the routes use creditKeys and
 * transferKeys). `keys` maps app_type codes to quantities; zero and absent types are skipped.
 */
export const grantKeys = async (
  db: DbOrTx,
  options: { orgId: number; userId: number; keys: Partial<Record<number, number>>; note?: string },
): Promise<void> => {
  const from = await repo.ensureSystemAccount(db, options.orgId, 'issuance');
  const to = await repo.ensureUserAccount(db, options.orgId, options.userId);
  for (const [appType, quantity] of Object.entries(options.keys)) {
    if (!quantity) continue;
    await postMovement(db, {
      orgId: options.orgId,
      kind: 'top_up',
      appType: Number(appType),
      quantity,
      fromAccountId: from,
      toAccountId: to,
      note: options.note ?? null,
    });
  }
};

/**
 * Creates an organisation admin (the admin CLI): a user of type 'admin' who logs in with OTP on
 * `mobile` (10 digits or +91…, stored E.164) and credits keys to the organisation's retailers.
 * Audited. Throws VALIDATION_FAILED (field mobile) for a number that is not an Indian mobile,
 * NOT_FOUND (field org) for an unknown organisation, MOBILE_IN_USE when the organisation already
 * has an admin with that mobile. Returns the new user's id.
 */
export const createOrgAdmin = async (
  db: DbOrTx,
  options: { orgId: number; mobile: string; name: string },
): Promise<number> => {
  const mobile = normaliseIndianMobile(options.mobile);
  if (!mobile)
    throw new AppError(AppErrorCode.VALIDATION_FAILED, 'Not an Indian mobile number', [
      { field: 'mobile', message: 'Enter a 10-digit mobile number starting with 6, 7, 8 or 9' },
    ]);
  const name = options.name.trim();
  if (!name)
    throw new AppError(AppErrorCode.VALIDATION_FAILED, 'Name the admin', [
      { field: 'name', message: 'This is a required field' },
    ]);
  if (!(await repo.hasOrganization(db, options.orgId)))
    throw new AppError(AppErrorCode.NOT_FOUND, `No organisation ${options.orgId}`, [
      { field: 'org', message: 'Unknown organisation' },
    ]);
  return db.transaction(async (tx) => {
    if (await repo.findOrgUserByMobile(tx, options.orgId, mobile, 'admin'))
      throw new AppError(
        AppErrorCode.MOBILE_IN_USE,
        `Organisation ${options.orgId} already has an admin on ${mobile}`,
        [{ field: 'mobile', message: 'Already an admin' }],
      );
    const id = await repo.insertUser(tx, { orgId: options.orgId, mobile, name, userType: 'admin' });
    await insertAudit(tx, {
      orgId: options.orgId,
      actorUserId: null,
      action: 'user.create_admin',
      entity: 'user',
      entityId: String(id),
      details: { mobile, source: 'cli' },
    });
    return id;
  });
};

/**
 * Credits keys to the retailer of `orgId` with this mobile (the admin CLI; see
 * creditRetailerKeys). Throws VALIDATION_FAILED for a bad mobile, USER_NOT_FOUND (field
 * retailerMobile) when the organisation has no retailer on it.
 */
export const creditKeysByMobile = async (
  db: DbOrTx,
  options: {
    orgId: number;
    retailerMobile: string;
    appType: number;
    quantity: number;
    note?: string | undefined;
  },
): Promise<TLedgerMovement> => {
  const mobile = normaliseIndianMobile(options.retailerMobile);
  if (!mobile)
    throw new AppError(AppErrorCode.VALIDATION_FAILED, 'Not an Indian mobile number', [
      { field: 'retailerMobile', message: 'Enter a 10-digit mobile number starting with 6, 7, 8 or 9' },
    ]);
  const retailer = await repo.findOrgUserByMobile(db, options.orgId, mobile, 'retailer');
  if (!retailer)
    throw new AppError(
      AppErrorCode.USER_NOT_FOUND,
      `No retailer on ${mobile} in organisation ${options.orgId}`,
      [{ field: 'retailerMobile', message: 'No such retailer' }],
    );
  return creditRetailerKeys(db, {
    orgId: options.orgId,
    actorUserId: null,
    retailerId: retailer.id,
    appType: options.appType,
    quantity: options.quantity,
    note: options.note,
  });
};
