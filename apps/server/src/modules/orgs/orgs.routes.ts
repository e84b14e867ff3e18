import { zEnvelope } from '@kisht/domain/common/envelope';
import { ZDeviceControlSettings } from '@kisht/domain/devices/devices.schema';
import { ZAppConfig, ZOrgAppConfig, ZOrgAppConfigQuery } from '@kisht/domain/orgs/orgs.schema';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { saveDeviceControlSettings } from '../devices/device-settings.service';
import { getClientConfig, getDeviceControlSettings, getOrgAppConfig } from './orgs.service';

/** Public: the white-label config the app loads before login. */
export const orgsRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    paths.orgs.appConfig,
    {
      schema: {
        tags: ['organisations'],
        summary: 'White-label app configuration of an organisation',
        querystring: ZOrgAppConfigQuery,
        response: { 200: zEnvelope(ZOrgAppConfig) },
      },
    },
    async (request) => ok(await getOrgAppConfig(ctx.db, request.query.org_id)),
  );
  app.withTypeProvider<ZodTypeProvider>().get(
    paths.orgs.clientConfig,
    {
      schema: {
        tags: ['organisations'],
        summary: 'Client-contract settings (request-token secret, header window, cache times)',
        response: { 200: zEnvelope(ZAppConfig) },
      },
    },
    async () => ok(getClientConfig(ctx.config)),
  );
};

/** The organisation's own settings screens (session required): device-control settings. */
export const orgSettingsRoutes = async (app: FastifyInstance, ctx: AppContext) => {
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
