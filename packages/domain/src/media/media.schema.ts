import { z } from 'zod';
import { ZId, ZQueryId } from '../common/identifiers';

/**
 * What an uploaded file is to a customer. The first two are the per-organisation image paths of
 * spec §3 (customer_profile, customer_invoice_attachment); the others are the customer's documents
 * (customer_documents) and signatures (signature, witness_signature).
 */
export const MEDIA_KINDS = [
  'customer_profile',
  'customer_invoice_attachment',
  'customer_document',
  'customer_signature',
  'witness_signature',
] as const;
export type TMediaKind = (typeof MEDIA_KINDS)[number];

/** Identity and address documents a retailer keeps for a loan (query parameter document_type, spec §3). */
export const DOCUMENT_TYPES = [
  'aadhaar_front',
  'aadhaar_back',
  'pan_card',
  'voter_id',
  'driving_licence',
  'bank_statement',
  'other',
] as const;
export type TDocumentType = (typeof DOCUMENT_TYPES)[number];

// Zod-free (upload-limits.ts) so the web app's image helpers read it without zod; re-exported.
export { MAX_UPLOAD_BYTES } from './upload-limits';

/** Content types the server accepts, sniffed from the bytes, not taken from the client. */
export const UPLOAD_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;

/** Signatures are drawn on a canvas and uploaded as PNG. */
export const SIGNATURE_MIME_TYPE = 'image/png';

/** One stored file of a customer. `imageName` is its per-organisation path; `createdAt` ISO 8601 UTC. */
export const ZMedia = z.object({
  id: ZId,
  kind: z.enum(MEDIA_KINDS),
  documentType: z.enum(DOCUMENT_TYPES).nullable(),
  /** Per-organisation storage path, e.g. `41/customer_profile/0193….jpg`; pass as image_name to fetch it. */
  imageName: z.string(),
  mimeType: z.string(),
  sizeBytes: z.number().int(),
  createdAt: z.string(),
  uploadedByName: z.string().nullable(),
});
export type TMedia = z.infer<typeof ZMedia>;

/**
 * Everything stored for a customer (customer_documents): the newest photo, invoice and signatures,
 * and every document, newest first.
 */
export const ZCustomerMedia = z.object({
  customerId: ZId,
  photo: ZMedia.nullable(),
  invoice: ZMedia.nullable(),
  signature: ZMedia.nullable(),
  witnessSignature: ZMedia.nullable(),
  documents: z.array(ZMedia),
  /** Whether the organisation asks for a witness signature (feature flag witness layout, spec §1). */
  witnessRequired: z.boolean(),
});
export type TCustomerMedia = z.infer<typeof ZCustomerMedia>;

/** Multipart fields of /upload/update_customer_details besides `file`. */
export const ZCustomerImageUploadFields = z.object({
  customer_id: ZQueryId,
  kind: z.enum(['customer_profile', 'customer_invoice_attachment']),
});

/** Multipart fields of a customer document upload besides `file`. */
export const ZCustomerDocumentUploadFields = z.object({
  customer_id: ZQueryId,
  document_type: z.enum(DOCUMENT_TYPES),
});

/** Multipart fields of a signature upload besides `file` (a PNG). */
export const ZSignatureUploadFields = z.object({
  customer_id: ZQueryId,
  kind: z.enum(['customer_signature', 'witness_signature']),
});

/** Delete one stored document of a customer. */
export const ZDeleteMediaRequest = z.object({
  customer_id: ZId,
  media_id: ZId,
});
export type TDeleteMediaRequest = z.input<typeof ZDeleteMediaRequest>;

/** GET /api/medias?image_name= : the stored file's bytes. */
export const ZMediaFileQuery = z.object({
  image_name: z.string().regex(/^\d+\/[a-z_]+\/[0-9a-f-]{36}\.(jpg|png|webp|pdf)$/, 'Not a stored file name'),
});

/** Largest page of the media list (GET /api/medias without image_name). */
export const MEDIA_PAGE_SIZE_MAX = 100;

/**
 * GET /api/medias (spec §7): with `image_name`, the stored file's bytes; without it, a page of the
 * files the actor may see (page from 1, pageSize 1–100, default 50).
 */
export const ZMediaQuery = z.object({
  image_name: ZMediaFileQuery.shape.image_name.optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MEDIA_PAGE_SIZE_MAX).default(50),
});

/**
 * One file in the media list, metadata only: `customerId` null for a retailer's own files;
 * `url` the API path that answers its bytes (null where there is none); `createdAt` ISO 8601 UTC.
 */
export const ZMediaListItem = z.object({
  id: ZId,
  kind: z.string(),
  documentType: z.string().nullable(),
  mimeType: z.string(),
  sizeBytes: z.number().int(),
  createdAt: z.string(),
  customerId: ZId.nullable(),
  url: z.string().nullable(),
});
export type TMediaListItem = z.infer<typeof ZMediaListItem>;

/** A page of the media list, newest first; `total` counts every file the actor may see. */
export const ZMediaPage = z.object({
  items: z.array(ZMediaListItem),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int().nonnegative(),
});
export type TMediaPage = z.infer<typeof ZMediaPage>;
