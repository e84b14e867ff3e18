import { paths } from '../paths';
import { ZPaymentQrImageQuery, ZPaymentQrSettings, ZSavePaymentQrRequest } from '../users/payment-qr.schema';
import { defineRoutes } from './define';

/**
 * The retailer_payment_qr routes of the wire contract (contract/define.ts; spec §7 "payment QR").
 * All but the image GET act on the signed-in retailer's or mini-retailer's own settings.
 */
export const paymentQrContract = defineRoutes({
  /** The signed-in user's UPI ID, payee name, UPI QR link and uploaded QR image. */
  get: { method: 'GET', path: paths.users.paymentQr, response: ZPaymentQrSettings },
  /** Set the signed-in user's UPI ID and payee name. */
  save: {
    method: 'PUT',
    path: paths.users.paymentQr,
    body: ZSavePaymentQrRequest,
    response: ZPaymentQrSettings,
  },
  /** Upload the signed-in user's own UPI QR image (multipart `file`, PNG or JPEG, at most 5 MB). */
  uploadImage: {
    method: 'POST',
    path: paths.users.paymentQrImage,
    body: 'multipart',
    response: ZPaymentQrSettings,
  },
  /** Remove the signed-in user's uploaded QR image; customers see the generated QR again. */
  deleteImage: { method: 'DELETE', path: paths.users.paymentQrImage, response: ZPaymentQrSettings },
  /**
   * The uploaded QR image of the retailer a customer pays (How to pay), by customer_id; 204 when
   * that retailer has none.
   */
  customerImage: {
    method: 'GET',
    path: paths.users.paymentQrImage,
    query: ZPaymentQrImageQuery,
    response: 'file',
  },
});
