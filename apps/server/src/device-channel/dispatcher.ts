import {
  deviceIdFromTopic,
  type TAckEvent,
  type TReportedState,
} from '@kisht/domain/devices/protocol.schema';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { CommandRow } from '../modules/devices/devices.repository';
import * as devicesRepo from '../modules/devices/devices.repository';
import type { DeviceBus } from './bus';
import { commandMessage, parseDeviceEvent } from './protocol';

/**
 * Moves commands from the outbox to devices and device events back into the database (design §5).
 * Every state change is a conditional update, so duplicate or out-of-order acks never move a
 * command backwards, and delivery can be retried any number of times.
 */
export class CommandDispatcher {
  private readonly chains = new Map<string, Promise<void>>();

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
    await this.recordReportedState(deviceId, event.state);
    if (event.type === 'hello') {
      await this.resendPending(deviceId);
      return;
    }
    await this.recordAck(deviceId, event);
  }

  private async recordReportedState(deviceId: string, state: TReportedState): Promise<void> {
    await devicesRepo.updateDevice(this.db, deviceId, {
      reportedLocked: state.isLocked,
      lastSeenAt: new Date(),
      isOnline: true,
    });
  }

  private async recordAck(deviceId: string, ack: TAckEvent): Promise<void> {
    const command = await devicesRepo.findCommand(this.db, ack.commandId);
    if (!command || command.deviceId !== deviceId) {
      this.log.warn({ deviceId, commandId: ack.commandId }, 'ack for an unknown command ignored');
      return;
    }
    if (ack.status === 'received') {
      await devicesRepo.transitionCommand(this.db, command.id, ['queued', 'sent'], 'received');
      return;
    }
    await devicesRepo.transitionCommand(this.db, command.id, ['queued', 'sent', 'received'], ack.status, {
      error: ack.status === 'failed' ? (ack.error ?? 'failed on the device') : null,
    });
  }
}
