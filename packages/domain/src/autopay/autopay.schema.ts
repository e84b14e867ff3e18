import { z } from 'zod';
import { ZIsoDate } from '../common/envelope';
import { ZId, ZQueryId } from '../common/identifiers';
import { MANDATE_STATES, MAX_MANDATE_PAISE, MIN_CHARGE_PAISE } from './autopay.rules';

/** A mandate's state (autopay.rules MANDATE_STATES). */
export const ZMandateState = z.enum(MANDATE_STATES);
export type TMandateStateValue = z.infer<typeof ZMandateState>;

/**
 * POST paths.autopay.mandate: set up UPI AutoPay for a customer (retailer, mini-retailer, admin,
 * or the customer for their own loan). `maxAmountPaise` is the most one debit may take, integer
 * paise; by default the largest instalment still owed.
 */
export const ZSetUpMandateRequest = z.object({
  customer_id: ZId,
  maxAmountPaise: z
    .number()
    .int('Whole paise')
    .min(MIN_CHARGE_PAISE, `At least ${MIN_CHARGE_PAISE} paise`)
    .max(MAX_MANDATE_PAISE, `At most ${MAX_MANDATE_PAISE} paise`)
    .optional(),
});
export type TSetUpMandateRequest = z.input<typeof ZSetUpMandateRequest>;

/** GET and DELETE paths.autopay.mandate: ?customer_id=. */
export const ZMandateQuery = z.object({ customer_id: ZQueryId });
export type TMandateQuery = z.input<typeof ZMandateQuery>;

/** One charge attempt of an instalment: amount in paise, the +05:30 day it was made. */
export const ZMandateCharge = z.object({
  instalmentNo: z.number().int().positive(),
  attempt: z.number().int().positive(),
  amountPaise: z.number().int().nonnegative(),
  status: z.enum(['created', 'captured', 'failed']),
  chargeDate: ZIsoDate,
  /** The receipt of the payment recorded when the charge was captured. */
  receiptNo: z.string().nullable(),
  failureReason: z.string().nullable(),
});
export type TMandateCharge = z.infer<typeof ZMandateCharge>;

/**
 * A customer's UPI AutoPay mandate. `authorisationLink` is what the customer's UPI app opens (a
 * `upi://mandate` intent, shown as a QR) while the mandate waits for approval, else null. Times UTC.
 */
export const ZMandate = z.object({
  id: z.number().int().positive(),
  customerId: z.number().int().positive(),
  state: ZMandateState,
  maxAmountPaise: z.number().int().positive(),
  frequency: z.string(),
  expireAt: z.string(),
  authorisationLink: z.string().nullable(),
  /** Who ended it: the customer (their UPI app or login), the shop, or the gateway. */
  endedBy: z.enum(['customer', 'shop', 'gateway']).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The newest charge attempts first (at most 24). */
  charges: z.array(ZMandateCharge),
});
export type TMandate = z.infer<typeof ZMandate>;

/**
 * POST paths.autopay.instalmentQr: a single-use gateway UPI QR for the customer's oldest unpaid
 * instalment (issue 29), made by the shop (retailer, mini-retailer, admin) or by the customer for
 * their own loan.
 */
export const ZInstalmentQrRequest = z.object({ customer_id: ZId });
export type TInstalmentQrRequest = z.input<typeof ZInstalmentQrRequest>;

/**
 * A gateway UPI QR for one instalment: `imageUrl` is the gateway's image of the QR; a payment to it
 * carries `reference` (the instalment's `tr`, KSH<customer>I<instalment>) and is recorded against
 * that instalment by the gateway's `qr_code.credited` webhook. Amount in integer paise; `closeBy`
 * UTC, after which the gateway closes the QR.
 */
export const ZInstalmentQr = z.object({
  qrId: z.string(),
  imageUrl: z.string(),
  instalmentNo: z.number().int().positive(),
  amountPaise: z.number().int().positive(),
  reference: z.string(),
  closeBy: z.string(),
});
export type TInstalmentQr = z.infer<typeof ZInstalmentQr>;
