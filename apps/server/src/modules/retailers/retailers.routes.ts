import multipart from '@fastify/multipart';
import { retailersContract } from '@kisht/domain/contract/retailers';
import { MAX_UPLOAD_BYTES } from '@kisht/domain/media/media.schema';
import {
  ZProfileImageUploadFields,
  ZUserSignatureUploadFields,
} from '@kisht/domain/retailers/retailers.schema';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
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

/** An upload's whole body: the file limit, with a little room for the text fields. */
const UPLOAD_BODY_LIMIT = MAX_UPLOAD_BYTES + 64 * 1024;

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

  r.route({
    ...contractRoute(retailersContract.add, {
      tags: ['retailers'],
      summary: 'Add a mini-retailer under you (retailers only)',
    }),
    handler: async (request) =>
      ok(await addMiniRetailer(ctx.db, { actor: request.actor, request: request.body }), 'Retailer added'),
  });

  r.route({
    ...contractRoute(retailersContract.list, {
      tags: ['retailers'],
      summary: 'Your mini-retailers, newest first, with their customer counts (retailers only)',
    }),
    handler: async (request) =>
      ok(await listMiniRetailers(ctx.db, { actor: request.actor, query: request.query })),
  });

  r.route({
    ...contractRoute(retailersContract.update, {
      tags: ['retailers'],
      summary: "Edit a mini-retailer's details or access, deactivate or reactivate it (its parent only)",
    }),
    handler: async (request) =>
      ok(
        await updateMiniRetailer(ctx.db, { actor: request.actor, request: request.body }),
        'Retailer updated',
      ),
  });

  r.route({
    ...contractRoute(retailersContract.readById, {
      tags: ['retailers'],
      summary: 'A mini-retailer of yours (or yourself) by user_id',
    }),
    handler: async (request) => ok(await readRetailer(ctx.db, request.actor, request.query.user_id)),
  });

  r.route({
    ...contractRoute(retailersContract.profile, {
      tags: ['retailers'],
      summary: 'Your own retailer profile',
    }),
    handler: async (request) => ok(await getOwnProfile(ctx.db, request.actor)),
  });

  r.route({
    ...contractRoute(retailersContract.updateOwnProfile, {
      tags: ['retailers'],
      summary: 'Set or clear your own date of birth (the dashboard celebrates it)',
    }),
    handler: async (request) =>
      ok(await updateOwnProfile(ctx.db, { actor: request.actor, request: request.body }), 'Profile saved'),
  });

  const uploadDocs = (summary: string) => ({
    tags: ['retailers'],
    summary,
    description: UPLOAD_DESCRIPTION,
    consumes: ['multipart/form-data'],
  });

  r.route({
    ...contractRoute(
      retailersContract.profileImage,
      uploadDocs("Upload your profile image, or a mini-retailer's with user_id (JPEG, PNG or WebP)"),
    ),
    bodyLimit: UPLOAD_BODY_LIMIT,
    handler: async (request) => {
      const { fields, bytes } = await readUpload(request, ZProfileImageUploadFields);
      return ok(
        await storeProfileImage(ctx.db, { actor: request.actor, userId: fields.user_id, bytes }),
        'Profile image saved',
      );
    },
  });

  r.route({
    ...contractRoute(retailersContract.signature, uploadDocs('Upload your own signature (PNG)')),
    bodyLimit: UPLOAD_BODY_LIMIT,
    handler: async (request) => {
      const { bytes } = await readUpload(request, ZUserSignatureUploadFields);
      return ok(await storeOwnSignature(ctx.db, { actor: request.actor, bytes }), 'Signature saved');
    },
  });

  r.route({
    ...contractRoute(retailersContract.image, {
      tags: ['retailers'],
      summary: 'A profile image, signature or payment QR image (yours, or a mini-retailer’s)',
    }),
    handler: async (request, reply) => {
      const file = await readUserImage(ctx.db, {
        actor: request.actor,
        userId: request.query.user_id,
        kind: request.query.kind,
      });
      return sendStoredFile(reply, file, { cacheControl: 'private, max-age=60' });
    },
  });
};
