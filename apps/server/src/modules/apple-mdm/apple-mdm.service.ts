import type { TAppleDetails } from '@kisht/domain/apple/apple.schema';
import { CustomerStatus, DeviceType, type TCommandName } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TEnrolmentQr } from '@kisht/domain/customers/customers.schema';
import type { TDeviceCommand } from '@kisht/domain/devices/devices.schema';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import type { AppContext } from '../../lib/context';
import { sha256Hex } from '../../lib/crypto';
import { insertAudit } from '../audit/audit.repository';
import { loadTargetForActor, sendOneShotCommand } from '../devices/control-commands.service';
import { unclaimCustomer } from '../devices/device-lifecycle.service';
import { issueEnrolmentQr } from '../devices/enrolment.service';
import { getOrgAppConfig } from '../orgs/orgs.service';
import { findCustomerOfFamily } from '../scope/scope.service';
import * as repo from './apple-mdm.repository';
import { buildEnrolmentProfile } from './enrolment-profile';

/**
 * The actor's Apple customer (device_type 3) and its device. Throws CUSTOMER_NOT_FOUND (404) outside
 * the actor's scope and NOT_FOR_THIS_DEVICE_FAMILY (409, field customer_id) for another family.
 */
export const findAppleCustomer = (db: DbOrTx, actor: TActor, customerId: number) =>
  findCustomerOfFamily(db, actor, customerId, {
    deviceType: DeviceType.APPLE,
    message: 'This customer’s phone is not an iPhone',
    fieldMessage: 'Only Apple customers (device type 3) have this',
  });

/** apple_qr: the enrolment profile's URL as a QR for an inactive Apple customer (see issueEnrolmentQr). */
export const issueAppleQr = async (
  ctx: AppContext,
  options: { actor: TActor; customerId: number; baseUrl: string },
): Promise<TEnrolmentQr> => {
  const { customer, device } = await findAppleCustomer(ctx.db, options.actor, options.customerId);
  return issueEnrolmentQr(ctx, {
    actor: options.actor,
    device,
    customer,
    baseUrl: options.baseUrl,
  });
};

/**
 * The .mobileconfig of an enrolment token (public: Safari on the iPhone fetches it). Throws
 * NOT_FOUND for an unknown, expired or spent token, MDM_UNAVAILABLE when NanoMDM is not configured.
 */
export const enrolmentProfileOf = async (ctx: AppContext, token: string): Promise<string> => {
  const { config } = ctx;
  if (!config.NANOMDM_URL || !config.APPLE_MDM_SERVER_URL || !config.APPLE_MDM_TOPIC) {
    throw new AppError(
      AppErrorCode.MDM_UNAVAILABLE,
      'Apple device management (NanoMDM) is not set up for this server',
    );
  }
  const device = /^[A-Za-z0-9_-]{16,128}$/.test(token)
    ? await repo.findAppleDeviceByTokenHash(ctx.db, sha256Hex(token))
    : null;
  if (!device || device.enrolledAt) {
    throw new AppError(AppErrorCode.NOT_FOUND, 'This enrolment link is invalid or has expired', [
      { field: 'token', message: 'Unknown or expired enrolment token' },
    ]);
  }
  const org = await getOrgAppConfig(ctx.db, device.orgId);
  return buildEnrolmentProfile({
    token,
    identifier: config.APPLE_MDM_PROFILE_IDENTIFIER,
    organisation: org.companyName || org.orgName,
    serverUrl: config.APPLE_MDM_SERVER_URL,
    topic: config.APPLE_MDM_TOPIC,
    scepUrl: config.APPLE_SCEP_URL!,
    scepChallenge: config.APPLE_SCEP_CHALLENGE!,
  });
};

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const bool = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);

/** The IMEIs of a DeviceInformation answer: ServiceSubscriptions (iOS 16+), else the top-level IMEI. */
const imeisOf = (info: Record<string, unknown>): string[] => {
  const subscriptions = Array.isArray(info.ServiceSubscriptions) ? info.ServiceSubscriptions : [];
  const fromSubscriptions = subscriptions
    .map((s) => str((s as Record<string, unknown>)?.IMEI)?.replace(/\s/g, ''))
    .filter((s): s is string => Boolean(s));
  const top = str(info.IMEI)?.replace(/\s/g, '');
  return [...new Set(fromSubscriptions.length ? fromSubscriptions : top ? [top] : [])];
};

/** apple_details: what the actor's Apple customer's iPhone reported through NanoMDM (TAppleDetails). */
export const getAppleDetails = async (db: Db, actor: TActor, customerId: number): Promise<TAppleDetails> => {
  const { customer, device } = await findAppleCustomer(db, actor, customerId);
  const [sync, bypassAt, checkOutAt] = await Promise.all([
    repo.findNewestCommandNamed(db, device.id, 'check_status'),
    repo.findNewestBypassCodeAt(db, device.id),
    customer.status === CustomerStatus.APPLE_REMOVED
      ? repo.findCheckOutAt(db, customer.orgId, customer.id)
      : null,
  ]);
  const info = device.mdmInfo;
  const battery = typeof info?.BatteryLevel === 'number' && info.BatteryLevel >= 0 ? info.BatteryLevel : null;
  return {
    customerId: customer.id,
    udid: device.mdmId,
    enrolledAt: device.enrolledAt?.toISOString() ?? null,
    profileRemovedAt: checkOutAt?.toISOString() ?? null,
    serialNumber: device.serialNumber,
    reported: info
      ? {
          deviceName: str(info.DeviceName),
          modelName: str(info.ModelName),
          productName: str(info.ProductName),
          osVersion: str(info.OSVersion),
          serialNumber: str(info.SerialNumber),
          imeis: imeisOf(info),
          isSupervised: bool(info.IsSupervised),
          isLostModeEnabled: bool(info.IsMDMLostModeEnabled),
          isActivationLockEnabled: bool(info.IsActivationLockEnabled),
          batteryPercent: battery === null ? null : Math.round(battery * 100),
          at: (device.mdmInfoAt ?? new Date()).toISOString(),
        }
      : null,
    lastSync: sync
      ? {
          commandId: sync.id,
          state: sync.state,
          createdAt: sync.createdAt.toISOString(),
          updatedAt: sync.updatedAt.toISOString(),
        }
      : null,
    activationLockBypassCodeStoredAt: bypassAt?.toISOString() ?? null,
  };
};

/** The Apple-only one-shot commands the /micromdm routes send (not spec §6 control features). */
type TAppleOnlyCommand = Extract<
  TCommandName,
  'check_status' | 'disable_activation_lock' | 'install_apple_onemodapp'
>;

/**
 * Queues an Apple-only one-shot command (apple_request_sync → check_status, disable_activation_lock,
 * installAppleOneModeApp → install_apple_onemodapp) for the actor's Apple customer through the
 * devices module's command gate (sendOneShotCommand): a pending one of the same name is returned
 * instead of a second; else the row and an audit entry are written and it goes out through the
 * outbox (the Apple bridge enqueues it at NanoMDM). Throws as findAppleCustomer, MDM_UNAVAILABLE
 * (nothing written) when NanoMDM is not configured, DEVICE_NOT_ENROLLED before the iPhone's first
 * check-in, and as the gate (FORBIDDEN without feature access; DEVICE_RELEASED once the profile was
 * removed or the phone released).
 */
export const queueAppleCommand = async (
  ctx: AppContext,
  options: { actor: TActor; customerId: number; name: TAppleOnlyCommand },
): Promise<TDeviceCommand> => {
  const { actor, name } = options;
  const { device } = await findAppleCustomer(ctx.db, actor, options.customerId);
  if (!ctx.dispatcher.bridges.apple_mdm) {
    throw new AppError(
      AppErrorCode.MDM_UNAVAILABLE,
      'Apple device management (NanoMDM) is not set up for this server',
    );
  }
  if (!device.mdmId) {
    throw new AppError(
      AppErrorCode.DEVICE_NOT_ENROLLED,
      'The iPhone has not been enrolled yet. Open the enrolment QR on it first',
    );
  }
  return sendOneShotCommand(ctx, {
    actor,
    target: await loadTargetForActor(ctx, actor, options.customerId),
    name,
    args: {},
    flags: ['user.feature_access'],
  });
};

/**
 * appleCustomerByKegenUpdate: corrects an inactive Apple customer's serial number (the enrolment
 * checks the phone's against it), audited. Throws as findAppleCustomer and ALREADY_ENROLLED once
 * the iPhone enrolled.
 */
export const updateAppleSerialNumber = async (
  db: Db,
  options: { actor: TActor; customerId: number; serialNumber: string },
): Promise<void> => {
  const { customer, device } = await findAppleCustomer(db, options.actor, options.customerId);
  if (device.enrolledAt || customer.status !== CustomerStatus.INACTIVE) {
    throw new AppError(
      AppErrorCode.ALREADY_ENROLLED,
      'The iPhone is enrolled already; its serial number is fixed',
      [{ field: 'serial_number', message: 'Only an inactive customer’s serial number can change' }],
    );
  }
  const serialNumber = options.serialNumber.toUpperCase();
  await db.transaction(async (tx) => {
    await repo.setSerialNumber(tx, device.id, serialNumber);
    await insertAudit(tx, {
      orgId: options.actor.orgId,
      actorUserId: options.actor.userId,
      action: 'customer.serial_number',
      entity: 'customer',
      entityId: String(customer.id),
      details: { deviceId: device.id, from: device.serialNumber, to: serialNumber },
    });
  });
};

/**
 * unclaim_apple: releases the iPhone of an Apple customer whose EMIs are completed, as
 * unclaim_customer does for other phones (an `uninstall` command; on an iPhone the bridge sends
 * RemoveProfile of the enrolment profile). Throws as findAppleCustomer and unclaimCustomer
 * (LOAN_NOT_COMPLETED unless status 5).
 */
export const unclaimApple = async (
  ctx: AppContext,
  options: { actor: TActor; customerId: number },
): Promise<TDeviceCommand> => {
  await findAppleCustomer(ctx.db, options.actor, options.customerId);
  return unclaimCustomer(ctx, options);
};
