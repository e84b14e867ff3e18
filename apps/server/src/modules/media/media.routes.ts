import multipart from '@fastify/multipart';
import { zEnvelope } from '@kisht/domain/common/envelope';
import { ZCustomerIdQuery } from '@kisht/domain/customers/customers.schema';
import {
  MAX_UPLOAD_BYTES,
  ZCustomerDocumentUploadFields,
  ZCustomerImageUploadFields,
  ZCustomerMedia,
  ZDeleteMediaRequest,
  ZMedia,
  ZMediaQuery,
  ZSignatureUploadFields,
} from '@kisht/domain/media/media.schema';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
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

/** Customer photo, invoice attachment, documents and signatures (spec §3, design §6). */
export const mediaRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  // One file per request; a little room over the file limit for the text fields.
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12 },
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const uploadOptions = (summary: string) => ({
    bodyLimit: MAX_UPLOAD_BYTES + 64 * 1024,
    schema: {
      tags: ['media'],
      summary,
      description: UPLOAD_DESCRIPTION,
      consumes: ['multipart/form-data'],
      response: { 200: zEnvelope(ZMedia) },
    },
  });

  r.post(
    paths.customers.uploadImage,
    uploadOptions('Upload the customer photo (customer_profile) or invoice attachment'),
    async (request) => {
      const { fields, bytes } = await readUpload(request, ZCustomerImageUploadFields);
      const stored = await storeCustomerMedia(ctx.db, {
        actor: request.actor,
        customerId: fields.customer_id,
        kind: fields.kind,
        bytes,
      });
      return ok(stored, 'Uploaded');
    },
  );

  r.post(paths.customers.documents, uploadOptions('Upload a customer document'), async (request) => {
    const { fields, bytes } = await readUpload(request, ZCustomerDocumentUploadFields);
    const stored = await storeCustomerMedia(ctx.db, {
      actor: request.actor,
      customerId: fields.customer_id,
      kind: 'customer_document',
      documentType: fields.document_type,
      bytes,
    });
    return ok(stored, 'Document uploaded');
  });

  r.post(
    paths.customers.signature,
    uploadOptions('Upload the customer or witness signature (PNG)'),
    async (request) => {
      const { fields, bytes } = await readUpload(request, ZSignatureUploadFields);
      const stored = await storeCustomerMedia(ctx.db, {
        actor: request.actor,
        customerId: fields.customer_id,
        kind: fields.kind,
        bytes,
      });
      return ok(stored, 'Signature saved');
    },
  );

  r.get(
    paths.customers.documents,
    {
      schema: {
        tags: ['media'],
        summary: "A customer's photo, invoice, signatures and documents (customer_documents)",
        querystring: ZCustomerIdQuery,
        response: { 200: zEnvelope(ZCustomerMedia) },
      },
    },
    async (request) => ok(await getCustomerMedia(ctx.db, request.actor, request.query.customer_id)),
  );

  r.post(
    paths.customers.deleteDocument,
    {
      schema: {
        tags: ['media'],
        summary: 'Delete one of a customer’s files',
        body: ZDeleteMediaRequest,
        response: { 200: zEnvelope(ZCustomerMedia) },
      },
    },
    async (request) => {
      const { customer_id: customerId, media_id: mediaId } = request.body;
      await deleteCustomerMedia(ctx.db, { actor: request.actor, customerId, mediaId });
      return ok(await getCustomerMedia(ctx.db, request.actor, customerId), 'Deleted');
    },
  );

  r.get(
    paths.media.file,
    {
      schema: {
        tags: ['media'],
        summary:
          'A stored file by image_name (the bytes, with their sniffed content type); without image_name, a page of the files you may see (TMediaPage, metadata only)',
        querystring: ZMediaQuery,
      },
    },
    async (request, reply) => {
      if (request.query.image_name === undefined)
        return ok(await listMedia(ctx.db, request.actor, request.query));
      const file = await readMediaFile(ctx.db, request.actor, request.query.image_name);
      return sendStoredFile(reply, file, { cacheControl: 'private, max-age=300' });
    },
  );
};
