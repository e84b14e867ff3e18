import { z } from 'zod';
import { ZIsoDate, zPage } from '../common/envelope';
import { ZId, ZMobile, ZQueryId } from '../common/identifiers';
import { istDate } from '../common/time';
import { ZAddress, ZCustomerAddress } from '../customers/customers.schema';
import { ZLockAccess, ZUserAccess } from '../devices/devices.schema';

const GSTIN_CHARSET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * The check character of a GSTIN from its first 14 characters (GST Network's mod-36 scheme:
 * each character's value 0–35 is multiplied by 1 or 2 alternately from the left, each product
 * contributes quotient + remainder by 36, and the check is (36 − sum mod 36) mod 36).
 * Returns null when a character is outside 0–9 A–Z.
 */
export const gstinCheckChar = (first14: string): string | null => {
  let sum = 0;
  for (let i = 0; i < first14.length; i += 1) {
    const value = GSTIN_CHARSET.indexOf(first14[i]!);
    if (value < 0) return null;
    const product = value * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return GSTIN_CHARSET[(36 - (sum % 36)) % 36]!;
};

/**
 * Why a GSTIN is not valid, or null when it is: 15 characters, a state code 01–38, the holder's
 * PAN (5 letters, 4 digits, 1 letter), an entity number (1–9 or A–Z), 'Z', and the check character.
 * Expects upper case without spaces.
 */
export const gstinProblem = (value: string): string | null => {
  if (value.length !== 15) return 'GST number is 15 characters';
  const state = Number(value.slice(0, 2));
  if (!/^\d{2}$/.test(value.slice(0, 2)) || state < 1 || state > 38)
    return 'GST number starts with a state code 01 to 38';
  if (!/^[A-Z]{5}\d{4}[A-Z]$/.test(value.slice(2, 12))) return 'GST number must contain a valid PAN';
  if (!/^[1-9A-Z]$/.test(value[12]!)) return 'Enter a valid GST number';
  if (value[13] !== 'Z') return 'Enter a valid GST number';
  if (gstinCheckChar(value.slice(0, 14)) !== value[14]) return 'GST number check character is wrong';
  return null;
};

/**
 * An optional GST number (GSTIN) field: trimmed, upper-cased; empty text means none (undefined).
 * Invalid ones fail with the reason of gstinProblem.
 */
export const ZGstNumber = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    const value = raw.toUpperCase().replace(/\s+/g, '');
    if (value === '') return undefined;
    const problem = gstinProblem(value);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return value;
  });

const ZRequiredText = (max: number) =>
  z.string().trim().min(1, 'This is a required field').max(max, `At most ${max} characters`);

const ZOptionalEmail = z
  .string()
  .trim()
  .email('Enter a valid email')
  .max(120)
  .optional()
  .or(z.literal('').transform(() => undefined));

/** Access flags a parent sets for a mini-retailer (spec §6 names); absent keys keep their value. */
export const ZUserAccessOverrides = ZUserAccess.partial();
export const ZLockAccessOverrides = ZLockAccess.partial();

/**
 * add_retailer (`/country/addUsers`): a retailer adds a mini-retailer. Mobile as 10 digits (stored
 * +91…), address as add_customer's, GSTIN optional; access flags default to spec §6.
 */
export const ZAddRetailerRequest = z.object({
  name: ZRequiredText(80),
  shopName: ZRequiredText(120),
  mobile: ZMobile,
  email: ZOptionalEmail,
  address: ZAddress,
  gstNumber: ZGstNumber.optional(),
  userAccess: ZUserAccessOverrides.optional(),
  lockAccess: ZLockAccessOverrides.optional(),
});
export type TAddRetailerRequest = z.input<typeof ZAddRetailerRequest>;

/**
 * updateUsers: the parent edits any field of a mini-retailer, its access flags, or deactivates
 * (`isActive: false`, which ends its sessions) or reactivates it. `gstNumber: ''` or `email: ''`
 * clears the value (null after parsing).
 */
export const ZUpdateRetailerRequest = z.object({
  user_id: ZId,
  name: ZRequiredText(80).optional(),
  shopName: ZRequiredText(120).optional(),
  mobile: ZMobile.optional(),
  email: z
    .string()
    .trim()
    .max(120)
    .refine((v) => v === '' || z.email().safeParse(v).success, 'Enter a valid email')
    .transform((v) => v || null)
    .optional(),
  address: ZAddress.optional(),
  gstNumber: ZGstNumber.transform((v) => v ?? null).optional(),
  userAccess: ZUserAccessOverrides.optional(),
  lockAccess: ZLockAccessOverrides.optional(),
  isActive: z.boolean().optional(),
});
export type TUpdateRetailerRequest = z.input<typeof ZUpdateRetailerRequest>;

/** Status filter of retailer_list. */
export const RETAILER_STATUS_FILTERS = ['all', 'active', 'inactive'] as const;
export type TRetailerStatusFilter = (typeof RETAILER_STATUS_FILTERS)[number];

/** getUsers query: page (1-based), search (name, shop or mobile), status. */
export const ZRetailerListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  search: z.string().trim().max(60).optional(),
  status: z.enum(RETAILER_STATUS_FILTERS).default('all'),
});
export type TRetailerListQuery = z.input<typeof ZRetailerListQuery>;

/** `?user_id=` of readById: one of the actor's mini-retailers (or the actor). */
export const ZRetailerIdQuery = z.object({ user_id: ZQueryId });

/** One row of retailer_list. `createdAt` ISO 8601 UTC. */
export const ZRetailerListItem = z.object({
  id: ZId,
  name: z.string(),
  shopName: z.string().nullable(),
  mobile: z.string(),
  isActive: z.boolean(),
  /** Customers this mini-retailer enrolled. */
  customerCount: z.number().int(),
  hasProfileImage: z.boolean(),
  createdAt: z.string(),
});
export type TRetailerListItem = z.infer<typeof ZRetailerListItem>;

export const ZRetailerPage = zPage(ZRetailerListItem);
export type TRetailerPage = z.infer<typeof ZRetailerPage>;

/**
 * A retailer or mini-retailer as retailer_profile shows it: details, address with place names,
 * whether a profile image and signature are stored, the parent, and the effective access flags
 * (spec §6 defaults with the server's overrides). Dates ISO 8601 UTC.
 */
export const ZRetailer = ZRetailerListItem.extend({
  userType: z.enum(['retailer', 'miniretailer']),
  email: z.string().nullable(),
  gstNumber: z.string().nullable(),
  address: ZCustomerAddress.nullable(),
  hasSignature: z.boolean(),
  deactivatedAt: z.string().nullable(),
  parentId: ZId.nullable(),
  parentName: z.string().nullable(),
  userAccess: ZUserAccess,
  lockAccess: ZLockAccess,
  /** Date of birth (YYYY-MM-DD), for the dashboard's birthday celebration (issue 16); null: not given. */
  dateOfBirth: z.string().nullable(),
});
export type TRetailer = z.infer<typeof ZRetailer>;

/**
 * The signed-in retailer's or mini-retailer's own profile edit (issue 16, POST
 * paths.retailers.updateOwnProfile): the date of birth (YYYY-MM-DD, before today +05:30), or null to
 * clear it.
 */
export const ZUpdateOwnProfileRequest = z.object({
  dateOfBirth: ZIsoDate.refine((v) => v < istDate(), 'Date of birth must be in the past').nullable(),
});
export type TUpdateOwnProfileRequest = z.input<typeof ZUpdateOwnProfileRequest>;

/** getRetailerProfile: the actor's own profile (balances come from the ledger's own call). */
export const ZRetailerProfile = ZRetailer;
export type TRetailerProfile = z.infer<typeof ZRetailerProfile>;

/** Images a user owns (paths.users.image `kind`). */
export const USER_IMAGE_KINDS = ['profile_image', 'signature', 'payment_qr'] as const;
export type TUserImageKind = (typeof USER_IMAGE_KINDS)[number];

/** `GET /api/user/image?user_id=&kind=`: the actor's own image without user_id, or a mini-retailer's. */
export const ZUserImageQuery = z.object({
  user_id: ZQueryId.optional(),
  kind: z.enum(USER_IMAGE_KINDS),
});

/** Multipart fields of the profile image upload besides `file`: user_id of a mini-retailer, or none (own). */
export const ZProfileImageUploadFields = z.object({ user_id: ZQueryId.optional() });

/** Multipart fields of the signature upload besides `file`: none (always the actor's own). */
export const ZUserSignatureUploadFields = z.object({});
