import { randomUUID } from 'node:crypto';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { commandSpecByName } from '@kisht/domain/devices/command-catalogue';
import type {
  TCommandMessage,
  TPolicy,
  TPolicyVersion,
  TServerMessage,
} from '@kisht/domain/devices/protocol.schema';
import { ZLockScreen } from '@kisht/domain/devices/protocol.schema';
import { paths } from '@kisht/domain/paths';
import type { FastifyBaseLogger } from 'fastify';
import type { TConfig } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import type { TDeviceBridge } from '../devices/device-bridge';
import type { CommandRow, DeviceRow } from '../devices/devices.service';
import {
  bareCommand,
  controlsOfRestrictions,
  deviceInformationCommand,
  deviceLockCommand,
  enableLostModeCommand,
  installApplicationCommand,
  installProfileCommand,
  isSameRestrictions,
  isUnrestricted,
  lockScreenMessage,
  NO_RESTRICTIONS,
  RESTRICTION_FEATURES,
  removeProfileCommand,
  restrictionsProfile,
  type TAppleCommand,
  type TRestrictions,
  toPlist,
} from './apple-commands';
import { reportAck, reportedStateOf, type TDeviceEventSink } from './apple-events';
import * as repo from './apple-mdm.repository';
import type { TNanoMdmClient } from './nanomdm.client';

/** The restriction feature a toggle command turns on or off, or null (see RESTRICTION_FEATURES). */
const restrictionFeatureOf = (name: string): { feature: string; isOn: boolean } | null => {
  const found = commandSpecByName(name);
  if (!found || !(RESTRICTION_FEATURES as readonly string[]).includes(found.spec.feature)) return null;
  return { feature: found.spec.feature, isOn: found.isOn };
};

/** The lost-mode pair of Apple commands, whose newest one tells whether lost mode was left on. */
const LOST_MODE_TYPES = ['EnableLostMode', 'DisableLostMode'];

/** At most this many lost commands and unfinished enrolments are taken up per reconciliation. */
const RECONCILE_BATCH = 500;

/** What a failed ack says for a Kisht control Apple's MDM protocol has no command for. */
const notOnIphone = (name: string) => `${name} is not available on an iPhone (Apple MDM has no such command)`;

/** Restrictions iOS honours only on a supervised iPhone (allowHostPairing, blockedAppBundleIDs). */
const SUPERVISED_ONLY: readonly string[] = ['usb_debugging', 'app_lock'];

/** What a failed ack says for a supervised-only restriction asked of an iPhone that reported it is not supervised. */
const needsSupervision = (feature: string) =>
  `${feature} needs a supervised iPhone (Apple Business Manager or Apple Configurator); this iPhone reported it is not supervised`;

/**
 * The restrictions a policy asks of an iPhone (see apple-commands RESTRICTION_FEATURES). On an
 * iPhone known to be unsupervised (DeviceInformation IsSupervised false) the supervised-only ones
 * are left out: iOS would ignore them.
 */
export const restrictionsOfPolicy = (policy: TPolicy, isSupervised: boolean | null): TRestrictions => {
  const isOn = (feature: string) =>
    policy.controls[feature]?.on === true && (isSupervised !== false || !SUPERVISED_ONLY.includes(feature));
  const packages = policy.controls.app_lock?.args?.packages;
  return {
    camera_lock: isOn('camera_lock'),
    usb_debugging: isOn('usb_debugging'),
    app_lock: isOn('app_lock') && Array.isArray(packages) ? packages.map(String) : [],
  };
};

type TBridgeDeps = {
  db: Db;
  config: TConfig;
  client: TNanoMdmClient;
  /** The DeviceEventRecorder (ctx.deviceEvents). */
  events: TDeviceEventSink;
  log: FastifyBaseLogger;
};

/**
 * The Apple family's bridge (issue 15): Kisht's policy and command messages become Apple MDM
 * commands enqueued at NanoMDM for the phone's UDID, one `mdm_commands` row each (CommandUUID →
 * the device command or policy version it carries out). What the phone answers arrives through
 * NanoMDM's webhook (apple-webhook.service).
 *
 * What a policy means on an iPhone (docs/apple.md):
 * - `locked` → DeviceLock with the lock screen's message and the retailer's phone. iOS locks the
 *   screen at once; emergency calls stay possible and the owner's passcode opens it again, so an
 *   Apple "lock" is a reminder the phone shows, not a lasting block. An unlock therefore sends
 *   nothing: it is acknowledged at once (reported unlocked).
 * - `lost_mode` on/off → EnableLostMode / DisableLostMode (supervised phones): the lasting lock.
 *   Whenever the policy says lost mode is off and the newest lost-mode command Kisht enqueued was
 *   EnableLostMode (a lost mode cancelled or superseded after it went to NanoMDM, which cannot take
 *   a queued command back), a DisableLostMode follows it in the phone's queue, so a cancelled lost
 *   mode never leaves the phone locked.
 * - camera_lock, usb_debugging, app_lock → one Restrictions profile (com.apple.applicationaccess)
 *   per phone, installed with InstallProfile (replaced whole on every change, one stable
 *   PayloadIdentifier) and taken off with RemoveProfile once nothing is restricted; the toggle is
 *   done when the phone acknowledges it. As for lost mode, whenever the profile the phone will end
 *   with differs from what the policy asks (a toggle cancelled after its profile went out), the
 *   right profile (or its removal) follows in the queue, so a cancelled restriction never stays.
 *   usb_debugging and app_lock need a supervised iPhone: known unsupervised, they fail with why.
 * - other toggles (wallpaper, tracking…) have no Apple command: their commands fail with why.
 *
 * A command already enqueued (the re-send of unacknowledged commands) is not enqueued again; the
 * phone is pushed instead, so it checks in and fetches what waits.
 *
 * NanoMDM posts each webhook once and never again, so `reconcile` (every few minutes) makes up for
 * a lost one. A command still `sent` NANOMDM_RECONCILE_AFTER_MS after it went out makes Kisht ask
 * the phone for its state (DeviceInformation, once per that interval); the phone answers it after
 * the command (NanoMDM's queue is in order), so at the next round the command is known to be past
 * and its report lost: it is marked lost and enqueued again by the re-delivery it asks for (the
 * gate already dropped a superseded or cancelled one from the policy, so that never goes again). A
 * command waiting for an offline phone is never duplicated. An iPhone tied by Authenticate but
 * never enrolled (its TokenUpdate lost) is asked too, and its answer finishes the enrolment
 * (apple-webhook.service).
 */
export const createAppleBridge = (deps: TBridgeDeps): TDeviceBridge => {
  const { db, config, client, events, log } = deps;

  /** The mdm_commands row of a command about to be enqueued (status `sent`). */
  const recordSent = (
    tx: DbOrTx,
    device: DeviceRow,
    command: TAppleCommand,
    link: { commandId?: string; policyVersion?: number },
    result: Record<string, unknown> | null = null,
  ) =>
    repo.insertMdmCommand(tx, {
      id: command.CommandUUID,
      orgId: device.orgId,
      deviceId: device.id,
      requestType: command.Command.RequestType,
      commandId: link.commandId ?? null,
      policyVersion: link.policyVersion ?? null,
      status: 'sent',
      result,
    });

  /** Writes the mdm_commands row, then enqueues; a refused enqueue marks the row and throws. */
  const enqueue = async (
    device: DeviceRow,
    command: TAppleCommand,
    link: { commandId?: string; policyVersion?: number },
    result: Record<string, unknown> | null = null,
  ): Promise<void> => {
    await recordSent(db, device, command, link, result);
    await send(device, command);
  };

  /** Enqueues a recorded command at NanoMDM; a refused enqueue marks its row and throws. */
  const send = async (device: DeviceRow, command: TAppleCommand): Promise<void> => {
    try {
      await client.enqueue(device.mdmId!, toPlist(command));
    } catch (error) {
      await repo.updateMdmCommand(db, command.CommandUUID, {
        status: 'enqueue_failed',
        result: { error: error instanceof Error ? error.message : String(error) },
      });
      throw error;
    }
  };

  const profileIdentifier = `${config.APPLE_MDM_PROFILE_IDENTIFIER}.restrictions`;

  /** What the phone holds once its queue is empty: the newest Restrictions profile command's content. */
  const restrictionsAhead = async (device: DeviceRow): Promise<TRestrictions> => {
    const row = await repo.findNewestRestrictionsCommand(db, device.id);
    if (!row || row.requestType === 'RemoveProfile') return NO_RESTRICTIONS;
    return (row.result?.restrictions as TRestrictions | undefined) ?? NO_RESTRICTIONS;
  };

  /**
   * Brings the phone's Restrictions profile to `wanted`: InstallProfile of the whole profile (it
   * replaces the one installed, same PayloadIdentifier), or RemoveProfile when nothing is left to
   * restrict and a profile is (or will be) on the phone. Returns false when there was nothing to send.
   */
  const sendRestrictions = async (
    device: DeviceRow,
    wanted: TRestrictions,
    link: { commandId?: string; policyVersion: number },
  ): Promise<boolean> => {
    const uuid = randomUUID();
    const mark = { profile: repo.RESTRICTIONS_PROFILE_MARK, identifier: profileIdentifier };
    if (isUnrestricted(wanted)) {
      const ahead = await repo.findNewestRestrictionsCommand(db, device.id);
      if (ahead?.requestType !== 'InstallProfile') return false;
      await enqueue(device, removeProfileCommand(uuid, profileIdentifier), link, {
        ...mark,
        restrictions: NO_RESTRICTIONS,
      });
      return true;
    }
    const retailer = await repo.findRetailerOfDevice(db, device.id);
    await enqueue(
      device,
      installProfileCommand(uuid, restrictionsProfile(profileIdentifier, wanted, retailer?.name)),
      link,
      { ...mark, restrictions: wanted },
    );
    return true;
  };

  /** Turns a policy version into Apple commands; returns [enqueued now, already waiting]. */
  const applyPolicy = async (device: DeviceRow, policy: TPolicyVersion): Promise<[number, number]> => {
    const waiting = await repo.findEnqueuedCommandIds(
      db,
      policy.commands.map((c) => c.id),
    );
    let enqueued = 0;
    const version = policy.version;
    const isSupervised =
      typeof device.mdmInfo?.IsSupervised === 'boolean' ? device.mdmInfo.IsSupervised : null;
    const wanted = restrictionsOfPolicy(policy.policy, isSupervised);
    for (const command of policy.commands) {
      if (waiting.has(command.id)) continue;
      const uuid = randomUUID();
      const lostMode = policy.policy.controls.lost_mode;
      if (command.name === 'lock' && policy.policy.locked) {
        const screen = ZLockScreen.safeParse(policy.policy.lockScreen);
        const retailer = screen.success ? null : await repo.findRetailerOfDevice(db, device.id);
        const message = screen.success
          ? lockScreenMessage(screen.data)
          : `${retailer?.name ?? 'Your retailer'} locked this phone. Contact them to unlock it.`;
        const phone = screen.success ? screen.data.retailerPhone : (retailer?.mobile ?? '');
        await enqueue(device, deviceLockCommand(uuid, { message, phone }), {
          commandId: command.id,
          policyVersion: version,
        });
        enqueued += 1;
      } else if (command.name === 'unlock' && !policy.policy.locked) {
        // DeviceLock is a screen lock the owner's passcode opens: nothing stays to undo.
        await reportAck(events, device, {
          commandId: command.id,
          status: 'done',
          state: reportedStateOf(device, { isLocked: false }),
        });
      } else if (command.name === 'lost_mode_on' && lostMode?.on) {
        const args = (lostMode.args ?? {}) as { message?: string; phone?: string };
        const retailer = await repo.findRetailerOfDevice(db, device.id);
        await enqueue(
          device,
          enableLostModeCommand(uuid, {
            message: args.message ?? 'This phone is in lost mode.',
            phone: args.phone ?? retailer?.mobile,
            footnote: retailer ? `Financed by ${retailer.name}` : undefined,
          }),
          { commandId: command.id, policyVersion: version },
        );
        enqueued += 1;
      } else if (command.name === 'lost_mode_off' && !lostMode?.on) {
        const newest = await repo.findNewestMdmCommandOfTypes(db, device.id, LOST_MODE_TYPES);
        if (newest?.requestType === 'EnableLostMode') {
          await enqueue(device, bareCommand(uuid, 'DisableLostMode'), {
            commandId: command.id,
            policyVersion: version,
          });
          enqueued += 1;
        } else {
          await reportAck(events, device, {
            commandId: command.id,
            status: 'done',
            state: reportedStateOf(device, { controls: { lost_mode: false } }),
          });
        }
      } else if (restrictionFeatureOf(command.name)) {
        const { feature, isOn } = restrictionFeatureOf(command.name)!;
        // A toggle the policy no longer asks for (superseded) sends nothing, as lock does.
        if ((policy.policy.controls[feature]?.on === true) !== isOn) continue;
        if (isOn && isSupervised === false && SUPERVISED_ONLY.includes(feature)) {
          await reportAck(events, device, {
            commandId: command.id,
            status: 'failed',
            error: needsSupervision(feature),
            state: reportedStateOf(device, {}),
          });
          continue;
        }
        if (await sendRestrictions(device, wanted, { commandId: command.id, policyVersion: version })) {
          enqueued += 1;
        } else {
          await reportAck(events, device, {
            commandId: command.id,
            status: 'done',
            state: reportedStateOf(device, { controls: controlsOfRestrictions(NO_RESTRICTIONS) }),
          });
        }
      } else if (!['lock', 'unlock', 'lost_mode_on', 'lost_mode_off'].includes(command.name)) {
        await reportAck(events, device, {
          commandId: command.id,
          status: 'failed',
          error: notOnIphone(command.name),
          state: reportedStateOf(device, {}),
        });
      }
    }
    // The safeguard: lost mode off in the policy, but the phone's queue ends with EnableLostMode.
    if (!policy.policy.controls.lost_mode?.on) {
      const newest = await repo.findNewestMdmCommandOfTypes(db, device.id, LOST_MODE_TYPES);
      if (newest?.requestType === 'EnableLostMode') {
        await enqueue(device, bareCommand(randomUUID(), 'DisableLostMode'), { policyVersion: version });
        enqueued += 1;
      }
    }
    // The same safeguard for restrictions: a toggle cancelled or superseded after its profile went
    // to NanoMDM is followed by the profile the policy asks for now (or its removal).
    if (!isSameRestrictions(await restrictionsAhead(device), wanted)) {
      if (await sendRestrictions(device, wanted, { policyVersion: version })) enqueued += 1;
    }
    return [enqueued, waiting.size];
  };

  /** The Apple command of a one-shot command message, or why there is none. */
  const appleCommandOf = (uuid: string, message: TCommandMessage): TAppleCommand | { error: string } => {
    switch (message.name) {
      case 'location':
        return bareCommand(uuid, 'DeviceLocation');
      case 'reboot':
        return bareCommand(uuid, 'RestartDevice');
      case 'sim_info':
        return deviceInformationCommand(uuid, ['ServiceSubscriptions', 'IMEI']);
      case 'check_status':
        return deviceInformationCommand(uuid);
      case 'disable_activation_lock':
        return bareCommand(uuid, 'ActivationLockBypassCode');
      case 'uninstall':
        return removeProfileCommand(uuid, config.APPLE_MDM_PROFILE_IDENTIFIER);
      case 'install_apple_onemodapp':
        if (config.APPLE_ONE_MODE_APP_MANIFEST_URL)
          return installApplicationCommand(uuid, { manifestUrl: config.APPLE_ONE_MODE_APP_MANIFEST_URL });
        if (config.APPLE_ONE_MODE_APP_ITUNES_ID)
          return installApplicationCommand(uuid, { iTunesStoreId: config.APPLE_ONE_MODE_APP_ITUNES_ID });
        return {
          error:
            'The one-mode app is not configured on this server (APPLE_ONE_MODE_APP_MANIFEST_URL or APPLE_ONE_MODE_APP_ITUNES_ID)',
        };
      default:
        return { error: notOnIphone(message.name) };
    }
  };

  /** Sends one one-shot command; returns [enqueued now, already waiting]. */
  const runCommand = async (device: DeviceRow, message: TCommandMessage): Promise<[number, number]> => {
    if ((await repo.findEnqueuedCommandIds(db, [message.id])).size > 0) return [0, 1];
    if (new Date(message.notAfter).getTime() < Date.now()) {
      await reportAck(events, device, {
        commandId: message.id,
        status: 'dropped',
        error: 'too old to apply',
        state: reportedStateOf(device, {}),
      });
      return [0, 0];
    }
    const command = appleCommandOf(randomUUID(), message);
    if ('error' in command) {
      await reportAck(events, device, {
        commandId: message.id,
        status: 'failed',
        error: command.error,
        state: reportedStateOf(device, {}),
      });
      return [0, 0];
    }
    await enqueue(device, command, { commandId: message.id, policyVersion: message.policyVersion });
    return [1, 0];
  };

  return {
    enrolmentQr: async ({ token, baseUrl }) => ({
      payload: `${baseUrl}${paths.apple.enrolmentProfilePrefix}${token}.mobileconfig`,
    }),

    deliver: async (device, messages: TServerMessage[]) => {
      if (!device.mdmId) {
        throw new AppError(AppErrorCode.MDM_UNAVAILABLE, 'The iPhone has not enrolled with NanoMDM yet');
      }
      let enqueued = 0;
      let waiting = 0;
      for (const message of messages) {
        const [now, before] =
          message.type === 'policy'
            ? await applyPolicy(device, message)
            : message.type === 'sync'
              ? await applyPolicy(device, message.policy)
              : message.type === 'command'
                ? await runCommand(device, message)
                : [0, 0];
        enqueued += now;
        waiting += before;
      }
      // A re-send of what NanoMDM already holds: wake the phone so it fetches it (enqueue pushes itself).
      if (enqueued === 0 && waiting > 0) await client.push(device.mdmId);
    },

    reconcile: async (now) => {
      const before = new Date(now.getTime() - config.NANOMDM_RECONCILE_AFTER_MS);
      const lost = await repo.markLostMdmCommands(db, before, RECONCILE_BATCH);
      // Chosen and recorded under one lock, so two processes never ask one iPhone twice.
      const asked = await db.transaction(async (tx) => {
        await repo.lockAppleQuestions(tx);
        const devices = await repo.findAppleDevicesToAsk(tx, before, RECONCILE_BATCH, now);
        const questions = devices.map((device) => ({
          device,
          command: deviceInformationCommand(randomUUID()),
        }));
        for (const { device, command } of questions) await recordSent(tx, device, command, {});
        return questions;
      });
      for (const { device, command } of asked) {
        try {
          await send(device, command);
        } catch (error) {
          log.warn(
            { err: error, deviceId: device.id },
            'NanoMDM reconciliation: the iPhone could not be asked',
          );
        }
      }
      if (lost.length + asked.length > 0) {
        log.info({ lostDevices: lost.length, asked: asked.length }, 'NanoMDM reconciliation ran');
      }
      return lost;
    },

    retire: async (device) => {
      if (!device.mdmId) return;
      // Queued for the old UDID only. NanoMDM empties an enrolment's queue on Authenticate
      // (service/nanomdm/service.go), so the same iPhone wiped and enrolled again never runs it.
      await client.enqueue(
        device.mdmId,
        toPlist(removeProfileCommand(randomUUID(), config.APPLE_MDM_PROFILE_IDENTIFIER)),
      );
    },

    cancel: async (command: CommandRow) => {
      // NanoMDM has no API to take a queued command back (its queue is only emptied by the phone).
      const isEnqueued =
        (await repo.findEnqueuedCommandIds(db, [command.id]).catch(() => new Set())).size > 0;
      if (isEnqueued) {
        log.info(
          { commandId: command.id, name: command.name },
          'cancelled command is already queued at NanoMDM; the phone may still run it',
        );
      }
    },
  };
};
