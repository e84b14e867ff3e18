import { zEnvelope } from '@kisht/domain/common/envelope';
import { ZLedgerMovement, ZRefundKeyRequest } from '@kisht/domain/ledger/ledger.schema';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { refundEnrolmentKey } from './key-refund.service';

/** api/points/refund_key: the key of an enrolment QR whose phone never enrolled, given back. */
export const keyRefundRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    paths.ledger.refundKey,
    {
      schema: {
        tags: ['ledger'],
        summary:
          'Return the key an enrolment QR reserved, for your customer whose phone never enrolled (the QR stops working)',
        body: ZRefundKeyRequest,
        response: { 200: zEnvelope(ZLedgerMovement) },
      },
    },
    async (request) =>
      ok(await refundEnrolmentKey(ctx.db, { actor: request.actor, request: request.body }), 'Key returned'),
  );
};
