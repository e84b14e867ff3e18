import { zEnvelope } from '@kisht/domain/common/envelope';
import { paths } from '@kisht/domain/paths';
import { ZPaymentQrSettings, ZSavePaymentQrRequest } from '@kisht/domain/users/payment-qr.schema';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { getPaymentQr, savePaymentQr } from './payment-qr.service';

/**
 * retailer_payment_qr (spec §7 "payment QR"; session required): the actor's own UPI ID and the
 * standing UPI QR link. GET and PUT act on the session's user only.
 */
export const paymentQrRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    paths.users.paymentQr,
    {
      schema: {
        tags: ['users'],
        summary: 'Your UPI ID, payee name and UPI QR link (retailers and mini-retailers)',
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
        summary: 'Set your UPI ID (retailers and mini-retailers); the payee name is your account name',
        body: ZSavePaymentQrRequest,
        response: { 200: zEnvelope(ZPaymentQrSettings) },
      },
    },
    async (request) => ok(await savePaymentQr(ctx.db, request.actor, request.body), 'UPI ID saved'),
  );
};
