import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type {
  TCreateKeyRequest,
  TKeyRequest,
  TReturnKeysRequest,
  ZDecideKeyRequest,
} from '@kisht/domain/ledger/key-requests.schema';
import { appTypeLabel } from '@kisht/domain/ledger/ledger.rules';
import type { TLedgerMovement } from '@kisht/domain/ledger/ledger.schema';
import { keyPricesFromMap, keyPricesToMap, type TKeyPrices } from '@kisht/domain/payments/payments.schema';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import { balanceOf, moveKeysBetween, movementSeenByUser, type TKeyHolder } from '../ledger/ledger.service';
import * as repo from './key-requests.repository';

/*
 * Key requests and returns up the chain (issue 30, docs/key-requests.md). A node's parent is its
 * retailer (a mini-retailer's), its distributor (a retailer's or distributor's, when it has one) or
 * the organisation (decided by its admins). Every
 * movement of keys is one double-entry ledger movement (ledger.service moveKeysBetween), in the
 * transaction that decides the request, so a request moves its keys at most once.
 */

/**
 * The actor's parent in the network (issue 30, network.rules): a mini-retailer's retailer; a
 * retailer's or distributor's distributor, or null for the organisation. FORBIDDEN for anyone else.
 */
const parentOf = async (db: DbOrTx, actor: TActor): Promise<number | null> => {
  const user = actor.known?.user ?? (await repo.findUserParent(db, actor.orgId, actor.userId));
  if (actor.userType === 'miniretailer' && user?.parentId) return user.parentId;
  if (actor.userType === 'retailer' || actor.userType === 'distributor') return user?.parentId ?? null;
  throw new AppError(AppErrorCode.FORBIDDEN, 'Only a distributor, retailer or mini-retailer asks for keys');
};

/** Which requests the actor decides: a distributor or retailer those of its children, an admin the organisation's. */
const decidesFor = (actor: TActor): number | null => {
  if (actor.userType === 'retailer' || actor.userType === 'distributor') return actor.userId;
  if (actor.userType === 'admin') return null;
  throw new AppError(
    AppErrorCode.FORBIDDEN,
    'Only a distributor, a retailer or the organisation admin decides key requests',
  );
};

const holderOf = (parentId: number | null): TKeyHolder =>
  parentId === null ? 'organisation' : { userId: parentId };

const toKeyRequest = (row: NonNullable<Awaited<ReturnType<typeof repo.findWithNames>>>): TKeyRequest => ({
  id: row.request.id,
  requesterId: row.request.requesterId,
  requesterName: row.requesterName,
  parentName: row.request.parentId === null ? null : row.parentName,
  appType: row.request.appType,
  quantity: row.request.quantity,
  unitPricePaise: row.request.unitPricePaise,
  totalPaise: row.request.unitPricePaise === null ? null : row.request.unitPricePaise * row.request.quantity,
  paymentReference: row.request.paymentReference,
  status: row.request.status,
  decisionNote: row.request.decisionNote,
  createdAt: row.request.createdAt.toISOString(),
  decidedAt: row.request.decidedAt?.toISOString() ?? null,
});

const requestNotFound = () =>
  new AppError(AppErrorCode.NOT_FOUND, 'Key request not found', [
    { field: 'request_id', message: 'No such request for you to decide' },
  ]);

const auditRequest = (
  db: DbOrTx,
  actor: TActor,
  action: 'key_request.created' | 'key_request.approved' | 'key_request.rejected' | 'key_request.cancelled',
  row: repo.TKeyRequestRow,
  extra: { movementId?: number; note?: string } = {},
) =>
  insertAudit(db, {
    orgId: actor.orgId,
    actorUserId: actor.userId,
    action,
    entity: 'key_request',
    entityId: String(row.id),
    details: { appType: row.appType, quantity: row.quantity, ...extra },
  });

/**
 * The actor's requests (`sent`) or those it decides (`received`: a distributor or retailer its
 * children's, the organisation admin those of the nodes right below it; none for a mini-retailer),
 * newest first, at most 200.
 * Throws FORBIDDEN for a customer.
 */
export const listKeyRequests = async (
  db: DbOrTx,
  actor: TActor,
  box: 'sent' | 'received',
): Promise<TKeyRequest[]> => {
  if (box === 'sent') {
    await parentOf(db, actor);
    return (await repo.listSent(db, actor.orgId, actor.userId)).map(toKeyRequest);
  }
  if (actor.userType === 'miniretailer') return [];
  return (await repo.listReceived(db, actor.orgId, decidesFor(actor))).map(toKeyRequest);
};

/**
 * Asks the actor's parent for `quantity` keys of `appType`, at the parent's price per key then (a
 * distributor's or retailer's own price to its children, else the organisation's; null when neither
 * is set), audited. Throws FORBIDDEN unless a distributor, retailer or mini-retailer.
 */
export const createKeyRequest = async (
  db: Db,
  actor: TActor,
  request: TCreateKeyRequest,
): Promise<TKeyRequest> => {
  const parentId = await parentOf(db, actor);
  const prices = await repo.findPrices(db, actor.orgId, parentId);
  const key = String(request.appType);
  const unitPricePaise = prices.shop?.[key] ?? prices.organisation[key] ?? null;
  return db.transaction(async (tx) => {
    const id = await repo.insertRequest(tx, {
      orgId: actor.orgId,
      requesterId: actor.userId,
      parentId,
      appType: request.appType,
      quantity: request.quantity,
      unitPricePaise,
      paymentReference: request.paymentReference || null,
    });
    const row = (await repo.findWithNames(tx, actor.orgId, id))!;
    await auditRequest(tx, actor, 'key_request.created', row.request);
    return toKeyRequest(row);
  });
};

/**
 * The parent decides a pending request, once: approve moves the keys (a `transfer` from the
 * distributor or retailer, a `top_up` from the organisation's issuance) in the same transaction;
 * reject records why. Throws FORBIDDEN unless a distributor, retailer or the organisation admin,
 * NOT_FOUND (field request_id)
 * for a request not theirs to decide (another organisation's too), KEY_REQUEST_ALREADY_DECIDED (409)
 * when it is no longer pending (a second decision at once among them), INSUFFICIENT_KEYS (409, field
 * quantity) when the distributor or retailer holds fewer keys than asked (nothing changes).
 */
export const decideKeyRequest = async (
  db: Db,
  actor: TActor,
  request: z.output<typeof ZDecideKeyRequest>,
): Promise<TKeyRequest> => {
  const parentId = decidesFor(actor);
  return db.transaction(async (tx) => {
    const found = await repo.findWithNames(tx, actor.orgId, request.request_id);
    if (!found || found.request.parentId !== parentId) throw requestNotFound();
    const approve = request.decision === 'approve';
    const decided = await repo.decidePending(
      tx,
      { orgId: actor.orgId, id: request.request_id, parentId },
      {
        status: approve ? 'approved' : 'rejected',
        decidedBy: actor.userId,
        decisionNote: request.note || null,
      },
    );
    if (!decided)
      throw new AppError(
        AppErrorCode.KEY_REQUEST_ALREADY_DECIDED,
        `This request is already ${found.request.status}`,
      );
    if (!approve) {
      await auditRequest(tx, actor, 'key_request.rejected', decided, { note: request.note ?? '' });
    } else {
      const held = parentId === null ? null : await balanceOf(tx, actor.orgId, parentId, decided.appType);
      const movementId = await moveKeysBetween(
        tx,
        {
          orgId: actor.orgId,
          kind: parentId === null ? 'top_up' : 'transfer',
          appType: decided.appType,
          quantity: decided.quantity,
          from: holderOf(parentId),
          to: { userId: decided.requesterId },
          actorUserId: actor.userId,
          note: `Key request ${decided.id}`,
        },
        () =>
          new AppError(
            AppErrorCode.INSUFFICIENT_KEYS,
            `Not enough keys: you have ${held ?? 0} ${appTypeLabel(decided.appType)} keys, ${decided.quantity} asked`,
            [{ field: 'quantity', message: `At most ${held ?? 0}` }],
          ),
      );
      await repo.setMovement(tx, decided.id, movementId);
      await auditRequest(tx, actor, 'key_request.approved', decided, { movementId });
    }
    return toKeyRequest((await repo.findWithNames(tx, actor.orgId, decided.id))!);
  });
};

/**
 * The requester withdraws its pending request. Throws NOT_FOUND (field request_id) for another's,
 * KEY_REQUEST_ALREADY_DECIDED (409) once decided.
 */
export const cancelKeyRequest = async (db: Db, actor: TActor, requestId: number): Promise<TKeyRequest> =>
  db.transaction(async (tx) => {
    const found = await repo.findWithNames(tx, actor.orgId, requestId);
    if (!found || found.request.requesterId !== actor.userId) throw requestNotFound();
    const cancelled = await repo.decidePending(
      tx,
      { orgId: actor.orgId, id: requestId, requesterId: actor.userId },
      { status: 'cancelled' },
    );
    if (!cancelled)
      throw new AppError(
        AppErrorCode.KEY_REQUEST_ALREADY_DECIDED,
        `This request is already ${found.request.status}`,
      );
    await auditRequest(tx, actor, 'key_request.cancelled', cancelled);
    return toKeyRequest((await repo.findWithNames(tx, actor.orgId, requestId))!);
  });

/**
 * Returns unused keys to the actor's parent: to its retailer or distributor (a `transfer`), or to
 * the organisation (a `return` to its issuance account), audited, answered as the actor's history
 * shows it. Throws FORBIDDEN unless a distributor, retailer or mini-retailer, INSUFFICIENT_KEYS
 * (409, field quantity) when it holds fewer (nothing changes). Keys reserved by an enrolment QR are
 * not in the balance, so they cannot be returned.
 */
export const returnKeys = async (
  db: Db,
  actor: TActor,
  request: TReturnKeysRequest,
): Promise<TLedgerMovement> => {
  const parentId = await parentOf(db, actor);
  return db.transaction(async (tx) => {
    const held = await balanceOf(tx, actor.orgId, actor.userId, request.appType);
    const movementId = await moveKeysBetween(
      tx,
      {
        orgId: actor.orgId,
        kind: parentId === null ? 'return' : 'transfer',
        appType: request.appType,
        quantity: request.quantity,
        from: { userId: actor.userId },
        to: holderOf(parentId),
        actorUserId: actor.userId,
        note: request.note || 'Keys returned',
      },
      () =>
        new AppError(
          AppErrorCode.INSUFFICIENT_KEYS,
          `Not enough keys: you have ${held} ${appTypeLabel(request.appType)} keys, ${request.quantity} to return`,
          [{ field: 'quantity', message: `At most ${held}` }],
        ),
    );
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'ledger.return',
      entity: 'user',
      entityId: String(parentId ?? actor.userId),
      details: { movementId, appType: request.appType, quantity: request.quantity },
    });
    return movementSeenByUser(tx, actor.orgId, actor.userId, movementId);
  });
};

/** Throws FORBIDDEN unless the actor has children to set key prices for: a distributor or retailer. */
const requirePriceSetter = (actor: TActor) => {
  if (actor.userType !== 'retailer' && actor.userType !== 'distributor')
    throw new AppError(
      AppErrorCode.FORBIDDEN,
      'Only a distributor or retailer sets prices for the shops below it',
    );
};

/**
 * A distributor's or retailer's price per key to its children (none: they pay the organisation's).
 * FORBIDDEN for anyone else.
 */
export const getShopKeyPrices = async (db: DbOrTx, actor: TActor): Promise<TKeyPrices> => {
  requirePriceSetter(actor);
  return keyPricesFromMap((await repo.findPrices(db, actor.orgId, actor.userId)).shop);
};

/** Replaces a distributor's or retailer's prices to its children, audited. FORBIDDEN for anyone else. */
export const saveShopKeyPrices = async (db: Db, actor: TActor, request: TKeyPrices): Promise<TKeyPrices> => {
  requirePriceSetter(actor);
  const pricesPaise = keyPricesToMap(request);
  await db.transaction(async (tx) => {
    await repo.updateShopPrices(tx, actor.userId, pricesPaise);
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'ledger.shop_key_prices',
      entity: 'user',
      entityId: String(actor.userId),
      details: { pricesPaise },
    });
  });
  return keyPricesFromMap(pricesPaise);
};
