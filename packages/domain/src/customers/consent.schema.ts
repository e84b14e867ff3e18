import { z } from 'zod';
import { ZId, ZQueryId } from '../common/identifiers';
import { CONSENT_LANGUAGES } from './consent-texts';

/** One of the ten spec §1 languages a consent text exists in. */
export const ZConsentLanguage = z.enum(CONSENT_LANGUAGES, 'Choose one of the app languages');

/** GET consent_text: the text to show a customer before they sign, in their language. */
export const ZConsentTextQuery = z.object({ customer_id: ZQueryId, language: ZConsentLanguage });
export type TConsentTextQuery = z.input<typeof ZConsentTextQuery>;

/** The consent text a customer is asked to agree to (renderConsentText), with its version. */
export const ZConsentText = z.object({
  language: ZConsentLanguage,
  textVersion: z.string(),
  text: z.string(),
});
export type TConsentText = z.infer<typeof ZConsentText>;

/**
 * Records a customer's consent to remote locking (before their enrolment QR is made): the
 * language and text version they were shown (consent_text) and their signature, uploaded first as
 * a customer_signature (paths.customers.signature). The server stores the text itself, rendered
 * again from the same version, never text sent by the client.
 */
export const ZRecordConsentRequest = z.object({
  customer_id: ZId,
  language: ZConsentLanguage,
  textVersion: z.string().trim().min(1, 'This is a required field').max(40),
  /** The customer's signature: a customer_signature media id of this customer. */
  signature_media_id: ZId,
});
export type TRecordConsentRequest = z.input<typeof ZRecordConsentRequest>;

/** The customer's signature under a consent: the stored file (fetch it by imageName from /api/medias). */
export const ZConsentSignature = z.object({ mediaId: ZId, imageName: z.string() });

/**
 * A recorded consent as the retailer's screens show it: the exact text in the customer's
 * language and its version, who recorded it and when (ISO 8601 UTC), and the signature.
 */
export const ZCustomerConsent = z.object({
  customerId: ZId,
  language: ZConsentLanguage,
  textVersion: z.string(),
  text: z.string(),
  /** Name of the retailer or mini-retailer who recorded it. */
  recordedByName: z.string(),
  consentedAt: z.string(),
  /** Null only if the signature file was deleted afterwards. */
  signature: ZConsentSignature.nullable(),
});
export type TCustomerConsent = z.infer<typeof ZCustomerConsent>;

/** GET consent: the customer's recorded consent, or null while none is recorded. */
export const ZCustomerConsentAnswer = ZCustomerConsent.nullable();

/**
 * A consent as the customer themself sees it (their own view): which loan's phone it is about, and
 * the signature inline as a PNG data URL (a customer cannot fetch retailer media by name).
 */
export const ZMyConsent = ZCustomerConsent.omit({ signature: true }).extend({
  productName: z.string(),
  /** `data:image/png;base64,…`, or null if the signature file was deleted. */
  signatureDataUrl: z.string().nullable(),
});
export type TMyConsent = z.infer<typeof ZMyConsent>;
