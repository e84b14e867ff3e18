import multipart from '@fastify/multipart';
import { ZAdvertisementUploadFields } from '@kisht/domain/advertisements/advertisements.schema';
import { advertisementsContract } from '@kisht/domain/contract/advertisements';
import { MAX_UPLOAD_BYTES } from '@kisht/domain/media/media.schema';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { publicBaseUrl } from '../../lib/base-url';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { readUploadWithOptionalFile } from '../../lib/multipart';
import { sendStoredFile } from '../../lib/stored-file-reply';
import { requireSession } from '../../plugins/auth';
import {
  createAdvertisement,
  currentAdvertisement,
  getAdvertisementSendProgress,
  listAdvertisements,
  previewAdvertisementSend,
  readAdvertisementImage,
  readDeviceAdImage,
  sendAdvertisement,
} from './advertisements.service';

/** Image fetches per client address: a phone fetches each ad's image once. */
const IMAGE_RATE_LIMIT = { rateLimit: { max: 60, timeWindow: '1 minute' } };

/** The phone's fetch of an advertisement image by its signed, expiring address (no session; issue 16). */
export const advertisementsPublicRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...contractRoute(advertisementsContract.deviceImage, {
      tags: ['advertisements'],
      summary: 'The phone fetches an advertisement image (signed address from its show_ad command)',
    }),
    config: IMAGE_RATE_LIMIT,
    handler: async (request, reply) => {
      const image = await readDeviceAdImage(ctx.db, ctx.config.JWT_SECRET, request.query);
      return sendStoredFile(reply, image, { cacheControl: 'private, max-age=300' });
    },
  });
};

/** send_advertisement (issue 16, spec §2): compose, list, show and send a retailer's advertisements. */
export const advertisementsRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 2048, parts: 12 },
  });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...contractRoute(advertisementsContract.upload, {
      tags: ['advertisements'],
      summary: 'A new advertisement: title, text and an optional JPEG/PNG image (spec §5 compressed)',
      description:
        'multipart/form-data with the text fields `title` (1–80) and `text` (0–500) first and an optional `file` (at most 5 MB; the type is sniffed from the bytes; an image at most 8000 px a side and 40 megapixels).',
      consumes: ['multipart/form-data'],
    }),
    bodyLimit: MAX_UPLOAD_BYTES + 64 * 1024,
    handler: async (request) => {
      const { fields, bytes } = await readUploadWithOptionalFile(request, ZAdvertisementUploadFields);
      return ok(
        await createAdvertisement(ctx.db, { actor: request.actor, fields, bytes }),
        'Advertisement saved',
      );
    },
  });

  r.route({
    ...contractRoute(advertisementsContract.list, {
      tags: ['advertisements'],
      summary: 'Your advertisements, newest first, with their sends’ delivery counts',
    }),
    handler: async (request) => ok(await listAdvertisements(ctx.db, request.actor)),
  });

  r.route({
    ...contractRoute(advertisementsContract.current, {
      tags: ['advertisements'],
      summary: 'The advertisement the app shows: your newest, or your retailer’s newest for a customer',
    }),
    handler: async (request) => ok(await currentAdvertisement(ctx.db, request.actor)),
  });

  r.route({
    ...contractRoute(advertisementsContract.image, {
      tags: ['advertisements'],
      summary: 'An advertisement’s image (bytes)',
    }),
    handler: async (request, reply) => {
      const image = await readAdvertisementImage(ctx.db, request.actor, request.query.advertisement_id);
      return sendStoredFile(reply, image, { cacheControl: 'private, max-age=300' });
    },
  });

  r.route({
    ...contractRoute(advertisementsContract.sendPreview, {
      tags: ['advertisements'],
      summary: 'How many phones a filter or status would show the advertisement on (nothing is sent)',
    }),
    handler: async (request) => ok(await previewAdvertisementSend(ctx.db, request.actor, request.query)),
  });

  r.route({
    ...contractRoute(advertisementsContract.send, {
      tags: ['advertisements'],
      summary: 'Show the advertisement on the chosen customers’ phones (a show_ad command each)',
    }),
    handler: async (request) =>
      ok(
        await sendAdvertisement(
          { db: ctx.db, dispatcher: ctx.dispatcher, secret: ctx.config.JWT_SECRET },
          { actor: request.actor, request: request.body, baseUrl: publicBaseUrl(ctx.config, request) },
        ),
        'Advertisement sent',
      ),
  });

  r.route({
    ...contractRoute(advertisementsContract.sendStatus, {
      tags: ['advertisements'],
      summary: 'Delivery progress of an advertisement send',
    }),
    handler: async (request) =>
      ok(await getAdvertisementSendProgress(ctx.db, request.actor, request.query.send_id)),
  });
};
