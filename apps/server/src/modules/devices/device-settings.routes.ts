import { devicesContract } from '@kisht/domain/contract/devices';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { getDeviceControlSettings } from '../orgs/orgs.service';
import { saveDeviceControlSettings } from './device-settings.service';

/**
 * The organisation's device-control settings screen (session required): the allowed list, offline
 * limit, command expiry, auto-lock ladder and lock-screen text. Saving a new offline limit sends
 * every phone that may take it a new policy through the command gate.
 */
export const deviceSettingsRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...contractRoute(devicesContract.getDeviceSettings, {
      tags: ['organisations'],
      summary:
        'Device-control settings: allowed list, offline limit, command expiry, auto-lock ladder, lock-screen text',
    }),
    handler: async (request) => ok(await getDeviceControlSettings(ctx.db, request.actor)),
  });
  r.route({
    ...contractRoute(devicesContract.saveDeviceSettings, {
      tags: ['organisations'],
      summary: 'Change the device-control settings (retailers only)',
    }),
    handler: async (request) => {
      const { settings, phonesTold } = await saveDeviceControlSettings(ctx, request.actor, request.body);
      return ok(
        settings,
        phonesTold > 0 ? `Settings saved; ${phonesTold} phones get the new offline limit` : 'Settings saved',
      );
    },
  });
};
