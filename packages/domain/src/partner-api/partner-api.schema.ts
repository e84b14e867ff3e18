import { z } from 'zod';
import { ZId, ZQueryId } from '../common/identifiers';
import { ZConsentLanguage } from '../customers/consent.schema';
import { ZCreateCustomerRequest } from '../customers/customers.schema';
import { ZLockReasonCategory } from '../devices/devices.schema';
import { PAYMENT_MODES, ZPaymentReceipt } from '../emi/emi.schema';
import { parseIdempotencyKey } from '../emi/idempotency-key';
import { PARTNER_COMMANDS, PARTNER_KEY_SCOPES } from './partner-api.rules';

/*
 * The partner API's shapes (issue 30, docs/partner-api.md): the organisation admin's keys, and
 * what a lender's server sends and gets on /partner/v1. Money is integer paise, times ISO 8601 UTC,
 * dates YYYY-MM-DD (+05:30).
 */

/** A key's scope (PARTNER_KEY_SCOPES). */
export const ZPartnerKeyScope = z.enum(PARTNER_KEY_SCOPES);

/**
 * POST paths.partnerKeys.keys (organisation admin): a name to know the key by, its scopes (at
 * least one, each once), and the shop its loans are booked under (an active retailer or
 * mini-retailer of the organisation: the enrolment keys its loans spend are that shop's).
 */
export const ZCreatePartnerKey = z.object({
  name: z.string().trim().min(1, 'This is a required field').max(60, 'At most 60 characters'),
  scopes: z
    .array(ZPartnerKeyScope)
    .min(1, 'Choose at least one scope')
    .refine((scopes) => new Set(scopes).size === scopes.length, 'Each scope once'),
  retailer_id: ZId,
});
export type TCreatePartnerKey = z.input<typeof ZCreatePartnerKey>;

/** DELETE paths.partnerKeys.keys: ?key_id=. */
export const ZPartnerKeyQuery = z.object({ key_id: ZQueryId });

/** A key as the admin sees it: never its secret, only the start of its text. Times UTC. */
export const ZPartnerKey = z.object({
  id: ZId,
  name: z.string(),
  /** The first characters of the key's text (`kisht_pk_<public id>`), to tell keys apart. */
  keyPrefix: z.string(),
  scopes: z.array(ZPartnerKeyScope),
  retailerId: ZId,
  retailerName: z.string(),
  createdAt: z.string(),
  /** When it was revoked (it answers 401 from then on), else null. */
  revokedAt: z.string().nullable(),
});
export type TPartnerKey = z.infer<typeof ZPartnerKey>;

/** A key just made, with its whole text, shown this once (Kisht keeps only its SHA-256). */
export const ZPartnerKeyWithSecret = z.object({ key: ZPartnerKey, apiKey: z.string() });
export type TPartnerKeyWithSecret = z.infer<typeof ZPartnerKeyWithSecret>;

/** Path parameters of a customer's partner routes: /partner/v1/customers/:customer_id. */
export const ZPartnerCustomerParams = z.object({ customer_id: ZQueryId });

/**
 * The customer's consent to remote locking as the lender recorded it (its own e-sign or signed
 * form): the language and the consent text version they were shown (GET consent text first), and
 * the lender's reference to the signed record.
 */
export const ZPartnerConsent = z.object({
  language: ZConsentLanguage,
  textVersion: z.string().trim().min(1, 'This is a required field').max(40),
  reference: z.string().trim().min(1, 'This is a required field').max(200, 'At most 200 characters'),
});

/**
 * GET paths.partner.consentText: the consent text a new customer is shown before signing, for the
 * loan about to be created (their name and phone model, the key's booking shop, the lender).
 */
export const ZPartnerConsentTextQuery = z.object({
  language: ZConsentLanguage,
  product_id: ZQueryId,
  first_name: z.string().trim().min(1, 'This is a required field').max(60),
  last_name: z.string().trim().min(1, 'This is a required field').max(60),
});

/** POST paths.partner.customers: the customer, phone and loan (add_customer's fields) and the consent. */
export const ZPartnerCreateLoan = z.object({ customer: ZCreateCustomerRequest, consent: ZPartnerConsent });
export type TPartnerCreateLoan = z.input<typeof ZPartnerCreateLoan>;

/** One instalment of a loan as the partner API answers it. */
export const ZPartnerInstalment = z.object({
  id: ZId,
  instalmentNo: z.number().int(),
  dueDate: z.string(),
  amountPaise: z.number().int(),
  paidPaise: z.number().int(),
});

/**
 * A customer's loan and phone (GET paths.partner.customer): the loan terms, the schedule, what is
 * owed and overdue today (+05:30), the paid-through date the phone carries, and the phone's state.
 */
export const ZPartnerLoan = z.object({
  customerId: ZId,
  firstName: z.string(),
  lastName: z.string(),
  mobile: z.string(),
  /** Spec §4 customer status word: inactive, install, uninstall, emi_completed, … */
  status: z.string(),
  loanAmountPaise: z.number().int(),
  tenureMonths: z.number().int(),
  outstandingPaise: z.number().int(),
  overduePaise: z.number().int(),
  instalments: z.array(ZPartnerInstalment),
  device: z.object({
    imei1: z.string(),
    imei2: z.string(),
    enrolledAt: z.string().nullable(),
    isLocked: z.boolean(),
    isOnline: z.boolean(),
    lastSeenAt: z.string().nullable(),
    /** The phone locks itself once this passes, even offline (device protocol §12.5); null: none. */
    paidThrough: z.string().nullable(),
  }),
});
export type TPartnerLoan = z.infer<typeof ZPartnerLoan>;

/** GET paths.partner.enrolmentQr: what the enrolment QR encodes, and the QR as a PNG data URL. */
export const ZPartnerEnrolmentQr = z.object({
  payload: z.string(),
  /** When the QR's one-time token lapses (ISO 8601 UTC); ask again for a fresh one. */
  expiresAt: z.string(),
  pngDataUrl: z.string(),
});

/**
 * POST paths.partner.commands: lock (with a reason category; `overdue_emi` is assumed when an
 * instalment is overdue), unlock or release. `reason` is a note, needed for category `other`.
 */
export const ZPartnerCommandRequest = z.object({
  command: z.enum(PARTNER_COMMANDS),
  reason_category: ZLockReasonCategory.optional(),
  reason: z.string().trim().max(200).optional(),
});
export type TPartnerCommandRequest = z.input<typeof ZPartnerCommandRequest>;

/** A command as sent (its state moves on as the phone acknowledges it; device.locked etc. tell when). */
export const ZPartnerCommand = z.object({
  id: z.string(),
  name: z.string(),
  state: z.string(),
  createdAt: z.string(),
});

/**
 * POST paths.partner.payments: money the lender received for this loan, applied to the oldest
 * unpaid instalments first. At most what the loan still owes.
 */
export const ZPartnerPaymentRequest = z.object({
  amountPaise: z.number().int('Amount must be whole paise').positive('Amount must be more than zero'),
  mode: z.enum(PAYMENT_MODES),
  reference: z.string().trim().max(80).optional(),
});
export type TPartnerPaymentRequest = z.input<typeof ZPartnerPaymentRequest>;

/** The receipt of a payment (the same as the app's) and the customer's status after it. */
export const ZPartnerPaymentReceipt = ZPaymentReceipt;

/**
 * Headers of POST paths.partner.payments: an `Idempotency-Key` is required (IETF draft "The
 * Idempotency-Key HTTP Header Field"): a retry with the same key answers the first receipt.
 */
export const ZPartnerPaymentHeaders = z.looseObject({
  'idempotency-key': z
    .string({ error: 'Required: one key per payment, e.g. a UUID' })
    .refine((raw) => parseIdempotencyKey(raw) !== null, 'A UUID or 1–255 visible ASCII characters')
    .meta({
      description:
        'One key per payment attempt, a UUID or 1–255 visible ASCII characters. A retry with the same key and ' +
        'request answers the first receipt and records nothing again; the same key with another request ' +
        'answers 422 IDEMPOTENCY_KEY_REUSED.',
      example: '8e03978e-40d5-43e8-bc93-6894a57f9324',
    }),
});
