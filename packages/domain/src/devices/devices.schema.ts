import { z } from 'zod';
import { COMMAND_NAMES, COMMAND_STATES, CONTROL_FEATURES, MESSAGE_FEATURES } from '../common/enums';
import { zPage } from '../common/envelope';
import { ZId, ZImei } from '../common/identifiers';
import { devicePinProblem } from './device-pin';
import { LOCK_REASON_CATEGORIES, LOCK_REASON_MAX, LOCK_REASON_MIN } from './lock-reasons';
import { OFFLINE_CODE_ACTIONS } from './offline-code';
import { MAX_PAID_THROUGH_GRACE_DAYS } from './paid-through';
import { LOCK_SCREEN_TEXT_MAX, ZLocationFix, ZServerKey, ZSimSlot } from './protocol.schema';

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
  /**
   * Reported lock status, spec §4: 1 locked, 0 unlocked; null in customer_details when the actor's
   * lock access `read` flag is '0' (the state is not theirs to see).
   */
  lockStatus: z.number().int().nullable(),
  lastSeenAt: z.string().nullable(),
  isOnline: z.boolean(),
  /**
   * The paid-through date the phone's policy carries (device protocol §12.5, issue 29), ISO 8601
   * UTC: the phone locks itself once it passes, even offline; null: none (paid up, or off).
   */
  paidThrough: z.string().nullable(),
  /** The newest command still on its way (queued, sent or received), if any. */
  pendingCommand: ZDeviceCommand.nullable(),
  /** The newest command in any state, so a screen can tell how a command it sent ended. */
  lastCommand: ZDeviceCommand.nullable(),
  /** Reported on/off state of each toggle feature the device has applied (control feature → on). */
  controls: z.record(z.string(), z.boolean()),
  /** Pending toggle commands by feature: what the screen shows as "Turning on…" (newest per feature). */
  pendingControls: z.record(z.string(), ZDeviceCommand),
  /** What customer_details offers now (spec §6 availability, access flags applied). */
  availability: z.object({
    controls: z.array(z.enum(CONTROL_FEATURES)),
    actions: z.array(z.enum(CONTROL_FEATURES)),
  }),
  /** The newest location fix, or null. */
  lastLocation: ZLocationFix.nullable(),
  /** The SIM slots the device last reported, or null before any report. */
  sims: z.array(ZSimSlot).nullable(),
});
export type TDeviceSummary = z.infer<typeof ZDeviceSummary>;

export const ZDeviceCommandRequest = z.object({ customer_id: ZId });
export type TDeviceCommandRequest = z.infer<typeof ZDeviceCommandRequest>;

/** When a scheduled command goes out: ISO 8601 with offset, 1 minute to 90 days ahead (checked on the server). */
const ZRunAt = z.iso.datetime({ offset: true });

/** lock / unlock: at once, or at `run_at` (a scheduled command). */
export const ZLockUnlockRequest = ZDeviceCommandRequest.extend({ run_at: ZRunAt.optional() });
export type TLockUnlockRequest = z.input<typeof ZLockUnlockRequest>;

/**
 * Why a phone is restricted (issue 25): a category of LOCK_REASON_CATEGORIES. Optional on the
 * wire: with something overdue a restriction without one is for the overdue EMI; with nothing
 * overdue a lock needs one that is not a payment (the command gate, command-rules judgeCommand).
 */
export const ZLockReasonCategory = z.enum(LOCK_REASON_CATEGORIES);

/**
 * A note on why the phone is restricted: free text, trimmed, LOCK_REASON_MIN to LOCK_REASON_MAX
 * characters, required with the category `other`; stored with the command and its audit entry, never
 * matched against patterns and never shown on the phone.
 */
export const ZLockReason = z
  .string()
  .trim()
  .min(LOCK_REASON_MIN, `Say why, in at least ${LOCK_REASON_MIN} characters`)
  .max(LOCK_REASON_MAX, `Keep the reason within ${LOCK_REASON_MAX} characters`);

/** The reason fields of every request that may restrict a phone: the category and a note. */
export const ZReasonFields = {
  reason_category: ZLockReasonCategory.optional(),
  reason: ZLockReason.optional(),
};

/** lock: as ZLockUnlockRequest, with the reason (category and note) of the lock. */
export const ZLockRequest = ZLockUnlockRequest.extend(ZReasonFields);
export type TLockRequest = z.input<typeof ZLockRequest>;

/**
 * A control feature's command (paths.devices.control(feature)): `enable` chooses the on or off
 * command of a toggle (required for toggles, refused for actions); `args` are the feature's
 * arguments (COMMAND_CATALOGUE). `run_at` (ISO 8601 with offset, in the future, within 90 days)
 * schedules it: the command waits, queued, and goes out at that time. `reason_category` and
 * `reason`: why, for a command that restricts the phone (see ZLockReasonCategory).
 */
export const ZDeviceControlRequest = z.object({
  customer_id: ZId,
  enable: z.boolean().optional(),
  args: z.record(z.string(), z.unknown()).optional(),
  run_at: ZRunAt.optional(),
  ...ZReasonFields,
});
export type TDeviceControlRequest = z.input<typeof ZDeviceControlRequest>;

/** One command in a device's history (customer_details): who, when, state, result. */
export const ZCommandHistoryItem = ZDeviceCommand.extend({
  /** The spec §6 control feature, or an issue 16 message feature (customer_message, advertisement). */
  feature: z.enum([...CONTROL_FEATURES, ...MESSAGE_FEATURES]).nullable(),
  args: z.record(z.string(), z.unknown()),
  result: z.record(z.string(), z.unknown()).nullable(),
  createdByName: z.string().nullable(),
  deliveryAttempts: z.number().int(),
  /** When a scheduled command is due, ISO 8601 UTC; null for commands sent at once or already due. */
  runAt: z.string().nullable(),
  /** Bulk request this command belongs to, or null. */
  batchId: z.string().nullable(),
  /** Why the phone was restricted (a restricting command's reason category); else null. */
  reasonCategory: ZLockReasonCategory.nullable().optional(),
  /** The note written with the reason, or null. */
  reason: z.string().nullable().optional(),
});
export type TCommandHistoryItem = z.infer<typeof ZCommandHistoryItem>;

/** offline_command_log: a command waiting for an offline phone, with whose phone it is. */
export const ZOfflineCommand = ZCommandHistoryItem.extend({
  customerId: ZId,
  customerName: z.string(),
});
export type TOfflineCommand = z.infer<typeof ZOfflineCommand>;

/** scheduled_commands: a command waiting for its run_at, with whose phone it is (soonest first). */
export const ZScheduledCommand = ZOfflineCommand;
export type TScheduledCommand = TOfflineCommand;

/** Cancel a pending (queued, sent or received) command of a customer's device. */
export const ZCancelCommandRequest = z.object({
  customer_id: ZId,
  command_id: z.string().uuid(),
});
export type TCancelCommandRequest = z.input<typeof ZCancelCommandRequest>;

/**
 * multiple_device_lock_unlock: lock or unlock many phones in one request. Either `customer_ids`
 * (a selection) or `filter` (every enrolled customer matching it: all, or those with an overdue
 * instalment) names the customers; one transaction creates every command row.
 */
export const ZBulkLockRequest = z
  .object({
    action: z.enum(['lock', 'unlock']),
    customer_ids: z.array(ZId).min(1).max(10_000).optional(),
    filter: z.enum(['all_enrolled', 'overdue']).optional(),
  })
  .refine((r) => (r.customer_ids === undefined) !== (r.filter === undefined), {
    path: ['customer_ids'],
    message: 'Choose customers, or a filter, not both',
  });
export type TBulkLockRequest = z.input<typeof ZBulkLockRequest>;

/** multiple_lock_unlock's preview: what a filter would reach, before anything is sent. */
export const ZBulkPreviewQuery = z.object({
  action: z.enum(['lock', 'unlock']),
  filter: z.enum(['all_enrolled', 'overdue']),
});
export type TBulkPreviewQuery = z.input<typeof ZBulkPreviewQuery>;

/** How many phones a bulk request with this filter would send a command to, and how many it skips. */
export const ZBulkPreview = z.object({
  /** Phones that would get the command. */
  total: z.number().int().nonnegative(),
  /** Customers the filter finds but the request would skip (not enrolled, not available). */
  skipped: z.number().int().nonnegative(),
});
export type TBulkPreview = z.infer<typeof ZBulkPreview>;

/** Progress of one bulk request: counts by command state and each device's state. */
export const ZBulkProgress = z.object({
  batchId: z.string().uuid(),
  action: z.enum(['lock', 'unlock']),
  total: z.number().int(),
  /** How many of the commands are in each state (every COMMAND_STATES key present). */
  counts: z.record(z.enum(COMMAND_STATES), z.number().int()),
  /** Customers the request skipped (not enrolled, or the rules do not allow it), with why. */
  skipped: z.array(z.object({ customerId: ZId, reason: z.string() })),
  items: z.array(
    z.object({
      customerId: ZId,
      customerName: z.string(),
      commandId: z.string().uuid(),
      state: z.enum(COMMAND_STATES),
      error: z.string().nullable(),
    }),
  ),
  /**
   * Every item (false), or only those whose state changed since the `since` asked with (true): the
   * caller keeps the items it has and replaces these by commandId (issue 17: a poll of a 10,000
   * phone request no longer returns 10,000 rows).
   */
  isChangesOnly: z.boolean(),
  /** When this answer was read (ISO 8601, UTC): send it back as `since` on the next poll. */
  cursor: z.iso.datetime(),
});
export type TBulkProgress = z.infer<typeof ZBulkProgress>;

/** GET multiple_device_lock_unlock progress: the batch, and `since` (a cursor of an earlier answer). */
export const ZBulkProgressQuery = z.object({
  batch_id: z.string().uuid(),
  since: z.iso.datetime().optional(),
});
export type TBulkProgressQuery = z.infer<typeof ZBulkProgressQuery>;

// Zod-free (access-defaults.ts) so the web app's start-up reads them without zod; re-exported.
export { DEFAULT_LOCK_ACCESS, DEFAULT_USER_ACCESS } from './access-defaults';

const ZFlag = z.enum(['0', '1']);
/** api/user/user_access: the actor's effective user access flags (spec §6 names and values). */
export const ZUserAccess = z.object({
  feature_access: ZFlag,
  lock_unlock: ZFlag,
  unistall: ZFlag,
  active_deactive: ZFlag,
  bulk_retailer: ZFlag,
});
export type TUserAccess = z.infer<typeof ZUserAccess>;
/** api/config/access-config: the actor's effective lock access flags. */
export const ZLockAccess = z.object({ lock: ZFlag, unlock: ZFlag, read: ZFlag, uninstall: ZFlag });
export type TLockAccess = z.infer<typeof ZLockAccess>;

/** Why a phone is enrolled again (issue 27): what the shop picks on customer_details. */
export const RE_ENROL_REASONS = [
  'factory_reset',
  'replaced_under_warranty',
  'lost_or_stolen',
  'other',
] as const;
export type TReEnrolReason = (typeof RE_ENROL_REASONS)[number];

/**
 * POST paths.devices.reEnrol: revoke the customer's enrolled phone and make them ready for a new
 * QR. `imei1`/`imei2`: the new phone's, when it is another phone (replaced, lost); absent, the same
 * phone enrols again (wiped). `note`: free text, required when the reason is `other`.
 */
export const ZReEnrolRequest = z
  .object({
    customer_id: ZId,
    reason: z.enum(RE_ENROL_REASONS),
    note: z.string().trim().max(200).optional(),
    imei1: ZImei.optional(),
    imei2: ZImei.optional(),
  })
  .superRefine((body, context) => {
    if (body.reason === 'other' && !body.note) {
      context.addIssue({ code: 'custom', path: ['note'], message: 'Say why when the reason is other' });
    }
    if ((body.imei1 === undefined) !== (body.imei2 === undefined)) {
      context.addIssue({
        code: 'custom',
        path: [body.imei1 === undefined ? 'imei1' : 'imei2'],
        message: 'Give both IMEIs of the new phone, or neither',
      });
    }
    if (body.imei1 !== undefined && body.imei1 === body.imei2) {
      context.addIssue({ code: 'custom', path: ['imei2'], message: 'IMEI 2 must differ from IMEI 1' });
    }
  });
export type TReEnrolRequest = z.infer<typeof ZReEnrolRequest>;

/** What a re-enrolment did: the customer is inactive again, ready for a new enrolment QR. */
export const ZReEnrolResponse = z.object({
  customerId: ZId,
  status: z.literal(0),
  /** Commands of the old phone that were still waiting, now cancelled. */
  cancelledCommands: z.number().int().nonnegative(),
  /** True when the old phone was connected and was told to release itself (signed). */
  wasReleaseSent: z.boolean(),
});
export type TReEnrolResponse = z.infer<typeof ZReEnrolResponse>;

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
  /**
   * The organisation's offline limit (design §5): the phone locks itself after this many ms with
   * no check-in. Null or absent: no offline limit.
   */
  offlineLockAfterMs: z.number().int().positive().nullable().optional(),
  /**
   * The organisation's server key (device protocol §5): the device accepts only messages signed
   * with it.
   */
  serverKey: ZServerKey,
  /**
   * The retailer who financed the phone, for its lock screen (device protocol §9.2): who to call
   * and whom to pay. Absent from servers before this field.
   */
  retailer: z
    .object({
      name: z.string().min(1).max(120),
      /** E.164 (+91XXXXXXXXXX). */
      phone: z.string().min(8).max(16),
      /** The retailer's UPI id customers pay EMIs to, when set. */
      upiId: z.string().max(100).optional(),
    })
    .optional(),
});
export type TEnrolDeviceResponse = z.infer<typeof ZEnrolDeviceResponse>;

/** send-otp-to-user: an OTP to the logged-in user's own mobile for a sensitive device action. */
export const ZSendOtpToUserRequest = z.object({ purpose: z.enum(['BYPASS_CODE', 'UNINSTALL']) });
export type TSendOtpToUserRequest = z.input<typeof ZSendOtpToUserRequest>;

/** get_device_bypass_code: the offline unlock code for the challenge a locked phone shows. */
export const ZBypassCodeRequest = z.object({
  customer_id: ZId,
  challenge: z.string().regex(/^\d{6}$/, 'The challenge is the 6 digits the phone shows'),
  otp: z.string().regex(/^\d{6}$/, 'Enter the 6-digit OTP'),
});
export type TBypassCodeRequest = z.input<typeof ZBypassCodeRequest>;

/**
 * offline_lock_unlock: an offline code for lock or unlock; a lock code is a restriction, with the
 * reason fields of a lock (ZReasonFields).
 */
export const ZOfflineLockUnlockRequest = ZBypassCodeRequest.extend({
  action: z.enum(OFFLINE_CODE_ACTIONS),
  ...ZReasonFields,
});
export type TOfflineLockUnlockRequest = z.input<typeof ZOfflineLockUnlockRequest>;

/** An offline code to read out to the customer; `validUntil` ISO 8601 UTC. */
export const ZOfflineCode = z.object({
  code: z.string().regex(/^\d{8}$/),
  action: z.enum(OFFLINE_CODE_ACTIONS),
  challenge: z.string(),
  validUntil: z.string(),
});
export type TOfflineCode = z.infer<typeof ZOfflineCode>;

/** Uninstall the app from a phone (release it), after an OTP of purpose UNINSTALL (spec §4). */
export const ZUninstallRequest = z.object({
  customer_id: ZId,
  otp: z.string().regex(/^\d{6}$/, 'Enter the 6-digit OTP'),
});
export type TUninstallRequest = z.input<typeof ZUninstallRequest>;

/** A SIM change a phone reported (sim_changes, customer_sim_change_details); detectedAt ISO 8601 UTC. */
export const ZSimChange = z.object({
  id: ZId,
  customerId: ZId,
  customerName: z.string(),
  before: z.array(ZSimSlot),
  after: z.array(ZSimSlot),
  detectedAt: z.string(),
});
export type TSimChange = z.infer<typeof ZSimChange>;

export const ZSimChangePage = zPage(ZSimChange);
export type TSimChangePage = z.infer<typeof ZSimChangePage>;

/**
 * change_device_pinV1: a new screen-lock PIN for the customer's phone (devices/device-pin.ts rules),
 * after an OTP of purpose BYPASS_CODE. The PIN is sealed for the phone; it is never stored in clear.
 */
export const ZChangeDevicePinRequest = z.object({
  customer_id: ZId,
  pin: z.string().superRefine((pin, ctx) => {
    const problem = devicePinProblem(pin);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  otp: z.string().regex(/^\d{6}$/, 'Enter the 6-digit OTP'),
  /** A new PIN locks the customer out of their own: the reason fields of a lock (ZReasonFields). */
  ...ZReasonFields,
});
export type TChangeDevicePinRequest = z.input<typeof ZChangeDevicePinRequest>;

const ZHours = z.number().int().min(1).max(720);

/** True when `text` has a control character other than a line break (U+0000–U+001F, U+007F). */
const hasControlCharacter = (text: string): boolean =>
  [...text].some((c) => {
    const code = c.charCodeAt(0);
    return (code < 0x20 && c !== '\n') || code === 0x7f;
  });

/** Fewest characters of an organisation's lock-screen text. */
export const LOCK_SCREEN_TEXT_MIN = 5;
/** Most lines of an organisation's lock-screen text (a phone's lock screen has little room). */
export const LOCK_SCREEN_TEXT_MAX_LINES = 6;

/**
 * The "how to pay" text a locked phone shows (device protocol §9.2 lockScreen.howToPay): a UPI id,
 * a shop address, opening hours. Trimmed, LOCK_SCREEN_TEXT_MIN to LOCK_SCREEN_TEXT_MAX characters,
 * at most LOCK_SCREEN_TEXT_MAX_LINES lines, no control characters but line breaks.
 */
export const ZLockScreenText = z
  .string()
  .trim()
  .min(LOCK_SCREEN_TEXT_MIN, `Write at least ${LOCK_SCREEN_TEXT_MIN} characters, or turn it off`)
  .max(LOCK_SCREEN_TEXT_MAX, `Keep it within ${LOCK_SCREEN_TEXT_MAX} characters`)
  .refine((text) => !hasControlCharacter(text), {
    message: 'Use plain text: letters, digits, punctuation and line breaks',
  })
  .refine((text) => text.split('\n').length <= LOCK_SCREEN_TEXT_MAX_LINES, {
    message: `Keep it within ${LOCK_SCREEN_TEXT_MAX_LINES} lines`,
  });

/**
 * An organisation's device-control settings (device_settings): the spec §6 allowed list (null: the
 * device family's defaults), the offline limit after which phones lock themselves (hours, null:
 * never), the expiry of undelivered commands (hours, null: never), the auto-lock ladder
 * (null: no automatic commands): a reminder wallpaper `reminderDaysBefore` days before a due date,
 * a lock once an instalment is `lockAfterDaysOverdue` days overdue, an unlock when paid; and the
 * text a locked phone shows under the retailer's name and the amount overdue, saying how to pay
 * (null: none).
 */
export const ZDeviceControlSettings = z.object({
  allowedControls: z.array(z.enum(CONTROL_FEATURES)).max(CONTROL_FEATURES.length).nullable(),
  offlineLockAfterHours: ZHours.nullable(),
  commandExpiryHours: ZHours.nullable(),
  autoLock: z
    .object({
      reminderDaysBefore: z.number().int().min(0).max(30).nullable(),
      lockAfterDaysOverdue: z.number().int().min(0).max(90).nullable(),
      autoUnlock: z.boolean(),
    })
    .nullable(),
  lockScreenText: ZLockScreenText.nullable(),
  /**
   * Days after an unpaid instalment's due date before the phone locks itself for its paid-through
   * date, even offline (device protocol §12.5, issue 29); null: the paid-through lock is off.
   * Left out of a change: kept as it is (DEFAULT_PAID_THROUGH_GRACE_DAYS until one is set).
   */
  paidThroughGraceDays: z.number().int().min(0).max(MAX_PAID_THROUGH_GRACE_DAYS).nullable().optional(),
});
export type TDeviceControlSettings = z.infer<typeof ZDeviceControlSettings>;

/**
 * An external broker's HTTP authentication call (EMQX HTTP authenticator; design §5: the broker
 * authenticates the device by id and secret). Sent with `authorization: Bearer BROKER_HOOK_SECRET`.
 */
export const ZBrokerAuthRequest = z.object({
  clientid: z.string().min(1).max(128),
  username: z.string().max(128).default(''),
  password: z.string().max(256).default(''),
});
export type TBrokerAuthRequest = z.input<typeof ZBrokerAuthRequest>;

/** An external broker's HTTP authorisation call: may this client publish or subscribe to `topic`? */
export const ZBrokerAclRequest = z.object({
  clientid: z.string().min(1).max(128),
  username: z.string().max(128).default(''),
  topic: z.string().min(1).max(256),
  action: z.enum(['publish', 'subscribe']),
});
export type TBrokerAclRequest = z.input<typeof ZBrokerAclRequest>;

/**
 * One rule of the client's permissions that an authentication answer carries (EMQX ≥ 5.8 `acl`
 * field of the HTTP authenticator's answer): the broker checks the client's publishes and
 * subscriptions against these without calling the ACL hook (issue 26). Topics with `eq ` are
 * taken literally.
 */
export const ZBrokerAclRule = z.object({
  permission: z.enum(['allow', 'deny']),
  action: z.enum(['publish', 'subscribe', 'all']),
  topic: z.string(),
});

/** The answer the broker expects (EMQX's HTTP hook format), not the API envelope. */
export const ZBrokerHookAnswer = z.object({
  result: z.enum(['allow', 'deny']),
  is_superuser: z.boolean().optional(),
  /** With a device's allowed login: its own topics, and nothing else (see ZBrokerAclRule). */
  acl: z.array(ZBrokerAclRule).optional(),
});
export type TBrokerHookAnswer = z.infer<typeof ZBrokerHookAnswer>;
