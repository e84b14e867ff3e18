import type { TAuditEvent, TAuditEventOf } from '@kisht/domain/audit/audit-events';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TAddress } from '@kisht/domain/customers/customers.schema';
import { MAX_UPLOAD_BYTES, SIGNATURE_MIME_TYPE } from '@kisht/domain/media/media.schema';
import type {
  TRetailer,
  TRetailerListItem,
  TRetailerPage,
  TUserImageKind,
  ZAddRetailerRequest,
  ZRetailerListQuery,
  ZUpdateOwnProfileRequest,
  ZUpdateRetailerRequest,
} from '@kisht/domain/retailers/retailers.schema';
import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { sniffUpload } from '../../lib/uploaded-file';
import { insertAudit } from '../audit/audit.repository';
import { isKnownPlace, listCountries, listStates } from '../catalogue/csc.service';
import { effectiveAccess, type TAccessOverrides } from '../users/users.service';
import * as repo from './retailers.repository';

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
const EXTENSION: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

const notFound = () =>
  new AppError(AppErrorCode.NOT_FOUND, 'Retailer not found', [
    { field: 'user_id', message: 'Choose one of your retailers' },
  ]);

/** Throws FORBIDDEN unless the actor is a retailer: only a retailer has mini-retailers. */
const requireRetailer = (actor: TActor): void => {
  if (actor.userType !== 'retailer')
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only a retailer can manage mini-retailers');
};

/** Throws FORBIDDEN unless the actor is a retailer or mini-retailer. */
const requireShop = (actor: TActor): void => {
  if (actor.userType !== 'retailer' && actor.userType !== 'miniretailer')
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only retailers can do this');
};

const withPlaceNames = (address: TAddress) => ({
  ...address,
  countryName: listCountries().find((c) => c.code === address.countryCode)?.name ?? address.countryCode,
  stateName:
    listStates(address.countryCode).find((s) => s.code === address.stateCode)?.name ?? address.stateCode,
});

const toListItem = (row: repo.TRetailerRow): TRetailerListItem => ({
  id: row.id,
  name: row.name,
  shopName: row.shopName,
  mobile: row.mobile,
  isActive: row.isActive,
  customerCount: Number(row.customerCount),
  hasProfileImage: row.profileImageMediaId !== null,
  createdAt: row.createdAt.toISOString(),
});

const toRetailer = (row: repo.TRetailerRow): TRetailer => ({
  ...toListItem(row),
  userType: row.userType === 'retailer' ? 'retailer' : 'miniretailer',
  email: row.email,
  gstNumber: row.gstNumber,
  address: row.address ? withPlaceNames(row.address) : null,
  hasSignature: row.signatureMediaId !== null,
  deactivatedAt: row.deactivatedAt?.toISOString() ?? null,
  parentId: row.parentId,
  parentName: row.parentName,
  ...effectiveAccess(row.access as TAccessOverrides),
  dateOfBirth: row.dateOfBirth,
});

/** The actor's own row; NOT_FOUND when it is gone. */
const ownRow = async (db: DbOrTx, actor: TActor): Promise<repo.TRetailerRow> => {
  const row = await repo.findShopUser(db, actor.orgId, actor.userId);
  if (!row) throw notFound();
  return row;
};

/** A mini-retailer of the acting retailer; NOT_FOUND for anyone else's (other organisations too). */
const childRow = async (db: DbOrTx, actor: TActor, userId: number): Promise<repo.TRetailerRow> => {
  const row = await repo.findShopUser(db, actor.orgId, userId);
  if (row?.userType !== 'miniretailer' || row.parentId !== actor.userId) throw notFound();
  return row;
};

/**
 * The shop user a request names: the actor without `userId` or with its own id; a retailer's
 * mini-retailer by id. FORBIDDEN for customers; NOT_FOUND for any other id.
 */
const targetRow = async (db: DbOrTx, actor: TActor, userId: number | undefined) => {
  requireShop(actor);
  if (userId === undefined || userId === actor.userId) return ownRow(db, actor);
  if (actor.userType !== 'retailer') throw notFound();
  return childRow(db, actor, userId);
};

const checkPlace = (address: TAddress | undefined) => {
  if (address && !isKnownPlace(address)) {
    throw new AppError(AppErrorCode.VALIDATION_FAILED, 'Choose the country, state and city from the lists', [
      { field: 'address.city', message: 'Choose a city of the chosen state' },
    ]);
  }
};

/**
 * Serialises writes of one mobile in one organisation (transaction-scoped advisory lock), then
 * throws MOBILE_IN_USE (409, field mobile) when another shop user of the organisation has it.
 */
const claimMobile = async (tx: DbOrTx, orgId: number, mobile: string, exceptId?: number) => {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`kisht:shop-mobile:${orgId}:${mobile}`}))`);
  if (await repo.isShopMobileTaken(tx, orgId, mobile, exceptId)) {
    throw new AppError(AppErrorCode.MOBILE_IN_USE, 'This mobile number is already registered', [
      { field: 'mobile', message: 'This mobile number is already registered' },
    ]);
  }
};

type TFlags = Record<string, '0' | '1'>;
type TStoredAccess = { userAccess?: TFlags; lockAccess?: TFlags };

const definedFlags = (flags: Partial<Record<string, '0' | '1'>> | undefined): TFlags =>
  Object.fromEntries(Object.entries(flags ?? {}).filter(([, v]) => v !== undefined)) as TFlags;

/** Only the flags given, so defaults keep applying to the rest. */
const mergeAccess = (
  current: TStoredAccess,
  change: {
    userAccess?: Partial<Record<string, '0' | '1'>> | undefined;
    lockAccess?: Partial<Record<string, '0' | '1'>> | undefined;
  },
): Required<TStoredAccess> => ({
  userAccess: { ...(current.userAccess ?? {}), ...definedFlags(change.userAccess) },
  lockAccess: { ...(current.lockAccess ?? {}), ...definedFlags(change.lockAccess) },
});

/**
 * add_retailer (`/country/addUsers`): the acting retailer adds a mini-retailer under itself with
 * name, shop, mobile (+91…), optional email and GSTIN, address (country/state/city from the csc
 * lists) and optional access flags (spec §6 defaults for the rest), audited (retailer.create).
 * Throws FORBIDDEN unless the actor is a retailer, VALIDATION_FAILED (address.city) for an unknown
 * place, MOBILE_IN_USE (field mobile) when a shop user of the organisation has the number.
 */
export const addMiniRetailer = async (
  db: Db,
  options: { actor: TActor; request: z.output<typeof ZAddRetailerRequest> },
): Promise<TRetailer> => {
  const { actor, request } = options;
  requireRetailer(actor);
  checkPlace(request.address);
  const id = await db.transaction(async (tx) => {
    await claimMobile(tx, actor.orgId, request.mobile);
    const access = mergeAccess({}, request);
    const userId = await repo.insertMiniRetailer(tx, {
      orgId: actor.orgId,
      parentId: actor.userId,
      name: request.name,
      shopName: request.shopName,
      mobile: request.mobile,
      email: request.email ?? null,
      gstNumber: request.gstNumber ?? null,
      address: request.address,
      access,
    });
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'retailer.create',
      entity: 'user',
      entityId: String(userId),
      details: {
        name: request.name,
        shopName: request.shopName,
        mobile: request.mobile,
        gstNumber: request.gstNumber ?? null,
        access,
      },
    });
    return userId;
  });
  return toRetailer((await repo.findShopUser(db, actor.orgId, id))!);
};

/**
 * retailer_list (`getUsers`): one page of the acting retailer's mini-retailers, newest first, each
 * with its customer count; search by name, shop or mobile; status active, inactive or all.
 * Throws FORBIDDEN unless the actor is a retailer.
 */
export const listMiniRetailers = async (
  db: DbOrTx,
  options: { actor: TActor; query: z.output<typeof ZRetailerListQuery> },
): Promise<TRetailerPage> => {
  const { actor, query } = options;
  requireRetailer(actor);
  const { rows, total } = await repo.listMiniRetailers(db, actor.orgId, actor.userId, {
    search: query.search || undefined,
    isActive: query.status === 'all' ? undefined : query.status === 'active',
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  return { items: rows.map(toListItem), total, page: query.page, pageSize: query.pageSize };
};

const EDITABLE = ['name', 'shopName', 'mobile', 'email', 'gstNumber', 'address'] as const;

/**
 * updateUsers: the parent retailer edits a mini-retailer's details and access flags, deactivates
 * it (is_active false, deactivated_at now, every session ended at once: its next call answers 511,
 * and it cannot log in) or reactivates it, in one transaction with one audit entry per kind of
 * change (retailer.update with before/after of each field, retailer.access, retailer.deactivate,
 * retailer.reactivate). Throws FORBIDDEN unless the actor is a retailer, NOT_FOUND (user_id) for
 * anyone but its own mini-retailers, MOBILE_IN_USE (mobile), VALIDATION_FAILED (address.city).
 */
export const updateMiniRetailer = async (
  db: Db,
  options: { actor: TActor; request: z.output<typeof ZUpdateRetailerRequest> },
): Promise<TRetailer> => {
  const { actor, request } = options;
  requireRetailer(actor);
  checkPlace(request.address);
  await db.transaction(async (tx) => {
    const before = await childRow(tx, actor, request.user_id);
    const audit = (event: TAuditEvent) =>
      insertAudit(tx, { orgId: actor.orgId, actorUserId: actor.userId, ...event });
    const user = { entity: 'user', entityId: String(before.id) } as const;
    if (request.mobile !== undefined && request.mobile !== before.mobile)
      await claimMobile(tx, actor.orgId, request.mobile, before.id);

    const values: Parameters<typeof repo.updateShopUser>[3] = {};
    const changed: TAuditEventOf<'retailer.update'>['details'] = {};
    for (const field of EDITABLE) {
      const after = request[field];
      if (after === undefined) continue;
      if (JSON.stringify(after) === JSON.stringify(before[field])) continue;
      Object.assign(values, { [field]: after });
      Object.assign(changed, { [field]: { before: before[field], after } });
    }
    if (Object.keys(changed).length > 0)
      await audit({ action: 'retailer.update', ...user, details: changed });

    if (request.userAccess || request.lockAccess) {
      const current: TStoredAccess = before.access ?? {};
      const access = mergeAccess(current, request);
      if (JSON.stringify(effectiveAccess(access)) !== JSON.stringify(effectiveAccess(current))) {
        values.access = access;
        await audit({
          action: 'retailer.access',
          ...user,
          details: { before: effectiveAccess(current), after: effectiveAccess(access) },
        });
      }
    }

    if (request.isActive === false && before.isActive) {
      values.isActive = false;
      values.deactivatedAt = new Date();
      const ended = await repo.revokeAllSessionsOf(tx, before.id);
      await audit({ action: 'retailer.deactivate', ...user, details: { sessionsEnded: ended } });
    } else if (request.isActive === true && !before.isActive) {
      values.isActive = true;
      values.deactivatedAt = null;
      await audit({
        action: 'retailer.reactivate',
        ...user,
        details: { deactivatedAt: before.deactivatedAt?.toISOString() ?? null },
      });
    }
    await repo.updateShopUser(tx, actor.orgId, before.id, values);
  });
  return toRetailer((await repo.findShopUser(db, actor.orgId, request.user_id))!);
};

/**
 * readById: a retailer reads itself or one of its mini-retailers; a mini-retailer only itself.
 * Throws FORBIDDEN for customers and NOT_FOUND (user_id) for any other id.
 */
export const readRetailer = async (db: DbOrTx, actor: TActor, userId: number): Promise<TRetailer> =>
  toRetailer(await targetRow(db, actor, userId));

/**
 * getRetailerProfile: the actor's own profile (name, shop, mobile, email, GST, address, whether a
 * profile image and signature are stored, the parent, access flags). FORBIDDEN for customers.
 */
export const getOwnProfile = async (db: DbOrTx, actor: TActor): Promise<TRetailer> =>
  toRetailer(await targetRow(db, actor, undefined));

/**
 * The signed-in retailer's or mini-retailer's own profile edit (issue 16): its date of birth
 * (YYYY-MM-DD, validated as past by the request schema) or null to clear it, audited
 * (`retailer.update_own` with before and after). FORBIDDEN for customers.
 */
export const updateOwnProfile = async (
  db: Db,
  options: { actor: TActor; request: z.output<typeof ZUpdateOwnProfileRequest> },
): Promise<TRetailer> => {
  const { actor, request } = options;
  await db.transaction(async (tx) => {
    const before = await targetRow(tx, actor, undefined);
    if (before.dateOfBirth === request.dateOfBirth) return;
    await repo.updateShopUser(tx, actor.orgId, before.id, { dateOfBirth: request.dateOfBirth });
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'retailer.update_own',
      entity: 'user',
      entityId: String(before.id),
      details: { dateOfBirth: { before: before.dateOfBirth, after: request.dateOfBirth } },
    });
  });
  return getOwnProfile(db, actor);
};

/** Sniffs `bytes`, refusing what `accepted` does not list (field file) and files over 5 MB. */
const sniff = async (bytes: Uint8Array, accepted: string[]): Promise<string> => {
  if (bytes.byteLength > MAX_UPLOAD_BYTES) {
    throw new AppError(AppErrorCode.MEDIA_TOO_LARGE, 'The file is larger than 5 MB', [
      { field: 'file', message: 'The file is larger than 5 MB' },
    ]);
  }
  return sniffUpload(bytes, accepted, { message: 'This kind of file is not accepted here' });
};

/** Stores an image the target user owns and points the user's column at it, audited. */
const storeUserImage = async (
  db: Db,
  options: {
    actor: TActor;
    target: repo.TRetailerRow;
    kind: 'user_profile_image' | 'user_signature';
    mime: string;
    bytes: Uint8Array;
  },
): Promise<TRetailer> => {
  const { actor, target, kind, mime, bytes } = options;
  const path = `${target.orgId}/${kind}/${uuidv7()}.${EXTENSION[mime]}`;
  await db.transaction(async (tx) => {
    const mediaId = await repo.insertUserMedia(tx, {
      orgId: target.orgId,
      ownerUserId: target.id,
      kind,
      path,
      mimeType: mime,
      sizeBytes: bytes.byteLength,
      content: bytes,
      uploadedBy: actor.userId,
    });
    await repo.updateShopUser(
      tx,
      target.orgId,
      target.id,
      kind === 'user_profile_image' ? { profileImageMediaId: mediaId } : { signatureMediaId: mediaId },
    );
    await insertAudit(tx, {
      orgId: target.orgId,
      actorUserId: actor.userId,
      action: kind === 'user_profile_image' ? 'user.profile_image' : 'user.signature',
      entity: 'user',
      entityId: String(target.id),
      details: { mediaId, path, sizeBytes: bytes.byteLength },
    });
  });
  return toRetailer((await repo.findShopUser(db, target.orgId, target.id))!);
};

/**
 * `/api/user` profile image: the actor's own, or (a retailer's) one of its mini-retailers' by
 * `userId`. JPEG, PNG or WebP sniffed from the bytes, at most 5 MB (spec §9); stored as a media row
 * owned by the user (customer_id null). Throws FORBIDDEN for customers, NOT_FOUND (user_id) for
 * any other id, MEDIA_TOO_LARGE / MEDIA_TYPE_NOT_ALLOWED (file).
 */
export const storeProfileImage = async (
  db: Db,
  options: { actor: TActor; userId?: number | undefined; bytes: Uint8Array },
): Promise<TRetailer> => {
  const target = await targetRow(db, options.actor, options.userId);
  const mime = await sniff(options.bytes, IMAGE_TYPES);
  return storeUserImage(db, {
    actor: options.actor,
    target,
    kind: 'user_profile_image',
    mime,
    bytes: options.bytes,
  });
};

/**
 * The actor's own signature (a PNG drawn on the signature pad), stored as a media row it owns.
 * Throws FORBIDDEN for customers, MEDIA_TOO_LARGE / MEDIA_TYPE_NOT_ALLOWED (file).
 */
export const storeOwnSignature = async (
  db: Db,
  options: { actor: TActor; bytes: Uint8Array },
): Promise<TRetailer> => {
  const target = await targetRow(db, options.actor, undefined);
  const mime = await sniff(options.bytes, [SIGNATURE_MIME_TYPE]);
  return storeUserImage(db, {
    actor: options.actor,
    target,
    kind: 'user_signature',
    mime,
    bytes: options.bytes,
  });
};

/**
 * The bytes of a user's profile image, signature or payment QR image: the actor's own, or one of a
 * retailer's mini-retailers'. Throws FORBIDDEN for customers, NOT_FOUND for any other id or when
 * no such image is stored.
 */
export const readUserImage = async (
  db: DbOrTx,
  options: { actor: TActor; userId?: number | undefined; kind: TUserImageKind },
): Promise<{ mimeType: string; content: Uint8Array }> => {
  const target = await targetRow(db, options.actor, options.userId);
  const mediaId = {
    profile_image: target.profileImageMediaId,
    signature: target.signatureMediaId,
    payment_qr: target.paymentQrMediaId,
  }[options.kind];
  const file = mediaId === null ? null : await repo.findUserMediaFile(db, target.orgId, target.id, mediaId);
  if (!file) throw new AppError(AppErrorCode.NOT_FOUND, 'No image stored');
  return file;
};
