import { DeviceType } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { androidManagementContract, type TAmapiSyncResult } from '@kisht/domain/contract/android-management';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { findCustomerForActor, findCustomerOfFamily } from '../scope/scope.service';
import { AndroidManagementBridge } from './android-management.service';

/**
 * Managed-Android routes (issue 15): POST amapi_sync asks the Android Management API now about one
 * customer's phone. 404 for a customer outside the actor's scope, 409 NOT_FOR_THIS_DEVICE_FAMILY
 * for a customer not of device_type 1, 503 MDM_UNAVAILABLE when the API is not configured or fails.
 */
export const androidManagementRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...contractRoute(androidManagementContract.sync, {
      tags: ['devices'],
      summary:
        "Ask Google's Android Management API whether the customer's managed-Android phone enrolled (or was deleted)",
    }),
    handler: async (request) => {
      const { customer, device } = await findCustomerOfFamily(
        ctx.db,
        request.actor,
        request.body.customer_id,
        {
          deviceType: DeviceType.MANAGED_ANDROID_API,
          message: 'This customer is not a managed-Android (Android Management API) customer',
          fieldMessage: 'Not a device type 1 customer',
        },
      );
      const bridge = ctx.dispatcher.bridges.android_management;
      if (!(bridge instanceof AndroidManagementBridge)) {
        throw new AppError(
          AppErrorCode.MDM_UNAVAILABLE,
          'Android Management API is not set up for this server',
        );
      }
      await bridge.syncDevices([device.id]);
      const after = await findCustomerForActor(ctx.db, request.actor, customer.id);
      const info = after.device.mdmInfo as { state?: string | null } | null;
      return ok<TAmapiSyncResult>({
        customerId: customer.id,
        status: after.customer.status,
        isEnrolled: after.device.enrolledAt !== null,
        mdmId: after.device.mdmId,
        state: after.device.mdmId ? (info?.state ?? null) : null,
      });
    },
  });
};
