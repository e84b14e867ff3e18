import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TPaymentQrSettings, TSavePaymentQrRequest } from '@kisht/domain/users/payment-qr.schema';
import { upiPayLink } from '@kisht/domain/users/upi';
import type { DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import { findPayee, type TPayeeRow, updateUpiId } from './payment-qr.repository';

/** Throws FORBIDDEN unless the actor is a retailer or mini-retailer (customers pay, they are not paid). */
const requireShop = (actor: TActor): void => {
  if (actor.userType !== 'retailer' && actor.userType !== 'miniretailer')
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only retailers have a payment QR');
};

const settingsOf = (payee: TPayeeRow): TPaymentQrSettings => ({
  upiId: payee.upiId,
  payeeName: payee.name,
  upiLink: payee.upiId ? upiPayLink({ vpa: payee.upiId, payeeName: payee.name }) : null,
});

/** The actor's own row; throws NOT_FOUND when it is gone. */
const actorPayee = async (db: DbOrTx, actor: TActor): Promise<TPayeeRow> => {
  const payee = await findPayee(db, actor.orgId, actor.userId);
  if (!payee) throw new AppError(AppErrorCode.NOT_FOUND, 'User not found');
  return payee;
};

/**
 * retailer_payment_qr: the actor's own UPI ID (users.upi_id, null until set), payee name (the
 * account's name) and the standing `upi://pay?pa=…&pn=…&cu=INR` link (no amount; NPCI UPI linking
 * specification). Only the actor's own row: no id is taken from the request. Throws FORBIDDEN for
 * a customer.
 */
export const getPaymentQr = async (db: DbOrTx, actor: TActor): Promise<TPaymentQrSettings> => {
  requireShop(actor);
  return settingsOf(await actorPayee(db, actor));
};

/**
 * Sets the actor's own UPI ID (already validated and lower-cased by ZSavePaymentQrRequest), with an
 * audit entry of before and after, in one transaction; answers the new settings. Customers' loan
 * screens build their UPI links from this ID. Throws FORBIDDEN for a customer.
 */
export const savePaymentQr = async (
  db: DbOrTx,
  actor: TActor,
  request: TSavePaymentQrRequest,
): Promise<TPaymentQrSettings> => {
  requireShop(actor);
  return db.transaction(async (tx) => {
    const before = await actorPayee(tx, actor);
    await updateUpiId(tx, actor.orgId, actor.userId, request.upiId);
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'user.payment_qr',
      entity: 'user',
      entityId: String(actor.userId),
      details: { before: before.upiId, after: request.upiId },
    });
    return settingsOf({ ...before, upiId: request.upiId });
  });
};
