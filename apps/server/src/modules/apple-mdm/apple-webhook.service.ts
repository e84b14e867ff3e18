import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { type PlistValue, parse } from 'plist';
import { z } from 'zod';
import type { TConfig } from '../../config';
import type { Db } from '../../db/client';
import { sha256Hex } from '../../lib/crypto';
import { insertAudit } from '../audit/audit.repository';
import { recordStatusChange } from '../customers/customers.service';
import type { DeviceRow } from '../devices/devices.service';
import { recordEnrolment } from '../devices/enrolment.service';
import { controlsOfRestrictions, NO_RESTRICTIONS, type TRestrictions } from './apple-commands';
import {
  plistToJson,
  reportAck,
  reportApplied,
  reportedStateOf,
  simsOf,
  type TDeviceEventSink,
} from './apple-events';
import * as repo from './apple-mdm.repository';
import { ENROLMENT_TOKEN_PARAM } from './enrolment-profile';

/** NanoMDM's webhook body (service/webhook/event.json, MicroMDM-compatible): one check-in or one command report. */
export const ZNanoMdmWebhookEvent = z.object({
  topic: z.string().min(1).max(64),
  event_id: z.string().max(200).optional(),
  created_at: z.string().max(64),
  acknowledge_event: z
    .object({
      udid: z.string().max(100).optional(),
      enrollment_id: z.string().max(200).optional(),
      command_uuid: z.string().max(100).optional(),
      status: z.string().min(1).max(40),
      raw_payload: z.string().max(2_000_000),
      url_params: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  checkin_event: z
    .object({
      udid: z.string().max(100).optional(),
      enrollment_id: z.string().max(200).optional(),
      raw_payload: z.string().max(2_000_000),
      url_params: z.record(z.string(), z.string()).optional(),
      token_update_tally: z.number().int().optional(),
    })
    .optional(),
});
export type TNanoMdmWebhookEvent = z.infer<typeof ZNanoMdmWebhookEvent>;

/** What Kisht did with a webhook event (for the response and tests). */
export type TWebhookOutcome = 'bound' | 'enrolled' | 'checked_out' | 'recorded' | 'ignored';

type TWebhookDeps = {
  db: Db;
  config: TConfig;
  events: TDeviceEventSink;
  log: { warn: (o: object, m: string) => void };
};

/**
 * True when `signature` is NanoMDM's X-Hmac-Signature of `rawBody`: base64 HMAC-SHA256 under
 * `secret` (NanoMDM -webhook-hmac-key), compared in constant time.
 */
export const isValidWebhookSignature = (secret: string, rawBody: Buffer, signature: string | undefined) => {
  if (!signature) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
};

/** A report's plist (raw_payload, base64) as a dict, or {} when it is not one. */
const decodePayload = (raw: string): Record<string, PlistValue> => {
  try {
    const value = parse(Buffer.from(raw, 'base64').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)
      ? (value as Record<string, PlistValue>)
      : {};
  } catch {
    return {};
  }
};

const text = (value: PlistValue | undefined): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** Apple's error text of a failed command: its ErrorChain's descriptions, else the status. */
const errorTextOf = (status: string, report: Record<string, PlistValue>): string => {
  const chain = Array.isArray(report.ErrorChain) ? report.ErrorChain : [];
  const texts = chain.flatMap((item) => {
    const e = (item ?? {}) as Record<string, PlistValue>;
    const description = text(e.USEnglishDescription) ?? text(e.LocalizedDescription);
    const code = typeof e.ErrorCode === 'number' ? ` (${text(e.ErrorDomain) ?? 'error'} ${e.ErrorCode})` : '';
    return description ? [`${description}${code}`] : [];
  });
  return `Apple MDM ${status}${texts.length ? `: ${texts.join('; ')}` : ''}`.slice(0, 500);
};

/**
 * Handles one NanoMDM webhook call (POST paths.apple.webhook). With NANOMDM_WEBHOOK_SECRET set the
 * X-Hmac-Signature must match (else 401 MDM_WEBHOOK_SIGNATURE_INVALID, nothing written). Then:
 * - mdm.Authenticate: the enrolment token in url_params (the profile's ServerURL query) names the
 *   customer's device, whose serial number must match the phone's: the UDID is tied to it;
 * - mdm.TokenUpdate: the tied device enrols (enrolled_at, a fresh unlocked policy, customer status
 *   1 install, audited), as an MQTT phone does at /api/device/enrol; the key its QR reserved is spent then;
 * - mdm.CheckOut (the MDM profile was removed): a pending release (uninstall) is confirmed, else
 *   the customer moves to status 4 (apple_removed, spec §4), audited;
 * - mdm.Connect: a command report, found by CommandUUID in mdm_commands; Acknowledged → the
 *   device command done with its result, Error/CommandFormatError → failed with Apple's error
 *   text, NotNow → received (NanoMDM retries it), Idle → ignored.
 * Events for unknown phones or commands are acknowledged and ignored (NanoMDM does not retry).
 * Throws VALIDATION_FAILED (400, naming the field) for a body that is not such an event.
 */
export const handleNanoMdmWebhook = async (
  deps: TWebhookDeps,
  options: { rawBody: Buffer; signature: string | undefined },
): Promise<TWebhookOutcome> => {
  const secret = deps.config.NANOMDM_WEBHOOK_SECRET;
  if (secret && !isValidWebhookSignature(secret, options.rawBody, options.signature)) {
    throw new AppError(AppErrorCode.MDM_WEBHOOK_SIGNATURE_INVALID, 'Invalid X-Hmac-Signature', [
      { field: 'X-Hmac-Signature', message: 'Not the HMAC-SHA256 of the body under the webhook key' },
    ]);
  }
  let json: unknown;
  try {
    json = JSON.parse(options.rawBody.toString('utf8'));
  } catch {
    throw new AppError(AppErrorCode.VALIDATION_FAILED, 'The body is not JSON', [
      { field: 'body', message: 'Not JSON' },
    ]);
  }
  const parsed = ZNanoMdmWebhookEvent.safeParse(json);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => ({
      field: issue.path.join('.') || 'body',
      message: issue.message,
    }));
    throw new AppError(
      AppErrorCode.VALIDATION_FAILED,
      `Invalid ${fields.map((f) => f.field).join(', ')}`,
      fields,
    );
  }
  const event = parsed.data;
  if (event.topic === 'mdm.Connect') {
    if (!event.acknowledge_event) throw missing('acknowledge_event');
    return recordReport(deps, event.acknowledge_event);
  }
  if (!['mdm.Authenticate', 'mdm.TokenUpdate', 'mdm.CheckOut'].includes(event.topic)) return 'ignored';
  if (!event.checkin_event) throw missing('checkin_event');
  const checkin = event.checkin_event;
  const report = decodePayload(checkin.raw_payload);
  const udid = checkin.udid ?? text(report.UDID);
  if (!udid) return 'ignored';
  if (event.topic === 'mdm.CheckOut') return checkOut(deps, udid);
  const device = await tieDevice(deps, { udid, report, token: checkin.url_params?.[ENROLMENT_TOKEN_PARAM] });
  if (!device) return 'ignored';
  if (event.topic === 'mdm.Authenticate') return 'bound';
  return (await enrolAppleDevice(deps, device, udid)) ? 'enrolled' : 'recorded';
};

const missing = (field: string) =>
  new AppError(AppErrorCode.VALIDATION_FAILED, `Invalid ${field}`, [
    { field, message: 'Required for this topic' },
  ]);

/**
 * The device a check-in is about: the one already tied to the UDID, else the one whose unexpired
 * enrolment token came in url_params, when the phone's serial number matches the customer's
 * record (a mismatch is audited and ignored: another phone must not enrol as the customer's).
 */
const tieDevice = async (
  deps: TWebhookDeps,
  options: { udid: string; report: Record<string, PlistValue>; token: string | undefined },
): Promise<DeviceRow | null> => {
  const tied = await repo.findAppleDeviceByUdid(deps.db, options.udid);
  if (tied) return tied;
  if (!options.token) return null;
  const device = await repo.findAppleDeviceByTokenHash(deps.db, sha256Hex(options.token));
  if (!device || device.enrolledAt) return null;
  // Only a check-in that names the phone's serial number (Authenticate does) can tie it.
  const serial = text(options.report.SerialNumber);
  if (device.serialNumber && !serial) return null;
  if (device.serialNumber && serial && device.serialNumber.toUpperCase() !== serial.toUpperCase()) {
    await insertAudit(deps.db, {
      orgId: device.orgId,
      action: 'apple.serial_mismatch',
      entity: 'customer',
      entityId: String(device.customerId),
      details: { deviceId: device.id, udid: options.udid, reported: serial, expected: device.serialNumber },
    });
    deps.log.warn({ deviceId: device.id }, 'Apple enrolment with another serial number ignored');
    return null;
  }
  if (!(await repo.bindUdid(deps.db, device.id, options.udid))) return null;
  return { ...device, mdmId: options.udid };
};

/** The first TokenUpdate: the phone can be pushed to, so it is enrolled. False when it already was. */
const enrolAppleDevice = async (deps: TWebhookDeps, device: DeviceRow, udid: string): Promise<boolean> =>
  deps.db.transaction(async (tx) => {
    const isNew = await repo.markAppleDeviceEnrolled(tx, device.id, new Date());
    if (!isNew) return false;
    await recordEnrolment(tx, device, { channel: 'apple_mdm', udid });
    return true;
  });

/** CheckOut: the MDM profile is gone. A pending release is confirmed by it; else status 4. */
const checkOut = async (deps: TWebhookDeps, udid: string): Promise<TWebhookOutcome> => {
  const device = await repo.findAppleDeviceByUdid(deps.db, udid);
  if (!device?.enrolledAt) return 'ignored';
  const release = await repo.findPendingCommandNamed(deps.db, device.id, 'uninstall');
  if (release && release.state !== 'queued') {
    await reportAck(deps.events, device, {
      commandId: release.id,
      status: 'done',
      state: reportedStateOf(device, { isLocked: false, controls: { lost_mode: false } }),
    });
    await repo.markAppleDeviceCheckedOut(deps.db, device.id);
    return 'checked_out';
  }
  await deps.db.transaction(async (tx) => {
    await repo.markAppleDeviceCheckedOut(tx, device.id);
    await recordStatusChange(tx, {
      orgId: device.orgId,
      customerId: device.customerId,
      event: 'profile_removed',
      actorUserId: null,
      reason: 'The Apple MDM profile was removed from the iPhone (CheckOut)',
    });
    await insertAudit(tx, {
      orgId: device.orgId,
      action: 'apple.checkout',
      entity: 'customer',
      entityId: String(device.customerId),
      details: { deviceId: device.id, udid },
    });
  });
  return 'checked_out';
};

type TAcknowledgeEvent = NonNullable<TNanoMdmWebhookEvent['acknowledge_event']>;

/** A command report (mdm.Connect): see handleNanoMdmWebhook. */
const recordReport = async (deps: TWebhookDeps, ack: TAcknowledgeEvent): Promise<TWebhookOutcome> => {
  if (ack.status === 'Idle' || !ack.command_uuid) return 'ignored';
  const row = await repo.findMdmCommand(deps.db, ack.command_uuid);
  const udid = ack.udid ?? ack.enrollment_id;
  if (!row) return 'ignored';
  const device = udid ? await repo.findAppleDeviceByUdid(deps.db, udid) : null;
  // A report names the phone it came from: another phone's command UUID changes nothing.
  if (!device || device.id !== row.deviceId) return 'ignored';
  // A phone that answers a command has its enrolment at NanoMDM, push token included: when its
  // TokenUpdate never reached Kisht (a lost webhook; the reconciliation asked it), it enrols now.
  if (!device.enrolledAt && udid) await enrolAppleDevice(deps, device, udid);
  const report = decodePayload(ack.raw_payload);
  if (ack.status === 'NotNow') {
    await repo.updateMdmCommand(deps.db, row.id, { status: 'not_now' });
    if (row.commandId)
      await reportAck(deps.events, device, {
        commandId: row.commandId,
        status: 'received',
        state: reportedStateOf(device, {}),
      });
    return 'recorded';
  }
  if (ack.status !== 'Acknowledged') {
    const error = errorTextOf(ack.status, report);
    await repo.updateMdmCommand(deps.db, row.id, { status: 'error', result: { status: ack.status, error } });
    if (row.commandId)
      await reportAck(deps.events, device, {
        commandId: row.commandId,
        status: 'failed',
        error,
        state: reportedStateOf(device, {}),
      });
    return 'recorded';
  }
  const outcome = resultOf(row, report, device);
  // The bypass code is kept only on the mdm_commands row (never in the history, logs or audit).
  await repo.updateMdmCommand(deps.db, row.id, { status: 'acknowledged', result: outcome.stored });
  if (outcome.info) await repo.setMdmInfo(deps.db, device.id, outcome.info, new Date());
  const state = reportedStateOf(device, {
    ...outcome.state,
    ...(row.policyVersion === null ? {} : { policyVersion: row.policyVersion }),
  });
  if (row.commandId) {
    await reportAck(deps.events, device, {
      commandId: row.commandId,
      status: 'done',
      ...(outcome.result ? { result: outcome.result } : {}),
      state,
    });
  } else if (row.policyVersion !== null) {
    await reportApplied(deps.events, device, row.policyVersion, state);
  }
  return 'recorded';
};

/**
 * What an acknowledged Apple command means for Kisht: the result the device command keeps (the
 * history shows it), the state the phone is now in, what goes to devices.mdm_info, and what the
 * mdm_commands row stores.
 */
const resultOf = (
  row: repo.MdmCommandRow,
  report: Record<string, PlistValue>,
  device: DeviceRow,
): {
  result?: Record<string, unknown>;
  state: Parameters<typeof reportedStateOf>[1];
  info?: Record<string, unknown>;
  stored: Record<string, unknown>;
} => {
  // The Restrictions profile (apple-bridge): its row keeps what the profile holds; the phone now holds it.
  if (row.result?.profile === repo.RESTRICTIONS_PROFILE_MARK) {
    const restrictions = (row.result.restrictions as TRestrictions | undefined) ?? NO_RESTRICTIONS;
    return {
      state: {
        controls: controlsOfRestrictions(
          row.requestType === 'RemoveProfile' ? NO_RESTRICTIONS : restrictions,
        ),
      },
      stored: row.result,
    };
  }
  switch (row.requestType) {
    case 'DeviceLock':
      // Locked while Kisht still wants it: a lock cancelled meanwhile is shown unlocked (the
      // owner's passcode opens an iOS DeviceLock).
      return {
        state: { isLocked: device.desiredLocked },
        stored: { MessageResult: text(report.MessageResult) ?? null },
      };
    case 'EnableLostMode':
      return { state: { controls: { lost_mode: true } }, stored: {} };
    case 'DisableLostMode':
      return { state: { controls: { lost_mode: false } }, stored: {} };
    case 'DeviceLocation': {
      const latitude = report.Latitude;
      const longitude = report.Longitude;
      if (typeof latitude !== 'number' || typeof longitude !== 'number') return { state: {}, stored: {} };
      const accuracy = report.HorizontalAccuracy;
      const at = report.Timestamp instanceof Date ? report.Timestamp.toISOString() : text(report.Timestamp);
      const fix = {
        latitude: String(latitude),
        longitude: String(longitude),
        ...(typeof accuracy === 'number' && accuracy >= 0 ? { accuracyM: accuracy } : {}),
        at: at ?? new Date().toISOString(),
      };
      return { result: fix, state: {}, stored: fix };
    }
    case 'DeviceInformation': {
      const responses = (report.QueryResponses ?? {}) as Record<string, PlistValue>;
      const info = plistToJson(responses) as Record<string, unknown>;
      const sims = simsOf(info.ServiceSubscriptions);
      const lostMode = info.IsMDMLostModeEnabled;
      return {
        result: sims ? { sims, osVersion: info.OSVersion ?? null } : { osVersion: info.OSVersion ?? null },
        state: {
          ...(sims ? { sims } : {}),
          ...(typeof lostMode === 'boolean' ? { controls: { lost_mode: lostMode } } : {}),
        },
        info,
        stored: {},
      };
    }
    case 'InstallApplication':
      return {
        result: { identifier: text(report.Identifier) ?? null, state: text(report.State) ?? null },
        state: {},
        stored: { Identifier: text(report.Identifier) ?? null, State: text(report.State) ?? null },
      };
    case 'ActivationLockBypassCode':
      return {
        result: { bypassCodeStored: Boolean(text(report.ActivationLockBypassCode)) },
        state: {},
        stored: { ActivationLockBypassCode: text(report.ActivationLockBypassCode) ?? null },
      };
    case 'RemoveProfile':
      return { state: { isLocked: false, controls: { lost_mode: false } }, stored: {} };
    default:
      return { state: {}, stored: {} };
  }
};
