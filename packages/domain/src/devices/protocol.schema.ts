import { z } from 'zod';
import { LOCK_REASON_CATEGORIES } from './lock-reasons';
import { OFFLINE_CODE_ACTIONS } from './offline-code';

/**
 * The device channel wire format (design §5, docs/device-protocol.md), version 2. Server → device
 * messages go to `cmdTopic(deviceId)`, each a signed envelope (ZSignedMessage) around one
 * ZServerMessage; device → server events go to `evtTopic(deviceId)`; both QoS 1, JSON. The topic
 * layout (`kisht/v1/…`) is unchanged since version 1.
 */
export const PROTOCOL_VERSION = 2;
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

/** A command id: a UUID (the server gives UUIDv7, time-ordered). */
const ZCommandId = z.string().uuid();

/**
 * The envelope of every server → device message (docs/device-protocol.md §5): `body` is the JSON
 * text of one ZServerMessage, `sig` the Ed25519 signature (RFC 8032, base64url without padding) of
 * body's UTF-8 bytes with the organisation's server key `kid`, whose public half the device got at
 * enrolment. The device verifies before it parses `body`, and refuses anything else.
 */
export const ZSignedMessage = z.object({
  v: z.literal(PROTOCOL_VERSION),
  /** Key id of the signing key (ZServerKey.kid). */
  kid: z.string().min(1).max(64),
  /** Ed25519 signature of `body`, base64url, no padding (64 bytes → 86 characters). */
  sig: z.string().regex(/^[A-Za-z0-9_-]{86}$/),
  /** The signed message as JSON text (ZServerMessage). */
  body: z.string().min(2).max(65_536),
});
export type TSignedMessage = z.infer<typeof ZSignedMessage>;

/** Arguments of a toggle's `on` command in effect (see COMMAND_CATALOGUE), e.g. { packages }. */
const ZControlArgs = z.record(z.string(), z.unknown());

/** One toggle feature in a policy: on or off, and the `on` command's arguments while on. */
export const ZPolicyControl = z.object({
  on: z.boolean(),
  args: ZControlArgs.optional(),
});
export type TPolicyControl = z.infer<typeof ZPolicyControl>;

/** Longest "how to pay" text a lock screen carries (the organisation's lockScreenText), characters. */
export const LOCK_SCREEN_TEXT_MAX = 300;

/**
 * What a locked phone shows (device protocol §9.2), made by the server with every lock: whom to
 * call and pay, what was overdue when the lock was made, how to pay, and the promise that
 * emergency calls always work. `emergencyCalls` is always true and the phone must honour it: a
 * locked phone always lets the user call the emergency number (112), with or without a SIM.
 */
export const ZLockScreen = z.object({
  /**
   * Why the phone is locked (issue 25): the lock's reason category, whose headline the screen shows
   * first (lockScreenLines). Left out by an older server: a generic headline.
   */
  reason: z.enum(LOCK_REASON_CATEGORIES).optional(),
  /** The retailer who financed the phone. */
  retailerName: z.string().min(1).max(120),
  /** The retailer's phone, E.164 (+91XXXXXXXXXX). */
  retailerPhone: z.string().min(8).max(16),
  /**
   * What was overdue when the lock was made: the unpaid part of the instalments due before that
   * day (+05:30), paise; 0 when nothing was. The screen shows it, and how to pay, only when above 0.
   */
  overduePaise: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  /** How to pay (the organisation's text: a UPI id, a shop address…), or null when it set none. */
  howToPay: z.string().max(LOCK_SCREEN_TEXT_MAX).nullable(),
  /** Always true: emergency calls work on a locked phone, whatever else is blocked. */
  emergencyCalls: z.literal(true),
});
export type TLockScreen = z.infer<typeof ZLockScreen>;

/**
 * What the phone should be (design §5): the lock state, every toggle feature of spec §6 by its
 * COMMAND_CATALOGUE feature name (`lock` is `locked`, not a control; a feature left out is off),
 * the offline limit, and what the lock screen shows.
 */
export const ZPolicy = z.object({
  locked: z.boolean(),
  controls: z.record(z.string(), ZPolicyControl),
  /**
   * The offline limit (device protocol §12.2): after this many ms without a check-in the phone
   * locks itself; null: never. Left out: keep the one the phone has (from enrolment).
   */
  offlineLockAfterMs: z.number().int().positive().nullable().optional(),
  /**
   * The paid-through date (device protocol §12.5, issue 29), ISO 8601 UTC: once it passes the
   * phone locks itself, even offline (paid-through.ts paidThroughLockAt); null: no date, the phone
   * never locks itself for it (a paid-up loan). Left out: none (an older server).
   */
  paidThrough: z.string().datetime({ offset: true }).nullable().optional(),
  /**
   * What the lock screen shows (device protocol §9.2), from the newest lock; null: none yet (show
   * the retailer of the enrol answer). Left out: keep the one the phone has.
   */
  lockScreen: ZLockScreen.nullable().optional(),
});
export type TPolicy = z.infer<typeof ZPolicy>;

/** The policy a new device holds before its first: version 0, unlocked, every feature off. */
export const INITIAL_POLICY: TPolicy = { locked: false, controls: {} };

/**
 * A version of a device's policy. `version` grows by one with every change on the server and never
 * goes back; a device applies a policy only when its version is above the one it holds.
 * `commands` are the pending lock/unlock and toggle commands this version carries out: the device
 * acks each (received, then done or failed) once it applied the version, so each command's history
 * ends. `issuedAt` is when the server made this version (ISO 8601 UTC).
 */
export const ZPolicyVersion = z.object({
  version: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  policy: ZPolicy,
  commands: z.array(z.object({ id: ZCommandId, name: z.string().min(1).max(64) })).max(100),
  issuedAt: z.string(),
});
export type TPolicyVersion = z.infer<typeof ZPolicyVersion>;

/** Every body names the device it is for; a device refuses a message for another. */
const ZForDevice = { deviceId: z.string().min(1).max(64) };

/** The device's desired state, newest version (docs/device-protocol.md §6). */
export const ZPolicyMessage = z.object({ type: z.literal('policy'), ...ZForDevice, ...ZPolicyVersion.shape });
export type TPolicyMessage = z.infer<typeof ZPolicyMessage>;

/**
 * A one-shot action (reboot, location, sim_info, emi_alert, change_pin, uninstall, …; docs §7).
 * `id` is applied at most once. The device drops it, acking `dropped`, once its (server-corrected)
 * clock is past `notAfter`, or when a `cancel` for it came first. It is applied only after the
 * device applied policy `policyVersion`, the version in force when it was issued. `name` is one of
 * COMMAND_NAMES today, but devices must accept any name and answer an unknown one with a failed
 * ack, so an older device never leaves a newer command pending forever.
 */
export const ZCommandMessage = z.object({
  type: z.literal('command'),
  ...ZForDevice,
  id: ZCommandId,
  name: z.string().min(1).max(64),
  args: z.record(z.string(), z.unknown()).default({}),
  /** ISO 8601 UTC. */
  issuedAt: z.string(),
  /** ISO 8601 UTC: not to be applied after this. */
  notAfter: z.string(),
  policyVersion: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});
export type TCommandMessage = z.infer<typeof ZCommandMessage>;

/** The server cancelled command `id`: the device must not apply it (acks `dropped` if it had not). */
export const ZCancelMessage = z.object({
  type: z.literal('cancel'),
  ...ZForDevice,
  id: ZCommandId,
  issuedAt: z.string(),
});
export type TCancelMessage = z.infer<typeof ZCancelMessage>;

/**
 * The server's answer to a hello (docs §6): the current policy and the ids of the commands still
 * pending, for the connection that said hello. A device applies nothing that arrived on a
 * connection before its sync: then it applies the newest policy it has; of the commands it held,
 * those listed here follow the sync again, and those not listed are left unapplied (cancelled,
 * expired or finished while it was away; one written after the list was read is re-sent by the
 * server's re-send of unacknowledged commands).
 * `serverTime` lets a phone with a wrong clock judge `notAfter`.
 */
export const ZSyncMessage = z.object({
  type: z.literal('sync'),
  ...ZForDevice,
  /** The hello's connectionId: a sync for another connection is refused (replay). */
  connectionId: z.string().min(1).max(64),
  /**
   * The seq of the hello it answers: a device that said hello again on the same connection takes
   * only the sync of its latest hello (an older one, replayed, is refused).
   */
  helloSeq: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  /** ISO 8601 UTC, the server's clock when it answered. */
  serverTime: z.string(),
  policy: ZPolicyVersion,
  /** Ids of the one-shot commands still pending, oldest first; they follow the sync. */
  commandIds: z.array(ZCommandId).max(1000),
});
export type TSyncMessage = z.infer<typeof ZSyncMessage>;

/** Every message the server sends to a device, inside a ZSignedMessage. */
export const ZServerMessage = z.discriminatedUnion('type', [
  ZPolicyMessage,
  ZCommandMessage,
  ZCancelMessage,
  ZSyncMessage,
]);
export type TServerMessage = z.infer<typeof ZServerMessage>;

/**
 * The organisation's server key as a device gets it at enrolment: the Ed25519 public key as
 * base64 of its DER SubjectPublicKeyInfo (RFC 8410; Java's X509EncodedKeySpec), and its id.
 */
export const ZServerKey = z.object({
  kid: z.string().min(1).max(64),
  publicKey: z.string().min(40).max(200),
});
export type TServerKey = z.infer<typeof ZServerKey>;

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
  /** The version of the policy the device applied last (0 before its first). */
  policyVersion: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
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

/** Sent on every (re)connect; the server answers with a sync (ZSyncMessage) for this connection. */
export const ZHelloEvent = z.object({
  v: z.literal(PROTOCOL_VERSION),
  type: z.literal('hello'),
  state: ZReportedState,
  at: z.string(),
  seq: ZSeq,
  /** This connection's id; the `gone` will of the same connection repeats it, the sync names it. */
  connectionId: ZConnectionId,
  /**
   * The phone's current FCM registration token, for wake-up pushes when it dozes (device protocol
   * §14). Left out: the server keeps the one it has.
   */
  pushToken: z.string().min(1).max(4096).optional(),
});

/**
 * Acknowledgement of one command (or of a lock/toggle command a policy carried): received on
 * arrival, then done or failed once applied, or dropped when it was not applied because it was
 * stale (past notAfter) or cancelled.
 */
export const ZAckEvent = z.object({
  v: z.literal(PROTOCOL_VERSION),
  type: z.literal('ack'),
  commandId: z.string().uuid(),
  status: z.enum(['received', 'done', 'failed', 'dropped']),
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
 * The device applied a newer policy version (device protocol §6): sent after the acks of the
 * commands the version carries, also when it carries none, so the server knows what the phone
 * holds. `failures` names the features it could not apply (feature → why); state.policyVersion is
 * `version`.
 */
export const ZAppliedEvent = z.object({
  v: z.literal(PROTOCOL_VERSION),
  type: z.literal('applied'),
  version: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  failures: z.record(z.string(), z.string()).optional(),
  state: ZReportedState,
  at: z.string(),
  seq: ZSeq,
  /** The connection the device was on when it sent this (its hello's connectionId). */
  connectionId: ZConnectionId.optional(),
});

/**
 * Data of an 'app_removed' report (issue 15; spec §3 uninstall latitude and longitude, §4 status 3):
 * the link-based app is being removed from the phone (it sees its own uninstall start, or its
 * device-admin rights being withdrawn) and says where the phone is, as its last message. Latitude
 * and longitude are decimal-degree strings (spec §3 location result), or both the string
 * 'Bypassed' when no fix could be had (spec §5 location capture). `at` is ISO 8601 UTC.
 */
export const ZAppRemovedData = z.object({
  latitude: z.string().regex(/^(-?\d{1,3}(\.\d{1,12})?|Bypassed)$/),
  longitude: z.string().regex(/^(-?\d{1,3}(\.\d{1,12})?|Bypassed)$/),
  accuracyM: z.number().nonnegative().optional(),
  at: z.string(),
});
export type TAppRemovedData = z.infer<typeof ZAppRemovedData>;

/** The `data` of an 'offline_lock' report of an accepted offline code (§12.1): the burnt challenge. */
export const ZOfflineCodeLockData = z.object({
  source: z.literal('offline_code'),
  action: z.enum(OFFLINE_CODE_ACTIONS),
  challenge: z.string(),
  at: z.string(),
});

/** The `data` of an 'offline_lock' report of the offline limit's auto-lock (§12.2): the last check-in. */
export const ZOfflineLimitLockData = z.object({
  source: z.literal('offline_limit'),
  action: z.literal('lock'),
  lastCheckInAt: z.string(),
  at: z.string(),
});

/** The `data` of an 'offline_lock' report of the paid-through lock (§12.5): the date that passed. */
export const ZPaidThroughLockData = z.object({
  source: z.literal('paid_through'),
  action: z.literal('lock'),
  paidThrough: z.string(),
  at: z.string(),
});

/**
 * The `data` of an 'offline_lock' report (device protocol §12.3): a lock state the phone changed
 * by itself, by an offline code, its offline limit or its paid-through date; `at` is when, ISO
 * 8601 UTC.
 */
export const ZOfflineLockData = z.discriminatedUnion('source', [
  ZOfflineCodeLockData,
  ZOfflineLimitLockData,
  ZPaidThroughLockData,
]);
export type TOfflineLockData = z.infer<typeof ZOfflineLockData>;

/**
 * Something the device noticed by itself: a SIM change (kind 'sim', data { sims }), a location
 * fix while tracking is on (kind 'location', data TLocationFix), a lock state the phone changed
 * with no network (kind 'offline_lock', data { action: 'lock' | 'unlock', source: 'offline_code'
 * (with challenge) | 'offline_limit' (with lastCheckInAt) | 'paid_through' (with paidThrough), at }), or the link-based app being
 * removed (kind 'app_removed', data TAppRemovedData); see docs/device-protocol.md §12.
 */
export const ZReportEvent = z.object({
  v: z.literal(PROTOCOL_VERSION),
  type: z.literal('report'),
  kind: z.enum(['sim', 'location', 'offline_lock', 'app_removed']),
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

export const ZDeviceEvent = z.discriminatedUnion('type', [
  ZHelloEvent,
  ZAckEvent,
  ZAppliedEvent,
  ZReportEvent,
  ZGoneEvent,
]);
export type TDeviceEvent = z.infer<typeof ZDeviceEvent>;
export type THelloEvent = z.infer<typeof ZHelloEvent>;
export type TAckEvent = z.infer<typeof ZAckEvent>;
export type TAppliedEvent = z.infer<typeof ZAppliedEvent>;
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
  wifiSsid: 'android.app.extra.PROVISIONING_WIFI_SSID',
  wifiPassword: 'android.app.extra.PROVISIONING_WIFI_PASSWORD',
  /** NONE, WPA, WEP or EAP. */
  wifiSecurityType: 'android.app.extra.PROVISIONING_WIFI_SECURITY_TYPE',
  wifiHidden: 'android.app.extra.PROVISIONING_WIFI_HIDDEN',
} as const;
