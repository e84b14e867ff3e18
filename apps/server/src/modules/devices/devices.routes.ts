import { zEnvelope } from '@kisht/domain/common/envelope';
import {
  ZDeviceCommand,
  ZDeviceCommandRequest,
  ZEnrolDeviceRequest,
  ZEnrolDeviceResponse,
} from '@kisht/domain/devices/devices.schema';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { publicBaseUrl } from '../../lib/base-url';
import type { AppContext } from '../../lib/context';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { findCustomerForActor } from '../customers/customers.service';
import { enrolDevice } from '../enrolment/enrolment.service';
import { queueLockCommand } from './devices.service';

/** Lock and unlock (spec §7 device commands), for retailers. */
export const deviceCommandRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const name of ['lock', 'unlock'] as const) {
    r.post(
      paths.devices[name],
      {
        schema: {
          tags: ['devices'],
          summary: `Queue a ${name} command for the customer's phone`,
          body: ZDeviceCommandRequest,
          response: { 200: zEnvelope(ZDeviceCommand) },
        },
      },
      async (request) => {
        const { device } = await findCustomerForActor(ctx.db, request.actor, request.body.customer_id);
        const command = await queueLockCommand(ctx, {
          actor: request.actor,
          device,
          customerId: request.body.customer_id,
          name,
        });
        return ok(command, name === 'lock' ? 'Lock command queued' : 'Unlock command queued');
      },
    );
  }
};

/** The device's own enrolment call (design §5); authenticated by the one-time token. */
export const enrolmentRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    paths.devices.enrol,
    {
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['devices'],
        summary: 'Enrol a phone with the token from its QR; returns MQTT credentials',
        body: ZEnrolDeviceRequest,
        response: { 200: zEnvelope(ZEnrolDeviceResponse) },
      },
    },
    async (request) =>
      ok(
        await enrolDevice(ctx, { request: request.body, baseUrl: publicBaseUrl(ctx.config, request) }),
        'Enrolled',
      ),
  );
};
