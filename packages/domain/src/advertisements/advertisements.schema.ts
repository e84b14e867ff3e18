import { z } from 'zod';
import { COMMAND_STATES, CUSTOMER_STATUS_CODES } from '../common/enums';
import { ZId, ZQueryId } from '../common/identifiers';

/** Longest advertisement title and text (the phone's show_ad limits, ZShowAdArgs). */
export const AD_TITLE_MAX = 80;
export const AD_TEXT_MAX = 500;

/** Content types an advertisement image may have, sniffed from the bytes (spec §5: JPEG or PNG). */
export const AD_IMAGE_TYPES = ['image/jpeg', 'image/png'] as const;

/**
 * Multipart fields of `/upload/update_retailer_ad` besides the optional `file` (the image, compressed
 * by the web per spec §5): `title` 1–80 characters and `text` 0–500, both trimmed.
 */
export const ZAdvertisementUploadFields = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'Give the ad a title')
    .max(AD_TITLE_MAX, `At most ${AD_TITLE_MAX} characters`),
  text: z.string().trim().max(AD_TEXT_MAX, `At most ${AD_TEXT_MAX} characters`).default(''),
});
export type TAdvertisementUploadFields = z.input<typeof ZAdvertisementUploadFields>;

/** Counts of an advertisement send's commands by state (every COMMAND_STATES key present). */
export const ZCommandStateCounts = z.record(z.enum(COMMAND_STATES), z.number().int().nonnegative());

/** One sending of an advertisement to phones (its id is the commands' batch id). `createdAt` ISO 8601 UTC. */
export const ZAdvertisementSend = z.object({
  id: z.string().uuid(),
  advertisementId: ZId,
  /** Phones a show_ad command was written for. */
  total: z.number().int().nonnegative(),
  /** Customers left out (not enrolled, uninstalled, EMIs completed, a phone that cannot show ads). */
  skippedCount: z.number().int().nonnegative(),
  counts: ZCommandStateCounts,
  createdAt: z.string(),
});
export type TAdvertisementSend = z.infer<typeof ZAdvertisementSend>;

/**
 * A retailer's advertisement. `hasImage` says whether it has an image, fetched from
 * paths.advertisements.image?advertisement_id=; `sends` its sendings, newest first (the list only;
 * empty elsewhere). `createdAt` ISO 8601 UTC.
 */
export const ZAdvertisement = z.object({
  id: ZId,
  retailerId: ZId,
  title: z.string(),
  text: z.string(),
  hasImage: z.boolean(),
  /** The image's content type ('image/jpeg' or 'image/png'), or null without one. */
  imageMimeType: z.string().nullable(),
  createdAt: z.string(),
  sends: z.array(ZAdvertisementSend),
});
export type TAdvertisement = z.infer<typeof ZAdvertisement>;

/** GET current: the advertisement the app shows (a retailer's newest; a customer's retailer's newest), or null. */
export const ZCurrentAdvertisement = ZAdvertisement.nullable();

/** ?advertisement_id= of the image and send preview routes. */
export const ZAdvertisementIdQuery = z.object({ advertisement_id: ZQueryId });

/**
 * Whom an advertisement goes to, as multiple_lock_unlock chooses (spec §4 status codes): chosen
 * `customer_ids`, or a `filter` (all_enrolled: every enrolled phone; overdue: those with something
 * overdue today, +05:30), or every enrolled customer of one `status`. Exactly one of the three.
 */
const selection = {
  customer_ids: z.array(ZId).min(1).max(10_000).optional(),
  filter: z.enum(['all_enrolled', 'overdue']).optional(),
  status: z.coerce
    .number()
    .int()
    .refine((s) => (CUSTOMER_STATUS_CODES as number[]).includes(s), 'Not a customer status (spec §4)')
    .optional(),
};
const exactlyOne = (r: { customer_ids?: unknown; filter?: unknown; status?: unknown }) =>
  [r.customer_ids, r.filter, r.status].filter((v) => v !== undefined).length === 1;
const EXACTLY_ONE = {
  path: ['customer_ids'],
  message: 'Choose customers, a filter or a status: one of them',
};

/** POST send: the advertisement and whom it goes to (see the selection above). */
export const ZSendAdvertisementRequest = z
  .object({ advertisement_id: ZId, ...selection })
  .refine(exactlyOne, EXACTLY_ONE);
export type TSendAdvertisementRequest = z.input<typeof ZSendAdvertisementRequest>;

/** GET send_preview: what a filter or status would reach (neither: all_enrolled; chosen customers are counted on the web). */
export const ZAdvertisementPreviewQuery = z
  .object({ advertisement_id: ZQueryId, filter: selection.filter, status: selection.status })
  .refine((r) => r.filter === undefined || r.status === undefined, {
    path: ['filter'],
    message: 'Choose a filter or a status, not both',
  });
export type TAdvertisementPreviewQuery = z.input<typeof ZAdvertisementPreviewQuery>;

/** GET send_status?send_id= */
export const ZAdvertisementSendQuery = z.object({ send_id: z.string().uuid('Not a send id') });

/**
 * Delivery progress of one send: counts of its show_ad commands by state (read as one aggregate
 * over device_commands by batch id) and the customers skipped with why.
 */
export const ZAdvertisementSendProgress = ZAdvertisementSend.extend({
  skipped: z.array(z.object({ customerId: ZId, reason: z.string() })),
});
export type TAdvertisementSendProgress = z.infer<typeof ZAdvertisementSendProgress>;

/** GET device image: the signed, expiring address a phone fetches an advertisement image from. */
export const ZAdImageQuery = z.object({
  /** The image's media id (named `image`, not an id parameter: the signature, not a session, grants it). */
  image: z.coerce.number().int().positive().safe(),
  /** Expiry, Unix seconds (the command's notAfter). */
  exp: z.coerce.number().int().positive(),
  /** HMAC-SHA256 of `{image}.{exp}`, base64url. */
  sig: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Not a signature'),
});
