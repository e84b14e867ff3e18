import type { TEnrolChannel } from '@kisht/domain/audit/audit-events';
import { CustomerStatus } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TEnrolmentQr } from '@kisht/domain/customers/customers.schema';
import { enrolmentKindOf, type TEnrolmentKind } from '@kisht/domain/devices/device-families';
import type { TEnrolDeviceRequest, TEnrolDeviceResponse } from '@kisht/domain/devices/devices.schema';
import { deepLinkUrl } from '@kisht/domain/devices/link-enrolment';
import {
  ANDROID_PROVISIONING_KEYS,
  cmdTopic,
  evtTopic,
  PROVISIONING_EXTRAS,
} from '@kisht/domain/devices/protocol.schema';
import { paths } from '@kisht/domain/paths';
import type { TConfig } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { insertAudit } from '../audit/audit.repository';
import { hasRecordedConsent } from '../customers/consent.service';
import { markCustomerInstalled } from '../customers/customers.service';
import { reserveEnrolmentKey, spendReservedKey } from '../ledger/ledger.service';
import { getDeviceSettings } from '../orgs/orgs.service';
import { enqueueWebhookEvent } from '../webhooks/webhooks.service';
import { enqueueOrders, loadTargetsOfDevices, offlineLimitOrder, paidThroughOfTarget } from './command-gate';
import type { TDeviceBridges } from './device-bridge';
import type { DeviceRow } from './devices.repository';
import * as devicesRepo from './devices.repository';
import * as enrolmentRepo from './enrolment.repository';
import { issueEnrolmentCode } from './enrolment-code.service';
import type { ServerKeys } from './server-keys.service';

/**
 * A fresh enrolment QR for a customer's phone (issue 15: what it is depends on the device family,
 * see enrolmentKindOf): the Android provisioning JSON, the link-based app's deep link, the Android
 * Management API's enrolment QR or the Apple enrolment profile's URL, each carrying a fresh one-time
 * enrolment token. Issuing a QR replaces any earlier token of the device. The enrolment costs the
 * customer's retailer one key of the customer's app_type: reserved in the transaction that writes
 * the token (ledger reserveEnrolmentKey; a re-issue while it is open, or a phone already charged,
 * reserves nothing), spent when the phone enrols (recordEnrolment) and returned to the retailer
 * when the token lapses unused (issue 27).
 * Throws ALREADY_ENROLLED when the customer is no longer inactive, CONSENT_REQUIRED while no
 * consent to remote locking is recorded for them (consent.service), NO_KEYS (nothing written) when
 * the retailer has no key left, and MDM_UNAVAILABLE (nothing written) when the family's MDM service
 * is not configured or does not answer.
 */
export const issueEnrolmentQr = async (
  deps: { db: Db; config: TConfig; dispatcher: { bridges: TDeviceBridges } },
  options: {
    actor: TActor;
    device: DeviceRow;
    /** The customer: status, retailer (whose key is spent), app_type and device_type (spec §1). */
    customer: { status: number; retailerId: number; appType: number; deviceType: number };
    baseUrl: string;
  },
): Promise<TEnrolmentQr> => {
  const { config } = deps;
  const { customer } = options;
  if (customer.status !== CustomerStatus.INACTIVE) {
    throw new AppError(AppErrorCode.ALREADY_ENROLLED, 'This customer is already enrolled');
  }
  // The borrower's signed consent to remote locking comes before any QR (issue 12).
  if (!(await hasRecordedConsent(deps.db, options.device.orgId, options.device.customerId))) {
    throw new AppError(
      AppErrorCode.CONSENT_REQUIRED,
      "Record the customer's consent to remote locking before making the enrolment QR",
    );
  }
  const kind = enrolmentKindOf(customer.deviceType);
  const token = randomToken();
  const expiresAt = new Date(Date.now() + config.ENROLMENT_TOKEN_TTL_HOURS * 3_600_000);
  return deps.db.transaction(async (tx) => {
    await reserveEnrolmentKey(tx, {
      orgId: options.device.orgId,
      retailerId: customer.retailerId,
      customerId: options.device.customerId,
      appType: customer.appType,
      imei: options.device.imei1,
      actorUserId: options.actor.userId,
    });
    await devicesRepo.updateDevice(tx, options.device.id, {
      enrolmentTokenHash: sha256Hex(token),
      enrolmentExpiresAt: expiresAt,
    });
    const qr = await enrolmentQrOf(deps, {
      tx,
      kind,
      device: options.device,
      token,
      expiresAt,
      baseUrl: options.baseUrl,
    });
    return { kind, expiresAt: expiresAt.toISOString(), ...qr };
  });
};

/** The QR text of one enrolment kind (see issueEnrolmentQr); MDM kinds come from their bridge. */
const enrolmentQrOf = async (
  deps: { config: TConfig; dispatcher: { bridges: TDeviceBridges } },
  options: {
    /** The transaction writing the token (the link kind stores its enrolment code in it). */
    tx: DbOrTx;
    kind: TEnrolmentKind;
    device: DeviceRow;
    token: string;
    expiresAt: Date;
    baseUrl: string;
  },
): Promise<Omit<TEnrolmentQr, 'kind' | 'expiresAt'>> => {
  const { kind, token, baseUrl } = options;
  if (kind === 'android_provisioning') return { ...androidProvisioningQr(deps.config, { token, baseUrl }) };
  if (kind === 'link') {
    return linkEnrolmentQr(deps.config, { tx: options.tx, device: options.device, token, baseUrl });
  }
  const bridge = deps.dispatcher.bridges[kind === 'apple_profile' ? 'apple_mdm' : 'android_management'];
  if (!bridge) {
    throw new AppError(
      AppErrorCode.MDM_UNAVAILABLE,
      kind === 'apple_profile'
        ? 'Apple device management (NanoMDM) is not set up for this server'
        : 'Android Management API is not set up for this server',
    );
  }
  return bridge.enrolmentQr(options);
};

/**
 * The Android device-owner provisioning JSON (design §5; Android DevicePolicyManager
 * EXTRA_PROVISIONING_*) of the device policy controller families (0, 9, 11), with the DPC's APK
 * location and signing checksum from configuration and the Wi-Fi extras when configured.
 */
export const androidProvisioningQr = (
  config: TConfig,
  options: { token: string; baseUrl: string },
): { payload: string; apkUrl: string } => {
  const apkUrl = config.DPC_DOWNLOAD_URL ?? `${options.baseUrl}${paths.emm.dpcApk}`;
  const payload = {
    [ANDROID_PROVISIONING_KEYS.adminComponent]: config.DPC_COMPONENT_NAME,
    [ANDROID_PROVISIONING_KEYS.packageDownloadLocation]: apkUrl,
    [ANDROID_PROVISIONING_KEYS.signatureChecksum]: config.DPC_SIGNATURE_CHECKSUM,
    [ANDROID_PROVISIONING_KEYS.leaveSystemAppsEnabled]: true,
    ...wifiExtrasOf(config),
    [ANDROID_PROVISIONING_KEYS.adminExtrasBundle]: {
      [PROVISIONING_EXTRAS.enrolmentToken]: options.token,
      [PROVISIONING_EXTRAS.serverUrl]: options.baseUrl,
    },
  };
  return { payload: JSON.stringify(payload), apkUrl };
};

/**
 * The optional Wi-Fi extras of a provisioning QR (Android EXTRA_PROVISIONING_WIFI_*), so a
 * factory-reset phone joins the shop's network before it downloads the app; none unless
 * PROVISIONING_WIFI_SSID is configured.
 */
export const wifiExtrasOf = (config: TConfig): Record<string, string | boolean> => {
  if (!config.PROVISIONING_WIFI_SSID) return {};
  return {
    [ANDROID_PROVISIONING_KEYS.wifiSsid]: config.PROVISIONING_WIFI_SSID,
    [ANDROID_PROVISIONING_KEYS.wifiSecurityType]: config.PROVISIONING_WIFI_SECURITY_TYPE,
    ...(config.PROVISIONING_WIFI_PASSWORD
      ? { [ANDROID_PROVISIONING_KEYS.wifiPassword]: config.PROVISIONING_WIFI_PASSWORD }
      : {}),
    ...(config.PROVISIONING_WIFI_HIDDEN ? { [ANDROID_PROVISIONING_KEYS.wifiHidden]: true } : {}),
  };
};

/**
 * The link-based app's enrolment (issue 15; docs/enrolment.md), in the transaction that writes the
 * token: the deep link the customer opens (`${baseUrl}/emm/l?org=…&token=…`, a public page that
 * offers the APK and hands the token to the app as `kisht://enrol?server=…&org=…&token=…`; see
 * packages/domain/src/devices/link-enrolment.ts), the APK location (linkApkUrl) and a fresh short
 * enrolment code the app accepts typed in (stored as SHA-256, unique per organisation, expiring
 * with the token).
 */
const linkEnrolmentQr = async (
  config: TConfig,
  options: { tx: DbOrTx; device: DeviceRow; token: string; baseUrl: string },
): Promise<Omit<TEnrolmentQr, 'kind' | 'expiresAt'>> => {
  const enrolmentCode = await issueEnrolmentCode(options.tx, options.device);
  return {
    payload: deepLinkUrl({ serverUrl: options.baseUrl, orgId: options.device.orgId, token: options.token }),
    apkUrl: linkApkUrl(config, options.baseUrl),
    enrolmentCode,
  };
};

/**
 * Where the link-based app's APK is downloaded: LINK_APP_DOWNLOAD_URL when configured, else this
 * server's /emm/linkflapk (the file at LINK_APP_APK_FILE, or a named placeholder on a demo server).
 */
export const linkApkUrl = (config: TConfig, baseUrl: string): string =>
  config.LINK_APP_DOWNLOAD_URL ?? `${baseUrl}${paths.emm.linkApk}`;

/**
 * Voids the enrolment token (hash and expiry cleared) of a device that has not enrolled, in the
 * caller's transaction, so a QR already shown can no longer enrol a phone (the ledger's key
 * refund); enrolling needs a new QR. Returns false, changing nothing, when the phone enrolled
 * first (the UPDATE's row lock orders the two).
 */
export const voidEnrolmentToken = (db: DbOrTx, deviceId: string): Promise<boolean> =>
  enrolmentRepo.voidTokenOfUnenrolledDevice(db, deviceId);

const sameImeis = (device: DeviceRow, request: TEnrolDeviceRequest) =>
  new Set([device.imei1, device.imei2]).size ===
  new Set([device.imei1, device.imei2, request.imei1, request.imei2]).size;

/** An organisation's offline limit (hours, null for none) in ms, as devices take it. */
export const offlineLimitMs = (hours: number | null): number | null =>
  hours ? Math.round(hours * 3_600_000) : null;

/**
 * How long after a phone enrolled the same token and IMEIs may enrol it again, ms: the phone's
 * retry when the first response was lost on the way (device protocol §1).
 */
export const ENROLMENT_RETRY_MS = 15 * 60_000;

/**
 * Enrols a device with its one-time token (design §5): the reported IMEIs must match the
 * customer's record; a device secret is issued (stored as SHA-256), and the customer becomes
 * installed (status 1). The token stays usable for ENROLMENT_RETRY_MS with the same IMEIs, for a
 * phone whose response was lost: that retry gets the same device, topics and server key and a
 * new secret (the server keeps only a hash of the first, which nobody then holds), audited. Throws
 * ENROLMENT_TOKEN_INVALID for an unknown, expired or spent token (also a retry with other IMEIs or
 * of a released phone) and ENROLMENT_IMEI_MISMATCH when the IMEIs differ from the record.
 */
export const enrolDevice = async (
  deps: { db: Db; config: TConfig; dispatcher: { serverKeys: ServerKeys } },
  options: { request: TEnrolDeviceRequest; baseUrl: string },
): Promise<TEnrolDeviceResponse> => {
  const { request } = options;
  const device = await enrolmentRepo.findDeviceByEnrolmentTokenHash(deps.db, sha256Hex(request.token));
  const invalid = () =>
    new AppError(AppErrorCode.ENROLMENT_TOKEN_INVALID, 'This enrolment QR is invalid or has expired', [
      { field: 'token', message: 'Invalid or expired enrolment token' },
    ]);
  if (!device?.enrolmentExpiresAt || device.enrolmentExpiresAt.getTime() < Date.now()) throw invalid();
  if (device.enrolledAt) {
    if (!device.secretHash || !sameImeis(device, request)) throw invalid();
    return reissueCredentials(deps, { device, baseUrl: options.baseUrl });
  }
  if (!sameImeis(device, request)) {
    throw new AppError(
      AppErrorCode.ENROLMENT_IMEI_MISMATCH,
      "This phone's IMEIs do not match the customer's record",
      [
        { field: 'imei1', message: 'IMEI does not match the record' },
        { field: 'imei2', message: 'IMEI does not match the record' },
      ],
    );
  }
  const secret = randomToken();
  const orgLimitMs = offlineLimitMs((await getDeviceSettings(deps.db, device.orgId)).offlineLockAfterHours);
  const offlineLockAfterMs = await deps.db.transaction(async (tx) => {
    const enrolledAt = new Date();
    // Only while the token still stands: a key refund may have voided it since it was read.
    const isEnrolled = await enrolmentRepo.updateDeviceHoldingToken(tx, device.id, sha256Hex(request.token), {
      // The token now only lets this phone retry a lost response (same IMEIs), for a short while.
      enrolmentExpiresAt: new Date(enrolledAt.getTime() + ENROLMENT_RETRY_MS),
      enrolledAt,
      secretHash: sha256Hex(secret),
      reportedLocked: false,
      reportedPolicyVersion: 0,
    });
    if (!isEnrolled) throw invalid();
    return recordEnrolment(tx, device, null, orgLimitMs);
  });
  return credentialsOf(deps, { device, secret, offlineLockAfterMs, baseUrl: options.baseUrl });
};

/**
 * What every family's enrolment records once its device row is marked enrolled, in the caller's
 * transaction: the phone's policy starts from the initial one (unlocked, nothing restricted)
 * through the command gate, with the offline limit `offlineLockAfterMs` (ms; null for none, as an
 * MDM phone runs no Kisht app) and, for a phone of Kisht's app, the paid-through date
 * (paidThroughOfTarget, device protocol §12.5) unless the rules refuse it (a loan paid off before the phone
 * enrolled); the key its QR reserved is spent (ledger spendReservedKey); the customer becomes
 * installed (status 1); and a `device.enrol` audit entry names the
 * device and, for an MDM phone, its `channel` and MDM id. Not published: the phone fetches its
 * policy with its first hello (an MDM phone with the bridge's first delivery). Returns the offline
 * limit the policy carries.
 */
export const recordEnrolment = async (
  tx: DbOrTx,
  device: Pick<DeviceRow, 'id' | 'orgId' | 'customerId' | 'imei1'>,
  channel: TEnrolChannel | null,
  offlineLockAfterMs: number | null = null,
): Promise<number | null> => {
  const target = (await loadTargetsOfDevices(tx, [device.id])).get(device.id)!;
  const order = offlineLimitOrder(target, offlineLockAfterMs, {
    locked: false,
    controls: {},
    replacesControls: true,
    // Only a phone that runs Kisht's app acts on its paid-through date (device protocol §12.5).
    paidThrough: channel === null ? paidThroughOfTarget(target) : null,
  });
  await enqueueOrders(tx, [order], { onRefused: 'throw' });
  await spendReservedKey(tx, { orgId: device.orgId, customerId: device.customerId, imei: device.imei1 });
  await markCustomerInstalled(tx, device.orgId, device.customerId);
  await enqueueWebhookEvent(tx, {
    orgId: device.orgId,
    type: 'device.enrolled',
    orderingKey: `customer:${device.customerId}`,
    data: {
      customerId: device.customerId,
      deviceId: device.id,
      imei1: device.imei1,
      channel: channel ?? 'mqtt',
    },
  });
  await insertAudit(tx, {
    orgId: device.orgId,
    action: 'device.enrol',
    entity: 'customer',
    entityId: String(device.customerId),
    details: { deviceId: device.id, ...channel },
  });
  return order.policy?.offlineLockAfterMs ?? null;
};

/** A retried enrolment (see enrolDevice): a new secret replaces the one whose response was lost. */
const reissueCredentials = async (
  deps: { db: Db; config: TConfig; dispatcher: { serverKeys: ServerKeys } },
  options: { device: DeviceRow; baseUrl: string },
): Promise<TEnrolDeviceResponse> => {
  const { device } = options;
  const secret = randomToken();
  await deps.db.transaction(async (tx) => {
    await devicesRepo.updateDevice(tx, device.id, { secretHash: sha256Hex(secret) });
    await insertAudit(tx, {
      orgId: device.orgId,
      action: 'device.enrol_retry',
      entity: 'customer',
      entityId: String(device.customerId),
      details: { deviceId: device.id },
    });
  });
  // The limit its policy carries (the organisation's, as of enrolment or its latest change).
  const offlineLockAfterMs = device.desiredOfflineLockAfterMs;
  return credentialsOf(deps, { device, secret, offlineLockAfterMs, baseUrl: options.baseUrl });
};

/**
 * The enrol response: who the device is, its secret, where to connect, the server key, and the
 * retailer its lock screen names.
 */
const credentialsOf = async (
  deps: { db: Db; config: TConfig; dispatcher: { serverKeys: ServerKeys } },
  options: { device: DeviceRow; secret: string; offlineLockAfterMs: number | null; baseUrl: string },
): Promise<TEnrolDeviceResponse> => {
  const { device } = options;
  const serverKey = await deps.dispatcher.serverKeys.forOrg(device.orgId);
  const mqttUrl = deps.config.MQTT_PUBLIC_URL ?? `${options.baseUrl.replace(/^http/, 'ws')}${paths.mqtt}`;
  const owners = await devicesRepo.findOwnersOfDevice(deps.db, device.id);
  return {
    ...(owners
      ? {
          retailer: {
            name: owners.retailerName,
            phone: owners.retailerMobile,
            ...(owners.retailerUpiId ? { upiId: owners.retailerUpiId } : {}),
          },
        }
      : {}),
    offlineLockAfterMs: options.offlineLockAfterMs,
    deviceId: device.id,
    deviceSecret: options.secret,
    mqttUrl,
    cmdTopic: cmdTopic(device.id),
    evtTopic: evtTopic(device.id),
    serverKey: { kid: serverKey.kid, publicKey: serverKey.publicKey },
  };
};
