import multipart from '@fastify/multipart';
import { paymentQrContract } from '@kisht/domain/contract/payment-qr';
import {
  PAYMENT_QR_IMAGE_MAX_BYTES,
  ZPaymentQrImageUploadFields,
} from '@kisht/domain/users/payment-qr.schema';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
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
  r.route({
    ...contractRoute(paymentQrContract.get, {
      tags: ['users'],
      summary: 'Your UPI ID, payee name, UPI QR link and uploaded QR image (retailers and mini-retailers)',
    }),
    handler: async (request) => ok(await getPaymentQr(ctx.db, request.actor)),
  });
  r.route({
    ...contractRoute(paymentQrContract.save, {
      tags: ['users'],
      summary: 'Set your UPI ID and payee name (retailers and mini-retailers)',
    }),
    handler: async (request) => ok(await savePaymentQr(ctx.db, request.actor, request.body), 'UPI ID saved'),
  });
  // Only the upload parses multipart: the other routes of this plugin refuse it (415).
  await app.register(async (upload) => {
    await upload.register(multipart, {
      limits: { fileSize: PAYMENT_QR_IMAGE_MAX_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 6 },
    });
    upload.withTypeProvider<ZodTypeProvider>().route({
      ...contractRoute(paymentQrContract.uploadImage, {
        tags: ['users'],
        summary: 'Upload your own UPI QR image (PNG or JPEG, at most 5 MB); customers see it instead',
        description: 'multipart/form-data with one `file` (the type is sniffed from the bytes).',
        consumes: ['multipart/form-data'],
      }),
      bodyLimit: PAYMENT_QR_IMAGE_MAX_BYTES + 64 * 1024,
      handler: async (request) => {
        const { bytes } = await readUpload(request, ZPaymentQrImageUploadFields);
        return ok(await storePaymentQrImage(ctx.db, { actor: request.actor, bytes }), 'QR image saved');
      },
    });
  });
  r.route({
    ...contractRoute(paymentQrContract.deleteImage, {
      tags: ['users'],
      summary: 'Remove your uploaded UPI QR image; customers see the generated QR again',
    }),
    handler: async (request) => ok(await deletePaymentQrImage(ctx.db, request.actor), 'QR image removed'),
  });
  r.route({
    ...contractRoute(paymentQrContract.customerImage, {
      tags: ['users'],
      summary:
        'The uploaded UPI QR image of the retailer a customer pays (How to pay); 204 when the retailer has none',
    }),
    handler: async (request, reply) => {
      const file = await readCustomerPayQrImage(ctx.db, {
        actor: request.actor,
        customerId: request.query.customer_id,
      });
      if (!file) return reply.code(204).send();
      return sendStoredFile(reply, file, { cacheControl: 'private, max-age=60' });
    },
  });
};
