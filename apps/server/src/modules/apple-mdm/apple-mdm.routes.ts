import type { TCommandName } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import {
  APPLE_COMMAND_ROUTES,
  appleMdmContract,
  type TAppleCommandRoute,
} from '@kisht/domain/contract/apple-mdm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { publicBaseUrl } from '../../lib/base-url';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { getCustomerDetails } from '../customer-details/customer-details.service';
import {
  enrolmentProfileOf,
  getAppleDetails,
  issueAppleQr,
  queueAppleCommand,
  unclaimApple,
  updateAppleSerialNumber,
} from './apple-mdm.service';
import { handleNanoMdmWebhook } from './apple-webhook.service';
import { MOBILECONFIG_CONTENT_TYPE } from './enrolment-profile';

/**
 * Public Apple routes (no session): the enrolment profile Safari on the iPhone opens, and NanoMDM's
 * webhook (raw body, X-Hmac-Signature). Both are exempt from the client-contract headers.
 */
export const applePublicRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...contractRoute(appleMdmContract.enrolmentProfile, {
      // Opened by Safari, not the app, and the OpenAPI-driven security suites send no path
      // parameters: kept out of the document. Any text gets 404 unless it is a live token.
      hide: true,
      tags: ['apple'],
      summary: "An Apple customer's MDM enrolment profile (.mobileconfig), by the one-time token of its QR",
      description:
        'Opened in Safari on the iPhone. `profile` is `{token}.mobileconfig`; an unknown, expired or spent ' +
        'token answers 404, and 503 MDM_UNAVAILABLE when NanoMDM is not configured.',
    }),
    handler: async (request, reply) => {
      const match = /^([A-Za-z0-9_-]{16,128})\.mobileconfig$/.exec(request.params.profile);
      if (!match) {
        throw new AppError(AppErrorCode.NOT_FOUND, 'This enrolment link is invalid or has expired', [
          { field: 'token', message: 'Unknown or expired enrolment token' },
        ]);
      }
      const profile = await enrolmentProfileOf(ctx, match[1]!);
      return reply
        .header('content-type', MOBILECONFIG_CONTENT_TYPE)
        .header('content-disposition', 'attachment; filename="kisht-enrolment.mobileconfig"')
        .header('cache-control', 'no-store')
        .send(profile);
    },
  });

  // NanoMDM's webhook: signed over the exact body bytes, so this scope keeps them raw.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: 4 * 1024 * 1024 },
      (_request, body, done) => done(null, body),
    );
    scope.withTypeProvider<ZodTypeProvider>().route({
      ...contractRoute(appleMdmContract.webhook, {
        tags: ['apple'],
        summary:
          "NanoMDM's webhook: check-ins (Authenticate, TokenUpdate, CheckOut) and command reports (Connect)",
        description:
          'Called by NanoMDM (-webhook-url), not the app: its MicroMDM-compatible JSON events. With ' +
          'NANOMDM_WEBHOOK_SECRET set, X-Hmac-Signature must be the base64 HMAC-SHA256 of the raw body ' +
          '(else 401 MDM_WEBHOOK_SIGNATURE_INVALID, nothing written). Events for unknown phones or ' +
          'commands are acknowledged and ignored.',
      }),
      handler: async (request) => {
        const signature = request.headers['x-hmac-signature'];
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const outcome = await handleNanoMdmWebhook(
          { db: ctx.db, config: ctx.config, events: ctx.deviceEvents, log: app.log },
          { rawBody, signature: typeof signature === 'string' ? signature : undefined },
        );
        return ok({ outcome });
      },
    });
  });
};

/** Each Apple command route's command (queueAppleCommand) and its summary in /docs. */
const APPLE_COMMANDS = {
  requestSync: {
    name: 'check_status',
    summary: 'apple_request_sync: ask the iPhone for its DeviceInformation',
  },
  disableActivationLock: {
    name: 'disable_activation_lock',
    summary: 'disable_activation_lock: fetch and keep the iPhone’s Activation Lock bypass code (supervised)',
  },
  installOneModeApp: {
    name: 'install_apple_onemodapp',
    summary: 'installAppleOneModeApp: install the one-mode app',
  },
} as const satisfies Record<TAppleCommandRoute, { name: TCommandName; summary: string }>;

/** Apple routes of spec §7 (/micromdm, /country): QR, details, sync, Activation Lock, one-mode app, serial, release. */
export const appleRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...contractRoute(appleMdmContract.qr, {
      tags: ['apple'],
      summary: "apple_qr: the URL of an inactive Apple customer's enrolment profile as a QR (one-time token)",
    }),
    handler: async (request) =>
      ok(
        await issueAppleQr(ctx, {
          actor: request.actor,
          customerId: request.query.customer_id,
          baseUrl: publicBaseUrl(ctx.config, request),
        }),
      ),
  });

  r.route({
    ...contractRoute(appleMdmContract.details, {
      tags: ['apple'],
      summary: "apple_details: what the customer's iPhone reported through NanoMDM",
    }),
    handler: async (request) => ok(await getAppleDetails(ctx.db, request.actor, request.query.customer_id)),
  });

  for (const route of APPLE_COMMAND_ROUTES) {
    const { name, summary } = APPLE_COMMANDS[route];
    r.route({
      ...contractRoute(appleMdmContract.command.group[route], { tags: ['apple'], summary }),
      handler: async (request) =>
        ok(
          await queueAppleCommand(ctx, { actor: request.actor, customerId: request.body.customer_id, name }),
          'Command queued',
        ),
    });
  }

  r.route({
    ...contractRoute(appleMdmContract.customerUpdate, {
      tags: ['apple'],
      summary: "appleCustomerByKegenUpdate: correct an inactive Apple customer's serial number",
    }),
    handler: async (request) => {
      await updateAppleSerialNumber(ctx.db, {
        actor: request.actor,
        customerId: request.body.customer_id,
        serialNumber: request.body.serial_number,
      });
      return ok(
        await getCustomerDetails(ctx.db, request.actor, request.body.customer_id),
        'Serial number updated',
      );
    },
  });

  r.route({
    ...contractRoute(appleMdmContract.unclaim, {
      tags: ['apple'],
      summary: 'unclaim_apple: release the iPhone of a customer whose EMIs are completed (RemoveProfile)',
    }),
    handler: async (request) =>
      ok(
        await unclaimApple(ctx, { actor: request.actor, customerId: request.body.customer_id }),
        'Release command queued',
      ),
  });
};
