import { locksScreen } from '@kisht/domain/devices/command-rules';
import {
  deviceIdFromTopic,
  type TAckEvent,
  type TDeviceEvent,
  type TGoneEvent,
  type THelloEvent,
  type TLocationFix,
  type TReportEvent,
  type TSimSlot,
  ZLocationFix,
} from '@kisht/domain/devices/protocol.schema';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { notifyLockFailed } from '../notifications/notifications.service';
import type { CommandRow } from './commands.repository';
import { parseDeviceEvent } from './device-messages';
import type { CommandDispatcher } from './device-outbox.service';
import * as reportsRepo from './device-reports.repository';
import type { DeviceRow } from './devices.repository';
import * as devicesRepo from './devices.repository';

/** What the rest of the server wants to hear about from devices (set once by buildApp). */
export type TDeviceEventHooks = {
  /** A device reported SIM slots different from the ones it reported before. */
  simChanged?: (change: { device: DeviceRow; before: TSimSlot[]; after: TSimSlot[] }) => Promise<void>;
  /** A device acknowledged a command as done (after its result is stored). */
  commandDone?: (done: {
    device: DeviceRow;
    command: CommandRow;
    result: Record<string, unknown> | undefined;
  }) => Promise<void>;
  /**
   * The commands a round of acknowledgements moved to done, all at once (after the per-command
   * commandDone): what a batch of them means to others (the lender's webhooks) costs one statement
   * a round, not one a command.
   */
  commandsDone?: (done: { device: DeviceRow; command: CommandRow }[]) => Promise<void>;
  /** A device reported a lock or unlock it made offline (offline code or offline limit). */
  offlineLock?: (report: { device: DeviceRow; data: Record<string, unknown> }) => Promise<void>;
  /** The link-based app reported its own removal (report kind 'app_removed', with where the phone was). */
  appRemoved?: (report: { device: DeviceRow; data: Record<string, unknown> }) => Promise<void>;
};

/** A device event waiting to be recorded, with the settlers of the promise handleEvent returned. */
type TQueuedEvent = {
  deviceId: string;
  payload: Buffer;
  resolve: () => void;
  reject: (error: unknown) => void;
};

/** The events that carry the device's state (all but its `gone` will). */
type TStatefulEvent = Exclude<TDeviceEvent, TGoneEvent>;

/** A well-formed event of an enrolled device, in a round (one event per device). */
type TRoundEvent<E extends TDeviceEvent = TDeviceEvent> = {
  queued: TQueuedEvent;
  event: E;
  device: DeviceRow;
};

export type TDeviceEventOptions = {
  /**
   * How long the first event of an idle dispatcher waits for others before its batch is recorded,
   * in milliseconds. Default 0: the batch starts once the current I/O is handled (setImmediate),
   * so a lone event is recorded as soon as before; events arriving while a batch is being recorded
   * form the next batch, which is where batches grow under load. A longer wait also delays the
   * reported state past a disconnect (presence is recorded apart from events).
   */
  batchWindowMs?: number;
  /** The most events recorded in one batch. Default 5,000. */
  maxBatch?: number;
};

/** A device id as PostgreSQL's uuid type takes it (an id from a topic is not trusted). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Records device events (design §5): acks move commands forward (never backwards, and only
 * commands that were sent), every event's state becomes the reported state, hellos are answered
 * with a sync through the outbox, and reports are stored. Events are recorded in batches, a few
 * statements for many devices at once, because on one PGlite connection an event at a time cannot
 * keep up with thousands of phones acknowledging a bulk lock.
 */
export class DeviceEventRecorder {
  /** Events received and not yet taken into a batch, oldest first. */
  private readonly queue: TQueuedEvent[] = [];
  /** True while a batch is scheduled or being recorded. */
  private isFlushing = false;
  private readonly batchWindowMs: number;
  private readonly maxBatch: number;
  /** Listeners for device events; buildApp sets them. */
  hooks: TDeviceEventHooks = {};

  constructor(
    private readonly db: Db,
    private readonly dispatcher: CommandDispatcher,
    private readonly log: FastifyBaseLogger,
    options: TDeviceEventOptions = {},
  ) {
    this.batchWindowMs = options.batchWindowMs ?? 0;
    this.maxBatch = options.maxBatch ?? 5_000;
  }

  /**
   * Entry point for every message on `kisht/v1/d/+/evt`. The event joins a queue that is recorded
   * in batches (see processBatch); the promise settles once this event is recorded, and rejects when
   * recording it failed. Events of one device are recorded in the order they arrived.
   */
  handleEvent = (topic: string, payload: Buffer): Promise<void> => {
    const deviceId = deviceIdFromTopic(topic);
    if (!deviceId) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ deviceId, payload, resolve, reject });
      if (this.isFlushing) return;
      this.isFlushing = true;
      if (this.batchWindowMs > 0) setTimeout(() => void this.flush(), this.batchWindowMs);
      else setImmediate(() => void this.flush());
    });
  };

  /** Records queued events one batch at a time until the queue is empty; what arrives meanwhile waits. */
  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        await this.processBatch(batch);
      } catch (error) {
        this.log.error({ err: error, events: batch.length }, 'device events failed');
        for (const queued of batch) queued.reject(error);
      }
      // Settling twice is a no-op: this only resolves what the batch left unsettled.
      for (const queued of batch) queued.resolve();
    }
    this.isFlushing = false;
  }

  /**
   * Records a batch of events in rounds: round k holds the k-th event of each device in the batch,
   * so a round has at most one event per device and the rounds keep each device's order. A round
   * that fails rejects its events; the next round still runs.
   */
  private async processBatch(batch: TQueuedEvent[]): Promise<void> {
    const rounds: TQueuedEvent[][] = [];
    const counts = new Map<string, number>();
    for (const queued of batch) {
      const k = counts.get(queued.deviceId) ?? 0;
      counts.set(queued.deviceId, k + 1);
      if (k === rounds.length) rounds.push([]);
      rounds[k]!.push(queued);
    }
    for (const round of rounds) {
      try {
        await this.processRound(round);
      } catch (error) {
        this.log.error({ err: error, events: round.length }, 'device events failed');
        for (const queued of round) queued.reject(error);
      }
    }
  }

  /**
   * Records one event of each of many devices in one statement (issue 26, reportsRepo.recordRound):
   * their reported state, SIM changes, acks, and for hellos the pending commands their syncs carry;
   * then, only where there is any, what follows one event at a time: the simChanged hook, a failed
   * lock's notification, a done command's location and hook, the syncs' publishing and reports.
   * A `gone` will takes one more statement. Resolves each event once it is recorded.
   */
  private async processRound(round: TQueuedEvent[]): Promise<void> {
    const parsed: { queued: TQueuedEvent; event: TDeviceEvent }[] = [];
    for (const queued of round) {
      const result = parseDeviceEvent(queued.payload);
      if ('error' in result) {
        this.log.warn({ deviceId: queued.deviceId, problem: result.error }, 'malformed device event ignored');
        queued.resolve();
      } else if (!UUID.test(queued.deviceId)) {
        this.log.warn({ deviceId: queued.deviceId }, 'event from unknown device ignored');
        queued.resolve();
      } else parsed.push({ queued, event: result.event });
    }
    const gone = parsed.filter((e) => e.event.type === 'gone') as {
      queued: TQueuedEvent;
      event: TGoneEvent;
    }[];
    if (gone.length > 0) {
      try {
        await reportsRepo.recordGoneConnections(
          this.db,
          gone.map(({ queued, event }) => ({ deviceId: queued.deviceId, connectionId: event.connectionId })),
        );
      } catch (error) {
        this.log.error({ err: error, events: gone.length }, 'device events failed');
        for (const { queued } of gone) queued.reject(error);
      }
    }
    const stateful = parsed.filter((e) => e.event.type !== 'gone') as {
      queued: TQueuedEvent;
      event: TStatefulEvent;
    }[];
    if (stateful.length === 0) return;
    const written = await reportsRepo.recordRound(
      this.db,
      stateful.map(({ queued, event }) => ({
        deviceId: queued.deviceId,
        isLocked: event.state.isLocked,
        controls: event.state.controls,
        sims: event.state.sims,
        seq: event.seq,
        connectionId: event.connectionId,
        isHello: event.type === 'hello',
        policyVersion: event.state.policyVersion,
        pushToken: event.type === 'hello' ? event.pushToken : undefined,
        at: validDate(event.at),
        ack: event.type === 'ack' ? ackOf(event) : undefined,
      })),
      new Date(),
    );
    const devices = new Map(written.devices.map((device) => [device.id, device]));
    const events: TRoundEvent<TStatefulEvent>[] = [];
    for (const { queued, event } of stateful) {
      const device = devices.get(queued.deviceId);
      if (device) events.push({ queued, event, device });
      else {
        this.log.warn({ deviceId: queued.deviceId }, 'event from unknown device ignored');
        queued.resolve();
      }
    }
    const changes = new Map(written.simChanges.map((change) => [change.deviceId, change]));
    const recorded = await this.eachEvent(events, async ({ device }) => {
      const change = changes.get(device.id);
      if (change) await this.hooks.simChanged?.({ device, before: change.before, after: change.after });
    });
    await this.followAcks(
      recorded.filter((e) => e.event.type === 'ack') as TRoundEvent<TAckEvent>[],
      written,
    );
    const hellos = recorded.filter((e) => e.event.type === 'hello') as TRoundEvent<THelloEvent>[];
    await this.guard(hellos, (said) =>
      this.dispatcher.publishSyncs(
        // The policy as seen with the pending commands (TRoundWritten.helloDevices).
        said.map(({ device, event }) => ({
          device: written.helloDevices.get(device.id) ?? device,
          connectionId: event.connectionId,
          helloSeq: event.seq,
        })),
        written.synced,
      ),
    );
    await this.eachEvent(
      recorded.filter((e) => e.event.type === 'report'),
      ({ device, event }) => this.recordReport(device, event as TReportEvent),
    );
    for (const { queued } of events) queued.resolve();
  }

  /**
   * What follows acks recordRound moved (the moves themselves are recorded): an ack for an unknown
   * command or another device's is logged; a failed or dropped lock is told to the retailer
   * (notifyFailedLocks); a done command's location fix is stored and the commandDone hook told,
   * one at a time, then the commandsDone hook once with them all.
   */
  private async followAcks(
    acks: TRoundEvent<TAckEvent>[],
    written: reportsRepo.TRoundWritten,
  ): Promise<void> {
    if (acks.length === 0) return;
    const moved = new Map(written.acked.map((command) => [command.id, command]));
    const owned: (TRoundEvent<TAckEvent> & { command: CommandRow })[] = [];
    for (const ack of acks) {
      const command = moved.get(ack.event.commandId);
      if (command) owned.push({ ...ack, command });
      else if (!written.ownCommandIds.has(ack.event.commandId)) {
        this.log.warn(
          { deviceId: ack.device.id, commandId: ack.event.commandId },
          'ack for an unknown command ignored',
        );
      }
    }
    await this.notifyFailedLocks(
      owned.filter(({ event }) => event.status === 'failed' || event.status === 'dropped'),
      new Set(owned.map(({ command }) => command.id)),
    );
    const done = owned.filter(({ event, command }) => event.status === 'done' && command.state === 'done');
    await this.eachEvent(done, (ack) => this.finishDone(ack.device, ack.command, ack.event));
    if (done.length > 0 && this.hooks.commandsDone) {
      try {
        await this.hooks.commandsDone(done.map(({ device, command }) => ({ device, command })));
      } catch (error) {
        this.log.error({ err: error, commands: done.length }, 'commands done hook failed');
      }
    }
  }

  /**
   * A lock (or lost mode) that the phone failed or dropped: `lock_failed` to the retailer(s), once
   * per command. A notification that cannot be written is logged; the acks stay recorded.
   */
  private async notifyFailedLocks(
    acks: (TRoundEvent<TAckEvent> & { command: CommandRow })[],
    movedIds: Set<string>,
  ): Promise<void> {
    for (const { command, event } of acks) {
      if (!movedIds.has(command.id) || !locksScreen(command.name) || command.name === 'change_pin') continue;
      try {
        await notifyLockFailed(this.db, {
          orgId: command.orgId,
          deviceId: command.deviceId,
          commandId: command.id,
          reason: event.error ?? (event.status === 'dropped' ? 'too old to apply' : 'failed on the device'),
        });
      } catch (error) {
        this.log.error({ err: error, commandId: command.id }, 'lock failed notification not written');
      }
    }
  }

  /** What follows a done ack that moved its command (its result is stored): a location fix, then the hook. */
  private async finishDone(device: DeviceRow, command: CommandRow, ack: TAckEvent): Promise<void> {
    if (ack.result) {
      if (command.name === 'location' || command.name === 'uninstall') {
        const fix = ZLocationFix.safeParse(command.name === 'uninstall' ? ack.result.location : ack.result);
        if (fix.success)
          await this.recordLocation(device, fix.data, command.name === 'location' ? 'command' : 'uninstall');
      }
    }
    await this.hooks.commandDone?.({ device, command, result: ack.result });
  }

  /** Runs a set-based step for some events of a round; when it throws, those events are rejected. */
  private async guard<T extends TRoundEvent>(
    events: T[],
    step: (events: T[]) => Promise<void>,
  ): Promise<void> {
    if (events.length === 0) return;
    try {
      await step(events);
    } catch (error) {
      this.log.error({ err: error, events: events.length }, 'device events failed');
      for (const { queued } of events) queued.reject(error);
    }
  }

  /**
   * Runs a per-event step for events of different devices at once; an event whose step throws is
   * rejected (and logged) and left out of the events returned.
   */
  private async eachEvent<T extends TRoundEvent>(
    events: T[],
    step: (event: T) => Promise<void>,
  ): Promise<T[]> {
    const failed = new Set<T>();
    await Promise.all(
      events.map(async (event) => {
        try {
          await step(event);
        } catch (error) {
          this.log.error({ err: error, deviceId: event.device.id }, 'device event failed');
          event.queued.reject(error);
          failed.add(event);
        }
      }),
    );
    return failed.size === 0 ? events : events.filter((event) => !failed.has(event));
  }

  /** A report the device made by itself: a location fix (tracking); SIM reports carry their state. */
  private async recordReport(device: DeviceRow, report: TReportEvent): Promise<void> {
    if (report.kind === 'location') {
      const fix = ZLocationFix.safeParse(report.data);
      if (fix.success) await this.recordLocation(device, fix.data, 'tracking');
      else this.log.warn({ deviceId: device.id }, 'malformed location report ignored');
    }
    if (report.kind === 'offline_lock') await this.hooks.offlineLock?.({ device, data: report.data });
    if (report.kind === 'app_removed') await this.hooks.appRemoved?.({ device, data: report.data });
  }

  private async recordLocation(
    device: DeviceRow,
    fix: TLocationFix,
    source: 'command' | 'tracking' | 'uninstall',
  ): Promise<void> {
    await reportsRepo.insertLocation(this.db, {
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
}

/** An ack's move along the command transition table (domain command-life), with its error. */
const ackOf = (event: TAckEvent): reportsRepo.TRoundRow['ack'] => {
  switch (event.status) {
    case 'received':
      return { commandId: event.commandId, event: 'ack_received' };
    case 'done':
      return { commandId: event.commandId, event: 'ack_done', error: null, result: event.result };
    case 'failed':
      return {
        commandId: event.commandId,
        event: 'ack_failed',
        error: event.error ?? 'failed on the device',
      };
    case 'dropped':
      // The device dropped a command past its notAfter (a cancelled one is final here already).
      return {
        commandId: event.commandId,
        event: 'ack_dropped',
        error: `dropped by the phone: ${event.error ?? 'too old to apply'}`,
      };
  }
};

/** The device's timestamp when it is a valid date, else now (a device clock is not trusted blindly). */
const validDate = (iso: string): Date => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? new Date() : date;
};
