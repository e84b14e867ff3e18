import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { emmContract } from '@kisht/domain/contract/emm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { publicBaseUrl } from '../../lib/base-url';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { exchangeEnrolmentCode } from '../devices/enrolment-code.service';
import {
  deepLinkLandingPage,
  generateEmmCode,
  getEnrolmentCodeState,
  issueLinkEnrolment,
} from './emm.service';

/**
 * The placeholder served where the device policy controller's APK would be (issue 15): a demo
 * server has no signed DPC build, and a provisioning QR pointing at a 404 looks like a Kisht bug on
 * the phone. It is plain text, named for what it is; production sets DPC_DOWNLOAD_URL (and
 * DPC_SIGNATURE_CHECKSUM) to the real build (docs/enrolment.md).
 */
export const DPC_PLACEHOLDER_TEXT =
  'Kisht demo placeholder: this is not an Android app.\n' +
  'Set DPC_DOWNLOAD_URL and DPC_SIGNATURE_CHECKSUM to your signed device policy controller build.\n';

/**
 * The placeholder served at /emm/linkflapk on a server with neither LINK_APP_APK_FILE nor
 * LINK_APP_DOWNLOAD_URL (docs/enrolment.md): plain text that says what it is, never a 404.
 */
export const LINK_APP_PLACEHOLDER_TEXT =
  'Kisht demo placeholder: this is not an Android app.\n' +
  'Set LINK_APP_APK_FILE (a path on the server) or LINK_APP_DOWNLOAD_URL to your signed link-based app build.\n';

/** Code exchanges per client address: a code has 40 bits, and this keeps guessing pointless. */
const EXCHANGE_RATE_LIMIT = { rateLimit: { max: 10, timeWindow: '1 minute' } };
/** Landing page views per client address (each reads the database once). */
const LANDING_RATE_LIMIT = { rateLimit: { max: 60, timeWindow: '1 minute' } };

/** Public downloads and calls of the enrolment flows (no session: a phone, not the app, calls them). */
export const emmPublicRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...contractRoute(emmContract.dpcApk, {
      tags: ['enrolment'],
      summary: "The device policy controller's APK (a placeholder on a demo server)",
    }),
    handler: async (_request, reply) =>
      reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('content-disposition', 'attachment; filename="kisht-dpc-PLACEHOLDER.txt"')
        .send(DPC_PLACEHOLDER_TEXT),
  });

  r.route({
    ...contractRoute(emmContract.linkApk, {
      tags: ['enrolment'],
      summary:
        "The link-based app's APK (linkflapk): LINK_APP_APK_FILE, a redirect to LINK_APP_DOWNLOAD_URL, or a named placeholder on a demo server",
    }),
    handler: async (_request, reply) => {
      const { LINK_APP_APK_FILE: file, LINK_APP_DOWNLOAD_URL: elsewhere } = ctx.config;
      if (file) {
        const { size } = await stat(file);
        return reply
          .header('content-type', 'application/vnd.android.package-archive')
          .header('content-length', String(size))
          .header('content-disposition', 'attachment; filename="kisht-link.apk"')
          .send(createReadStream(file));
      }
      if (elsewhere) return reply.redirect(elsewhere, 302);
      return reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('content-disposition', 'attachment; filename="kisht-link-PLACEHOLDER.txt"')
        .send(LINK_APP_PLACEHOLDER_TEXT);
    },
  });

  r.route({
    ...contractRoute(emmContract.deepLinkLanding, {
      tags: ['enrolment'],
      summary:
        'The deep link a link-based customer opens: an HTML page with the APK download, the steps, and the kisht://enrol link (410 once expired or used)',
    }),
    config: LANDING_RATE_LIMIT,
    handler: async (request, reply) => {
      const page = await deepLinkLandingPage(ctx, {
        orgId: request.query.org_id,
        token: request.query.token,
        baseUrl: publicBaseUrl(ctx.config, request),
      });
      return (
        reply
          .code(page.status)
          .header('content-type', 'text/html; charset=utf-8')
          // No scripts, no framing; the token in the URL is not handed on to the APK's host.
          .header(
            'content-security-policy',
            "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
          )
          .header('referrer-policy', 'no-referrer')
          .header('cache-control', 'no-store')
          .header('x-content-type-options', 'nosniff')
          .send(page.html)
      );
    },
  });

  r.route({
    ...contractRoute(emmContract.exchangeCode, {
      tags: ['enrolment'],
      summary:
        'The link-based app exchanges a typed enrolment code for a one-time enrolment token and the server URL (404 "Code not found")',
    }),
    config: EXCHANGE_RATE_LIMIT,
    handler: async (request) =>
      ok(
        await exchangeEnrolmentCode(ctx.db, {
          orgId: request.body.orgId,
          code: request.body.code,
          baseUrl: publicBaseUrl(ctx.config, request),
        }),
        'Code accepted',
      ),
  });
};

/**
 * The retailer's side of the link-based family (session required; the actor's customers only,
 * 404 for another tenant's; 409 NOT_FOR_THIS_DEVICE_FAMILY for a customer of another family).
 */
export const emmRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...contractRoute(emmContract.generateCodeLinkfl, {
      tags: ['enrolment'],
      summary:
        'A fresh link-based enrolment (generate_code_linkfl): deep link, APK location and enrolment code, with a one-time token (reserves a key as the enrolment QR does)',
    }),
    handler: async (request) =>
      ok(
        await issueLinkEnrolment(ctx, {
          actor: request.actor,
          customerId: request.body.customer_id,
          baseUrl: publicBaseUrl(ctx.config, request),
        }),
      ),
  });

  r.route({
    ...contractRoute(emmContract.deepLink, {
      tags: ['enrolment'],
      summary:
        "The link-based customer's deep link (get_deep_link), with a fresh one-time token, the APK location and an enrolment code",
    }),
    handler: async (request) =>
      ok(
        await issueLinkEnrolment(ctx, {
          actor: request.actor,
          customerId: request.query.customer_id,
          baseUrl: publicBaseUrl(ctx.config, request),
        }),
      ),
  });

  r.route({
    ...contractRoute(emmContract.generateEmmCode, {
      tags: ['enrolment'],
      summary:
        'A fresh enrolment code for a link-based customer (generate_emm_code): the code the app accepts typed in, valid until the enrolment token expires',
    }),
    handler: async (request) =>
      ok(
        await generateEmmCode(ctx, {
          actor: request.actor,
          customerId: request.body.customer_id,
          baseUrl: publicBaseUrl(ctx.config, request),
        }),
      ),
  });

  r.route({
    ...contractRoute(emmContract.keygen, {
      tags: ['enrolment'],
      summary:
        "The state of a link-based customer's enrolment (get_customers_keygen): code issued, expires, used",
    }),
    handler: async (request) =>
      ok(await getEnrolmentCodeState(ctx.db, request.actor, request.query.customer_id)),
  });
};
