import { zEnvelope } from '@kisht/domain/common/envelope';
import { ZDeviceControlSettings } from '@kisht/domain/devices/devices.schema';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
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
  r.get(
    paths.orgs.deviceSettings,
    {
      schema: {
        tags: ['organisations'],
        summary:
          'Device-control settings: allowed list, offline limit, command expiry, auto-lock ladder, lock-screen text',
        response: { 200: zEnvelope(ZDeviceControlSettings) },
      },
    },
    async (request) => ok(await getDeviceControlSettings(ctx.db, request.actor)),
  );
  r.put(
    paths.orgs.deviceSettings,
    {
      schema: {
        tags: ['organisations'],
        summary: 'Change the device-control settings (retailers only)',
        body: ZDeviceControlSettings,
        response: { 200: zEnvelope(ZDeviceControlSettings) },
      },
    },
    async (request) => {
      const { settings, phonesTold } = await saveDeviceControlSettings(ctx, request.actor, request.body);
      return ok(
        settings,
        phonesTold > 0 ? `Settings saved; ${phonesTold} phones get the new offline limit` : 'Settings saved',
      );
    },
  );
};
