import { ZLoginWithOtpResponse } from '@kisht/domain/auth/auth.schema';
import { MESSAGE_FEATURES, type TControlFeature } from '@kisht/domain/common/enums';
import { zEnvelope } from '@kisht/domain/common/envelope';
import { ZCustomerIdQuery } from '@kisht/domain/customers/customers.schema';
import { COMMAND_CATALOGUE, type TCommandSpec } from '@kisht/domain/devices/command-catalogue';
import {
  ZBulkLockRequest,
  ZBulkPreview,
  ZBulkPreviewQuery,
  ZBulkProgress,
  ZBulkProgressQuery,
  ZBypassCodeRequest,
  ZCancelCommandRequest,
  ZChangeDevicePinRequest,
  ZCommandHistoryItem,
  ZDeviceCommand,
  ZDeviceCommandRequest,
  ZDeviceControlRequest,
  ZLockAccess,
  ZLockRequest,
  ZLockUnlockRequest,
  ZOfflineCode,
  ZOfflineCommand,
  ZOfflineLockUnlockRequest,
  ZScheduledCommand,
  ZSendOtpToUserRequest,
  ZSimChange,
  ZSimChangePage,
  ZUninstallRequest,
  ZUserAccess,
} from '@kisht/domain/devices/devices.schema';
import type { TLockReasonCategory } from '@kisht/domain/devices/lock-reasons';
import { deviceControlPath, paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../lib/context';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { findCustomerForActor } from '../scope/scope.service';
import { getAccessFlags, requireAccess } from '../users/users.service';
import {
  bulkLockUnlock,
  getBulkProgress,
  listOfflineCommands,
  listScheduledCommands,
  previewBulkLockUnlock,
} from './bulk.service';
import { cancelCommand, sendControlCommand } from './control-commands.service';
import {
  listCustomerSimChanges,
  listSimChanges,
  requestUninstall,
  unclaimCustomer,
} from './device-lifecycle.service';
import { changeDevicePin } from './device-pin.service';
import { listCommandHistory } from './devices.service';
import { issueOfflineCode, sendOtpToUser } from './offline-code.service';

const ZSimChangesQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

/**
 * Features with their own path elsewhere: lock/unlock below, emi_alert at send_emialert, uninstall
 * after its OTP; the issue 16 message features (customer_message, advertisement) at theirs.
 */
const OWN_PATH_FEATURES = new Set(['lock', 'emi_alert', 'uninstall', ...MESSAGE_FEATURES]);

/** A catalogue entry whose feature is a spec §6 control with a generic route. */
const hasControlRoute = (spec: TCommandSpec): spec is TCommandSpec & { feature: TControlFeature } =>
  !OWN_PATH_FEATURES.has(spec.feature);

const ZControlBody = ZDeviceControlRequest;

/** Device commands of spec §6/§7 (lock, unlock and every control feature), history, cancel, bulk. */
export const deviceCommandRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  /** The reason fields of a request (ZReasonFields) as the command gate takes them. */
  const reasonOf = (body: {
    reason_category?: TLockReasonCategory | undefined;
    reason?: string | undefined;
  }) => ({
    category: body.reason_category,
    note: body.reason,
  });

  for (const name of ['lock', 'unlock'] as const) {
    r.post(
      paths.devices[name],
      {
        schema: {
          tags: ['devices'],
          summary:
            name === 'lock'
              ? "Queue a lock of the customer's phone, now or at run_at (a reason when nothing is overdue; never after the EMIs are completed)"
              : "Queue an unlock of the customer's phone, now or at run_at",
          body: name === 'lock' ? ZLockRequest : ZLockUnlockRequest,
          response: { 200: zEnvelope(ZDeviceCommand) },
        },
      },
      async (request) => {
        const command = await sendControlCommand(ctx, {
          actor: request.actor,
          customerId: request.body.customer_id,
          feature: 'lock',
          enable: name === 'lock',
          runAt: request.body.run_at ? new Date(request.body.run_at) : undefined,
          reason: name === 'lock' ? reasonOf(request.body as z.output<typeof ZLockRequest>) : undefined,
        });
        if (request.body.run_at) return ok(command, 'Command scheduled');
        return ok(command, name === 'lock' ? 'Lock command queued' : 'Unlock command queued');
      },
    );
  }

  for (const spec of COMMAND_CATALOGUE.filter(hasControlRoute)) {
    r.post(
      deviceControlPath(spec.feature),
      {
        schema: {
          tags: ['devices'],
          summary:
            spec.kind === 'toggle'
              ? `Turn ${spec.feature} on (${spec.on}) or off (${spec.off}) on the customer's phone`
              : `Run ${spec.on} on the customer's phone`,
          body: ZControlBody,
          response: { 200: zEnvelope(ZDeviceCommand) },
        },
      },
      async (request) => {
        const command = await sendControlCommand(ctx, {
          actor: request.actor,
          customerId: request.body.customer_id,
          feature: spec.feature,
          enable: request.body.enable,
          args: request.body.args,
          runAt: request.body.run_at ? new Date(request.body.run_at) : undefined,
          reason: reasonOf(request.body),
        });
        return ok(command, request.body.run_at ? 'Command scheduled' : 'Command queued');
      },
    );
  }

  r.get(
    paths.devices.history,
    {
      schema: {
        tags: ['devices'],
        summary: "The phone's commands, newest first: who, when, state, result",
        querystring: ZCustomerIdQuery,
        response: { 200: zEnvelope(z.array(ZCommandHistoryItem)) },
      },
    },
    async (request) => {
      await requireAccess(ctx.db, request.actor, ['lock.read']);
      const { device } = await findCustomerForActor(ctx.db, request.actor, request.query.customer_id);
      return ok(await listCommandHistory(ctx.db, device));
    },
  );

  r.post(
    paths.devices.cancel,
    {
      schema: {
        tags: ['devices'],
        summary: 'Cancel a pending command',
        body: ZCancelCommandRequest,
        response: { 200: zEnvelope(ZCommandHistoryItem) },
      },
    },
    async (request) => {
      const { customer_id: customerId, command_id: commandId } = request.body;
      return ok(
        await cancelCommand(ctx, { actor: request.actor, customerId, commandId }),
        'Command cancelled',
      );
    },
  );

  r.get(
    paths.devices.offlineCommandLog,
    {
      schema: {
        tags: ['devices'],
        summary: 'Commands still waiting for phones that are offline, oldest first',
        response: { 200: zEnvelope(z.array(ZOfflineCommand)) },
      },
    },
    async (request) => {
      await requireAccess(ctx.db, request.actor, ['lock.read']);
      return ok(await listOfflineCommands(ctx.db, request.actor));
    },
  );

  r.get(
    paths.devices.scheduledCommands,
    {
      schema: {
        tags: ['devices'],
        summary: 'Commands waiting for their scheduled time, soonest first',
        response: { 200: zEnvelope(z.array(ZScheduledCommand)) },
      },
    },
    async (request) => {
      await requireAccess(ctx.db, request.actor, ['lock.read']);
      return ok(await listScheduledCommands(ctx.db, request.actor));
    },
  );

  r.post(
    paths.devices.changeDevicePin,
    {
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['devices'],
        summary: 'Set a new screen-lock PIN on the customer’s phone (after an OTP of purpose BYPASS_CODE)',
        body: ZChangeDevicePinRequest,
        response: { 200: zEnvelope(ZDeviceCommand) },
      },
    },
    async (request) =>
      ok(
        await changeDevicePin(ctx, {
          actor: request.actor,
          customerId: request.body.customer_id,
          pin: request.body.pin,
          otp: request.body.otp,
          reason: reasonOf(request.body),
        }),
        'PIN change queued',
      ),
  );

  r.post(
    paths.devices.bulkLockUnlock,
    {
      schema: {
        tags: ['devices'],
        summary: 'Lock or unlock many phones (selection or filter) in one request',
        body: ZBulkLockRequest,
        response: { 200: zEnvelope(ZBulkProgress) },
      },
    },
    async (request) =>
      ok(await bulkLockUnlock(ctx, { actor: request.actor, request: request.body }), 'Commands queued'),
  );

  r.get(
    paths.devices.bulkPreview,
    {
      schema: {
        tags: ['devices'],
        summary: 'How many phones a bulk lock or unlock with this filter would reach (nothing is sent)',
        querystring: ZBulkPreviewQuery,
        response: { 200: zEnvelope(ZBulkPreview) },
      },
    },
    async (request) =>
      ok(await previewBulkLockUnlock(ctx.db, { actor: request.actor, query: request.query })),
  );

  r.get(
    paths.devices.bulkProgress,
    {
      schema: {
        tags: ['devices'],
        summary: 'Progress of a bulk lock or unlock',
        querystring: ZBulkProgressQuery,
        response: { 200: zEnvelope(ZBulkProgress) },
      },
    },
    async (request) =>
      ok(
        await getBulkProgress(ctx.db, request.actor, request.query.batch_id, {
          since: request.query.since === undefined ? undefined : new Date(request.query.since),
        }),
      ),
  );

  r.post(
    paths.auth.sendOtpToUser,
    {
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Send an OTP (BYPASS_CODE or UNINSTALL) to your own mobile',
        body: ZSendOtpToUserRequest,
        response: { 200: zEnvelope(ZLoginWithOtpResponse) },
      },
    },
    async (request) => ok(await sendOtpToUser(ctx, request.actor, request.body.purpose), 'OTP sent'),
  );

  const offlineCodeRoute = (
    path: string,
    body: typeof ZOfflineLockUnlockRequest | typeof ZBypassCodeRequest,
  ) =>
    r.post(
      path,
      {
        config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
        schema: {
          tags: ['devices'],
          summary: 'An offline code for the challenge a phone shows (after an OTP of purpose BYPASS_CODE)',
          body,
          response: { 200: zEnvelope(ZOfflineCode) },
        },
      },
      async (request) => {
        const { customer_id: customerId, challenge, otp } = request.body;
        const action = 'action' in request.body ? request.body.action : 'unlock';
        const reason = 'action' in request.body ? reasonOf(request.body) : undefined;
        return ok(
          await issueOfflineCode(ctx, { actor: request.actor, customerId, challenge, action, otp, reason }),
          'Offline code issued',
        );
      },
    );
  offlineCodeRoute(paths.devices.bypassCode, ZBypassCodeRequest);
  offlineCodeRoute(paths.auth.offlineLockUnlock, ZOfflineLockUnlockRequest);

  r.post(
    paths.devices.uninstall,
    {
      schema: {
        tags: ['devices'],
        summary: 'Release (uninstall) the customer’s phone, after an OTP of purpose UNINSTALL',
        body: ZUninstallRequest,
        response: { 200: zEnvelope(ZDeviceCommand) },
      },
    },
    async (request) =>
      ok(
        await requestUninstall(ctx, {
          actor: request.actor,
          customerId: request.body.customer_id,
          otp: request.body.otp,
        }),
        'Uninstall command queued',
      ),
  );

  r.post(
    paths.devices.unclaim,
    {
      schema: {
        tags: ['devices'],
        summary: 'Release the phone of a customer whose EMIs are completed',
        body: ZDeviceCommandRequest,
        response: { 200: zEnvelope(ZDeviceCommand) },
      },
    },
    async (request) =>
      ok(
        await unclaimCustomer(ctx, { actor: request.actor, customerId: request.body.customer_id }),
        'Release command queued',
      ),
  );

  r.get(
    paths.devices.simChanges,
    {
      schema: {
        tags: ['devices'],
        summary: 'SIM changes of your customers’ phones, newest first',
        querystring: ZSimChangesQuery,
        response: { 200: zEnvelope(ZSimChangePage) },
      },
    },
    async (request) => ok(await listSimChanges(ctx.db, request.actor, request.query)),
  );

  r.get(
    paths.customers.simChangeDetails,
    {
      schema: {
        tags: ['customers'],
        summary: 'SIM changes of one customer’s phone, newest first',
        querystring: ZCustomerIdQuery,
        response: { 200: zEnvelope(z.array(ZSimChange)) },
      },
    },
    async (request) => ok(await listCustomerSimChanges(ctx.db, request.actor, request.query.customer_id)),
  );

  r.get(
    paths.users.userAccess,
    {
      schema: {
        tags: ['users'],
        summary: 'Your user access flags (spec §6 defaults with server overrides)',
        response: { 200: zEnvelope(ZUserAccess) },
      },
    },
    async (request) => ok((await getAccessFlags(ctx.db, request.actor)).userAccess),
  );

  r.get(
    paths.users.lockAccess,
    {
      schema: {
        tags: ['users'],
        summary: 'Your lock access flags (spec §6 defaults with server overrides)',
        response: { 200: zEnvelope(ZLockAccess) },
      },
    },
    async (request) => ok((await getAccessFlags(ctx.db, request.actor)).lockAccess),
  );
};
