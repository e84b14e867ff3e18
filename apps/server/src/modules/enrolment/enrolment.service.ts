import { CustomerStatus } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TEnrolmentQr } from '@kisht/domain/customers/customers.schema';
import type { TEnrolDeviceRequest, TEnrolDeviceResponse } from '@kisht/domain/devices/devices.schema';
import {
  ANDROID_PROVISIONING_KEYS,
  cmdTopic,
  evtTopic,
  PROVISIONING_EXTRAS,
} from '@kisht/domain/devices/protocol.schema';
import { paths } from '@kisht/domain/paths';
import type { TConfig } from '../../config';
import type { Db } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { insertAudit } from '../audit/audit.repository';
import { markCustomerInstalled } from '../customers/customers.service';
import type { DeviceRow } from '../devices/devices.repository';
import * as devicesRepo from '../devices/devices.repository';
import { getDeviceSettings } from '../orgs/orgs.service';

/**
 * The Android device-owner provisioning JSON (design §5; Android DevicePolicyManager
 * EXTRA_PROVISIONING_*) carrying a fresh one-time enrolment token. Issuing a QR replaces any
 * earlier token of the device. Throws ALREADY_ENROLLED when the customer is no longer inactive.
 */
export const issueEnrolmentQr = async (
  deps: { db: Db; config: TConfig },
  options: { actor: TActor; device: DeviceRow; customerStatus: number; baseUrl: string },
): Promise<TEnrolmentQr> => {
  const { config } = deps;
  if (options.customerStatus !== CustomerStatus.INACTIVE) {
    throw new AppError(AppErrorCode.ALREADY_ENROLLED, 'This customer is already enrolled');
  }
  const token = randomToken();
  const expiresAt = new Date(Date.now() + config.ENROLMENT_TOKEN_TTL_HOURS * 3_600_000);
  await devicesRepo.updateDevice(deps.db, options.device.id, {
    enrolmentTokenHash: sha256Hex(token),
    enrolmentExpiresAt: expiresAt,
  });
  const payload = {
    [ANDROID_PROVISIONING_KEYS.adminComponent]: config.DPC_COMPONENT_NAME,
    [ANDROID_PROVISIONING_KEYS.packageDownloadLocation]:
      config.DPC_DOWNLOAD_URL ?? `${options.baseUrl}/downloads/kisht-dpc.apk`,
    [ANDROID_PROVISIONING_KEYS.signatureChecksum]: config.DPC_SIGNATURE_CHECKSUM,
    [ANDROID_PROVISIONING_KEYS.leaveSystemAppsEnabled]: true,
    [ANDROID_PROVISIONING_KEYS.adminExtrasBundle]: {
      [PROVISIONING_EXTRAS.enrolmentToken]: token,
      [PROVISIONING_EXTRAS.serverUrl]: options.baseUrl,
    },
  };
  return { payload: JSON.stringify(payload), expiresAt: expiresAt.toISOString() };
};

const sameImeis = (device: DeviceRow, request: TEnrolDeviceRequest) =>
  new Set([device.imei1, device.imei2]).size ===
  new Set([device.imei1, device.imei2, request.imei1, request.imei2]).size;

/**
 * Enrols a device with its one-time token (design §5): the reported IMEIs must match the
 * customer's record; the token is burned, a device secret issued (stored as SHA-256), and the
 * customer becomes installed (status 1). Throws ENROLMENT_TOKEN_INVALID for an unknown, used or
 * expired token and ENROLMENT_IMEI_MISMATCH when the IMEIs differ.
 */
export const enrolDevice = async (
  deps: { db: Db; config: TConfig },
  options: { request: TEnrolDeviceRequest; baseUrl: string },
): Promise<TEnrolDeviceResponse> => {
  const { request } = options;
  const device = await devicesRepo.findDeviceByEnrolmentTokenHash(deps.db, sha256Hex(request.token));
  if (!device?.enrolmentExpiresAt || device.enrolmentExpiresAt.getTime() < Date.now()) {
    throw new AppError(AppErrorCode.ENROLMENT_TOKEN_INVALID, 'This enrolment QR is invalid or has expired', [
      { field: 'token', message: 'Invalid or expired enrolment token' },
    ]);
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
  await deps.db.transaction(async (tx) => {
    await devicesRepo.updateDevice(tx, device.id, {
      enrolmentTokenHash: null,
      enrolmentExpiresAt: null,
      enrolledAt: new Date(),
      secretHash: sha256Hex(secret),
      reportedLocked: false,
    });
    await markCustomerInstalled(tx, device.orgId, device.customerId);
    await insertAudit(tx, {
      orgId: device.orgId,
      action: 'device.enrol',
      entity: 'customer',
      entityId: String(device.customerId),
      details: { deviceId: device.id },
    });
  });
  const mqttUrl = deps.config.MQTT_PUBLIC_URL ?? `${options.baseUrl.replace(/^http/, 'ws')}${paths.mqtt}`;
  const { offlineLockAfterHours } = await getDeviceSettings(deps.db, device.orgId);
  return {
    offlineLockAfterMs: offlineLockAfterHours ? Math.round(offlineLockAfterHours * 3_600_000) : null,
    deviceId: device.id,
    deviceSecret: secret,
    mqttUrl,
    cmdTopic: cmdTopic(device.id),
    evtTopic: evtTopic(device.id),
  };
};
