import { CustomerStatus } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TLedgerMovement, TRefundKeyRequest } from '@kisht/domain/ledger/ledger.schema';
import type { DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import { findCustomerForActor } from '../customers/customers.service';
import { voidEnrolmentToken } from '../devices/enrolment.service';
import * as repo from './ledger.repository';
import { movementSeenBy, postMovement } from './ledger.service';

/*
 * Refund of an enrolment key (issue 13 "refunds"), apart from ledger.service because it reads the
 * customer and voids the device's token, whose services themselves spend keys through
 * ledger.service (an import cycle otherwise).
 */

/**
 * Gives back the key an enrolment QR spent (api/points/refund_key), in one transaction: the
 * customer's un-refunded `key_use` movement (locked FOR UPDATE) is marked refunded, a `refund`
 * movement (consumption account → the account the key came from, same app_type, 1 key, the
 * customer and IMEI, `note`) is posted, the device's enrolment token is voided (the QR shown can
 * no longer enrol; a new QR costs a key again) and it is audited (`ledger.refund`). Answers the
 * refund as the credited account's history shows it. Throws FORBIDDEN unless the actor is a
 * retailer or mini-retailer, CUSTOMER_NOT_FOUND (404) for a customer outside its scope,
 * ALREADY_ENROLLED (409) once the customer is not inactive or its phone enrolled, NOTHING_TO_WAIVE
 * (409) when no key was spent for the customer (or it was already refunded); nothing is written then.
 */
export const refundEnrolmentKey = async (
  db: DbOrTx,
  options: { actor: TActor; request: TRefundKeyRequest },
): Promise<TLedgerMovement> => {
  const { actor, request } = options;
  if (actor.userType !== 'retailer' && actor.userType !== 'miniretailer')
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only a retailer can return a key');
  return db.transaction(async (tx) => {
    const { customer, device } = await findCustomerForActor(tx, actor, request.customer_id);
    if (customer.status !== CustomerStatus.INACTIVE || device.enrolledAt !== null)
      throw new AppError(
        AppErrorCode.ALREADY_ENROLLED,
        "This customer's phone is already enrolled: its key cannot be returned",
      );
    // Void the QR first: its UPDATE waits for, or shuts out, an enrolment of the phone at this moment.
    if (!(await voidEnrolmentToken(tx, device.id)))
      throw new AppError(
        AppErrorCode.ALREADY_ENROLLED,
        "This customer's phone is already enrolled: its key cannot be returned",
      );
    const keyUse = await repo.findUnrefundedKeyUseForUpdate(tx, actor.orgId, customer.id);
    if (!keyUse) throw new AppError(AppErrorCode.NOTHING_TO_WAIVE, 'No key was spent for this customer');
    await repo.markKeyUseRefunded(tx, keyUse.id);
    const movementId = await postMovement(tx, {
      orgId: actor.orgId,
      kind: 'refund',
      appType: keyUse.appType,
      quantity: 1,
      fromAccountId: keyUse.toAccountId,
      toAccountId: keyUse.fromAccountId,
      customerId: customer.id,
      imei: keyUse.imei,
      actorUserId: actor.userId,
      note: request.note || null,
    });
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'ledger.refund',
      entity: 'customer',
      entityId: String(customer.id),
      details: {
        movementId,
        keyUseMovementId: keyUse.id,
        appType: keyUse.appType,
        imei: keyUse.imei,
        note: request.note || null,
      },
    });
    return movementSeenBy(tx, keyUse.fromAccountId, movementId!);
  });
};
