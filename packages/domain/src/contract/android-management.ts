import { z } from 'zod';
import { ZDeviceCommandRequest } from '../devices/devices.schema';
import { paths } from '../paths';
import { defineRoutes } from './define';

/**
 * amapi_sync's answer: where the customer's managed-Android phone stands after asking the Android
 * Management API (issue 15). `mdmId` is the AMAPI device name; `state` AMAPI's device state.
 */
export const ZAmapiSyncResult = z.object({
  customerId: z.number().int(),
  /** The customer's status after the sync (spec §4: 1 install once enrolled, 3 uninstall once deleted). */
  status: z.number().int(),
  isEnrolled: z.boolean(),
  mdmId: z.string().nullable(),
  /** AMAPI Device.state (ACTIVE, DISABLED, LOST, …), or null before enrolment. */
  state: z.string().nullable(),
});
export type TAmapiSyncResult = z.infer<typeof ZAmapiSyncResult>;

/** The android-management routes of the wire contract (contract/define.ts). */
export const androidManagementContract = defineRoutes({
  /**
   * Ask Google's Android Management API now whether the customer's managed-Android phone
   * (device_type 1) enrolled or was deleted. Session; 404 outside the actor's scope, 409
   * NOT_FOR_THIS_DEVICE_FAMILY for another family, 503 MDM_UNAVAILABLE without the API.
   */
  sync: {
    method: 'POST',
    path: paths.androidManagement.sync,
    body: ZDeviceCommandRequest,
    response: ZAmapiSyncResult,
  },
});
