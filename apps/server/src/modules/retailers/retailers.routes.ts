import multipart from '@fastify/multipart';
import { zEnvelope } from '@kisht/domain/common/envelope';
import { MAX_UPLOAD_BYTES } from '@kisht/domain/media/media.schema';
import { paths } from '@kisht/domain/paths';
import {
  ZAddRetailerRequest,
  ZProfileImageUploadFields,
  ZRetailer,
  ZRetailerIdQuery,
  ZRetailerListQuery,
  ZRetailerPage,
  ZRetailerProfile,
  ZUpdateOwnProfileRequest,
  ZUpdateRetailerRequest,
  ZUserImageQuery,
  ZUserSignatureUploadFields,
} from '@kisht/domain/retailers/retailers.schema';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { ok } from '../../lib/envelope';
import { readUpload } from '../../lib/multipart';
import { sendStoredFile } from '../../lib/stored-file-reply';
import { requireSession } from '../../plugins/auth';
import {
  addMiniRetailer,
  getOwnProfile,
  listMiniRetailers,
  readRetailer,
  readUserImage,
  storeOwnSignature,
  storeProfileImage,
  updateMiniRetailer,
  updateOwnProfile,
} from './retailers.service';

const UPLOAD_DESCRIPTION =
  'multipart/form-data with the text fields first and one `file` (at most 5 MB; the type is sniffed from the bytes; an image at most 8000 px a side and 40 megapixels).';

/**
 * The retailer network (issue 13): retailer_list, add_retailer and retailer_profile
 * (`addUsers`, `getUsers`, `updateUsers`, `readById`, `getRetailerProfile`), and the users' own
 * images (`/api/user` profile image, signature, image bytes). Session required.
 */
export const retailerRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12 },
  });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    paths.retailers.add,
    {
      schema: {
        tags: ['retailers'],
        summary: 'Add a mini-retailer under you (retailers only)',
        body: ZAddRetailerRequest,
        response: { 200: zEnvelope(ZRetailer) },
      },
    },
    async (request) =>
      ok(await addMiniRetailer(ctx.db, { actor: request.actor, request: request.body }), 'Retailer added'),
  );

  r.get(
    paths.retailers.list,
    {
      schema: {
        tags: ['retailers'],
        summary: 'Your mini-retailers, newest first, with their customer counts (retailers only)',
        querystring: ZRetailerListQuery,
        response: { 200: zEnvelope(ZRetailerPage) },
      },
    },
    async (request) => ok(await listMiniRetailers(ctx.db, { actor: request.actor, query: request.query })),
  );

  r.post(
    paths.retailers.update,
    {
      schema: {
        tags: ['retailers'],
        summary: "Edit a mini-retailer's details or access, deactivate or reactivate it (its parent only)",
        body: ZUpdateRetailerRequest,
        response: { 200: zEnvelope(ZRetailer) },
      },
    },
    async (request) =>
      ok(
        await updateMiniRetailer(ctx.db, { actor: request.actor, request: request.body }),
        'Retailer updated',
      ),
  );

  r.get(
    paths.retailers.readById,
    {
      schema: {
        tags: ['retailers'],
        summary: 'A mini-retailer of yours (or yourself) by user_id',
        querystring: ZRetailerIdQuery,
        response: { 200: zEnvelope(ZRetailer) },
      },
    },
    async (request) => ok(await readRetailer(ctx.db, request.actor, request.query.user_id)),
  );

  r.get(
    paths.retailers.profile,
    {
      schema: {
        tags: ['retailers'],
        summary: 'Your own retailer profile',
        response: { 200: zEnvelope(ZRetailerProfile) },
      },
    },
    async (request) => ok(await getOwnProfile(ctx.db, request.actor)),
  );

  r.post(
    paths.retailers.updateOwnProfile,
    {
      schema: {
        tags: ['retailers'],
        summary: 'Set or clear your own date of birth (the dashboard celebrates it)',
        body: ZUpdateOwnProfileRequest,
        response: { 200: zEnvelope(ZRetailerProfile) },
      },
    },
    async (request) =>
      ok(await updateOwnProfile(ctx.db, { actor: request.actor, request: request.body }), 'Profile saved'),
  );

  const uploadSchema = (summary: string) => ({
    bodyLimit: MAX_UPLOAD_BYTES + 64 * 1024,
    schema: {
      tags: ['retailers'],
      summary,
      description: UPLOAD_DESCRIPTION,
      consumes: ['multipart/form-data'],
      response: { 200: zEnvelope(ZRetailer) },
    },
  });

  r.post(
    paths.users.profileImage,
    uploadSchema("Upload your profile image, or a mini-retailer's with user_id (JPEG, PNG or WebP)"),
    async (request) => {
      const { fields, bytes } = await readUpload(request, ZProfileImageUploadFields);
      return ok(
        await storeProfileImage(ctx.db, { actor: request.actor, userId: fields.user_id, bytes }),
        'Profile image saved',
      );
    },
  );

  r.post(paths.users.signature, uploadSchema('Upload your own signature (PNG)'), async (request) => {
    const { bytes } = await readUpload(request, ZUserSignatureUploadFields);
    return ok(await storeOwnSignature(ctx.db, { actor: request.actor, bytes }), 'Signature saved');
  });

  r.get(
    paths.users.image,
    {
      schema: {
        tags: ['retailers'],
        summary: 'A profile image, signature or payment QR image (yours, or a mini-retailer’s)',
        querystring: ZUserImageQuery,
      },
    },
    async (request, reply) => {
      const file = await readUserImage(ctx.db, {
        actor: request.actor,
        userId: request.query.user_id,
        kind: request.query.kind,
      });
      return sendStoredFile(reply, file, { cacheControl: 'private, max-age=60' });
    },
  );
};
