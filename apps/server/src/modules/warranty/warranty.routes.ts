import { warrantyContract } from '@kisht/domain/contract/warranty';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { sendStoredFile } from '../../lib/stored-file-reply';
import { requireSession } from '../../plugins/auth';
import { renderWarrantyCertificate } from './warranty.service';

/**
 * Extended warranty (issue 14, app_type 5; session required): the PDF certificate of a warranty
 * sold, in the language asked for. The sale itself is plans' (paths.plans.sell).
 */
export const warrantyRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  app.withTypeProvider<ZodTypeProvider>().route({
    ...contractRoute(warrantyContract.certificate, {
      tags: ['plans'],
      summary:
        'The PDF certificate of an extended warranty you may see, in one of the app languages (default en)',
      produces: ['application/pdf'],
    }),
    handler: async (request, reply) => {
      const { pdf, code } = await renderWarrantyCertificate(ctx.db, {
        actor: request.actor,
        activationId: request.query.activation_id,
        language: request.query.lang,
      });
      return sendStoredFile(
        reply,
        { mimeType: 'application/pdf', content: pdf },
        { cacheControl: 'private, no-store', disposition: `attachment; filename="warranty-${code}.pdf"` },
      );
    },
  });
};
