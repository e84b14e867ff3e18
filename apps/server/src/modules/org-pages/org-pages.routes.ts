import { zEnvelope } from '@kisht/domain/common/envelope';
import {
  ORG_PAGES,
  ZOrgPageQuery,
  ZOrgPageView,
  ZSaveOrgPageRequest,
  ZSaveSupportContactRequest,
  ZSupportContact,
} from '@kisht/domain/org-pages/org-pages.schema';
import { orgPagePath, paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
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
    r.get(
      orgPagePath(page),
      {
        schema: {
          tags: ['org-pages'],
          summary: `The organisation’s ${page} page in a language (else English, else the built-in text)`,
          querystring: ZOrgPageQuery,
          response: { 200: zEnvelope(ZOrgPageView) },
        },
      },
      async (request) => ok(await getOrgPage(ctx.db, request.actor, page, request.query.language)),
    );
    r.put(
      orgPagePath(page),
      {
        schema: {
          tags: ['org-pages'],
          summary: `Write the organisation’s ${page} page in one language (organisation admin)`,
          body: ZSaveOrgPageRequest,
          response: { 200: zEnvelope(ZOrgPageView) },
        },
      },
      async (request) => ok(await saveOrgPage(ctx.db, request.actor, page, request.body), 'Page saved'),
    );
  }
  r.put(
    paths.orgPages.supportContact,
    {
      schema: {
        tags: ['org-pages'],
        summary: 'Set the phone, WhatsApp and e-mail the support page offers (organisation admin)',
        body: ZSaveSupportContactRequest,
        response: { 200: zEnvelope(ZSupportContact) },
      },
    },
    async (request) => ok(await saveSupportContact(ctx.db, request.actor, request.body), 'Contact saved'),
  );
};
