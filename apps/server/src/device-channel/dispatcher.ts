import {
  deviceIdFromTopic,
  type TAckEvent,
  type TLocationFix,
  type TReportEvent,
  type TReportedState,
  type TSimSlot,
  ZLocationFix,
} from '@kisht/domain/devices/protocol.schema';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { CommandRow, DeviceRow } from '../modules/devices/devices.repository';
import * as devicesRepo from '../modules/devices/devices.repository';
import type { DeviceBus } from './bus';
import { commandMessage, parseDeviceEvent } from './protocol';

/**
 * Moves commands from the outbox to devices and device events back into the database (design §5).
 * Every state change is a conditional update, so duplicate or out-of-order acks never move a
 * command backwards, and delivery can be retried any number of times.
 */
/** What the rest of the server wants to hear about from devices (set once by buildApp). */
export type TDispatcherHooks = {
  /** A device reported SIM slots different from the ones it reported before. */
  simChanged?: (change: { device: DeviceRow; before: TSimSlot[]; after: TSimSlot[] }) => Promise<void>;
  /** A device acknowledged a command as done (after its result is stored). */
  commandDone?: (done: {
    device: DeviceRow;
    command: CommandRow;
    result: Record<string, unknown> | undefined;
  }) => Promise<void>;
  /** A device reported a lock or unlock it made offline (offline code or offline limit). */
  offlineLock?: (report: { device: DeviceRow; data: Record<string, unknown> }) => Promise<void>;
};

export class CommandDispatcher {
  private readonly chains = new Map<string, Promise<void>>();
  /** Listeners for device events; buildApp sets them. */
  hooks: TDispatcherHooks = {};

  constructor(
    private readonly db: Db,
    private readonly bus: DeviceBus,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Publishes one command row if it is still pending, and marks a queued one sent. */
  async send(command: CommandRow): Promise<void> {
    const { topic, payload } = commandMessage(command);
    await this.bus.publish(topic, payload);
    await devicesRepo.countDeliveryAttempt(this.db, command.id, command.deliveryAttempts + 1);
    await devicesRepo.transitionCommand(this.db, command.id, ['queued'], 'sent');
  }

  /**
   * Sends a freshly committed command. A failure to publish is logged, not thrown: the row stays
   * queued and goes out on the device's next hello.
   */
  async dispatch(command: CommandRow): Promise<void> {
    try {
      await this.send(command);
    } catch (error) {
      this.log.warn({ err: error, commandId: command.id }, 'command publish failed; it stays queued');
    }
  }

  /**
   * Sends many freshly committed commands (a bulk request): publishes each, then records the
   * deliveries in a few statements. Publish failures are logged; those rows stay queued and go out
   * on their device's next hello.
   */
  async dispatchMany(commands: CommandRow[], concurrency = 100): Promise<void> {
    const published: string[] = [];
    for (let i = 0; i < commands.length; i += concurrency) {
      await Promise.all(
        commands.slice(i, i + concurrency).map(async (command) => {
          const { topic, payload } = commandMessage(command);
          try {
            await this.bus.publish(topic, payload);
            published.push(command.id);
          } catch (error) {
            this.log.warn({ err: error, commandId: command.id }, 'command publish failed; it stays queued');
          }
        }),
      );
    }
    await devicesRepo.markManySent(this.db, published);
  }

  /** Re-sends every pending command of a device, oldest first (on hello). */
  async resendPending(deviceId: string): Promise<void> {
    for (const command of await devicesRepo.findPendingCommands(this.db, deviceId)) await this.send(command);
  }

  /** Entry point for every message on `kisht/v1/d/+/evt`; events of one device are handled in order. */
  handleEvent = (topic: string, payload: Buffer): Promise<void> => {
    const deviceId = deviceIdFromTopic(topic);
    if (!deviceId) return Promise.resolve();
    const previous = this.chains.get(deviceId) ?? Promise.resolve();
    const next = previous.then(() => this.processEvent(deviceId, payload));
    const settled = next.catch((error: unknown) =>
      this.log.error({ err: error, deviceId }, 'device event failed'),
    );
    this.chains.set(deviceId, settled);
    void settled.then(() => {
      if (this.chains.get(deviceId) === settled) this.chains.delete(deviceId);
    });
    return next;
  };

  private async processEvent(deviceId: string, payload: Buffer): Promise<void> {
    const parsed = parseDeviceEvent(payload);
    if ('error' in parsed) {
      this.log.warn({ deviceId, problem: parsed.error }, 'malformed device event ignored');
      return;
    }
    const device = await devicesRepo.findDeviceById(this.db, deviceId);
    if (!device?.enrolledAt) {
      this.log.warn({ deviceId }, 'event from unknown device ignored');
      return;
    }
    const { event } = parsed;
    await this.recordReportedState(device, event.state, event.at);
    if (event.type === 'hello') {
      await this.resendPending(deviceId);
      return;
    }
    if (event.type === 'report') {
      await this.recordReport(device, event);
      return;
    }
    await this.recordAck(device, event);
  }

  /**
   * Stores what the device says about itself: lock state, toggle states, presence, and its SIM
   * slots; a change of SIMs against what it reported before is recorded as a SIM change.
   */
  private async recordReportedState(device: DeviceRow, state: TReportedState, at: string): Promise<void> {
    const simsChanged =
      state.sims !== undefined && device.sims !== null && !sameSims(device.sims, state.sims);
    await this.db.transaction(async (tx) => {
      await devicesRepo.updateDevice(tx, device.id, {
        reportedLocked: state.isLocked,
        lastSeenAt: new Date(),
        isOnline: true,
        ...(state.controls ? { reportedControls: state.controls } : {}),
        ...(state.sims ? { sims: state.sims } : {}),
      });
      if (simsChanged) {
        await devicesRepo.insertSimChange(tx, {
          orgId: device.orgId,
          deviceId: device.id,
          customerId: device.customerId,
          before: device.sims!,
          after: state.sims!,
          detectedAt: validDate(at),
        });
      }
    });
    if (simsChanged) await this.hooks.simChanged?.({ device, before: device.sims!, after: state.sims! });
    if (state.sims) device.sims = state.sims;
  }

  /** A report the device made by itself: a location fix (tracking); SIM reports carry their state. */
  private async recordReport(device: DeviceRow, report: TReportEvent): Promise<void> {
    if (report.kind === 'location') {
      const fix = ZLocationFix.safeParse(report.data);
      if (fix.success) await this.recordLocation(device, fix.data, 'tracking');
      else this.log.warn({ deviceId: device.id }, 'malformed location report ignored');
    }
    if (report.kind === 'offline_lock') await this.hooks.offlineLock?.({ device, data: report.data });
  }

  private async recordLocation(
    device: DeviceRow,
    fix: TLocationFix,
    source: 'command' | 'tracking' | 'uninstall',
  ): Promise<void> {
    await devicesRepo.insertLocation(this.db, {
      orgId: device.orgId,
      deviceId: device.id,
      latitude: fix.latitude,
      longitude: fix.longitude,
      accuracyM: fix.accuracyM === undefined ? null : Math.round(fix.accuracyM),
      source,
      at: validDate(fix.at),
    });
    await devicesRepo.updateDevice(this.db, device.id, { lastLocation: fix });
  }

  private async recordAck(device: DeviceRow, ack: TAckEvent): Promise<void> {
    const command = await devicesRepo.findCommand(this.db, ack.commandId);
    if (!command || command.deviceId !== device.id) {
      this.log.warn({ deviceId: device.id, commandId: ack.commandId }, 'ack for an unknown command ignored');
      return;
    }
    if (ack.status === 'received') {
      await devicesRepo.transitionCommand(this.db, command.id, ['queued', 'sent'], 'received');
      return;
    }
    const moved = await devicesRepo.transitionCommand(
      this.db,
      command.id,
      ['queued', 'sent', 'received'],
      ack.status,
      {
        error: ack.status === 'failed' ? (ack.error ?? 'failed on the device') : null,
      },
    );
    if (!moved || ack.status !== 'done') return;
    if (ack.result) {
      await devicesRepo.setCommandResult(this.db, command.id, ack.result);
      if (command.name === 'location' || command.name === 'uninstall') {
        const fix = ZLocationFix.safeParse(command.name === 'uninstall' ? ack.result.location : ack.result);
        if (fix.success)
          await this.recordLocation(device, fix.data, command.name === 'location' ? 'command' : 'uninstall');
      }
    }
    await this.hooks.commandDone?.({ device, command, result: ack.result });
  }
}

/** True when two SIM slot lists hold the same cards in the same slots. */
const sameSims = (a: TSimSlot[], b: TSimSlot[]): boolean => {
  const key = (slots: TSimSlot[]) =>
    [...slots]
      .sort((x, y) => x.slot - y.slot)
      .map((s) => `${s.slot}:${s.iccid ?? ''}`)
      .join('|');
  return key(a) === key(b);
};

/** The device's timestamp when it is a valid date, else now (a device clock is not trusted blindly). */
const validDate = (iso: string): Date => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? new Date() : date;
};
