import { randomUUID } from 'node:crypto';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TCommandMessage, TPolicyVersion, TServerMessage } from '@kisht/domain/devices/protocol.schema';
import { ZLockScreen } from '@kisht/domain/devices/protocol.schema';
import { paths } from '@kisht/domain/paths';
import type { FastifyBaseLogger } from 'fastify';
import type { TConfig } from '../../config';
import type { Db } from '../../db/client';
import type { TDeviceBridge } from '../devices/device-bridge';
import type { CommandRow, DeviceRow } from '../devices/devices.service';
import {
  bareCommand,
  deviceInformationCommand,
  deviceLockCommand,
  enableLostModeCommand,
  installApplicationCommand,
  lockScreenMessage,
  removeProfileCommand,
  type TAppleCommand,
  toPlist,
} from './apple-commands';
import { reportAck, reportedStateOf, type TDeviceEventSink } from './apple-events';
import * as repo from './apple-mdm.repository';
import type { TNanoMdmClient } from './nanomdm.client';

/** The lost-mode pair of Apple commands, whose newest one tells whether lost mode was left on. */
const LOST_MODE_TYPES = ['EnableLostMode', 'DisableLostMode'];

/** What a failed ack says for a Kisht control Apple's MDM protocol has no command for. */
const notOnIphone = (name: string) => `${name} is not available on an iPhone (Apple MDM has no such command)`;

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
 * - other toggles (camera, USB, app lock…) have no Apple command here: their commands fail with why.
 *
 * A command already enqueued (the re-send of unacknowledged commands) is not enqueued again; the
 * phone is pushed instead, so it checks in and fetches what waits.
 */
export const createAppleBridge = (deps: TBridgeDeps): TDeviceBridge => {
  const { db, config, client, events, log } = deps;

  /** Writes the mdm_commands row, then enqueues; a refused enqueue marks the row and throws. */
  const enqueue = async (
    device: DeviceRow,
    command: TAppleCommand,
    link: { commandId?: string; policyVersion?: number },
  ): Promise<void> => {
    await repo.insertMdmCommand(db, {
      id: command.CommandUUID,
      orgId: device.orgId,
      deviceId: device.id,
      requestType: command.Command.RequestType,
      commandId: link.commandId ?? null,
      policyVersion: link.policyVersion ?? null,
      status: 'sent',
    });
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

  /** Turns a policy version into Apple commands; returns [enqueued now, already waiting]. */
  const applyPolicy = async (device: DeviceRow, policy: TPolicyVersion): Promise<[number, number]> => {
    const waiting = await repo.findEnqueuedCommandIds(
      db,
      policy.commands.map((c) => c.id),
    );
    let enqueued = 0;
    const version = policy.version;
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
