import { CustomerStatus } from '@kisht/domain/common/enums';
import { formatRupees } from '@kisht/domain/common/format';
import { commandSpecByName } from '@kisht/domain/devices/command-catalogue';
import {
  evtTopic,
  PROTOCOL_VERSION,
  type TAckEvent,
  type TCommandMessage,
  type TPolicy,
  type TPolicyVersion,
  type TReportedState,
  type TSimSlot,
} from '@kisht/domain/devices/protocol.schema';
import type { FastifyBaseLogger } from 'fastify';
import type { TConfig } from '../../config';
import type { Db } from '../../db/client';
import { startProtectedJob } from '../../jobs/scheduler';
import { recordStatusChange } from '../customers/customers.service';
import { endCommandsOfGoneDevice } from '../devices/control-commands.service';
import type { TDeviceBridge } from '../devices/device-bridge';
import { policyVersionOf } from '../devices/device-messages';
import { recordEnrolment, wifiExtrasOf } from '../devices/enrolment.service';
import {
  AmapiError,
  createAmapiClient,
  serviceAccountTokenProvider,
  staticTokenProvider,
  type TAmapiClient,
  type TAmapiCommand,
  type TAmapiDevice,
  type TAmapiOperation,
  type TAmapiPolicy,
} from './amapi-client';
import * as repo from './android-management.repository';

type DeviceRow = repo.AmapiDeviceRow;

/** Where acks go: the device event recorder (DeviceEventRecorder.handleEvent). */
type TEventSink = { handleEvent: (topic: string, payload: Buffer) => Promise<void> };

/** The Kisht control features the Android Management API carries out through the device's policy. */
export const AMAPI_POLICY_FEATURES = ['camera_lock', 'usb_debugging', 'app_lock'] as const;

/** Lost mode features (spec §6) that become START_LOST_MODE / STOP_LOST_MODE. */
const LOST_MODE_FEATURES = ['lost_mode', 'antitheft_lost_mode'];

/** How long a LOCK or lost-mode command waits at Google for a phone that is off, seconds (AMAPI default: 10 minutes). */
export const AMAPI_COMMAND_DURATION_S = 86_400;

/** Why a command does not reach a managed-Android phone (the failed ack's error). */
export const NOT_SUPPORTED_BY_AMAPI = 'not supported by the Android Management API';

/**
 * What every Kisht policy asks the phone to report (AMAPI statusReportingSettings): hardware,
 * software and network information (networkInfo, with the IMEI, needs networkInfoEnabled).
 */
const STATUS_REPORTING = {
  hardwareStatusEnabled: true,
  softwareInfoEnabled: true,
  networkInfoEnabled: true,
  deviceSettingsEnabled: true,
};

/** The organisation's enrolment policy (the policy a phone enrols with): `{enterprise}/policies/kisht-org-{orgId}`. */
export const orgPolicyName = (enterpriseName: string, orgId: number) =>
  `${enterpriseName}/policies/kisht-org-${orgId}`;

/** A phone's own policy, carrying its toggles: `{enterprise}/policies/kisht-device-{deviceId}`. */
export const devicePolicyName = (enterpriseName: string, deviceId: string) =>
  `${enterpriseName}/policies/kisht-device-${deviceId}`;

/**
 * The policy of phones a re-enrolment took out of a Kisht device (issue 27), RELEASED_POLICY:
 * `{enterprise}/policies/kisht-retired-{deviceId}`.
 */
export const retiredPolicyName = (enterpriseName: string, deviceId: string) =>
  `${enterpriseName}/policies/kisht-retired-${deviceId}`;

/**
 * The AMAPI Policy of a Kisht policy (device protocol §6): camera_lock → cameraAccess
 * CAMERA_ACCESS_DISABLED (else USER_CHOICE; cameraDisabled kept in step for older readers),
 * usb_debugging on (usb_on blocks it) → advancedSecurityOverrides.developerSettings
 * DEVELOPER_SETTINGS_DISABLED, else ALLOWED, said explicitly because AMAPI's unspecified value means
 * disabled (debuggingFeaturesAllowed is deprecated: issue 27), app_lock with packages →
 * those applications installType BLOCKED; status reporting always on. Lock and lost mode are
 * commands, not policy fields; the other toggles have no AMAPI equivalent.
 */
export const amapiPolicyOf = (policy: TPolicy): TAmapiPolicy => {
  const isOn = (feature: string) => policy.controls[feature]?.on === true;
  const blocked = isOn('app_lock')
    ? ((policy.controls.app_lock?.args?.packages as string[] | undefined) ?? [])
    : [];
  return {
    cameraAccess: isOn('camera_lock') ? 'CAMERA_ACCESS_DISABLED' : 'CAMERA_ACCESS_USER_CHOICE',
    cameraDisabled: isOn('camera_lock'),
    advancedSecurityOverrides: {
      developerSettings: isOn('usb_debugging') ? 'DEVELOPER_SETTINGS_DISABLED' : 'DEVELOPER_SETTINGS_ALLOWED',
    },
    applications: blocked.map((packageName) => ({ packageName, installType: 'BLOCKED' })),
    statusReportingSettings: STATUS_REPORTING,
  };
};

/**
 * The AMAPI Policy of a released phone (after the last EMI): nothing restricted (camera as the
 * user chooses, developer settings and debugging allowed again, no blocked apps) and no status reports, as Kisht no longer
 * manages the phone. See AndroidManagementBridge.release for why this, and not a delete, releases
 * a fully managed phone.
 */
export const RELEASED_POLICY: TAmapiPolicy = {
  cameraAccess: 'CAMERA_ACCESS_USER_CHOICE',
  cameraDisabled: false,
  advancedSecurityOverrides: { developerSettings: 'DEVELOPER_SETTINGS_ALLOWED' },
  applications: [],
  statusReportingSettings: {
    hardwareStatusEnabled: false,
    softwareInfoEnabled: false,
    networkInfoEnabled: false,
    deviceSettingsEnabled: false,
  },
};

/** What one sync of the enterprise's devices did (see AndroidManagementBridge.syncDevices). */
export type TAmapiSyncOutcome = { enrolled: number; updated: number; removed: number };

/**
 * The managed-Android family (device_type 1) through Google's Android Management API (issue 15):
 * the enrolment QR (an enrolment token of the organisation's policy), the delivery of Kisht's
 * policies and commands as AMAPI policy patches and device commands (each issued command a
 * `mdm_commands` row named by its operation), the polling of those operations into acks, and the
 * sync that finds enrolled and deleted phones. Google's permissible-usage rule (no lock for a
 * missed payment) is enforced before a command is written (devices.service checkLockRule); the
 * bridge carries out what it is given.
 */
export class AndroidManagementBridge implements TDeviceBridge {
  constructor(
    private readonly deps: {
      db: Db;
      config: TConfig;
      client: TAmapiClient;
      events: TEventSink;
      log: FastifyBaseLogger;
      enterpriseName: string;
    },
  ) {}

  /**
   * The Android Management API's enrolment QR for the device (AMAPI EnrollmentToken.qrCode): a
   * one-time token of the organisation's policy (created or refreshed first), lasting until
   * `expiresAt`, carrying the Kisht device id as additionalData (Device.enrollmentTokenData), with
   * the configured Wi-Fi extras merged in. Touches no database (it runs inside the caller's
   * transaction). Throws AmapiError (503 MDM_UNAVAILABLE) when the API fails.
   */
  enrolmentQr: TDeviceBridge['enrolmentQr'] = async ({ device, expiresAt }) => {
    const { client, enterpriseName, config } = this.deps;
    const policyName = orgPolicyName(enterpriseName, device.orgId);
    await client.patchPolicy(policyName, amapiPolicyOf({ locked: false, controls: {} }));
    const seconds = Math.max(60, Math.round((expiresAt.getTime() - Date.now()) / 1000));
    const token = await client.createEnrollmentToken({
      policyName,
      duration: `${seconds}s`,
      oneTimeOnly: true,
      additionalData: device.id,
      allowPersonalUsage: 'PERSONAL_USAGE_DISALLOWED',
    });
    if (!token.qrCode)
      throw new AmapiError('Android Management API sent an enrolment token without a QR code');
    let qr: Record<string, unknown>;
    try {
      qr = JSON.parse(token.qrCode) as Record<string, unknown>;
    } catch {
      throw new AmapiError("Android Management API's enrolment QR code is not JSON");
    }
    return { payload: JSON.stringify({ ...qr, ...wifiExtrasOf(config) }) };
  };

  /**
   * Carries the outbox's messages for one enrolled managed-Android phone: a policy (or sync)
   * becomes a patch of the phone's own policy (and the phone is pointed at it), then its pending
   * commands: lock → LOCK, lost mode on/off → START_LOST_MODE/STOP_LOST_MODE (UserFacingMessage
   * params), toggles AMAPI_POLICY_FEATURES done once the patch is accepted, unlock done (AMAPI has
   * no unlock: LOCK is the screen lock the user opens), anything else failed NOT_SUPPORTED_BY_AMAPI.
   * A command message: reboot → REBOOT, sim_info → the SIMs of the phone's last status report,
   * emi_alert → the lock screen's device-owner information, others failed. Each issued command is an mdm_commands row;
   * one already issued is not issued again (re-sends). Throws AmapiError when the API fails.
   */
  deliver: TDeviceBridge['deliver'] = async (device, messages) => {
    if (!device.mdmId) return;
    for (const message of messages) {
      if (message.type === 'policy') await this.deliverPolicy(device, message);
      else if (message.type === 'sync') await this.deliverPolicy(device, message.policy);
      else if (message.type === 'command') await this.deliverCommand(device, message);
    }
  };

  /** AMAPI cannot take back an issued command; the cancelled row stays cancelled (a done ack is recorded as such). */
  cancel: NonNullable<TDeviceBridge['cancel']> = async () => {};

  /**
   * Releases the managed-Android phone a re-enrolment took out (issue 27), by its former AMAPI name:
   * it is pointed at a policy of its own, RELEASED_POLICY under retiredPolicyName (not the device's
   * policy, which the phone enrolling next is given), and a lost mode left on is stopped. As on
   * release, AMAPI cannot leave a fully managed phone without factory-resetting it, so the phone
   * stays in the enterprise, unrestricted. No mdm_commands row: its answers concern no command of
   * the device now. Throws AmapiError when the API fails.
   */
  retire: NonNullable<TDeviceBridge['retire']> = async (device) => {
    if (!device.mdmId) return;
    const { client, enterpriseName } = this.deps;
    const policyName = retiredPolicyName(enterpriseName, device.id);
    await client.patchPolicy(policyName, RELEASED_POLICY);
    await client.setDevicePolicy(device.mdmId, policyName);
    if (LOST_MODE_FEATURES.some((feature) => device.reportedControls[feature] === true))
      await client.issueCommand(device.mdmId, { type: 'STOP_LOST_MODE', stopLostModeParams: {} });
  };

  private async deliverPolicy(device: DeviceRow, version: TPolicyVersion): Promise<void> {
    const { client, enterpriseName, db } = this.deps;
    const { policy } = version;
    const policyName = devicePolicyName(enterpriseName, device.id);
    const patched = await client.patchPolicy(policyName, amapiPolicyOf(policy));
    await client.setDevicePolicy(device.mdmId!, policyName);
    await repo.insertMdmCommand(db, {
      id: `${policyName}@${patched.version ?? version.version}`,
      orgId: device.orgId,
      deviceId: device.id,
      requestType: 'POLICY',
      policyVersion: version.version,
      status: 'acknowledged',
      result: { policyVersion: patched.version ?? null },
    });
    // What the phone holds once the patch is in: the toggles AMAPI carries, as the policy says.
    const controls: Record<string, boolean> = { ...device.reportedControls };
    for (const feature of AMAPI_POLICY_FEATURES) controls[feature] = policy.controls[feature]?.on === true;
    const state = (isLocked = device.reportedLocked): TReportedState => ({
      isLocked,
      controls,
      policyVersion: version.version,
    });
    const issued = new Set(
      (
        await repo.findMdmCommandsOfCommands(
          db,
          version.commands.map((c) => c.id),
        )
      ).map((row) => row.commandId),
    );
    for (const command of version.commands) {
      if (issued.has(command.id)) continue;
      const found = commandSpecByName(command.name);
      const feature = found?.spec.feature;
      if (command.name === 'lock') {
        if (!policy.locked) continue;
        await this.issue(device, command.id, version.version, {
          type: 'LOCK',
          duration: `${AMAPI_COMMAND_DURATION_S}s`,
        });
      } else if (command.name === 'unlock') {
        await this.ack(device.id, command.id, 'done', state(false));
      } else if (feature && LOST_MODE_FEATURES.includes(feature)) {
        await this.issue(device, command.id, version.version, lostModeCommand(policy, feature, found!.isOn));
      } else if (feature && (AMAPI_POLICY_FEATURES as readonly string[]).includes(feature)) {
        await this.ack(device.id, command.id, 'done', state());
      } else {
        await this.ack(device.id, command.id, 'failed', state(), NOT_SUPPORTED_BY_AMAPI);
      }
    }
  }

  private async deliverCommand(device: DeviceRow, message: TCommandMessage): Promise<void> {
    const state: TReportedState = { isLocked: device.reportedLocked, controls: device.reportedControls };
    const [known] = await repo.findMdmCommandsOfCommands(this.deps.db, [message.id]);
    if (known) return;
    const secondsLeft = Math.round((new Date(message.notAfter).getTime() - Date.now()) / 1000);
    if (secondsLeft <= 0) {
      await this.ack(device.id, message.id, 'dropped', state, 'too old to apply');
      return;
    }
    if (message.name === 'uninstall') {
      await this.release(device, message);
      return;
    }
    if (message.name === 'sim_info') {
      await this.reportSims(device, message);
      return;
    }
    if (message.name === 'emi_alert') {
      await this.showAlert(device, message);
      return;
    }
    if (message.name !== 'reboot') {
      await this.ack(device.id, message.id, 'failed', state, NOT_SUPPORTED_BY_AMAPI);
      return;
    }
    await this.issue(device, message.id, message.policyVersion, {
      type: 'REBOOT',
      duration: `${Math.max(60, Math.min(secondsLeft, AMAPI_COMMAND_DURATION_S))}s`,
    });
  }

  /**
   * sim_info on a managed-Android phone: Google's API has no command that asks the phone now, so
   * this reads the SIMs of its last status report (devices.get networkInfo.telephonyInfos, reported
   * because every Kisht policy sets networkInfoEnabled) and acks done with them, as of
   * lastStatusReportTime. The entries' order stands for the slot (AMAPI names no slot).
   */
  private async reportSims(device: DeviceRow, message: TCommandMessage): Promise<void> {
    const amapi = await this.deps.client.getDevice(device.mdmId!);
    const sims: TSimSlot[] = (amapi.networkInfo?.telephonyInfos ?? []).map((info, index) => ({
      slot: index + 1,
      iccid: info.iccId || null,
      operator: info.carrierName || null,
    }));
    await this.ack(
      device.id,
      message.id,
      'done',
      { isLocked: device.reportedLocked, controls: device.reportedControls, sims },
      undefined,
      { sims, asOf: amapi.lastStatusReportTime ?? null },
    );
  }

  /**
   * emi_alert on a managed-Android phone: the reminder goes on the lock screen as the phone's
   * device-owner information (Policy.deviceOwnerLockScreenInfo, a UserFacingMessage), patched into
   * the phone's own policy with everything else it holds; done once Google accepted the patch. It
   * stays until the phone's next policy (the next toggle, lock or the payoff), which is rebuilt
   * without it. Google's API has no command that shows a message without locking the phone.
   */
  private async showAlert(device: DeviceRow, message: TCommandMessage): Promise<void> {
    const { client, enterpriseName } = this.deps;
    const args = message.args as {
      amountPaise?: number;
      dueDate?: string;
      overduePaise?: number;
      message?: string;
    };
    const text = emiAlertText(args);
    const policyName = devicePolicyName(enterpriseName, device.id);
    await client.patchPolicy(policyName, {
      ...amapiPolicyOf(policyVersionOf(device, []).policy),
      deviceOwnerLockScreenInfo: { defaultMessage: text },
    });
    await client.setDevicePolicy(device.mdmId!, policyName);
    await this.ack(
      device.id,
      message.id,
      'done',
      { isLocked: device.reportedLocked, controls: device.reportedControls },
      undefined,
      { shownOn: 'lock screen', text },
    );
  }

  /**
   * Releases a fully managed phone after the last EMI (the `uninstall` command of unclaim_customer):
   * its own policy becomes RELEASED_POLICY (nothing restricted, no status reports) and the phone is
   * pointed at it; a lost mode left on is stopped (STOP_LOST_MODE); once Google accepted the patch
   * the command is done, so the customer moves to uninstall (3) as other families do on release.
   * Why not more (docs/android-management.md): AMAPI has no call that leaves a fully managed
   * (device-owner) phone in place: devices.delete and WIPE factory-reset it, and
   * RELINQUISH_OWNERSHIP only applies to company-owned phones with a work profile. The phone stays
   * enrolled in the enterprise, unrestricted, until its owner factory-resets it. Throws AmapiError
   * when the API fails (the outbox sends the command again).
   */
  private async release(device: DeviceRow, message: TCommandMessage): Promise<void> {
    const { client, enterpriseName, db } = this.deps;
    const policyName = devicePolicyName(enterpriseName, device.id);
    const patched = await client.patchPolicy(policyName, RELEASED_POLICY);
    await client.setDevicePolicy(device.mdmId!, policyName);
    for (const feature of LOST_MODE_FEATURES) {
      if (device.reportedControls[feature] !== true) continue;
      const operation = await client.issueCommand(device.mdmId!, {
        type: 'STOP_LOST_MODE',
        stopLostModeParams: {},
      });
      await repo.insertMdmCommand(db, {
        id: operation.name,
        orgId: device.orgId,
        deviceId: device.id,
        requestType: 'STOP_LOST_MODE',
        policyVersion: message.policyVersion,
        status: 'sent',
      });
      break;
    }
    await repo.insertMdmCommand(db, {
      id: `${policyName}@${patched.version ?? 'release'}:release`,
      orgId: device.orgId,
      deviceId: device.id,
      requestType: 'RELEASE',
      commandId: message.id,
      policyVersion: message.policyVersion,
      status: 'acknowledged',
      result: { policyName, policyVersion: patched.version ?? null },
    });
    const controls = { ...device.reportedControls };
    for (const feature of [...AMAPI_POLICY_FEATURES, ...LOST_MODE_FEATURES]) controls[feature] = false;
    await this.ack(device.id, message.id, 'done', { isLocked: false, controls });
  }

  /** Issues one AMAPI command for a Kisht command, records it by its operation name and acks `received`. */
  private async issue(
    device: DeviceRow,
    commandId: string,
    policyVersion: number,
    command: TAmapiCommand,
  ): Promise<void> {
    const operation = await this.deps.client.issueCommand(device.mdmId!, command);
    await repo.insertMdmCommand(this.deps.db, {
      id: operation.name,
      orgId: device.orgId,
      deviceId: device.id,
      requestType: command.type,
      commandId,
      policyVersion,
      status: 'sent',
    });
    await this.ack(device.id, commandId, 'received', {
      isLocked: device.reportedLocked,
      controls: device.reportedControls,
    });
  }

  /** Feeds an ack (device protocol ZAckEvent) into the device event recorder, as a phone would send it. */
  private async ack(
    deviceId: string,
    commandId: string,
    status: TAckEvent['status'],
    state: TReportedState,
    error?: string,
    result?: Record<string, unknown>,
  ): Promise<void> {
    const event: TAckEvent = {
      v: PROTOCOL_VERSION,
      type: 'ack',
      commandId,
      status,
      ...(error ? { error } : {}),
      ...(result ? { result } : {}),
      state,
      at: new Date().toISOString(),
    };
    await this.deps.events.handleEvent(evtTopic(deviceId), Buffer.from(JSON.stringify(event)));
  }

  /**
   * Polls the operations of issued commands still `sent` (at most `limit`): a finished one is
   * settled (acknowledged, or error with AMAPI's message; an operation AMAPI no longer knows is an
   * error) and reported as the phone's ack: done (LOCK → locked; START/STOP_LOST_MODE → lost mode
   * on/off, unless startLostModeStatus says it did not start) or failed. An operation the API
   * cannot be asked about now is left for the next poll. Returns how many were settled.
   */
  async pollOperations(limit = 200): Promise<number> {
    const { db, client, log } = this.deps;
    let settled = 0;
    for (const row of await repo.findSentMdmCommands(db, limit)) {
      let operation: TAmapiOperation;
      try {
        operation = await client.getOperation(row.id);
      } catch (error) {
        if (error instanceof AmapiError && error.status === 404) {
          operation = { name: row.id, done: true, error: { message: 'the operation is gone' } };
        } else {
          log.warn({ err: error, operation: row.id }, 'Android Management API operation poll failed');
          continue;
        }
      }
      if (!operation.done) continue;
      const failure = failureOf(operation);
      const result = JSON.parse(JSON.stringify(operation)) as Record<string, unknown>;
      if (!(await repo.settleMdmCommand(db, row.id, failure ? 'error' : 'acknowledged', result))) continue;
      settled += 1;
      if (!row.commandId) continue;
      const device = await repo.findDevice(db, row.deviceId);
      const command = await repo.findCommand(db, row.commandId);
      if (!device || !command) continue;
      const state: TReportedState = {
        isLocked: device.reportedLocked,
        controls: { ...device.reportedControls },
        ...(row.policyVersion === null ? {} : { policyVersion: row.policyVersion }),
      };
      if (failure) {
        await this.ack(device.id, command.id, 'failed', state, `Android Management API: ${failure}`);
        continue;
      }
      if (row.requestType === 'LOCK') state.isLocked = true;
      const feature = commandSpecByName(command.name)?.spec.feature;
      if (feature && (row.requestType === 'START_LOST_MODE' || row.requestType === 'STOP_LOST_MODE'))
        state.controls = { ...state.controls, [feature]: row.requestType === 'START_LOST_MODE' };
      await this.ack(device.id, command.id, 'done', state);
    }
    return settled;
  }

  /**
   * Reads the enterprise's devices and brings Kisht up to date (issue 15 enrolment detection):
   * a device whose enrollmentTokenData names a Kisht managed-Android device that has not enrolled
   * enrols it (mdm_id = the AMAPI device name, enrolled_at, policy 0, hardwareInfo and networkInfo
   * in mdm_info, the customer installed, status 1, audited) unless its reported IMEI is not the
   * customer's; an enrolled one gets its mdm_info refreshed; an enrolled one AMAPI reports DELETED
   * or no longer lists moves its customer to uninstall (3), its pending commands cancelled.
   * `onlyDeviceIds` limits the changes to those Kisht devices. Throws AmapiError when the API fails.
   */
  async syncDevices(onlyDeviceIds?: string[]): Promise<TAmapiSyncOutcome> {
    const { db, client, log } = this.deps;
    const only = onlyDeviceIds ? new Set(onlyDeviceIds) : null;
    const outcome: TAmapiSyncOutcome = { enrolled: 0, updated: 0, removed: 0 };
    const listed = await client.listDevices();
    const byName = new Map(listed.map((d) => [d.name, d]));
    // The newest enrolment of each Kisht device id (a phone re-enrolled from the same QR).
    const byKishtId = new Map<string, TAmapiDevice>();
    for (const amapi of listed) {
      const id = amapi.enrollmentTokenData;
      if (!id || amapi.state === 'DELETED' || (only && !only.has(id))) continue;
      const seen = byKishtId.get(id);
      if (!seen || (amapi.enrollmentTime ?? '') > (seen.enrollmentTime ?? '')) byKishtId.set(id, amapi);
    }
    const now = new Date();
    for (const { device } of await repo.findAmapiDevicesByIds(db, [...byKishtId.keys()])) {
      if (device.enrolledAt) continue;
      const amapi = byKishtId.get(device.id)!;
      const imei = amapi.networkInfo?.imei;
      if (imei && imei !== device.imei1 && imei !== device.imei2) {
        log.warn(
          { deviceId: device.id, mdmId: amapi.name },
          'managed-Android phone with another IMEI not enrolled',
        );
        await repo.updateDevice(db, device.id, {
          mdmInfo: { ...infoOf(amapi), imeiMismatch: true },
          mdmInfoAt: now,
        });
        continue;
      }
      await db.transaction(async (tx) => {
        await repo.markDeviceEnrolled(tx, device.id, {
          mdmId: amapi.name,
          mdmInfo: infoOf(amapi),
          enrolledAt: validDate(amapi.enrollmentTime) ?? now,
          lastSeenAt: validDate(amapi.lastStatusReportTime) ?? now,
          at: now,
        });
        await recordEnrolment(tx, device, { channel: repo.AMAPI_CHANNEL, mdmId: amapi.name });
      });
      outcome.enrolled += 1;
    }
    for (const { device, customerStatus } of await repo.findEnrolledAmapiDevices(db)) {
      if (only && !only.has(device.id)) continue;
      const amapi = byName.get(device.mdmId!);
      if (amapi && amapi.state !== 'DELETED') {
        await repo.updateDevice(db, device.id, {
          mdmInfo: infoOf(amapi),
          mdmInfoAt: now,
          ...(validDate(amapi.lastStatusReportTime)
            ? { lastSeenAt: validDate(amapi.lastStatusReportTime)! }
            : {}),
        });
        outcome.updated += 1;
        continue;
      }
      if (customerStatus === CustomerStatus.UNINSTALL) continue;
      await db.transaction(async (tx) => {
        await repo.updateDevice(tx, device.id, { isOnline: false, mdmInfoAt: now });
        await endCommandsOfGoneDevice(tx, device.id, 'the phone left Android Management');
        await recordStatusChange(tx, {
          orgId: device.orgId,
          customerId: device.customerId,
          event: 'release',
          actorUserId: null,
          reason: 'Phone removed from Android Management (device deleted)',
        });
      });
      outcome.removed += 1;
    }
    return outcome;
  }
}

/** The START_LOST_MODE / STOP_LOST_MODE command of a lost-mode toggle, with UserFacingMessage params. */
const lostModeCommand = (policy: TPolicy, feature: string, isOn: boolean): TAmapiCommand => {
  if (!isOn) return { type: 'STOP_LOST_MODE', stopLostModeParams: {} };
  const args = (policy.controls[feature]?.args ?? {}) as { message?: string; phone?: string };
  const retailer = policy.lockScreen?.retailerName;
  const phone = args.phone ?? policy.lockScreen?.retailerPhone;
  return {
    type: 'START_LOST_MODE',
    duration: `${AMAPI_COMMAND_DURATION_S}s`,
    startLostModeParams: {
      lostMessage: { defaultMessage: args.message ?? 'This phone is in lost mode.' },
      ...(phone ? { lostPhoneNumber: { defaultMessage: phone } } : {}),
      ...(retailer ? { lostOrganization: { defaultMessage: retailer } } : {}),
    },
  };
};

/**
 * The EMI alert as the lock screen shows it (one line, at most 4096 characters, AMAPI's limit):
 * the next amount due and its date (+05:30, DD-MM-YYYY), what is overdue when something is, and
 * the retailer's words.
 */
export const emiAlertText = (args: {
  amountPaise?: number;
  dueDate?: string;
  overduePaise?: number;
  message?: string;
}): string =>
  [
    args.amountPaise !== undefined && args.dueDate
      ? `EMI of ${formatRupees(args.amountPaise)} due on ${args.dueDate.split('-').reverse().join('-')}.`
      : null,
    args.overduePaise ? `Overdue: ${formatRupees(args.overduePaise)}.` : null,
    args.message?.trim() || null,
  ]
    .filter(Boolean)
    .join(' ')
    .slice(0, 4096);

/** Why a finished operation failed, or null: its error, or a lost-mode start AMAPI reports as not started. */
const failureOf = (operation: TAmapiOperation): string | null => {
  if (operation.error) return operation.error.message ?? `error ${operation.error.code ?? ''}`.trim();
  const lostMode = (operation.metadata?.startLostModeStatus as { status?: string } | undefined)?.status;
  if (lostMode && lostMode !== 'SUCCESS' && lostMode !== 'ALREADY_IN_LOST_MODE')
    return `lost mode not started: ${lostMode}`;
  return null;
};

/** What Kisht keeps of an AMAPI device (devices.mdm_info). */
const infoOf = (amapi: TAmapiDevice): Record<string, unknown> => ({
  name: amapi.name,
  state: amapi.state ?? null,
  appliedState: amapi.appliedState ?? null,
  policyName: amapi.policyName ?? null,
  appliedPolicyName: amapi.appliedPolicyName ?? null,
  appliedPolicyVersion: amapi.appliedPolicyVersion ?? null,
  policyCompliant: amapi.policyCompliant ?? null,
  managementMode: amapi.managementMode ?? null,
  ownership: amapi.ownership ?? null,
  apiLevel: amapi.apiLevel ?? null,
  enrollmentTime: amapi.enrollmentTime ?? null,
  lastStatusReportTime: amapi.lastStatusReportTime ?? null,
  hardwareInfo: amapi.hardwareInfo ?? null,
  networkInfo: amapi.networkInfo ?? null,
});

const validDate = (iso: string | undefined): Date | null => {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

/**
 * The managed-Android bridge when the server is configured for the Android Management API
 * (AMAPI_ENTERPRISE_NAME and AMAPI_SERVICE_ACCOUNT_FILE or AMAPI_ACCESS_TOKEN), else null: the
 * managed-Android QR then answers 503 MDM_UNAVAILABLE.
 */
export const createAndroidManagementBridge = (deps: {
  db: Db;
  config: TConfig;
  events: TEventSink;
  log: FastifyBaseLogger;
}): AndroidManagementBridge | null => {
  const { config } = deps;
  if (!config.AMAPI_ENTERPRISE_NAME) return null;
  const tokens = config.AMAPI_ACCESS_TOKEN
    ? staticTokenProvider(config.AMAPI_ACCESS_TOKEN)
    : config.AMAPI_SERVICE_ACCOUNT_FILE
      ? serviceAccountTokenProvider(config.AMAPI_SERVICE_ACCOUNT_FILE)
      : null;
  if (!tokens) {
    deps.log.warn('AMAPI_ENTERPRISE_NAME is set without AMAPI_SERVICE_ACCOUNT_FILE: managed Android is off');
    return null;
  }
  const client = createAmapiClient({
    baseUrl: config.AMAPI_API_URL,
    enterpriseName: config.AMAPI_ENTERPRISE_NAME,
    tokens,
    timeoutMs: config.AMAPI_TIMEOUT_MS,
  });
  return new AndroidManagementBridge({ ...deps, client, enterpriseName: config.AMAPI_ENTERPRISE_NAME });
};

/** How often issued commands' operations are polled, ms (more often when the jobs interval is shorter). */
export const AMAPI_OPERATIONS_INTERVAL_MS = 30_000;
/** How often the enterprise's devices are read for enrolments and deletions, ms. */
export const AMAPI_SYNC_INTERVAL_MS = 5 * 60_000;

/**
 * The managed-Android jobs: operations polled every AMAPI_OPERATIONS_INTERVAL_MS and the
 * enterprise's devices synced every AMAPI_SYNC_INTERVAL_MS (each at most every `intervalMs`),
 * never two runs of one at once (startProtectedJob). Returns a function that stops them.
 */
export const startAndroidManagementJobs = (
  bridge: AndroidManagementBridge,
  intervalMs: number,
  log: FastifyBaseLogger,
): (() => void) => {
  const jobs = [
    startProtectedJob({
      name: 'amapi operations',
      intervalMs: Math.min(intervalMs, AMAPI_OPERATIONS_INTERVAL_MS),
      log,
      run: async () => {
        const settled = await bridge.pollOperations();
        if (settled > 0) log.info(`${settled} Android Management API commands finished`);
      },
    }),
    startProtectedJob({
      name: 'amapi sync',
      intervalMs: Math.min(intervalMs, AMAPI_SYNC_INTERVAL_MS),
      log,
      run: async () => {
        const { enrolled, removed } = await bridge.syncDevices();
        if (enrolled + removed > 0) log.info({ enrolled, removed }, 'Android Management API devices synced');
      },
    }),
  ];
  return () => {
    for (const job of jobs) job.stop();
  };
};
