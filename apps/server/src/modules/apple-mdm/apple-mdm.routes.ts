import { ZAppleCustomerUpdateRequest, ZAppleDetails } from '@kisht/domain/apple/apple.schema';
import { zEnvelope } from '@kisht/domain/common/envelope';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { ZCustomerDetails, ZCustomerIdQuery, ZEnrolmentQr } from '@kisht/domain/customers/customers.schema';
import { ZDeviceCommand, ZDeviceCommandRequest } from '@kisht/domain/devices/devices.schema';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicBaseUrl } from '../../lib/base-url';
import type { AppContext } from '../../lib/context';
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
  app.withTypeProvider<ZodTypeProvider>().get(
    `${paths.apple.enrolmentProfilePrefix}:profile`,
    {
      schema: {
        // Opened by Safari, not the app, and the OpenAPI-driven security suites send no path
        // parameters: kept out of the document. Any text gets 404 unless it is a live token.
        hide: true,
        tags: ['apple'],
        summary: "An Apple customer's MDM enrolment profile (.mobileconfig), by the one-time token of its QR",
        description:
          'Opened in Safari on the iPhone. `profile` is `{token}.mobileconfig`; an unknown, expired or spent ' +
          'token answers 404, and 503 MDM_UNAVAILABLE when NanoMDM is not configured.',
        params: z.object({ profile: z.string().max(200) }),
      },
    },
    async (request, reply) => {
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
  );

  // NanoMDM's webhook: signed over the exact body bytes, so this scope keeps them raw.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: 4 * 1024 * 1024 },
      (_request, body, done) => done(null, body),
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      paths.apple.webhook,
      {
        schema: {
          tags: ['apple'],
          summary:
            "NanoMDM's webhook: check-ins (Authenticate, TokenUpdate, CheckOut) and command reports (Connect)",
          description:
            'Called by NanoMDM (-webhook-url), not the app: its MicroMDM-compatible JSON events. With ' +
            'NANOMDM_WEBHOOK_SECRET set, X-Hmac-Signature must be the base64 HMAC-SHA256 of the raw body ' +
            '(else 401 MDM_WEBHOOK_SIGNATURE_INVALID, nothing written). Events for unknown phones or ' +
            'commands are acknowledged and ignored.',
          response: {
            200: zEnvelope(
              z.object({ outcome: z.enum(['bound', 'enrolled', 'checked_out', 'recorded', 'ignored']) }),
            ),
          },
        },
      },
      async (request) => {
        const signature = request.headers['x-hmac-signature'];
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const outcome = await handleNanoMdmWebhook(
          { db: ctx.db, config: ctx.config, events: ctx.deviceEvents, log: app.log },
          { rawBody, signature: typeof signature === 'string' ? signature : undefined },
        );
        return ok({ outcome });
      },
    );
  });
};

/** Apple routes of spec §7 (/micromdm, /country): QR, details, sync, Activation Lock, one-mode app, serial, release. */
export const appleRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    paths.apple.qr,
    {
      schema: {
        tags: ['apple'],
        summary:
          "apple_qr: the URL of an inactive Apple customer's enrolment profile as a QR (one-time token)",
        querystring: ZCustomerIdQuery,
        response: { 200: zEnvelope(ZEnrolmentQr) },
      },
    },
    async (request) =>
      ok(
        await issueAppleQr(ctx, {
          actor: request.actor,
          customerId: request.query.customer_id,
          baseUrl: publicBaseUrl(ctx.config, request),
        }),
      ),
  );

  r.get(
    paths.apple.details,
    {
      schema: {
        tags: ['apple'],
        summary: "apple_details: what the customer's iPhone reported through NanoMDM",
        querystring: ZCustomerIdQuery,
        response: { 200: zEnvelope(ZAppleDetails) },
      },
    },
    async (request) => ok(await getAppleDetails(ctx.db, request.actor, request.query.customer_id)),
  );

  const commandRoutes = [
    [paths.apple.requestSync, 'check_status', 'apple_request_sync: ask the iPhone for its DeviceInformation'],
    [
      paths.apple.disableActivationLock,
      'disable_activation_lock',
      'disable_activation_lock: fetch and keep the iPhone’s Activation Lock bypass code (supervised)',
    ],
    [
      paths.apple.installOneModeApp,
      'install_apple_onemodapp',
      'installAppleOneModeApp: install the one-mode app',
    ],
  ] as const;
  for (const [path, name, summary] of commandRoutes) {
    r.post(
      path,
      {
        schema: {
          tags: ['apple'],
          summary,
          body: ZDeviceCommandRequest,
          response: { 200: zEnvelope(ZDeviceCommand) },
        },
      },
      async (request) =>
        ok(
          await queueAppleCommand(ctx, { actor: request.actor, customerId: request.body.customer_id, name }),
          'Command queued',
        ),
    );
  }

  r.post(
    paths.apple.customerUpdate,
    {
      schema: {
        tags: ['apple'],
        summary: "appleCustomerByKegenUpdate: correct an inactive Apple customer's serial number",
        body: ZAppleCustomerUpdateRequest,
        response: { 200: zEnvelope(ZCustomerDetails) },
      },
    },
    async (request) => {
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
  );

  r.post(
    paths.apple.unclaim,
    {
      schema: {
        tags: ['apple'],
        summary: 'unclaim_apple: release the iPhone of a customer whose EMIs are completed (RemoveProfile)',
        body: ZDeviceCommandRequest,
        response: { 200: zEnvelope(ZDeviceCommand) },
      },
    },
    async (request) =>
      ok(
        await unclaimApple(ctx, { actor: request.actor, customerId: request.body.customer_id }),
        'Release command queued',
      ),
  );
};
