import { z } from 'zod';

/**
 * The device channel wire format (design §5, docs/device-protocol.md). Server → device messages go
 * to `cmdTopic(deviceId)`, device → server events to `evtTopic(deviceId)`, both QoS 1, JSON.
 */
export const PROTOCOL_VERSION = 1;
/** Every message of the device channel is published with QoS 1 (at least once). */
export const PROTOCOL_QOS = 1;

/** Topic the device subscribes to for commands. */
export const cmdTopic = (deviceId: string) => `kisht/v1/d/${deviceId}/cmd`;
/** Topic the device publishes events to. */
export const evtTopic = (deviceId: string) => `kisht/v1/d/${deviceId}/evt`;
/** Parses a device id out of a kisht topic, or null. */
export const deviceIdFromTopic = (topic: string): string | null => {
  const match = /^kisht\/v1\/d\/([^/]+)\/(cmd|evt)$/.exec(topic);
  return match ? match[1]! : null;
};

/**
 * A command message. `id` is a UUIDv7; a device applies each id at most once. `name` is one of
 * COMMAND_NAMES today, but devices must accept any name and answer an unknown one with a failed
 * ack, so an older device never leaves a newer command pending forever.
 */
export const ZCommandMessage = z.object({
  v: z.literal(PROTOCOL_VERSION),
  id: z.string().uuid(),
  name: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
  /** ISO 8601 UTC. */
  issuedAt: z.string(),
});
export type TCommandMessage = z.infer<typeof ZCommandMessage>;

/** One SIM slot as the device reads it (sim_info, SIM reports). */
export const ZSimSlot = z.object({
  /** 1-based slot number. */
  slot: z.number().int().min(1).max(4),
  /** ICCID of the card in the slot (18–22 digits, ITU-T E.118), or null for an empty slot. */
  iccid: z
    .string()
    .regex(/^\d{18,22}$/)
    .nullable(),
  /** Operator name as the phone shows it (e.g. "Jio", "Airtel"), or null. */
  operator: z.string().max(60).nullable(),
});
export type TSimSlot = z.infer<typeof ZSimSlot>;

/** A position fix (spec §3 location result: latitude and longitude as strings). */
export const ZLocationFix = z.object({
  latitude: z.string(),
  longitude: z.string(),
  /** Accuracy radius in metres, when known. */
  accuracyM: z.number().nonnegative().optional(),
  /** When the fix was taken, ISO 8601 UTC. */
  at: z.string(),
});
export type TLocationFix = z.infer<typeof ZLocationFix>;

/**
 * What a device reports about itself with every event: its lock state, the on/off state of each
 * toggle feature it has applied (keys are control features, see COMMAND_CATALOGUE), and its SIMs.
 */
export const ZReportedState = z.object({
  isLocked: z.boolean(),
  agentVersion: z.string().optional(),
  /** Toggle features by name, true when the feature's `on` command is in effect. */
  controls: z.record(z.string(), z.boolean()).optional(),
  /** The SIM slots as the phone sees them now. */
  sims: z.array(ZSimSlot).optional(),
});
export type TReportedState = z.infer<typeof ZReportedState>;

/**
 * Orders one device's events (docs/device-protocol.md §4): strictly increasing over everything a
 * device publishes, also across restarts (the reference agent: microseconds since the epoch, one
 * more than the last when the clock has not moved). The server keeps the state of the highest seq
 * it has seen, so events that several server processes handle out of order never roll the state
 * back. Optional: without it events are taken in arrival order.
 */
const ZSeq = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional();

/** Names one MQTT connection of a device: its hello and its last will (`gone`) carry the same id. */
const ZConnectionId = z.string().min(1).max(64);

/** Sent on every (re)connect; the server answers by re-sending every pending command. */
export const ZHelloEvent = z.object({
  v: z.literal(PROTOCOL_VERSION),
  type: z.literal('hello'),
  state: ZReportedState,
  at: z.string(),
  seq: ZSeq,
  /** This connection's id; the `gone` will of the same connection repeats it. */
  connectionId: ZConnectionId.optional(),
});

/** Acknowledgement of one command: received on arrival, then done or failed once applied. */
export const ZAckEvent = z.object({
  v: z.literal(PROTOCOL_VERSION),
  type: z.literal('ack'),
  commandId: z.string().uuid(),
  status: z.enum(['received', 'done', 'failed']),
  error: z.string().optional(),
  /**
   * What a done command produced: `location` → TLocationFix, `sim_info` → { sims: TSimSlot[] };
   * other commands send none.
   */
  result: z.record(z.string(), z.unknown()).optional(),
  state: ZReportedState,
  at: z.string(),
  seq: ZSeq,
  /** The connection the device was on when it sent this (its hello's connectionId). */
  connectionId: ZConnectionId.optional(),
});

/**
 * Something the device noticed by itself: a SIM change (kind 'sim', data { sims }), a location
 * fix while tracking is on (kind 'location', data TLocationFix), or a lock state the phone changed
 * with no network (kind 'offline_lock', data { action: 'lock' | 'unlock', source: 'offline_code'
 * (with challenge) | 'offline_limit' (with lastCheckInAt), at }); see docs/device-protocol.md §12.
 */
export const ZReportEvent = z.object({
  v: z.literal(PROTOCOL_VERSION),
  type: z.literal('report'),
  kind: z.enum(['sim', 'location', 'offline_lock']),
  data: z.record(z.string(), z.unknown()),
  state: ZReportedState,
  at: z.string(),
  seq: ZSeq,
  /** The connection the device was on when it sent this (its hello's connectionId). */
  connectionId: ZConnectionId.optional(),
});

/**
 * The device's MQTT last will, set at connect and published by the broker when the connection
 * ends without a clean disconnect (and by the device itself before a clean one): the connection
 * named is gone. The server marks the device offline only when that connection is still the
 * newest it has heard hello on. `at` is when the connection was opened. Carries no state.
 */
export const ZGoneEvent = z.object({
  v: z.literal(PROTOCOL_VERSION),
  type: z.literal('gone'),
  connectionId: ZConnectionId,
  at: z.string(),
});

export const ZDeviceEvent = z.discriminatedUnion('type', [ZHelloEvent, ZAckEvent, ZReportEvent, ZGoneEvent]);
export type TDeviceEvent = z.infer<typeof ZDeviceEvent>;
export type THelloEvent = z.infer<typeof ZHelloEvent>;
export type TAckEvent = z.infer<typeof ZAckEvent>;
export type TReportEvent = z.infer<typeof ZReportEvent>;
export type TGoneEvent = z.infer<typeof ZGoneEvent>;

/** Keys of the Android provisioning extras bundle that carry Kisht's enrolment data. */
export const PROVISIONING_EXTRAS = {
  enrolmentToken: 'in.kisht.ENROLMENT_TOKEN',
  serverUrl: 'in.kisht.SERVER_URL',
} as const;

/** Android device-owner provisioning keys (Android DevicePolicyManager EXTRA_PROVISIONING_*). */
export const ANDROID_PROVISIONING_KEYS = {
  adminComponent: 'android.app.extra.PROVISIONING_DEVICE_ADMIN_COMPONENT_NAME',
  packageDownloadLocation: 'android.app.extra.PROVISIONING_DEVICE_ADMIN_PACKAGE_DOWNLOAD_LOCATION',
  signatureChecksum: 'android.app.extra.PROVISIONING_DEVICE_ADMIN_SIGNATURE_CHECKSUM',
  leaveSystemAppsEnabled: 'android.app.extra.PROVISIONING_LEAVE_ALL_SYSTEM_APPS_ENABLED',
  adminExtrasBundle: 'android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE',
} as const;
