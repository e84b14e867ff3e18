import { z } from 'zod';
import { ZQueryId } from '../common/identifiers';
import { CONSENT_LANGUAGES } from '../customers/consent-texts';

/** The ten app languages (spec §1) a warranty certificate is printed in. */
export const CERTIFICATE_LANGUAGES = CONSENT_LANGUAGES;
export type TCertificateLanguage = (typeof CERTIFICATE_LANGUAGES)[number];

/**
 * GET /api/plans/warranty_certificate: the PDF certificate of one extended-warranty activation, in
 * `lang` (one of the app languages; default the buyer's, else en).
 */
export const ZWarrantyCertificateQuery = z.object({
  activation_id: ZQueryId,
  lang: z.enum(CERTIFICATE_LANGUAGES, 'Choose one of the app languages').optional(),
});
export type TWarrantyCertificateQuery = z.input<typeof ZWarrantyCertificateQuery>;

/** How many days before an extended warranty ends its buyer gets the expiry reminder SMS. */
export const WARRANTY_REMINDER_DAYS = 30;
