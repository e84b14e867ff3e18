import { orgPagesContract } from '@kisht/domain/contract/org-pages';
import { ORG_PAGES } from '@kisht/domain/org-pages/org-pages.schema';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { getOrgPage, saveOrgPage, saveSupportContact } from './org-pages.service';

/**
 * The organisation's help, support and privacy-policy pages (issue 16; session required): one GET
 * and one PUT per page (`/api/org_pages/{page}`, static paths, so every operation is a plain path),
 * and the support contact. Reading is for everyone signed in; writing for the organisation admin.
 */
export const orgPagesRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const page of ORG_PAGES) {
    r.route({
      ...contractRoute(orgPagesContract.getPage.group[page], {
        tags: ['org-pages'],
        summary: `The organisation’s ${page} page in a language (else English, else the built-in text)`,
      }),
      handler: async (request) => ok(await getOrgPage(ctx.db, request.actor, page, request.query.language)),
    });
    r.route({
      ...contractRoute(orgPagesContract.savePage.group[page], {
        tags: ['org-pages'],
        summary: `Write the organisation’s ${page} page in one language (organisation admin)`,
      }),
      handler: async (request) =>
        ok(await saveOrgPage(ctx.db, request.actor, page, request.body), 'Page saved'),
    });
  }
  r.route({
    ...contractRoute(orgPagesContract.saveSupportContact, {
      tags: ['org-pages'],
      summary: 'Set the phone, WhatsApp and e-mail the support page offers (organisation admin)',
    }),
    handler: async (request) =>
      ok(await saveSupportContact(ctx.db, request.actor, request.body), 'Contact saved'),
  });
};
