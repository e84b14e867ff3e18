import { z } from 'zod';

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

/**
 * retailer_payment_qr, PUT body: the actor's UPI ID. The payee name is the account's own name and
 * is not set here: a `payeeName` in the body is refused (400 naming it) rather than ignored.
 */
export const ZSavePaymentQrRequest = z.object({
  upiId: ZVpa,
  payeeName: z.never({ error: 'The payee name is your account name; it cannot be changed here' }).optional(),
});
export type TSavePaymentQrRequest = z.infer<typeof ZSavePaymentQrRequest>;

/**
 * retailer_payment_qr, GET (and PUT) answer: the actor's UPI ID (null until set), the payee name
 * (the account's name) and the UPI intent link customers scan, `upi://pay?pa=…&pn=…&cu=INR` with no
 * amount (null without a UPI ID).
 */
export const ZPaymentQrSettings = z.object({
  upiId: z.string().nullable(),
  payeeName: z.string(),
  upiLink: z.string().nullable(),
});
export type TPaymentQrSettings = z.infer<typeof ZPaymentQrSettings>;
