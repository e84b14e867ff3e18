import { z } from 'zod';
import { ZId } from '../common/identifiers';

/**
 * apple_details (spec §2; issue 15): what an iPhone's MDM enrolment last reported through NanoMDM
 * (Apple DeviceInformation QueryResponses), for the retailer's customer. Every reported field is
 * null until the phone answered a DeviceInformation (apple_request_sync). Times are ISO 8601 UTC.
 */
export const ZAppleDetails = z.object({
  customerId: ZId,
  /** NanoMDM's enrolment id (the UDID), null until the phone enrolled. */
  udid: z.string().nullable(),
  /** When the phone enrolled (its first TokenUpdate), or null. */
  enrolledAt: z.string().nullable(),
  /** When the phone checked out (the MDM profile was removed: status 4), or null. */
  profileRemovedAt: z.string().nullable(),
  /** The serial number on the customer's record. */
  serialNumber: z.string().nullable(),
  /** What the phone reported (DeviceInformation), null before its first answer. */
  reported: z
    .object({
      deviceName: z.string().nullable(),
      modelName: z.string().nullable(),
      productName: z.string().nullable(),
      osVersion: z.string().nullable(),
      serialNumber: z.string().nullable(),
      /** IMEIs, from ServiceSubscriptions (iOS 16+) or the older top-level IMEI. */
      imeis: z.array(z.string()),
      isSupervised: z.boolean().nullable(),
      isLostModeEnabled: z.boolean().nullable(),
      isActivationLockEnabled: z.boolean().nullable(),
      /** 0–100 %, null when unknown. */
      batteryPercent: z.number().nullable(),
      at: z.string(),
    })
    .nullable(),
  /** The newest DeviceInformation request (apple_request_sync) and its state, or null. */
  lastSync: z
    .object({ commandId: z.string(), state: z.string(), createdAt: z.string(), updatedAt: z.string() })
    .nullable(),
  /**
   * When the phone's Activation Lock bypass code (disable_activation_lock) was last stored, or null.
   * The code itself is never shown: it stays on the server for clearing Activation Lock.
   */
  activationLockBypassCodeStoredAt: z.string().nullable(),
});
export type TAppleDetails = z.infer<typeof ZAppleDetails>;

/** appleCustomerByKegenUpdate: correct an Apple customer's serial number before enrolment. */
export const ZAppleCustomerUpdateRequest = z.object({
  customer_id: ZId,
  serial_number: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{8,14}$/i, 'Enter the serial number from Settings → General → About'),
});
export type TAppleCustomerUpdateRequest = z.input<typeof ZAppleCustomerUpdateRequest>;
