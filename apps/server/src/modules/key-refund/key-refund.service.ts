import { CustomerStatus } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TLedgerMovement, TRefundKeyRequest } from '@kisht/domain/ledger/ledger.schema';
import type { Db } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { voidEnrolmentToken } from '../devices/enrolment.service';
import { refundKeyUseOfCustomer } from '../ledger/key-refund.service';
import { findCustomerForActor } from '../scope/scope.service';

/*
 * Refund of an enrolment key (issue 13 "refunds"): above the ledger (which the devices module's
 * enrolment spends keys through) and the devices module (whose QR it voids), so neither imports
 * the other (issue 25: no module cycle).
 */

const alreadyEnrolled = () =>
  new AppError(
    AppErrorCode.ALREADY_ENROLLED,
    "This customer's phone is already enrolled: its key cannot be returned",
  );

/**
 * Gives back the key an enrolment QR reserved (api/points/refund_key), in one transaction: the
 * device's enrolment token is voided (the QR shown can no longer enrol; a new QR costs a key
 * again), then the ledger refunds the key (refundKeyUseOfCustomer). Throws FORBIDDEN unless the
 * actor is a retailer or mini-retailer, CUSTOMER_NOT_FOUND (404) for a customer outside its scope,
 * ALREADY_ENROLLED (409) once the customer is not inactive or its phone enrolled, NOTHING_TO_WAIVE
 * (409) when no key was reserved or spent for the customer (or it was already given back); nothing is written then.
 */
export const refundEnrolmentKey = async (
  db: Db,
  options: { actor: TActor; request: TRefundKeyRequest },
): Promise<TLedgerMovement> => {
  const { actor, request } = options;
  if (actor.userType !== 'retailer' && actor.userType !== 'miniretailer')
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only a retailer can return a key');
  return db.transaction(async (tx) => {
    const { customer, device } = await findCustomerForActor(tx, actor, request.customer_id);
    if (customer.status !== CustomerStatus.INACTIVE || device.enrolledAt !== null) throw alreadyEnrolled();
    // Void the QR first: its UPDATE waits for, or shuts out, an enrolment of the phone at this moment.
    if (!(await voidEnrolmentToken(tx, device.id))) throw alreadyEnrolled();
    return refundKeyUseOfCustomer(tx, {
      actor,
      customerId: customer.id,
      imei: device.imei1,
      note: request.note || null,
    });
  });
};
