import { z } from 'zod';
import { COMMAND_NAMES, COMMAND_STATES } from '../common/enums';
import { ZImei } from '../common/identifiers';

/** A command as the API shows it (design §5 lifecycle). Times are ISO 8601 UTC. */
export const ZDeviceCommand = z.object({
  id: z.string().uuid(),
  name: z.enum(COMMAND_NAMES),
  state: z.enum(COMMAND_STATES),
  createdAt: z.string(),
  updatedAt: z.string(),
  error: z.string().nullable(),
});
export type TDeviceCommand = z.infer<typeof ZDeviceCommand>;

/** A device's reported state and newest pending command, as customer screens show it. */
export const ZDeviceSummary = z.object({
  id: z.string().uuid(),
  /** Set once the device has enrolled (customer status install). ISO 8601 UTC. */
  enrolledAt: z.string().nullable(),
  /** Reported lock status, spec §4: 1 locked, 0 unlocked. */
  lockStatus: z.number().int(),
  lastSeenAt: z.string().nullable(),
  isOnline: z.boolean(),
  /** The newest command still on its way (queued, sent or received), if any. */
  pendingCommand: ZDeviceCommand.nullable(),
  /** The newest command in any state, so a screen can tell how a command it sent ended. */
  lastCommand: ZDeviceCommand.nullable(),
});
export type TDeviceSummary = z.infer<typeof ZDeviceSummary>;

export const ZDeviceCommandRequest = z.object({ customer_id: z.number().int().positive() });
export type TDeviceCommandRequest = z.infer<typeof ZDeviceCommandRequest>;

/** Device → server enrolment call (design §5). */
export const ZEnrolDeviceRequest = z.object({
  /** The one-time token from the QR's admin extras bundle. */
  token: z.string().min(16),
  imei1: ZImei,
  imei2: ZImei,
});
export type TEnrolDeviceRequest = z.infer<typeof ZEnrolDeviceRequest>;

export const ZEnrolDeviceResponse = z.object({
  deviceId: z.string().uuid(),
  /** MQTT password; shown once, stored hashed on the server. */
  deviceSecret: z.string(),
  /** Broker URL, e.g. ws://host:8080/mqtt. */
  mqttUrl: z.string(),
  cmdTopic: z.string(),
  evtTopic: z.string(),
});
export type TEnrolDeviceResponse = z.infer<typeof ZEnrolDeviceResponse>;
