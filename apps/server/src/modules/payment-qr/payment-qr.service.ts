import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import {
  PAYMENT_QR_IMAGE_MAX_BYTES,
  PAYMENT_QR_IMAGE_TYPES,
  type TPaymentQrSettings,
  type ZSavePaymentQrRequest,
} from '@kisht/domain/users/payment-qr.schema';
import { upiPayLink } from '@kisht/domain/users/upi';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { sniffUpload } from '../../lib/uploaded-file';
import { insertAudit } from '../audit/audit.repository';
import { findUser } from '../auth/auth.service';
import { findCustomerForActor, isOwnLoanOfCustomerUser } from '../scope/scope.service';
import type { TPayeeRow } from './payment-qr.repository';
import * as repo from './payment-qr.repository';

/** The media kind of an uploaded payment QR image (a user's own file: customer_id null). */
export const PAYMENT_QR_MEDIA_KIND = 'user_payment_qr';

const EXTENSION: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg' };

/** Throws FORBIDDEN unless the actor is a retailer or mini-retailer (customers pay, they are not paid). */
const requireShop = (actor: TActor): void => {
  if (actor.userType !== 'retailer' && actor.userType !== 'miniretailer')
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only retailers have a payment QR');
};

/** The payee name (`pn`) of a user: the one set for UPI, else their name. */
export const payeeNameOf = (user: { name: string; upiPayeeName: string | null }): string =>
  user.upiPayeeName ?? user.name;

const settingsOf = (payee: TPayeeRow): TPaymentQrSettings => {
  const payeeName = payeeNameOf(payee);
  return {
    upiId: payee.upiId,
    payeeName,
    isPayeeNameCustom: payee.upiPayeeName !== null,
    upiLink: payee.upiId ? upiPayLink({ vpa: payee.upiId, payeeName }) : null,
    qrImage: payee.qrImage
      ? {
          mimeType: payee.qrImage.mimeType,
          sizeBytes: payee.qrImage.sizeBytes,
          uploadedAt: payee.qrImage.createdAt.toISOString(),
        }
      : null,
  };
};

/** The actor's own row; throws NOT_FOUND when it is gone. */
const actorPayee = async (db: DbOrTx, actor: TActor): Promise<TPayeeRow> => {
  const payee = await findPayee(db, actor);
  if (!payee) throw new AppError(AppErrorCode.NOT_FOUND, 'User not found');
  return payee;
};
const findPayee = (db: DbOrTx, actor: TActor) => repo.findPayee(db, actor.orgId, actor.userId);

/**
 * retailer_payment_qr: the actor's own UPI ID (users.upi_id, null until set), payee name
 * (users.upi_payee_name, else the account's name), the standing `upi://pay?pa=…&pn=…&cu=INR` link
 * (no amount; NPCI UPI linking specification) and the uploaded QR image, if any. Only the actor's
 * own row: no id is taken from the request. Throws FORBIDDEN for a customer.
 */
export const getPaymentQr = async (db: DbOrTx, actor: TActor): Promise<TPaymentQrSettings> => {
  requireShop(actor);
  return settingsOf(await actorPayee(db, actor));
};

/**
 * Sets the actor's own UPI ID and, when the request has one, payee name (null: back to the account
 * name), both already validated by ZSavePaymentQrRequest, with an audit entry of before and after,
 * in one transaction; answers the new settings. Customers' loan screens build their UPI links from
 * these. Throws FORBIDDEN for a customer.
 */
export const savePaymentQr = async (
  db: DbOrTx,
  actor: TActor,
  request: z.output<typeof ZSavePaymentQrRequest>,
): Promise<TPaymentQrSettings> => {
  requireShop(actor);
  const { upiId, payeeName } = request;
  return db.transaction(async (tx) => {
    const before = await actorPayee(tx, actor);
    const upiPayeeName = payeeName === undefined ? before.upiPayeeName : payeeName;
    await repo.updateUpiSettings(tx, actor.orgId, actor.userId, { upiId, upiPayeeName });
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'user.payment_qr',
      entity: 'user',
      entityId: String(actor.userId),
      details:
        upiPayeeName === before.upiPayeeName
          ? { before: before.upiId, after: upiId }
          : {
              before: before.upiId,
              after: upiId,
              payeeNameBefore: before.upiPayeeName,
              payeeNameAfter: upiPayeeName,
            },
    });
    return settingsOf({ ...before, upiId, upiPayeeName });
  });
};

/**
 * Stores the actor's own payment QR image (PNG or JPEG sniffed from the bytes, at most 5 MB; the
 * browser compresses it first, spec §5) as a media row owned by the actor (customer_id null,
 * `{orgId}/user_payment_qr/{uuid}.{ext}`), points users.payment_qr_media_id at it and marks the
 * one it replaces deleted, audited; answers the settings. Customers then see this image instead
 * of the generated QR. Throws FORBIDDEN for a customer, MEDIA_TOO_LARGE (413) and
 * MEDIA_TYPE_NOT_ALLOWED (415) naming `file`.
 */
export const storePaymentQrImage = async (
  db: Db,
  options: { actor: TActor; bytes: Uint8Array },
): Promise<TPaymentQrSettings> => {
  const { actor, bytes } = options;
  requireShop(actor);
  if (bytes.byteLength > PAYMENT_QR_IMAGE_MAX_BYTES) {
    throw new AppError(AppErrorCode.MEDIA_TOO_LARGE, 'The file is larger than 5 MB', [
      { field: 'file', message: 'The file is larger than 5 MB' },
    ]);
  }
  const mime = await sniffUpload(bytes, PAYMENT_QR_IMAGE_TYPES, {
    message: 'Upload the QR as a PNG or JPEG image',
    fieldMessage: 'Upload one of: image/png, image/jpeg',
  });
  const path = `${actor.orgId}/${PAYMENT_QR_MEDIA_KIND}/${uuidv7()}.${EXTENSION[mime]}`;
  return db.transaction(async (tx) => {
    const before = await actorPayee(tx, actor);
    const mediaId = await repo.insertOwnMedia(tx, {
      orgId: actor.orgId,
      ownerUserId: actor.userId,
      customerId: null,
      kind: PAYMENT_QR_MEDIA_KIND,
      path,
      mimeType: mime,
      sizeBytes: bytes.byteLength,
      content: bytes,
      uploadedBy: actor.userId,
    });
    await repo.setPaymentQrMedia(tx, actor.orgId, actor.userId, mediaId);
    if (before.qrImage) await repo.markOwnMediaDeleted(tx, actor.orgId, actor.userId, before.qrImage.mediaId);
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'user.payment_qr_image',
      entity: 'user',
      entityId: String(actor.userId),
      details: { mediaId, path, sizeBytes: bytes.byteLength, replaced: before.qrImage?.mediaId ?? null },
    });
    return settingsOf((await findPayee(tx, actor))!);
  });
};

/**
 * Removes the actor's own payment QR image (the media row is kept, marked deleted), audited;
 * customers see the generated QR again. Nothing to remove is not an error. Answers the settings.
 * Throws FORBIDDEN for a customer.
 */
export const deletePaymentQrImage = async (db: Db, actor: TActor): Promise<TPaymentQrSettings> => {
  requireShop(actor);
  return db.transaction(async (tx) => {
    const before = await actorPayee(tx, actor);
    if (!before.qrImage) return settingsOf(before);
    await repo.setPaymentQrMedia(tx, actor.orgId, actor.userId, null);
    await repo.markOwnMediaDeleted(tx, actor.orgId, actor.userId, before.qrImage.mediaId);
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'user.payment_qr_image_delete',
      entity: 'user',
      entityId: String(actor.userId),
      details: { mediaId: before.qrImage.mediaId },
    });
    return settingsOf({ ...before, qrImage: null });
  });
};

/**
 * The uploaded QR image of the retailer a customer pays ("How to pay"): for a customer user, of one
 * of their own loans (the customer record's mobile is theirs); for a retailer or mini-retailer, of
 * a customer in their scope; null when that retailer has no uploaded image. Throws NOT_FOUND for
 * any other customer id (other organisations and retailers too).
 */
export const readCustomerPayQrImage = async (
  db: DbOrTx,
  options: { actor: TActor; customerId: number },
): Promise<{ mimeType: string; content: Uint8Array } | null> => {
  const { actor, customerId } = options;
  const notFound = new AppError(AppErrorCode.NOT_FOUND, 'Customer not found', [
    { field: 'customer_id', message: 'No such customer of yours' },
  ]);
  if (actor.userType === 'customer') {
    const user = await findUser(db, actor.userId);
    const isOwnLoan =
      user !== null &&
      (await isOwnLoanOfCustomerUser(db, { orgId: actor.orgId, customerId, mobile: user.mobile }));
    if (!isOwnLoan) throw notFound;
  } else {
    try {
      await findCustomerForActor(db, actor, customerId);
    } catch (error) {
      if (error instanceof AppError && error.code === AppErrorCode.CUSTOMER_NOT_FOUND) throw notFound;
      throw error;
    }
  }
  return repo.findRetailerQrImageOfCustomer(db, { orgId: actor.orgId, customerId });
};
