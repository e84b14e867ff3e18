import multipart from '@fastify/multipart';
import { zEnvelope } from '@kisht/domain/common/envelope';
import { paths } from '@kisht/domain/paths';
import {
  PAYMENT_QR_IMAGE_MAX_BYTES,
  ZPaymentQrImageQuery,
  ZPaymentQrImageUploadFields,
  ZPaymentQrSettings,
  ZSavePaymentQrRequest,
} from '@kisht/domain/users/payment-qr.schema';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { ok } from '../../lib/envelope';
import { readUpload } from '../../lib/multipart';
import { sendStoredFile } from '../../lib/stored-file-reply';
import { requireSession } from '../../plugins/auth';
import {
  deletePaymentQrImage,
  getPaymentQr,
  readCustomerPayQrImage,
  savePaymentQr,
  storePaymentQrImage,
} from './payment-qr.service';

/**
 * retailer_payment_qr (spec §7 "payment QR"; session required): the actor's own UPI ID, payee
 * name, standing UPI QR link and uploaded QR image. GET, PUT, the image POST and DELETE act on the
 * session's user only; the image GET (by customer_id) serves the QR image of the retailer a
 * customer pays, for the customer's "How to pay".
 */
export const paymentQrRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    paths.users.paymentQr,
    {
      schema: {
        tags: ['users'],
        summary: 'Your UPI ID, payee name, UPI QR link and uploaded QR image (retailers and mini-retailers)',
        response: { 200: zEnvelope(ZPaymentQrSettings) },
      },
    },
    async (request) => ok(await getPaymentQr(ctx.db, request.actor)),
  );
  r.put(
    paths.users.paymentQr,
    {
      schema: {
        tags: ['users'],
        summary: 'Set your UPI ID and payee name (retailers and mini-retailers)',
        body: ZSavePaymentQrRequest,
        response: { 200: zEnvelope(ZPaymentQrSettings) },
      },
    },
    async (request) => ok(await savePaymentQr(ctx.db, request.actor, request.body), 'UPI ID saved'),
  );
  // Only the upload parses multipart: the other routes of this plugin refuse it (415).
  await app.register(async (upload) => {
    await upload.register(multipart, {
      limits: { fileSize: PAYMENT_QR_IMAGE_MAX_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 6 },
    });
    upload.withTypeProvider<ZodTypeProvider>().post(
      paths.users.paymentQrImage,
      {
        bodyLimit: PAYMENT_QR_IMAGE_MAX_BYTES + 64 * 1024,
        schema: {
          tags: ['users'],
          summary: 'Upload your own UPI QR image (PNG or JPEG, at most 5 MB); customers see it instead',
          description: 'multipart/form-data with one `file` (the type is sniffed from the bytes).',
          consumes: ['multipart/form-data'],
          response: { 200: zEnvelope(ZPaymentQrSettings) },
        },
      },
      async (request) => {
        const { bytes } = await readUpload(request, ZPaymentQrImageUploadFields);
        return ok(await storePaymentQrImage(ctx.db, { actor: request.actor, bytes }), 'QR image saved');
      },
    );
  });
  r.delete(
    paths.users.paymentQrImage,
    {
      schema: {
        tags: ['users'],
        summary: 'Remove your uploaded UPI QR image; customers see the generated QR again',
        response: { 200: zEnvelope(ZPaymentQrSettings) },
      },
    },
    async (request) => ok(await deletePaymentQrImage(ctx.db, request.actor), 'QR image removed'),
  );
  r.get(
    paths.users.paymentQrImage,
    {
      schema: {
        tags: ['users'],
        summary:
          'The uploaded UPI QR image of the retailer a customer pays (How to pay); 204 when the retailer has none',
        querystring: ZPaymentQrImageQuery,
      },
    },
    async (request, reply) => {
      const file = await readCustomerPayQrImage(ctx.db, {
        actor: request.actor,
        customerId: request.query.customer_id,
      });
      if (!file) return reply.code(204).send();
      return sendStoredFile(reply, file, { cacheControl: 'private, max-age=60' });
    },
  );
};
