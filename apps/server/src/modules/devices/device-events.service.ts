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
import * as commandsRepo from './commands.repository';
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
   * Records one event of each of many devices: one statement reads the devices, one records their
   * reported state, and acks, hellos and reports follow by kind (acks and hellos set-based; reports,
   * results and hooks one event at a time). Resolves each event once it is recorded.
   */
  private async processRound(round: TQueuedEvent[]): Promise<void> {
    const parsed: { queued: TQueuedEvent; event: TDeviceEvent }[] = [];
    for (const queued of round) {
      const result = parseDeviceEvent(queued.payload);
      if ('error' in result) {
        this.log.warn({ deviceId: queued.deviceId, problem: result.error }, 'malformed device event ignored');
        queued.resolve();
      } else parsed.push({ queued, event: result.event });
    }
    const ids = parsed.map(({ queued }) => queued.deviceId).filter((id) => UUID.test(id));
    const devices = new Map(
      (await devicesRepo.findDevicesByIds(this.db, ids)).map((device) => [device.id, device]),
    );
    const events: TRoundEvent[] = [];
    for (const { queued, event } of parsed) {
      const device = devices.get(queued.deviceId);
      if (device?.enrolledAt) events.push({ queued, event, device });
      else {
        this.log.warn({ deviceId: queued.deviceId }, 'event from unknown device ignored');
        queued.resolve();
      }
    }
    const gone = events.filter((e) => e.event.type === 'gone') as TRoundEvent<TGoneEvent>[];
    await this.guard(gone, (wills) =>
      reportsRepo.recordGoneConnections(
        this.db,
        wills.map(({ device, event }) => ({ deviceId: device.id, connectionId: event.connectionId })),
      ),
    );
    const recorded = await this.recordReportedStates(
      events.filter((e) => e.event.type !== 'gone') as TRoundEvent<TStatefulEvent>[],
    );
    await this.guard(
      recorded.filter((e) => e.event.type === 'ack'),
      (acks) => this.recordAcks(acks as TRoundEvent<TAckEvent>[]),
    );
    await this.guard(
      recorded.filter((e) => e.event.type === 'hello'),
      (hellos) =>
        this.dispatcher.syncDevices(
          (hellos as TRoundEvent<THelloEvent>[]).map(({ device, event }) => ({
            deviceId: device.id,
            connectionId: event.connectionId,
            helloSeq: event.seq,
          })),
        ),
    );
    await this.eachEvent(
      recorded.filter((e) => e.event.type === 'report'),
      ({ device, event }) => this.recordReport(device, event as TReportEvent),
    );
    for (const { queued } of events) queued.resolve();
  }

  /**
   * Stores what the devices say about themselves (lock state, toggle states, presence, SIM slots)
   * in one statement; a change of SIMs against what a device reported before is recorded as a SIM
   * change in the same transaction, then told to the simChanged hook. Returns the events whose hook
   * did not fail.
   */
  private async recordReportedStates(events: TRoundEvent<TStatefulEvent>[]): Promise<TRoundEvent[]> {
    if (events.length === 0) return [];
    // An event older than the one the stored state came from (another process recorded a newer
    // one first) tells nothing new about SIMs.
    const isFresh = ({ device, event }: TRoundEvent<TStatefulEvent>) =>
      event.seq === undefined || device.reportedSeq === null || event.seq > device.reportedSeq;
    const changes = events.flatMap((e) => {
      const { sims } = e.event.state;
      return isFresh(e) && sims !== undefined && e.device.sims !== null && !sameSims(e.device.sims, sims)
        ? [{ device: e.device, before: e.device.sims, after: sims, at: e.event.at }]
        : [];
    });
    const states = events.map(({ device, event }) => ({
      deviceId: device.id,
      isLocked: event.state.isLocked,
      controls: event.state.controls,
      sims: event.state.sims,
      seq: event.seq,
      connectionId: event.connectionId,
      isHello: event.type === 'hello',
      policyVersion: event.state.policyVersion,
      pushToken: event.type === 'hello' ? event.pushToken : undefined,
    }));
    const seenAt = new Date();
    if (changes.length === 0) await reportsRepo.recordReportedStates(this.db, states, seenAt);
    else {
      await this.db.transaction(async (tx) => {
        await reportsRepo.recordReportedStates(tx, states, seenAt);
        await reportsRepo.insertSimChanges(
          tx,
          changes.map(({ device, before, after, at }) => ({
            orgId: device.orgId,
            deviceId: device.id,
            customerId: device.customerId,
            before,
            after,
            detectedAt: validDate(at),
          })),
        );
      });
    }
    const changed = new Map(changes.map((change) => [change.device.id, change]));
    const recorded = await this.eachEvent(events, async ({ device }) => {
      const change = changed.get(device.id);
      if (change) await this.hooks.simChanged?.({ device, before: change.before, after: change.after });
    });
    for (const e of recorded) if (e.event.state.sims && isFresh(e)) e.device.sims = e.event.state.sims;
    return recorded;
  }

  /**
   * Records the acks of a round: one read of their commands, then one conditional update per target
   * state (received from queued/sent; done and failed from queued/sent/received), so duplicate or
   * out-of-order acks never move a command backwards. An ack for an unknown command or another
   * device's is ignored with a warning. Done acks that moved then store their result (a location
   * fix goes to the device's locations) and reach the commandDone hook, one at a time.
   */
  private async recordAcks(acks: TRoundEvent<TAckEvent>[]): Promise<void> {
    if (acks.length === 0) return;
    const commands = new Map(
      (
        await commandsRepo.findCommandsByIds(
          this.db,
          acks.map(({ event }) => event.commandId),
        )
      ).map((c) => [c.id, c]),
    );
    const owned: (TRoundEvent<TAckEvent> & { command: CommandRow })[] = [];
    for (const ack of acks) {
      const command = commands.get(ack.event.commandId);
      if (command && command.deviceId === ack.device.id) owned.push({ ...ack, command });
      else {
        this.log.warn(
          { deviceId: ack.device.id, commandId: ack.event.commandId },
          'ack for an unknown command ignored',
        );
        ack.queued.resolve();
      }
    }
    // Only what was sent can be acknowledged: a forged ack for a command still queued (or
    // scheduled) moves nothing. Rows are marked sent before they are published.
    const ofStatus = (status: TAckEvent['status']) => owned.filter(({ event }) => event.status === status);
    await commandsRepo.transitionCommands(
      this.db,
      ofStatus('received').map(({ command }) => ({ id: command.id })),
      'ack_received',
    );
    const failedIds = await commandsRepo.transitionCommands(
      this.db,
      ofStatus('failed').map(({ command, event }) => ({
        id: command.id,
        error: event.error ?? 'failed on the device',
      })),
      'ack_failed',
    );
    // The device dropped a command past its notAfter (a cancelled one is final here already).
    const droppedIds = await commandsRepo.transitionCommands(
      this.db,
      ofStatus('dropped').map(({ command, event }) => ({
        id: command.id,
        error: `dropped by the phone: ${event.error ?? 'too old to apply'}`,
      })),
      'ack_dropped',
    );
    await this.notifyFailedLocks(owned, new Set([...failedIds, ...droppedIds]));
    const done = ofStatus('done');
    const moved = new Set(
      await commandsRepo.transitionCommands(
        this.db,
        done.map(({ command }) => ({ id: command.id, error: null })),
        'ack_done',
      ),
    );
    // A phone that ran a command before its cancel arrived says so: the history shows it ran.
    for (const id of await commandsRepo.transitionCommands(
      this.db,
      done
        .filter(({ command }) => !moved.has(command.id) && command.lastSentAt !== null)
        .map(({ command }) => ({ id: command.id, error: 'the phone ran it before the cancel arrived' })),
      'ran_before_cancel',
    ))
      moved.add(id);
    await this.eachEvent(
      done.filter(({ command }) => moved.has(command.id)),
      (ack) => this.finishDone(ack.device, ack.command, ack.event),
    );
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

  /** What follows a done ack that moved its command: the result (and a location fix), then the hook. */
  private async finishDone(device: DeviceRow, command: CommandRow, ack: TAckEvent): Promise<void> {
    if (ack.result) {
      await reportsRepo.setCommandResult(this.db, command.id, ack.result);
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
