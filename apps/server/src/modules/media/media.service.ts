import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import {
  MAX_UPLOAD_BYTES,
  SIGNATURE_MIME_TYPE,
  type TCustomerMedia,
  type TDocumentType,
  type TMedia,
  type TMediaKind,
  type TMediaPage,
} from '@kisht/domain/media/media.schema';
import { paths } from '@kisht/domain/paths';
import { v7 as uuidv7 } from 'uuid';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { sniffUpload } from '../../lib/uploaded-file';
import { insertAudit } from '../audit/audit.repository';
import { getOrgAppConfig } from '../orgs/orgs.service';
import { findCustomerForActor, scopeOf } from '../scope/scope.service';
import * as repo from './media.repository';

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

/** Content types each kind accepts, sniffed from the bytes (design §6). */
const ACCEPTED_TYPES: Record<TMediaKind, string[]> = {
  customer_profile: IMAGE_TYPES,
  customer_invoice_attachment: [...IMAGE_TYPES, 'application/pdf'],
  customer_document: [...IMAGE_TYPES, 'application/pdf'],
  customer_signature: [SIGNATURE_MIME_TYPE],
  witness_signature: [SIGNATURE_MIME_TYPE],
};

const EXTENSION: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
};

const toMedia = (row: repo.MediaListRow): TMedia => ({
  id: row.id,
  kind: row.kind as TMediaKind,
  documentType: (row.documentType as TDocumentType | null) ?? null,
  imageName: row.path,
  mimeType: row.mimeType,
  sizeBytes: row.sizeBytes,
  createdAt: row.createdAt.toISOString(),
  uploadedByName: row.uploadedByName,
});

const isWitnessEnabled = async (db: DbOrTx, orgId: number): Promise<boolean> =>
  (await getOrgAppConfig(db, orgId)).features.witnessLayout;

/**
 * Stores an uploaded file of a customer under the organisation's path for its kind
 * (`{orgId}/{kind}/{uuid}.{ext}`, spec §3) with an audit entry. The content type is sniffed from
 * the bytes, never taken from the client. Throws CUSTOMER_NOT_FOUND outside the actor's scope,
 * MEDIA_TOO_LARGE over MAX_UPLOAD_BYTES (5 MB, spec §9), MEDIA_TYPE_NOT_ALLOWED for content the
 * kind does not accept, WITNESS_NOT_ENABLED for a witness signature when the organisation's witness
 * layout flag is off.
 */
export const storeCustomerMedia = async (
  db: Db,
  options: {
    actor: TActor;
    customerId: number;
    kind: TMediaKind;
    documentType?: TDocumentType | undefined;
    bytes: Uint8Array;
  },
): Promise<TMedia> => {
  const { actor, kind, bytes } = options;
  const { customer } = await findCustomerForActor(db, actor, options.customerId);
  if (bytes.byteLength > MAX_UPLOAD_BYTES) {
    throw new AppError(AppErrorCode.MEDIA_TOO_LARGE, 'The file is larger than 5 MB', [
      { field: 'file', message: 'The file is larger than 5 MB' },
    ]);
  }
  if (kind === 'witness_signature' && !(await isWitnessEnabled(db, customer.orgId))) {
    throw new AppError(
      AppErrorCode.WITNESS_NOT_ENABLED,
      'This organisation does not take witness signatures',
      [{ field: 'kind', message: 'Witness signatures are off for this organisation' }],
    );
  }
  const mime = await sniffUpload(bytes, ACCEPTED_TYPES[kind], {
    message: 'This kind of file is not accepted here',
  });
  const path = `${customer.orgId}/${kind}/${uuidv7()}.${EXTENSION[mime]}`;
  const id = await db.transaction(async (tx) => {
    const mediaId = await repo.insertMedia(tx, {
      orgId: customer.orgId,
      customerId: customer.id,
      kind,
      documentType: options.documentType ?? null,
      path,
      mimeType: mime,
      sizeBytes: bytes.byteLength,
      content: bytes,
      uploadedBy: actor.userId,
    });
    await insertAudit(tx, {
      orgId: customer.orgId,
      actorUserId: actor.userId,
      action: 'media.upload',
      entity: 'customer',
      entityId: String(customer.id),
      details: {
        mediaId,
        kind,
        documentType: options.documentType ?? null,
        path,
        sizeBytes: bytes.byteLength,
      },
    });
    return mediaId;
  });
  return toMedia((await repo.findMediaById(db, customer.orgId, id))!);
};

/**
 * customer_documents: the newest photo, invoice and signatures of a customer and all documents,
 * newest first. Throws CUSTOMER_NOT_FOUND outside the actor's scope.
 */
export const getCustomerMedia = async (
  db: DbOrTx,
  actor: TActor,
  customerId: number,
): Promise<TCustomerMedia> => {
  const { customer } = await findCustomerForActor(db, actor, customerId);
  const [rows, witnessRequired] = await Promise.all([
    repo.findMediaOfCustomer(db, customer.orgId, customer.id),
    isWitnessEnabled(db, customer.orgId),
  ]);
  const newest = (kind: TMediaKind) => {
    const row = rows.find((r) => r.kind === kind);
    return row ? toMedia(row) : null;
  };
  return {
    customerId: customer.id,
    photo: newest('customer_profile'),
    invoice: newest('customer_invoice_attachment'),
    signature: newest('customer_signature'),
    witnessSignature: newest('witness_signature'),
    documents: rows.filter((r) => r.kind === 'customer_document').map(toMedia),
    witnessRequired,
  };
};

/**
 * Deletes one file of a customer (kept in the database, marked deleted, audited). Throws
 * CUSTOMER_NOT_FOUND outside scope and NOT_FOUND for a file that is not this customer's.
 */
export const deleteCustomerMedia = async (
  db: Db,
  options: { actor: TActor; customerId: number; mediaId: number },
): Promise<void> => {
  const { customer } = await findCustomerForActor(db, options.actor, options.customerId);
  const row = await repo.findMediaById(db, customer.orgId, options.mediaId);
  if (!row || row.customerId !== customer.id) {
    throw new AppError(AppErrorCode.NOT_FOUND, 'Document not found', [
      { field: 'media_id', message: 'No such document for this customer' },
    ]);
  }
  await db.transaction(async (tx) => {
    await repo.markMediaDeleted(tx, row.id);
    await insertAudit(tx, {
      orgId: customer.orgId,
      actorUserId: options.actor.userId,
      action: 'media.delete',
      entity: 'customer',
      entityId: String(customer.id),
      details: { mediaId: row.id, kind: row.kind, path: row.path },
    });
  });
};

/**
 * The bytes and content type of a stored file by its image_name, when it belongs to one of the
 * actor's customers; NOT_FOUND otherwise (other organisations and other retailers' customers too),
 * FORBIDDEN for a customer user whatever the name.
 */
export const readMediaFile = async (
  db: DbOrTx,
  actor: TActor,
  imageName: string,
): Promise<{ mimeType: string; content: Uint8Array }> => {
  // Only a shop reads a stored file by name (a customer user, an admin or a distributor has no
  // customer scope): refused before the lookup, so the answer is the same whether the name exists.
  if (actor.userType !== 'retailer' && actor.userType !== 'miniretailer')
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only retailers can do this');
  const notFound = new AppError(AppErrorCode.NOT_FOUND, 'File not found');
  const file = await repo.findMediaFile(db, actor.orgId, imageName);
  // A retailer's own files (profile image, signature, payment QR) are served by paths.users.image.
  if (!file || file.customerId === null) throw notFound;
  try {
    await findCustomerForActor(db, actor, file.customerId);
  } catch (error) {
    if (error instanceof AppError && error.code === AppErrorCode.CUSTOMER_NOT_FOUND) throw notFound;
    throw error;
  }
  return { mimeType: file.mimeType, content: file.content };
};

/** The API path answering a listed file's bytes: the stored-file route, an own image or an ad image. */
const urlOf = (row: {
  kind: string;
  path: string;
  customerId: number | null;
  ownerUserId: number | null;
  advertisementId: number | null;
}): string | null => {
  if (row.customerId !== null) return `${paths.media.file}?image_name=${encodeURIComponent(row.path)}`;
  if (row.advertisementId !== null)
    return `${paths.advertisements.image}?advertisement_id=${row.advertisementId}`;
  const userImageKind = USER_FILE_KINDS[row.kind];
  return userImageKind && row.ownerUserId !== null
    ? `${paths.users.image}?user_id=${row.ownerUserId}&kind=${userImageKind}`
    : null;
};

/** The user-image route's kind of each retailer-owned media kind. */
const USER_FILE_KINDS: Record<string, string> = {
  user_profile_image: 'profile_image',
  user_signature: 'signature',
  user_payment_qr: 'payment_qr',
};

/**
 * GET /api/medias without image_name (spec §7): a page of the files the actor may see, newest
 * first, metadata only: the files of the customers in the actor's scope (a retailer's own and its
 * mini-retailers'; a mini-retailer's own) and the actor's own files (profile image, signature,
 * payment QR, advertisement images). Throws FORBIDDEN for customer users and admins.
 */
export const listMedia = async (
  db: DbOrTx,
  actor: TActor,
  query: { page: number; pageSize: number },
): Promise<TMediaPage> => {
  const { retailerIds } = await scopeOf(db, actor);
  const { rows, total } = await repo.findMediaPage(db, {
    orgId: actor.orgId,
    retailerIds,
    ownerUserId: actor.userId,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  return {
    items: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      documentType: row.documentType,
      mimeType: row.mimeType,
      sizeBytes: row.sizeBytes,
      createdAt: row.createdAt.toISOString(),
      customerId: row.customerId,
      url: urlOf(row),
    })),
    page: query.page,
    pageSize: query.pageSize,
    total,
  };
};
