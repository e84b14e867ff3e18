import { keyRefundContract } from '@kisht/domain/contract/key-refund';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { refundEnrolmentKey } from './key-refund.service';

/** api/points/refund_key: the key of an enrolment QR whose phone never enrolled, given back. */
export const keyRefundRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...contractRoute(keyRefundContract.refundKey, {
      tags: ['ledger'],
      summary:
        'Return the key an enrolment QR reserved, for your customer whose phone never enrolled (the QR stops working)',
    }),
    handler: async (request) =>
      ok(await refundEnrolmentKey(ctx.db, { actor: request.actor, request: request.body }), 'Key returned'),
  });
};
