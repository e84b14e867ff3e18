import { z } from 'zod';
import { ZQueryId } from '../common/identifiers';

/** Longest UPI ID (VPA) the NPCI format allows, in characters. */
export const VPA_MAX_LENGTH = 256;

/** Message of a UPI ID that is not `name@handle`; the web app translates it by this text. */
export const INVALID_VPA_MESSAGE = 'Enter a UPI ID like name@bank';

/**
 * A UPI ID (virtual payment address, NPCI format): `name@handle`, where the name is letters,
 * digits, '.', '-' or '_' (2 or more) and the handle (the payer's PSP, e.g. okaxis, ybl) is letters;
 * at most 256 characters in all. Trimmed and lower-cased (UPI IDs are not case-sensitive).
 */
export const ZVpa = z
  .string()
  .trim()
  .toLowerCase()
  .max(VPA_MAX_LENGTH, INVALID_VPA_MESSAGE)
  .regex(/^[a-z0-9._-]{2,}@[a-z]{2,}$/, INVALID_VPA_MESSAGE);

/** Longest payee name (`pn`) accepted, in characters. */
export const PAYEE_NAME_MAX_LENGTH = 50;

/** Message of a payee name that is empty, too long or has other characters; the web app translates it by this text. */
export const INVALID_PAYEE_NAME_MESSAGE = 'Use 1 to 50 letters, digits, spaces or . & -';

/**
 * The payee name UPI apps show when the customer pays (`pn` of the UPI intent): 1 to 50 letters
 * (A–Z, a–z), digits, spaces, '.', '&' or '-', trimmed. Only these, as UPI apps display `pn`
 * as it is and some refuse other characters.
 */
export const ZPayeeName = z
  .string()
  .trim()
  // One check, so a bad name gets one message (not one per broken rule).
  .regex(new RegExp(`^[A-Za-z0-9 .&-]{1,${PAYEE_NAME_MAX_LENGTH}}$`), INVALID_PAYEE_NAME_MESSAGE);

/**
 * retailer_payment_qr, PUT body: the actor's UPI ID and, optionally, the payee name (users.upi_payee_name):
 * absent keeps it, null goes back to the account's own name.
 */
export const ZSavePaymentQrRequest = z.object({
  upiId: ZVpa,
  payeeName: ZPayeeName.nullable().optional(),
});
export type TSavePaymentQrRequest = z.input<typeof ZSavePaymentQrRequest>;

/** Largest payment QR image accepted, bytes (spec §9: 5 MB). */
export const PAYMENT_QR_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Content types of an uploaded payment QR image (sniffed from the bytes by the server). */
export const PAYMENT_QR_IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;

/** Multipart fields of the payment QR image upload besides `file`: none (always the actor's own). */
export const ZPaymentQrImageUploadFields = z.object({});

/** `GET paths.users.paymentQrImage?customer_id=`: the QR image of the retailer the customer pays. */
export const ZPaymentQrImageQuery = z.object({ customer_id: ZQueryId });

/**
 * retailer_payment_qr, GET (and PUT, image POST and DELETE) answer: the actor's UPI ID (null
 * until set), the payee name (`pn`: the one set here, else the account's name), the UPI intent
 * link customers scan, `upi://pay?pa=…&pn=…&cu=INR` with no amount (null without a UPI ID), and
 * the uploaded QR image, which customers see instead of the generated QR (null when none).
 */
export const ZPaymentQrSettings = z.object({
  upiId: z.string().nullable(),
  payeeName: z.string(),
  /** True when the payee name was set here; false when it is the account's name. */
  isPayeeNameCustom: z.boolean(),
  upiLink: z.string().nullable(),
  qrImage: z
    .object({
      mimeType: z.string(),
      sizeBytes: z.number().int(),
      /** ISO 8601 UTC. */
      uploadedAt: z.string(),
    })
    .nullable(),
});
export type TPaymentQrSettings = z.infer<typeof ZPaymentQrSettings>;
