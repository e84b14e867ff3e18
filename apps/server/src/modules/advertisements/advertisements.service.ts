import {
  AD_IMAGE_TYPES,
  type TAdvertisement,
  type TAdvertisementSend,
  type TAdvertisementSendProgress,
  type ZAdvertisementPreviewQuery,
  type ZAdvertisementUploadFields,
  type ZSendAdvertisementRequest,
} from '@kisht/domain/advertisements/advertisements.schema';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { ID_MAX } from '@kisht/domain/common/identifiers';
import type { TBulkPreview } from '@kisht/domain/devices/devices.schema';
import { MAX_UPLOAD_BYTES } from '@kisht/domain/media/media.schema';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { sniffUpload } from '../../lib/uploaded-file';
import { insertAudit } from '../audit/audit.repository';
import {
  batchProgressCounts,
  previewBulkMessage,
  queueBulkMessage,
  type TMessageSelection,
} from '../devices/bulk-message.service';
import type { CommandDispatcher } from '../devices/device-outbox.service';
import { visibleRetailerIds } from '../users/users.service';
import { adImageUrl, isAdImageSignatureValid, sha256Hex } from './ad-image-url';
import * as repo from './advertisements.repository';

/** Most advertisements the list shows (newest first). */
const LIST_LIMIT = 20;

const EXTENSION: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png' };

const adNotFound = () =>
  new AppError(AppErrorCode.NOT_FOUND, 'Advertisement not found', [
    { field: 'advertisement_id', message: 'No such advertisement' },
  ]);

const toAd = (row: repo.AdRow, sends: TAdvertisementSend[] = []): TAdvertisement => ({
  id: row.id,
  retailerId: row.retailerId,
  title: row.title,
  text: row.body,
  hasImage: row.imageMediaId !== null && row.imageMimeType !== null,
  imageMimeType: row.imageMimeType,
  createdAt: row.createdAt.toISOString(),
  sends,
});

const toSend = async (db: DbOrTx, row: repo.SendRow): Promise<TAdvertisementSendProgress> => {
  const { counts, skipped } = await batchProgressCounts(db, row.orgId, row.id);
  return {
    id: row.id,
    advertisementId: row.advertisementId,
    total: row.targetCount,
    skippedCount: row.skippedCount,
    counts,
    createdAt: row.createdAt.toISOString(),
    skipped,
  };
};

/** An advertisement the actor may manage (its retailer is in the actor's scope), else NOT_FOUND (advertisement_id). */
const adInScope = async (db: DbOrTx, actor: TActor, id: number): Promise<repo.AdRow> => {
  const retailerIds = await visibleRetailerIds(db, actor);
  const row = await repo.findAd(db, actor.orgId, id);
  if (!row || !retailerIds.includes(row.retailerId)) throw adNotFound();
  return row;
};

/**
 * `/upload/update_retailer_ad` (spec §7, issue 16): a new advertisement of the actor (a retailer
 * or mini-retailer) with `title` (1–80), `text` (0–500) and an optional image (JPEG or PNG sniffed
 * from the bytes, at most 5 MB; stored as a media row of kind `advertisement` owned by the actor),
 * audited, in one transaction. Throws FORBIDDEN for other users, MEDIA_TOO_LARGE and
 * MEDIA_TYPE_NOT_ALLOWED (field file).
 */
export const createAdvertisement = async (
  db: Db,
  options: {
    actor: TActor;
    fields: z.output<typeof ZAdvertisementUploadFields>;
    bytes?: Uint8Array | undefined;
  },
): Promise<TAdvertisement> => {
  const { actor, fields, bytes } = options;
  await visibleRetailerIds(db, actor); // refuses customers and admins
  let mime: string | undefined;
  if (bytes) {
    if (bytes.byteLength > MAX_UPLOAD_BYTES) {
      throw new AppError(AppErrorCode.MEDIA_TOO_LARGE, 'The file is larger than 5 MB', [
        { field: 'file', message: 'The file is larger than 5 MB' },
      ]);
    }
    mime = await sniffUpload(bytes, AD_IMAGE_TYPES, { message: 'The image must be a JPEG or PNG' });
  }
  const id = await db.transaction(async (tx) => {
    let imageMediaId: number | null = null;
    if (bytes && mime) {
      imageMediaId = await repo.insertAdImage(tx, {
        orgId: actor.orgId,
        ownerUserId: actor.userId,
        path: `${actor.orgId}/advertisement/${uuidv7()}.${EXTENSION[mime]}`,
        mimeType: mime,
        sizeBytes: bytes.byteLength,
        content: bytes,
        uploadedBy: actor.userId,
      });
    }
    const adId = await repo.insertAd(tx, {
      orgId: actor.orgId,
      retailerId: actor.userId,
      title: fields.title,
      body: fields.text,
      imageMediaId,
    });
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'advertisement.create',
      entity: 'advertisement',
      entityId: String(adId),
      details: { title: fields.title, imageMediaId, sizeBytes: bytes?.byteLength ?? null },
    });
    return adId;
  });
  return toAd((await repo.findAd(db, actor.orgId, id))!);
};

/** send_advertisement's list: the actor's own advertisements (newest first, at most 20) with their sends' progress counts. */
export const listAdvertisements = async (db: DbOrTx, actor: TActor): Promise<TAdvertisement[]> => {
  await visibleRetailerIds(db, actor);
  const ads = await repo.findAdsOfRetailer(db, actor.orgId, actor.userId, LIST_LIMIT);
  const sends = await repo.findSendsOfAds(
    db,
    actor.orgId,
    ads.map((ad) => ad.id),
  );
  const progress = await Promise.all(sends.map((send) => toSend(db, send)));
  return ads.map((ad) =>
    toAd(
      ad,
      progress.filter((p) => p.advertisementId === ad.id).map(({ skipped: _skipped, ...send }) => send),
    ),
  );
};

/**
 * The advertisement the app shows (spec §3 `showAd`): a retailer's or mini-retailer's own newest,
 * a customer user's retailer's newest (of their newest loan); null when there is none.
 */
export const currentAdvertisement = async (db: DbOrTx, actor: TActor): Promise<TAdvertisement | null> => {
  const retailerId =
    actor.userType === 'customer'
      ? await repo.findRetailerOfCustomerUser(db, actor.orgId, actor.userId)
      : actor.userType === 'retailer' || actor.userType === 'miniretailer'
        ? actor.userId
        : null;
  if (retailerId === null) return null;
  const [newest] = await repo.findAdsOfRetailer(db, actor.orgId, retailerId, 1);
  return newest ? toAd(newest) : null;
};

/**
 * An advertisement's image bytes for the app: the actor's scope (its retailer, the parent
 * retailer) or, for a customer user, their retailer's ads. NOT_FOUND (advertisement_id) otherwise,
 * and for an ad without an image.
 */
export const readAdvertisementImage = async (
  db: DbOrTx,
  actor: TActor,
  id: number,
): Promise<{ mimeType: string; content: Uint8Array }> => {
  let row: repo.AdRow | null;
  if (actor.userType === 'customer') {
    const retailerId = await repo.findRetailerOfCustomerUser(db, actor.orgId, actor.userId);
    row = await repo.findAd(db, actor.orgId, id);
    if (!row || row.retailerId !== retailerId) throw adNotFound();
  } else row = await adInScope(db, actor, id);
  const image = row.imageMediaId === null ? null : await repo.findAdImage(db, row.imageMediaId);
  if (!image || image.orgId !== actor.orgId) throw adNotFound();
  return { mimeType: image.mimeType, content: image.content };
};

const selectionOf = (request: {
  customer_ids?: number[] | undefined;
  filter?: 'all_enrolled' | 'overdue' | undefined;
  status?: number | undefined;
}): TMessageSelection =>
  request.customer_ids
    ? { customerIds: request.customer_ids }
    : request.status !== undefined
      ? { status: request.status }
      : { filter: request.filter ?? 'all_enrolled' };

/**
 * send_advertisement's confirmation: how many phones a filter or status would reach and how many
 * customers it would skip; nothing is written. Throws NOT_FOUND (advertisement_id) outside the
 * actor's scope, FORBIDDEN without `user.feature_access`.
 */
export const previewAdvertisementSend = async (
  db: Db,
  actor: TActor,
  query: z.output<typeof ZAdvertisementPreviewQuery>,
): Promise<TBulkPreview> => {
  await adInScope(db, actor, query.advertisement_id);
  return previewBulkMessage(db, actor, 'advertisement', selectionOf(query));
};

/**
 * Sends an advertisement to the chosen phones (issue 16) through the devices module's bulk
 * message path: in one transaction a show_ad command per eligible phone (batch id = the send's
 * id) and the `advertisement_sends` row; the commands go out after commit. The image travels as an
 * absolute address signed for the commands' notAfter (adImageUrl, from `baseUrl`) with its
 * SHA-256. Throws NOT_FOUND (advertisement_id) outside the actor's scope, FORBIDDEN without
 * `user.feature_access`, CUSTOMER_NOT_FOUND (customer_ids) for a chosen customer outside it.
 */
export const sendAdvertisement = async (
  deps: { db: Db; dispatcher: CommandDispatcher; secret: string },
  options: { actor: TActor; request: z.output<typeof ZSendAdvertisementRequest>; baseUrl: string },
): Promise<TAdvertisementSendProgress> => {
  const { actor, request } = options;
  const ad = await adInScope(deps.db, actor, request.advertisement_id);
  const from = ((await repo.findSenderName(deps.db, actor.orgId, ad.retailerId)) ?? 'Kisht').slice(0, 100);
  const image = ad.imageMediaId === null ? null : await repo.findAdImage(deps.db, ad.imageMediaId);
  const imageSha256 = image ? sha256Hex(image.content) : undefined;
  const { batchId } = await queueBulkMessage(deps, {
    actor,
    feature: 'advertisement',
    selection: selectionOf(request),
    argsFor: (notAfter) => ({
      advertisementId: ad.id,
      title: ad.title,
      text: ad.body,
      from,
      ...(image && ad.imageMediaId !== null
        ? {
            imageUrl: adImageUrl({
              baseUrl: options.baseUrl,
              secret: deps.secret,
              mediaId: ad.imageMediaId,
              notAfter,
            }),
            imageSha256,
          }
        : {}),
    }),
    inTransaction: (tx, batch) =>
      repo.insertSend(tx, {
        id: batch.batchId,
        orgId: actor.orgId,
        advertisementId: ad.id,
        createdBy: actor.userId,
        targetCount: batch.total,
        skippedCount: batch.skipped.length,
      }),
  });
  return getAdvertisementSendProgress(deps.db, actor, batchId);
};

/**
 * Delivery progress of a send: its commands counted by state (one aggregate query) and the
 * customers skipped with why. Throws NOT_FOUND (send_id) for a send outside the actor's scope.
 */
export const getAdvertisementSendProgress = async (
  db: DbOrTx,
  actor: TActor,
  sendId: string,
): Promise<TAdvertisementSendProgress> => {
  const retailerIds = await visibleRetailerIds(db, actor);
  const found = await repo.findSend(db, actor.orgId, sendId);
  if (!found || !retailerIds.includes(found.retailerId)) {
    throw new AppError(AppErrorCode.NOT_FOUND, 'Send not found', [
      { field: 'send_id', message: 'No such advertisement send' },
    ]);
  }
  return toSend(db, found.send);
};

/**
 * The image a phone fetches for a show_ad command (no session): only with a valid, unexpired
 * signature (adImageUrl), else FORBIDDEN; NOT_FOUND when the image is gone.
 */
export const readDeviceAdImage = async (
  db: DbOrTx,
  secret: string,
  query: { image: number; exp: number; sig: string },
): Promise<{ mimeType: string; content: Uint8Array }> => {
  if (!isAdImageSignatureValid(secret, query)) {
    throw new AppError(AppErrorCode.FORBIDDEN, 'This image address is not valid or has expired');
  }
  const image = query.image > ID_MAX ? null : await repo.findAdImage(db, query.image);
  if (!image) throw new AppError(AppErrorCode.NOT_FOUND, 'Image not found');
  return { mimeType: image.mimeType, content: image.content };
};
