import multipart from '@fastify/multipart';
import { mediaContract } from '@kisht/domain/contract/media';
import {
  MAX_UPLOAD_BYTES,
  ZCustomerDocumentUploadFields,
  ZCustomerImageUploadFields,
  ZSignatureUploadFields,
} from '@kisht/domain/media/media.schema';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { readUpload } from '../../lib/multipart';
import { sendStoredFile } from '../../lib/stored-file-reply';
import { requireSession } from '../../plugins/auth';
import {
  deleteCustomerMedia,
  getCustomerMedia,
  listMedia,
  readMediaFile,
  storeCustomerMedia,
} from './media.service';

const UPLOAD_DESCRIPTION =
  'multipart/form-data with the text fields first and one `file` (at most 5 MB; the type is sniffed from the bytes; an image at most 8000 px a side and 40 megapixels).';

/** An upload's whole body: one file (MAX_UPLOAD_BYTES) and a little room for the text fields. */
const UPLOAD_BODY_LIMIT = MAX_UPLOAD_BYTES + 64 * 1024;

/** Customer photo, invoice attachment, documents and signatures (spec §3, design §6). */
export const mediaRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  // One file per request.
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12 },
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const uploadDocs = (summary: string) => ({
    tags: ['media'],
    summary,
    description: UPLOAD_DESCRIPTION,
    consumes: ['multipart/form-data'],
  });

  r.route({
    ...contractRoute(
      mediaContract.uploadImage,
      uploadDocs('Upload the customer photo (customer_profile) or invoice attachment'),
    ),
    bodyLimit: UPLOAD_BODY_LIMIT,
    handler: async (request) => {
      const { fields, bytes } = await readUpload(request, ZCustomerImageUploadFields);
      const stored = await storeCustomerMedia(ctx.db, {
        actor: request.actor,
        customerId: fields.customer_id,
        kind: fields.kind,
        bytes,
      });
      return ok(stored, 'Uploaded');
    },
  });

  r.route({
    ...contractRoute(mediaContract.uploadDocument, uploadDocs('Upload a customer document')),
    bodyLimit: UPLOAD_BODY_LIMIT,
    handler: async (request) => {
      const { fields, bytes } = await readUpload(request, ZCustomerDocumentUploadFields);
      const stored = await storeCustomerMedia(ctx.db, {
        actor: request.actor,
        customerId: fields.customer_id,
        kind: 'customer_document',
        documentType: fields.document_type,
        bytes,
      });
      return ok(stored, 'Document uploaded');
    },
  });

  r.route({
    ...contractRoute(
      mediaContract.uploadSignature,
      uploadDocs('Upload the customer or witness signature (PNG)'),
    ),
    bodyLimit: UPLOAD_BODY_LIMIT,
    handler: async (request) => {
      const { fields, bytes } = await readUpload(request, ZSignatureUploadFields);
      const stored = await storeCustomerMedia(ctx.db, {
        actor: request.actor,
        customerId: fields.customer_id,
        kind: fields.kind,
        bytes,
      });
      return ok(stored, 'Signature saved');
    },
  });

  r.route({
    ...contractRoute(mediaContract.customerMedia, {
      tags: ['media'],
      summary: "A customer's photo, invoice, signatures and documents (customer_documents)",
    }),
    handler: async (request) => ok(await getCustomerMedia(ctx.db, request.actor, request.query.customer_id)),
  });

  r.route({
    ...contractRoute(mediaContract.deleteDocument, {
      tags: ['media'],
      summary: 'Delete one of a customer’s files',
    }),
    handler: async (request) => {
      const { customer_id: customerId, media_id: mediaId } = request.body;
      await deleteCustomerMedia(ctx.db, { actor: request.actor, customerId, mediaId });
      return ok(await getCustomerMedia(ctx.db, request.actor, customerId), 'Deleted');
    },
  });

  r.route({
    ...contractRoute(mediaContract.file, {
      tags: ['media'],
      summary:
        'A stored file by image_name (the bytes, with their sniffed content type); without image_name, a page of the files you may see (TMediaPage, metadata only)',
    }),
    handler: async (request, reply) => {
      if (request.query.image_name === undefined)
        return ok(await listMedia(ctx.db, request.actor, request.query));
      const file = await readMediaFile(ctx.db, request.actor, request.query.image_name);
      return sendStoredFile(reply, file, { cacheControl: 'private, max-age=300' });
    },
  });
};
