import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TLedgerMovement } from '@kisht/domain/ledger/ledger.schema';
import type { DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import * as repo from './ledger.repository';
import { movementSeenBy, postMovement } from './ledger.service';

/**
 * The ledger's half of an enrolment key's refund (issue 13 "refunds"; the key-refund module checks
 * the customer and voids the QR first), in the caller's transaction: the customer's open key
 * reservation (issue 27; locked FOR UPDATE) is settled, or, for a QR issued before reservations,
 * its un-refunded `key_use` movement is marked refunded; then a `refund` movement (the reserved or
 * consumption account → the account the key came from, same app_type, 1 key, the customer and
 * IMEI, `note`) is posted and audited (`ledger.refund`). Answers the refund as the credited
 * account's history shows it. Throws NOTHING_TO_WAIVE (409) when no key was reserved or spent for
 * the customer (or it was already given back); nothing is written then.
 */
export const refundKeyUseOfCustomer = async (
  tx: DbOrTx,
  options: { actor: TActor; customerId: number; imei: string; note: string | null },
): Promise<TLedgerMovement> => {
  const { actor, customerId, note } = options;
  // The key to give back: the QR's open reservation, or (a QR from before reservations) its key use.
  const reservation = await repo.findOpenReservationForUpdate(tx, actor.orgId, options);
  const taken = reservation ?? (await repo.findUnrefundedKeyUseForUpdate(tx, actor.orgId, customerId));
  if (!taken) throw new AppError(AppErrorCode.NOTHING_TO_WAIVE, 'No key was spent for this customer');
  if (reservation) await repo.markReservationSettled(tx, taken.id);
  else await repo.markKeyUseRefunded(tx, taken.id);
  const movementId = await postMovement(tx, {
    orgId: actor.orgId,
    kind: 'refund',
    appType: taken.appType,
    quantity: 1,
    fromAccountId: taken.toAccountId,
    toAccountId: taken.fromAccountId,
    customerId,
    imei: taken.imei,
    actorUserId: actor.userId,
    note,
  });
  await insertAudit(tx, {
    orgId: actor.orgId,
    actorUserId: actor.userId,
    action: 'ledger.refund',
    entity: 'customer',
    entityId: String(customerId),
    details: {
      movementId: movementId!,
      keyUseMovementId: taken.id,
      appType: taken.appType,
      imei: taken.imei,
      note,
    },
  });
  return movementSeenBy(tx, taken.fromAccountId, movementId!);
};
