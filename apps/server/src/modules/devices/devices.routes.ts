import { devicesContract, isControlRouteFeature } from '@kisht/domain/contract/devices';
import { COMMAND_CATALOGUE } from '@kisht/domain/devices/command-catalogue';
import type { ZLockRequest } from '@kisht/domain/devices/devices.schema';
import type { TLockReasonCategory } from '@kisht/domain/devices/lock-reasons';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
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
    r.route({
      ...contractRoute(devicesContract[name], {
        tags: ['devices'],
        summary:
          name === 'lock'
            ? "Queue a lock of the customer's phone, now or at run_at (a reason when nothing is overdue; never after the EMIs are completed)"
            : "Queue an unlock of the customer's phone, now or at run_at",
      }),
      handler: async (request) => {
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
    });
  }

  for (const spec of COMMAND_CATALOGUE) {
    const feature = spec.feature;
    if (!isControlRouteFeature(feature)) continue;
    r.route({
      ...contractRoute(devicesContract.control.group[feature], {
        tags: ['devices'],
        summary:
          spec.kind === 'toggle'
            ? `Turn ${feature} on (${spec.on}) or off (${spec.off}) on the customer's phone`
            : `Run ${spec.on} on the customer's phone`,
      }),
      handler: async (request) => {
        const command = await sendControlCommand(ctx, {
          actor: request.actor,
          customerId: request.body.customer_id,
          feature,
          enable: request.body.enable,
          args: request.body.args,
          runAt: request.body.run_at ? new Date(request.body.run_at) : undefined,
          reason: reasonOf(request.body),
        });
        return ok(command, request.body.run_at ? 'Command scheduled' : 'Command queued');
      },
    });
  }

  r.route({
    ...contractRoute(devicesContract.history, {
      tags: ['devices'],
      summary: "The phone's commands, newest first: who, when, state, result",
    }),
    handler: async (request) => {
      await requireAccess(ctx.db, request.actor, ['lock.read']);
      const { device } = await findCustomerForActor(ctx.db, request.actor, request.query.customer_id);
      return ok(await listCommandHistory(ctx.db, device));
    },
  });

  r.route({
    ...contractRoute(devicesContract.cancel, { tags: ['devices'], summary: 'Cancel a pending command' }),
    handler: async (request) => {
      const { customer_id: customerId, command_id: commandId } = request.body;
      return ok(
        await cancelCommand(ctx, { actor: request.actor, customerId, commandId }),
        'Command cancelled',
      );
    },
  });

  r.route({
    ...contractRoute(devicesContract.offlineCommandLog, {
      tags: ['devices'],
      summary: 'Commands still waiting for phones that are offline, oldest first',
    }),
    handler: async (request) => {
      await requireAccess(ctx.db, request.actor, ['lock.read']);
      return ok(await listOfflineCommands(ctx.db, request.actor));
    },
  });

  r.route({
    ...contractRoute(devicesContract.scheduledCommands, {
      tags: ['devices'],
      summary: 'Commands waiting for their scheduled time, soonest first',
    }),
    handler: async (request) => {
      await requireAccess(ctx.db, request.actor, ['lock.read']);
      return ok(await listScheduledCommands(ctx.db, request.actor));
    },
  });

  r.route({
    ...contractRoute(devicesContract.changeDevicePin, {
      tags: ['devices'],
      summary: 'Set a new screen-lock PIN on the customer’s phone (after an OTP of purpose BYPASS_CODE)',
    }),
    config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
    handler: async (request) =>
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
  });

  r.route({
    ...contractRoute(devicesContract.bulkLockUnlock, {
      tags: ['devices'],
      summary: 'Lock or unlock many phones (selection or filter) in one request',
    }),
    handler: async (request) =>
      ok(await bulkLockUnlock(ctx, { actor: request.actor, request: request.body }), 'Commands queued'),
  });

  r.route({
    ...contractRoute(devicesContract.bulkPreview, {
      tags: ['devices'],
      summary: 'How many phones a bulk lock or unlock with this filter would reach (nothing is sent)',
    }),
    handler: async (request) =>
      ok(await previewBulkLockUnlock(ctx.db, { actor: request.actor, query: request.query })),
  });

  r.route({
    ...contractRoute(devicesContract.bulkProgress, {
      tags: ['devices'],
      summary: 'Progress of a bulk lock or unlock',
    }),
    handler: async (request) =>
      ok(
        await getBulkProgress(ctx.db, request.actor, request.query.batch_id, {
          since: request.query.since === undefined ? undefined : new Date(request.query.since),
        }),
      ),
  });

  r.route({
    ...contractRoute(devicesContract.sendOtpToUser, {
      tags: ['auth'],
      summary: 'Send an OTP (BYPASS_CODE or UNINSTALL) to your own mobile',
    }),
    config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
    handler: async (request) => ok(await sendOtpToUser(ctx, request.actor, request.body.purpose), 'OTP sent'),
  });

  const offlineCodeRoute = (
    contract: typeof devicesContract.bypassCode | typeof devicesContract.offlineLockUnlock,
  ) =>
    r.route({
      ...contractRoute(contract, {
        tags: ['devices'],
        summary: 'An offline code for the challenge a phone shows (after an OTP of purpose BYPASS_CODE)',
      }),
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      handler: async (request) => {
        const { customer_id: customerId, challenge, otp } = request.body;
        const action = 'action' in request.body ? request.body.action : 'unlock';
        const reason = 'action' in request.body ? reasonOf(request.body) : undefined;
        return ok(
          await issueOfflineCode(ctx, { actor: request.actor, customerId, challenge, action, otp, reason }),
          'Offline code issued',
        );
      },
    });
  offlineCodeRoute(devicesContract.bypassCode);
  offlineCodeRoute(devicesContract.offlineLockUnlock);

  r.route({
    ...contractRoute(devicesContract.uninstall, {
      tags: ['devices'],
      summary: 'Release (uninstall) the customer’s phone, after an OTP of purpose UNINSTALL',
    }),
    handler: async (request) =>
      ok(
        await requestUninstall(ctx, {
          actor: request.actor,
          customerId: request.body.customer_id,
          otp: request.body.otp,
        }),
        'Uninstall command queued',
      ),
  });

  r.route({
    ...contractRoute(devicesContract.unclaim, {
      tags: ['devices'],
      summary: 'Release the phone of a customer whose EMIs are completed',
    }),
    handler: async (request) =>
      ok(
        await unclaimCustomer(ctx, { actor: request.actor, customerId: request.body.customer_id }),
        'Release command queued',
      ),
  });

  r.route({
    ...contractRoute(devicesContract.simChanges, {
      tags: ['devices'],
      summary: 'SIM changes of your customers’ phones, newest first',
    }),
    handler: async (request) => ok(await listSimChanges(ctx.db, request.actor, request.query)),
  });

  r.route({
    ...contractRoute(devicesContract.simChangeDetails, {
      tags: ['customers'],
      summary: 'SIM changes of one customer’s phone, newest first',
    }),
    handler: async (request) =>
      ok(await listCustomerSimChanges(ctx.db, request.actor, request.query.customer_id)),
  });

  r.route({
    ...contractRoute(devicesContract.userAccess, {
      tags: ['users'],
      summary: 'Your user access flags (spec §6 defaults with server overrides)',
    }),
    handler: async (request) => ok((await getAccessFlags(ctx.db, request.actor)).userAccess),
  });

  r.route({
    ...contractRoute(devicesContract.lockAccess, {
      tags: ['users'],
      summary: 'Your lock access flags (spec §6 defaults with server overrides)',
    }),
    handler: async (request) => ok((await getAccessFlags(ctx.db, request.actor)).lockAccess),
  });
};
