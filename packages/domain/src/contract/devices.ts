import { z } from 'zod';
import { ZLoginWithOtpResponse } from '../auth/auth.schema';
import { MESSAGE_FEATURES, type TControlFeature, type TMessageFeature } from '../common/enums';
import { ZCustomerIdQuery, ZEnrolmentQr } from '../customers/customers.schema';
import { COMMAND_CATALOGUE } from '../devices/command-catalogue';
import {
  ZBrokerAclRequest,
  ZBrokerAuthRequest,
  ZBulkLockRequest,
  ZBulkPreview,
  ZBulkPreviewQuery,
  ZBulkProgress,
  ZBulkProgressQuery,
  ZBypassCodeRequest,
  ZCancelCommandRequest,
  ZChangeDevicePinRequest,
  ZCommandHistoryItem,
  ZDeviceCommand,
  ZDeviceCommandRequest,
  ZDeviceControlRequest,
  ZDeviceControlSettings,
  ZEnrolDeviceRequest,
  ZEnrolDeviceResponse,
  ZLockAccess,
  ZLockRequest,
  ZLockUnlockRequest,
  ZOfflineCode,
  ZOfflineCommand,
  ZOfflineLockUnlockRequest,
  ZReEnrolRequest,
  ZReEnrolResponse,
  ZScheduledCommand,
  ZSendOtpToUserRequest,
  ZSimChange,
  ZSimChangePage,
  ZUninstallRequest,
  ZUserAccess,
} from '../devices/devices.schema';
import { deviceControlPath, paths } from '../paths';
import { defineRoutes, routeGroup } from './define';

/**
 * Catalogue features with a path of their own rather than the generic `/api/device/{feature}`:
 * lock and unlock, emi_alert (send_emialert), uninstall (after its OTP), and the issue 16 message
 * features (customer_message, advertisement).
 */
const OWN_PATH_FEATURES = ['lock', 'unlock', 'emi_alert', 'uninstall', ...MESSAGE_FEATURES] as const;

/** A spec §6 control feature sent through its generic route `/api/device/{feature}`. */
export type TControlRouteFeature = Exclude<
  TControlFeature | TMessageFeature,
  (typeof OWN_PATH_FEATURES)[number]
>;

/** Whether a catalogue feature is sent through the generic control route. */
export const isControlRouteFeature = (
  feature: TControlFeature | TMessageFeature,
): feature is TControlRouteFeature => !(OWN_PATH_FEATURES as readonly string[]).includes(feature);

/** The features of the generic control routes, in catalogue order. */
export const CONTROL_ROUTE_FEATURES: readonly TControlRouteFeature[] = COMMAND_CATALOGUE.map(
  (spec) => spec.feature,
).filter(isControlRouteFeature);

/** sim_changes' page (1-based) and page size (at most 100). */
export const ZSimChangesQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type TSimChangesQuery = z.input<typeof ZSimChangesQuery>;

/**
 * The phone-control routes of the wire contract (contract/define.ts): commands, their history,
 * bulk lock, offline codes, enrolment, the device-control settings and the broker's auth hooks.
 * Every route needs a session unless its comment says who else calls it; a customer outside the
 * actor's scope answers 404.
 */
export const devicesContract = defineRoutes({
  /** Lock the customer's phone now, or at run_at (a reason when nothing is overdue). */
  lock: { method: 'POST', path: paths.devices.lock, body: ZLockRequest, response: ZDeviceCommand },
  /** Unlock the customer's phone now, or at run_at. */
  unlock: { method: 'POST', path: paths.devices.unlock, body: ZLockUnlockRequest, response: ZDeviceCommand },
  /**
   * Turn a spec §6 control on or off (a toggle) or run it (an action) on the customer's phone, now
   * or at run_at; one route per feature (`/api/device/{feature}`). The feature's access flags apply.
   */
  control: routeGroup(CONTROL_ROUTE_FEATURES, (feature) => ({
    method: 'POST',
    path: deviceControlPath(feature),
    body: ZDeviceControlRequest,
    response: ZDeviceCommand,
  })),
  /** The phone's commands, newest first (lock.read). */
  history: {
    method: 'GET',
    path: paths.devices.history,
    query: ZCustomerIdQuery,
    response: z.array(ZCommandHistoryItem),
  },
  /** Cancel a command that has not reached the phone yet. */
  cancel: {
    method: 'POST',
    path: paths.devices.cancel,
    body: ZCancelCommandRequest,
    response: ZCommandHistoryItem,
  },
  /** Commands still waiting for phones that are offline, oldest first (lock.read). */
  offlineCommandLog: {
    method: 'GET',
    path: paths.devices.offlineCommandLog,
    response: z.array(ZOfflineCommand),
  },
  /** Commands waiting for their run_at, soonest first (lock.read). */
  scheduledCommands: {
    method: 'GET',
    path: paths.devices.scheduledCommands,
    response: z.array(ZScheduledCommand),
  },
  /** A new screen-lock PIN on the customer's phone, after an OTP of purpose BYPASS_CODE (rate-limited). */
  changeDevicePin: {
    method: 'POST',
    path: paths.devices.changeDevicePin,
    body: ZChangeDevicePinRequest,
    response: ZDeviceCommand,
  },
  /** Lock or unlock many phones (a selection or a filter) in one request (bulk access). */
  bulkLockUnlock: {
    method: 'POST',
    path: paths.devices.bulkLockUnlock,
    body: ZBulkLockRequest,
    response: ZBulkProgress,
  },
  /** How many phones a bulk lock or unlock with this filter would reach; nothing is sent. */
  bulkPreview: {
    method: 'GET',
    path: paths.devices.bulkPreview,
    query: ZBulkPreviewQuery,
    response: ZBulkPreview,
  },
  /** A bulk lock or unlock's progress (with since: only the phones that changed since then). */
  bulkProgress: {
    method: 'GET',
    path: paths.devices.bulkProgress,
    query: ZBulkProgressQuery,
    response: ZBulkProgress,
  },
  /** An OTP (BYPASS_CODE or UNINSTALL) to the actor's own mobile (rate-limited). */
  sendOtpToUser: {
    method: 'POST',
    path: paths.auth.sendOtpToUser,
    body: ZSendOtpToUserRequest,
    response: ZLoginWithOtpResponse,
  },
  /** The offline unlock code for the challenge a phone shows, after an OTP (rate-limited). */
  bypassCode: {
    method: 'POST',
    path: paths.devices.bypassCode,
    body: ZBypassCodeRequest,
    response: ZOfflineCode,
  },
  /** An offline lock or unlock code for the challenge a phone shows, after an OTP (rate-limited). */
  offlineLockUnlock: {
    method: 'POST',
    path: paths.auth.offlineLockUnlock,
    body: ZOfflineLockUnlockRequest,
    response: ZOfflineCode,
  },
  /** Release (uninstall) the customer's phone, after an OTP of purpose UNINSTALL. */
  uninstall: {
    method: 'POST',
    path: paths.devices.uninstall,
    body: ZUninstallRequest,
    response: ZDeviceCommand,
  },
  /** Release the phone of a customer whose EMIs are completed. */
  unclaim: {
    method: 'POST',
    path: paths.devices.unclaim,
    body: ZDeviceCommandRequest,
    response: ZDeviceCommand,
  },
  /** SIM changes of the actor's customers' phones, newest first, a page at a time. */
  simChanges: {
    method: 'GET',
    path: paths.devices.simChanges,
    query: ZSimChangesQuery,
    response: ZSimChangePage,
  },
  /** SIM changes of one customer's phone, newest first. */
  simChangeDetails: {
    method: 'GET',
    path: paths.customers.simChangeDetails,
    query: ZCustomerIdQuery,
    response: z.array(ZSimChange),
  },
  /** The actor's user access flags (spec §6 defaults with the server's overrides). */
  userAccess: { method: 'GET', path: paths.users.userAccess, response: ZUserAccess },
  /** The actor's lock access flags (spec §6 defaults with the server's overrides). */
  lockAccess: { method: 'GET', path: paths.users.lockAccess, response: ZLockAccess },
  /**
   * The phone enrols with the one-time token of its QR and gets its MQTT credentials. Called by the
   * phone, not a user: no session (rate-limited).
   */
  enrol: {
    method: 'POST',
    path: paths.devices.enrol,
    body: ZEnrolDeviceRequest,
    response: ZEnrolDeviceResponse,
  },
  /** A fresh enrolment QR of an inactive customer, for the customer's device family (one-time token). */
  qrCode: { method: 'GET', path: paths.customers.qrCode, query: ZCustomerIdQuery, response: ZEnrolmentQr },
  /** The same enrolment QR as a PNG (512 px), with a fresh one-time token; expiry in x-enrolment-expires-at. */
  qrCodePng: { method: 'GET', path: paths.customers.qrCodePng, query: ZCustomerIdQuery, response: 'file' },
  /**
   * Re-enrol a wiped, replaced or lost phone (issue 27): revoke the old phone, keep the consent and
   * the loan, make the customer inactive for a new enrolment QR.
   */
  reEnrol: { method: 'POST', path: paths.devices.reEnrol, body: ZReEnrolRequest, response: ZReEnrolResponse },
  /** The organisation's device-control settings (retailers only; others 403). */
  getDeviceSettings: { method: 'GET', path: paths.orgs.deviceSettings, response: ZDeviceControlSettings },
  /** Change the device-control settings (retailers only); a new offline limit goes to every phone. */
  saveDeviceSettings: {
    method: 'PUT',
    path: paths.orgs.deviceSettings,
    body: ZDeviceControlSettings,
    response: ZDeviceControlSettings,
  },
  /**
   * The external MQTT broker asks whether a client may connect (EMQX HTTP authentication). Called
   * by the broker with the bearer BROKER_HOOK_SECRET, answered in the broker's terms
   * (TBrokerHookAnswer); 404 on a server without BROKER_HOOK_SECRET.
   */
  brokerAuth: {
    method: 'POST',
    path: paths.devices.brokerAuth,
    body: ZBrokerAuthRequest,
    response: 'protocol',
  },
  /** The external MQTT broker asks whether a client may use a topic (EMQX HTTP authorisation); as brokerAuth. */
  brokerAcl: { method: 'POST', path: paths.devices.brokerAcl, body: ZBrokerAclRequest, response: 'protocol' },
});
