import {
  ZInstalmentQr,
  ZInstalmentQrRequest,
  ZMandate,
  ZMandateQuery,
  ZSetUpMandateRequest,
} from '../autopay/autopay.schema';
import { paths } from '../paths';
import { defineRoutes } from './define';

/**
 * The UPI AutoPay routes (issue 29, docs/autopay.md): a customer's mandate, read, set up and
 * cancelled by the shop (retailer, mini-retailer, admin; a customer outside the actor's scope
 * answers 404) or by the customer user for their own loan; and the gateway's signed webhook.
 */
export const autopayContract = defineRoutes({
  /** The customer's live mandate (or the last one ended), with its charges; null when none. */
  get: { method: 'GET', path: paths.autopay.mandate, query: ZMandateQuery, response: ZMandate.nullable() },
  /** Set up a mandate: answers it with the authorisation link the customer's UPI app opens (QR). */
  setUp: { method: 'POST', path: paths.autopay.mandate, body: ZSetUpMandateRequest, response: ZMandate },
  /**
   * Cancel the customer's live mandate (at the gateway too); answers it cancelled. Idempotent: with
   * none live it answers the newest as it stands (or null), changing nothing.
   */
  cancel: {
    method: 'DELETE',
    path: paths.autopay.mandate,
    query: ZMandateQuery,
    response: ZMandate.nullable(),
  },
  /**
   * A single-use gateway UPI QR for the oldest unpaid instalment, carrying its `tr` reference: paid,
   * it is recorded against that instalment and the phone unlocked (webhook qr_code.credited).
   */
  instalmentQr: {
    method: 'POST',
    path: paths.autopay.instalmentQr,
    body: ZInstalmentQrRequest,
    response: ZInstalmentQr,
  },
  /** Token, payment and QR-code events, signed over the raw body with X-Razorpay-Signature. */
  webhook: { method: 'POST', path: paths.autopay.webhook, response: 'protocol' },
});
