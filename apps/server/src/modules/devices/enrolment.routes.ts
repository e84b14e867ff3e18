import { devicesContract } from '@kisht/domain/contract/devices';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import QRCode from 'qrcode';
import { publicBaseUrl } from '../../lib/base-url';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { findCustomerForActor } from '../scope/scope.service';
import { enrolDevice, issueEnrolmentQr } from './enrolment.service';
import { reEnrolDevice } from './re-enrolment.service';

/** The device's own enrolment call (design §5); authenticated by the one-time token. */
export const enrolmentRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...contractRoute(devicesContract.enrol, {
      tags: ['devices'],
      summary: 'Enrol a phone with the token from its QR; returns MQTT credentials',
    }),
    config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
    handler: async (request) =>
      ok(
        await enrolDevice(ctx, { request: request.body, baseUrl: publicBaseUrl(ctx.config, request) }),
        'Enrolled',
      ),
  });
};

/**
 * The enrolment QR of the actor's inactive customer (spec §3 get_customers_qrCode), JSON or PNG,
 * and the re-enrolment that makes an enrolled customer inactive again for a new QR (issue 27).
 */
export const enrolmentQrRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** A fresh enrolment QR for the actor's customer (404 for another's, ALREADY_ENROLLED once enrolled). */
  const issueQrFor = async (request: FastifyRequest & { query: { customer_id: number } }) => {
    const { customer, device } = await findCustomerForActor(ctx.db, request.actor, request.query.customer_id);
    const qr = await issueEnrolmentQr(ctx, {
      actor: request.actor,
      device,
      customer,
      baseUrl: publicBaseUrl(ctx.config, request),
    });
    return { customerId: customer.id, qr };
  };

  r.route({
    ...contractRoute(devicesContract.qrCode, {
      tags: ['customers'],
      summary:
        "Enrolment QR for an inactive customer, by device family (Android provisioning JSON, the link-based app's deep link, the Android Management API's QR, the Apple enrolment profile URL), with a one-time token",
    }),
    handler: async (request) => ok((await issueQrFor(request)).qr),
  });

  r.route({
    ...contractRoute(devicesContract.qrCodePng, {
      tags: ['customers'],
      summary:
        'Enrolment QR as a PNG (512 px, error correction M) for an inactive customer: the provisioning JSON with a fresh one-time token',
    }),
    handler: async (request, reply) => {
      const { customerId, qr } = await issueQrFor(request);
      const png = await QRCode.toBuffer(qr.payload, {
        type: 'png',
        errorCorrectionLevel: 'M',
        margin: 2,
        width: 512,
      });
      return reply
        .type('image/png')
        .header('cache-control', 'no-store')
        .header('x-enrolment-expires-at', qr.expiresAt)
        .header('content-disposition', `inline; filename="kisht-enrolment-${customerId}.png"`)
        .send(png);
    },
  });

  r.route({
    ...contractRoute(devicesContract.reEnrol, {
      tags: ['devices'],
      summary:
        "Re-enrol a customer's wiped, replaced or lost phone: revoke the old phone, keep the consent and the loan, make the customer inactive for a new enrolment QR (issue 27)",
    }),
    handler: async (request) =>
      ok(
        await reEnrolDevice(ctx, { actor: request.actor, request: request.body }),
        'The phone was taken out. Make the new enrolment QR for the customer',
      ),
  });
};
