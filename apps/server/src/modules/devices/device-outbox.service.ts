import { isPolicyCommand, POLICY_COMMAND_NAMES } from '@kisht/domain/devices/device-policy';
import {
  cmdTopic,
  type TCancelMessage,
  type TCommandMessage,
  type TServerMessage,
} from '@kisht/domain/devices/protocol.schema';
import { signServerMessage } from '@kisht/domain/devices/server-message';
import type { FastifyBaseLogger } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../../db/client';
import { runDetached } from '../../db/statement-counter';
import type { DeviceBus } from '../../device-channel/bus';
import { NO_PUSH, type TPushGateway } from '../push/push.service';
import { recordPushRefusal } from '../push/push-refusal.service';
import type { CommandRow } from './commands.repository';
import * as commandsRepo from './commands.repository';
import type { TDeviceBridges } from './device-bridge';
import { commandMessage, policyVersionOf } from './device-messages';
import * as reportsRepo from './device-reports.repository';
import type { DeviceRow } from './devices.repository';
import * as devicesRepo from './devices.repository';
import { ServerKeys } from './server-keys.service';

/** How long a retired phone's release stays valid, ms (it is sent to a phone connected now). */
const RETIRE_VALID_MS = 3_600_000;
/** How long after its release a retired phone's connection is ended, ms: time for it to arrive. */
const RETIRE_GRACE_MS = 2_000;

/**
 * The device outbox (design §5, device protocol §5–§7): sends what the command rows and device
 * policies say to the phones, every message signed with the organisation's key. A command row is
 * written first (in the request's transaction) and sent after commit; rows are marked sent before
 * they are published, so a lost publish is caught by the re-send of unacknowledged commands.
 * Lock/unlock and toggles go out as the device's current policy version; other commands as
 * command messages; a hello is answered with a sync.
 */
export class CommandDispatcher {
  /** The organisations' signing keys; every message to a device is signed (device protocol §5). */
  readonly serverKeys: ServerKeys;
  /**
   * How phones of the MDM channels are reached (issue 15; buildApp sets them). A phone of a channel
   * without a bridge gets nothing: its commands stay pending until one is configured.
   */
  bridges: TDeviceBridges = {};
  /** Work running after its request answered (a bulk's later chunks), until done. */
  private readonly running = new Set<Promise<void>>();
  /** Set by close(): background work stops at its next step (the bulk job resumes it later). */
  private isClosing = false;

  constructor(
    private readonly db: Db,
    private readonly bus: DeviceBus,
    private readonly log: FastifyBaseLogger,
    /** Wakes offline phones with something waiting (device protocol §14); default: none. */
    private readonly push: TPushGateway = NO_PUSH,
  ) {
    this.serverKeys = new ServerKeys(db);
  }

  /**
   * Runs `work` after the caller's answer (a bulk's later chunks, issue 26), logging a failure as
   * `name`. `work` is asked to stop (its argument answers true) once the server closes; close()
   * waits for it.
   */
  inBackground(name: string, work: (shouldStop: () => boolean) => Promise<void>): void {
    // Detached from the request's statement count (it answers without waiting for this).
    const run: Promise<void> = runDetached(() => work(() => this.isClosing))
      .catch((error: unknown) => this.log.error({ err: error }, `${name} failed`))
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  /** Asks background work to stop and waits for it (the server is closing). */
  async close(): Promise<void> {
    this.isClosing = true;
    await Promise.all(this.running);
  }

  /**
   * Wakes the offline phones among `deviceIds` that have an FCM token and were not woken in the
   * last minute (device protocol §14), so a phone in Doze reconnects and says hello. A dead token,
   * or one the push service refuses for good, is forgotten and audited (issue 27: once per token,
   * shown on customer_details); a push service that cannot be reached
   * (or asked to wait: Retry-After) is logged. Never throws.
   */
  async wake(deviceIds: string[]): Promise<number> {
    if (this.push === NO_PUSH || deviceIds.length === 0) return 0;
    let woken = 0;
    try {
      const due = await reportsRepo.claimWakes(this.db, deviceIds);
      for (let i = 0; i < due.length; i += 50) {
        await Promise.all(
          due.slice(i, i + 50).map(async ({ id, push_token: token }) => {
            try {
              const result = await this.push.wake({ token, deviceId: id });
              if (result.kind === 'sent') woken += 1;
              else {
                // A token that can never work is forgotten, so it is not tried every minute; the
                // phone sends a fresh one with its next hello (device protocol §14). The refusal
                // is recorded once per token, and the device's page says why wake-ups stopped.
                await reportsRepo.clearPushToken(this.db, id, token);
                await recordPushRefusal(this.db, {
                  deviceId: id,
                  token,
                  reason: result.kind,
                  fcmError: result.fcmError,
                });
                if (result.kind === 'rejected')
                  this.log.warn(
                    { deviceId: id },
                    'FCM refused the push token (malformed, or another sender’s): forgotten',
                  );
              }
            } catch (error) {
              this.log.warn({ err: error, deviceId: id }, 'wake-up push failed');
            }
          }),
        );
      }
    } catch (error) {
      this.log.warn({ err: error, devices: deviceIds.length }, 'wake-up pushes failed');
    }
    return woken;
  }

  /**
   * Sends a freshly committed command: a lock/unlock or toggle goes out as its device's current
   * policy (device protocol §6), any other command as a signed command message. A failure to
   * publish is logged, not thrown: the row is marked sent first, so the re-send of unacknowledged
   * commands (or the device's next hello) delivers it.
   */
  async dispatch(command: CommandRow): Promise<void> {
    await this.dispatchMany([command]);
  }

  /**
   * Sends many freshly committed commands (a bulk request, a job): the policies of the devices
   * whose lock or toggles they edit, and the other commands as command messages, 100 devices at
   * a time. Publish failures are logged; those go out again with the re-send of unacknowledged
   * commands or on the device's next hello.
   */
  async dispatchMany(commands: CommandRow[], concurrency = 100): Promise<void> {
    const policyDevices = new Set<string>();
    const actions: CommandRow[] = [];
    for (const command of commands) {
      if (isPolicyCommand(command.name)) policyDevices.add(command.deviceId);
      else actions.push(command);
    }
    try {
      await this.sendToDevices(
        { policyOf: [...policyDevices], commands: actions },
        undefined,
        concurrency,
        'publish failed; it goes out again with the re-send or the next hello',
      );
    } catch (error) {
      this.log.warn({ err: error, commands: commands.length }, 'dispatch failed; the re-send job retries');
    }
  }

  /**
   * Publishes the current policy of devices whose policy changed without a command of their own
   * (a cancelled or expired lock or toggle reverted). Failures are logged; the device gets the
   * policy with its next sync.
   */
  async publishPolicies(deviceIds: string[]): Promise<void> {
    try {
      await this.sendToDevices(
        { policyOf: deviceIds, commands: [] },
        undefined,
        100,
        'policy publish failed',
      );
    } catch (error) {
      this.log.warn({ err: error, devices: deviceIds.length }, 'policy publish failed');
    }
  }

  /**
   * Retires a phone that a re-enrolment took out (issue 27), `device` as it was before: an MQTT
   * phone that may still be connected gets a signed `uninstall` command message (it releases
   * itself; its ack names no command of ours, from a device no longer enrolled, and is ignored),
   * and RETIRE_GRACE_MS later its connection to this broker is ended, unless a new phone enrolled
   * meanwhile; an MDM phone is released by its bridge (TDeviceBridge.retire) when its channel has
   * one. Resolves whether the release went out; never throws.
   */
  async retireDevice(device: DeviceRow): Promise<boolean> {
    if (device.channel !== 'mqtt') {
      const bridge = this.bridges[device.channel as keyof TDeviceBridges];
      if (!device.mdmId || !bridge?.retire) return false;
      try {
        await bridge.retire(device);
        return true;
      } catch (error) {
        this.log.warn({ err: error, deviceId: device.id }, 'release of a re-enrolled phone not sent');
        return false;
      }
    }
    try {
      const key = await this.serverKeys.forOrg(device.orgId);
      const issuedAt = new Date();
      const message: TCommandMessage = {
        type: 'command',
        deviceId: device.id,
        id: uuidv7(),
        name: 'uninstall',
        args: {},
        issuedAt: issuedAt.toISOString(),
        notAfter: new Date(issuedAt.getTime() + RETIRE_VALID_MS).toISOString(),
        policyVersion: device.policyVersion,
      };
      await this.bus.publish(cmdTopic(device.id), signServerMessage(key, message));
      setTimeout(() => void this.disconnectRetired(device.id), RETIRE_GRACE_MS).unref();
      return true;
    } catch (error) {
      this.log.warn({ err: error, deviceId: device.id }, 'release of a re-enrolled phone not sent');
      return false;
    }
  }

  /** Ends a retired phone's connection, unless the device has enrolled again since (a new secret). */
  private async disconnectRetired(deviceId: string): Promise<void> {
    try {
      const now = await devicesRepo.findDeviceById(this.db, deviceId);
      if (now && now.secretHash === null) await this.bus.disconnect?.(deviceId);
    } catch (error) {
      this.log.warn({ err: error, deviceId }, 'connection of a re-enrolled phone not ended');
    }
  }

  /**
   * Tells the device that a one-shot command was cancelled (device protocol §7: it must not apply
   * it, and acks dropped if it had not). Failures are logged: the next sync leaves it out anyway.
   */
  async publishCancel(command: CommandRow): Promise<void> {
    try {
      const device = await devicesRepo.findDeviceById(this.db, command.deviceId);
      if (device && device.channel !== 'mqtt') {
        await this.bridges[device.channel as keyof TDeviceBridges]?.cancel?.(command);
        return;
      }
      const key = await this.serverKeys.forOrg(command.orgId);
      const message: TCancelMessage = {
        type: 'cancel',
        deviceId: command.deviceId,
        id: command.id,
        issuedAt: new Date().toISOString(),
      };
      await this.bus.publish(cmdTopic(command.deviceId), signServerMessage(key, message));
    } catch (error) {
      this.log.warn({ err: error, commandId: command.id }, 'cancel publish failed');
    }
  }

  /**
   * Re-sends what these devices have pending (commands left unacknowledged while the device stayed
   * connected): the current policy to each device with a pending lock or toggle, and each pending
   * one-shot command, oldest first. Devices go out 100 at a time; a device whose publish fails is
   * logged and skipped, to be tried again. Records the deliveries as published at `at`. Returns how
   * many messages were published.
   */
  async resendPendingOfDevices(
    deviceIds: string[],
    at: Date = new Date(),
    concurrency = 100,
  ): Promise<number> {
    const pending = await commandsRepo.findPendingCommandsOfDevices(this.db, deviceIds);
    const policyOf = new Set<string>();
    const commands: CommandRow[] = [];
    for (const command of pending) {
      if (isPolicyCommand(command.name)) policyOf.add(command.deviceId);
      else commands.push(command);
    }
    return this.sendToDevices(
      { policyOf: [...policyOf], commands },
      at,
      concurrency,
      'command re-send failed; it stays pending',
    );
  }

  /**
   * Publishes to each device, in this order: its sync (answering a hello on `syncs`' connection),
   * its current policy (`policyOf`), then its one-shot `commands`, oldest first. The lock/toggle
   * commands a policy carries are read first and the devices' policies after, so a policy always
   * includes the edits of the commands it lists. Every command listed or sent is recorded as
   * delivered at `at` (default now) before it is published: a done ack is accepted only for a
   * command that was sent. Devices go out `concurrency` at a time; a device whose publish fails is
   * logged with `failure` and skipped. Returns how many messages went out.
   */
  private async sendToDevices(
    what: {
      policyOf?: string[];
      commands: CommandRow[];
      syncs?: Map<string, { connectionId: string; helloSeq?: number | undefined }>;
    },
    at: Date | undefined,
    concurrency: number,
    failure: string,
  ): Promise<number> {
    const syncs = what.syncs ?? new Map<string, { connectionId: string; helloSeq?: number | undefined }>();
    const policyOf = new Set([...(what.policyOf ?? []), ...syncs.keys()]);
    const policyCommands = await commandsRepo.findPendingPolicyCommandsOfDevices(
      this.db,
      [...policyOf],
      POLICY_COMMAND_NAMES,
    );
    const commandsOf = new Map<string, CommandRow[]>();
    for (const command of what.commands) {
      const list = commandsOf.get(command.deviceId) ?? [];
      list.push(command);
      commandsOf.set(command.deviceId, list);
    }
    const deviceIds = [...new Set([...policyOf, ...commandsOf.keys()])];
    const devices = new Map(
      (await devicesRepo.findDevicesByIds(this.db, deviceIds)).map((device) => [device.id, device]),
    );
    const live = deviceIds.flatMap((id) => {
      const device = devices.get(id);
      return device && this.isLive(device) ? [device] : [];
    });
    const delivered = live.flatMap(({ id }) => [
      ...(policyOf.has(id) ? (policyCommands.get(id) ?? []) : []),
      ...(commandsOf.get(id) ?? []),
    ]);
    await commandsRepo.markManySent(
      this.db,
      delivered.map((command) => command.id),
      at,
    );
    return this.publishToDevices(live, { policyOf, policyCommands, commandsOf, syncs }, concurrency, failure);
  }

  /** The channels this outbox delivers to now: MQTT and those with a bridge (issue 15). */
  get liveChannels(): string[] {
    return [
      'mqtt',
      ...Object.keys(this.bridges).filter((channel) => this.bridges[channel as keyof TDeviceBridges]),
    ];
  }

  /** Whether a device can be sent to: enrolled, and with its secret (MQTT) or known to its bridge. */
  private isLive(device: DeviceRow): boolean {
    if (!device.enrolledAt) return false;
    // An MDM phone is reached through its bridge, once its service knows it (issue 15).
    if (device.channel !== 'mqtt')
      return Boolean(device.mdmId && this.bridges[device.channel as keyof TDeviceBridges]);
    return Boolean(device.secretHash);
  }

  /**
   * Publishes what the command gate wrote sent (issue 26: command-gate enqueueOrders with
   * liveChannels), as written, with no read and no second mark: to each edited device its new
   * policy (carrying `listed` and its new lock/toggle commands, oldest first), then the one-shot
   * `commands` to their devices (`targets`: the devices as the request read them). Failures are
   * logged; the re-send of unacknowledged commands or the next hello delivers them.
   */
  async publishWritten(written: {
    commands: CommandRow[];
    devices: DeviceRow[];
    listed: CommandRow[];
    targets: Map<string, DeviceRow>;
  }): Promise<void> {
    try {
      const policyCommands = new Map<string, CommandRow[]>();
      const commandsOf = new Map<string, CommandRow[]>();
      const add = (map: Map<string, CommandRow[]>, command: CommandRow) =>
        map.set(command.deviceId, [...(map.get(command.deviceId) ?? []), command]);
      for (const command of written.listed) add(policyCommands, command);
      for (const command of written.commands)
        add(isPolicyCommand(command.name) ? policyCommands : commandsOf, command);
      const devices = new Map(written.devices.map((device) => [device.id, device]));
      for (const id of commandsOf.keys()) {
        const target = written.targets.get(id);
        if (!devices.has(id) && target) devices.set(id, target);
      }
      const live = [...devices.values()].filter((device) => this.isLive(device));
      await this.publishToDevices(
        live,
        { policyOf: new Set(written.devices.map((d) => d.id)), policyCommands, commandsOf, syncs: new Map() },
        100,
        'publish failed; it goes out again with the re-send or the next hello',
      );
    } catch (error) {
      this.log.warn(
        { err: error, commands: written.commands.length },
        'publish failed; the re-send job retries',
      );
    }
  }

  /**
   * Answers hellos whose devices' pending commands the event round already read and marked sent
   * (issue 26, device-reports recordRound): to each device a sync for the connection that said
   * hello, with its current policy (carrying its pending lock/toggle commands) and the ids of its
   * pending one-shot commands, which follow it. No read. A device whose publish fails is logged;
   * it says hello again when no sync comes.
   */
  async publishSyncs(
    hellos: { device: DeviceRow; connectionId: string; helloSeq?: number | undefined }[],
    pending: CommandRow[],
  ): Promise<void> {
    const policyCommands = new Map<string, CommandRow[]>();
    const commandsOf = new Map<string, CommandRow[]>();
    for (const command of pending) {
      const map = isPolicyCommand(command.name) ? policyCommands : commandsOf;
      map.set(command.deviceId, [...(map.get(command.deviceId) ?? []), command]);
    }
    await this.publishToDevices(
      hellos.map(({ device }) => device).filter((device) => this.isLive(device)),
      {
        policyOf: new Set(),
        policyCommands,
        commandsOf,
        syncs: new Map(
          hellos.map(({ device, connectionId, helloSeq }) => [device.id, { connectionId, helloSeq }]),
        ),
      },
      100,
      'sync publish failed; the device says hello again',
    );
  }

  /**
   * Publishes to each live device, in this order: its sync (answering a hello on `syncs`'
   * connection), its current policy (`policyOf`, carrying `policyCommands`), then its one-shot
   * commands, oldest first; `concurrency` devices at a time. A device whose publish fails is logged
   * with `failure` and skipped. Offline phones with an FCM token get a wake-up push (not awaited).
   * Returns how many messages went out.
   */
  private async publishToDevices(
    live: DeviceRow[],
    what: {
      policyOf: Set<string>;
      policyCommands: Map<string, CommandRow[]>;
      commandsOf: Map<string, CommandRow[]>;
      syncs: Map<string, { connectionId: string; helloSeq?: number | undefined }>;
    },
    concurrency: number,
    failure: string,
  ): Promise<number> {
    const { policyOf, policyCommands, commandsOf, syncs } = what;
    const now = new Date();
    let published = 0;
    for (let i = 0; i < live.length; i += concurrency) {
      await Promise.all(
        live.slice(i, i + concurrency).map(async (device) => {
          const deviceId = device.id;
          try {
            const key = await this.serverKeys.forOrg(device.orgId);
            const policy = policyVersionOf(device, policyCommands.get(deviceId) ?? []);
            const messages: TServerMessage[] = [];
            const hello = syncs.get(deviceId);
            if (hello !== undefined) {
              messages.push({
                type: 'sync',
                deviceId,
                connectionId: hello.connectionId,
                ...(hello.helloSeq === undefined ? {} : { helloSeq: hello.helloSeq }),
                serverTime: now.toISOString(),
                policy,
                commandIds: (commandsOf.get(deviceId) ?? []).map((command) => command.id),
              });
            } else if (policyOf.has(deviceId)) messages.push({ type: 'policy', deviceId, ...policy });
            for (const command of commandsOf.get(deviceId) ?? []) {
              messages.push(commandMessage(command, device.policyVersion));
            }
            const bridge = this.bridges[device.channel as keyof TDeviceBridges];
            if (device.channel !== 'mqtt' && bridge) {
              await bridge.deliver(device, messages);
              published += messages.length;
              return;
            }
            for (const message of messages) {
              await this.bus.publish(cmdTopic(deviceId), signServerMessage(key, message));
              published += 1;
            }
          } catch (error) {
            this.log.warn({ err: error, deviceId }, failure);
          }
        }),
      );
    }
    // Phones that are offline get a wake-up push, so they come and fetch it (not awaited).
    void this.wake(
      live
        .filter((device) => device.channel === 'mqtt' && !device.isOnline && device.pushToken)
        .map((d) => d.id),
    );
    return published;
  }

  /**
   * Answers hellos (device protocol §6): to each device a sync for the connection that said hello,
   * with its current policy and the ids of its pending one-shot commands, which follow it. A device
   * whose publish fails is logged; it says hello again when no sync comes.
   */
  async syncDevices(
    hellos: { deviceId: string; connectionId: string; helloSeq?: number | undefined }[],
  ): Promise<void> {
    if (hellos.length === 0) return;
    const pending = await commandsRepo.findPendingCommandsOfDevices(
      this.db,
      hellos.map(({ deviceId }) => deviceId),
    );
    const syncs = new Map(
      hellos.map(({ deviceId, connectionId, helloSeq }) => [deviceId, { connectionId, helloSeq }]),
    );
    await this.sendToDevices(
      { commands: pending.filter((command) => !isPolicyCommand(command.name)), syncs },
      undefined,
      100,
      'sync publish failed; the device says hello again',
    );
  }
}
