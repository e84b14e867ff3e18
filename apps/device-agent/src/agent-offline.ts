import { randomUUID } from 'node:crypto';
import {
  OFFLINE_CODE_ACTIONS,
  OFFLINE_CODE_DIGITS,
  OFFLINE_CODE_MAX_WRONG_TRIES,
  type TOfflineCodeAction,
  verifyOfflineCode,
} from '@kisht/domain/devices/offline-code';
import { paidThroughLockAt } from '@kisht/domain/devices/paid-through';
import type { AgentCore, TOfflineCodeOutcome } from './agent-core';
import type { AgentReports } from './agent-reports';
import { applyCommand } from './commands';
import { newOfflineChallenge, OFFLINE_EVENTS_LIMIT, type TAgentStateFile, type TOfflineEvent } from './state';

/** The longest setTimeout delay Node honours (about 24.8 days); longer waits are re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Thrown by DeviceAgent.start (and offline codes) once an uninstall command removed the agent. */
export class DeviceUninstalledError extends Error {
  constructor(readonly deviceId: string) {
    super(`device ${deviceId} was uninstalled by an uninstall command; enrol again to use it`);
    this.name = 'DeviceUninstalledError';
  }
}

/**
 * The phone with no network (design §5, device protocol §12): offline codes (a challenge shown,
 * a code typed in, verified here, burnt once used), the offline limit (the phone locks itself
 * when it has been out of touch too long) and the paid-through date (it locks itself when the
 * date its policy carries passes, online or not, §12.5); neither lock once the broker refused it
 * (released).
 */
export class AgentOffline {
  #timer: NodeJS.Timeout | undefined;
  #paidThroughTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly core: AgentCore,
    private readonly reports: AgentReports,
    /** The limit given as an option (tests, CLI); undefined: the organisation's, from the state. */
    private readonly limitOption: number | null | undefined,
    /** True while the agent is stopping: no offline lock then. */
    private readonly isStopping: () => boolean,
  ) {}

  /**
   * The offline limit in milliseconds, or null when the phone never locks itself for being
   * offline: the option when one was given, else the organisation's (enrolment, set_offline_limit).
   */
  get lockAfterMs(): number | null {
    return this.limitOption ?? this.core.state.credentials.offlineLockAfterMs ?? null;
  }

  /** Wrong offline codes left for the shown challenge before it changes. */
  get triesLeft(): number {
    return OFFLINE_CODE_MAX_WRONG_TRIES - this.core.state.offlineWrongTries;
  }

  /** See DeviceAgent.enterOfflineCode. */
  async enterCode(code: string, action: TOfflineCodeAction): Promise<TOfflineCodeOutcome> {
    if (!OFFLINE_CODE_ACTIONS.includes(action)) {
      throw new Error(`an offline code's action is ${OFFLINE_CODE_ACTIONS.join(' or ')}, not "${action}"`);
    }
    const digits = code.replace(/[\s-]/g, '');
    if (!new RegExp(`^\\d{${OFFLINE_CODE_DIGITS}}$`).test(digits)) {
      throw new Error(`an offline code is ${OFFLINE_CODE_DIGITS} digits`);
    }
    if (this.core.state.uninstalled) throw new DeviceUninstalledError(this.core.deviceId);
    const keyHex = await this.core.deviceKey();

    const { outcome, event } = await this.core.enqueue(async () => {
      const state = this.core.state;
      const isValid = await verifyOfflineCode({
        keyHex,
        deviceId: state.credentials.deviceId,
        challenge: state.offlineChallenge,
        action,
        code: digits,
        nowMs: Date.now(),
      });
      if (!isValid) {
        const tries = state.offlineWrongTries + 1;
        const isExhausted = tries >= OFFLINE_CODE_MAX_WRONG_TRIES;
        await this.core.commit({
          ...state,
          offlineChallenge: isExhausted
            ? newOfflineChallenge(state.offlineChallenge)
            : state.offlineChallenge,
          offlineWrongTries: isExhausted ? 0 : tries,
        });
        return { outcome: this.#outcome(isExhausted ? 'challenge_changed' : 'wrong', action) };
      }
      const applied = applyCommand(state, { name: action, args: {} });
      if ('error' in applied) throw new Error(`cannot apply ${action}: ${applied.error}`);
      const accepted: TOfflineEvent = {
        id: randomUUID(),
        source: 'offline_code',
        action,
        at: new Date().toISOString(),
        challenge: state.offlineChallenge,
        isReportPending: true,
      };
      await this.core.commit({
        ...applied.state,
        offlineChallenge: newOfflineChallenge(state.offlineChallenge),
        offlineWrongTries: 0,
        offlineEvents: rememberOfflineEvent(state.offlineEvents, accepted),
      });
      return { outcome: this.#outcome('accepted', action), event: accepted };
    });
    if (!event) return outcome;
    this.core.emitter.emit('offline', event);
    // An offline unlock restarts the offline clock.
    this.sync();
    return {
      ...outcome,
      isReported: this.core.hasSaidHello ? await this.reports.flushOfflineReports() : false,
    };
  }

  /** See DeviceAgent.adoptOfflineState. */
  async adopt(saved: TAgentStateFile): Promise<boolean> {
    const fresh = await this.core.enqueue(async () => {
      const current = this.core.state;
      if (saved.revision <= current.revision) return undefined;
      const known = new Set(current.offlineEvents.map((event) => event.id));
      const events = saved.offlineEvents.filter((event) => !known.has(event.id));
      if (
        events.length === 0 &&
        saved.offlineChallenge === current.offlineChallenge &&
        saved.offlineWrongTries === current.offlineWrongTries
      ) {
        return undefined;
      }
      let next: TAgentStateFile = {
        ...current,
        revision: saved.revision,
        offlineChallenge: saved.offlineChallenge,
        offlineWrongTries: saved.offlineWrongTries,
        offlineEvents: events.reduce(rememberOfflineEvent, current.offlineEvents),
      };
      for (const event of events) {
        const applied = applyCommand(next, { name: event.action, args: {} });
        if (!('error' in applied)) next = applied.state;
      }
      await this.core.commit(next);
      return events;
    });
    if (!fresh) return false;
    for (const event of fresh) this.core.emitter.emit('offline', event);
    this.sync();
    if (this.core.hasSaidHello && fresh.some((event) => event.isReportPending)) {
      await this.reports.flushOfflineReports();
    }
    return true;
  }

  #outcome(result: TOfflineCodeOutcome['result'], action: TOfflineCodeAction): TOfflineCodeOutcome {
    return {
      result,
      action,
      challenge: this.core.state.offlineChallenge,
      triesLeft: this.triesLeft,
      isLocked: this.core.state.isLocked,
    };
  }

  /** Saves now as the last check-in (in touch with the broker), then re-arms the offline limit. */
  checkIn(): void {
    const at = new Date().toISOString();
    this.core
      .enqueue(() => this.core.commit({ ...this.core.state, lastCheckInAt: at }))
      .catch((error: Error) => this.core.warn(error))
      .finally(() => this.sync());
  }

  /**
   * When the offline limit runs out: lockAfterMs after the later of the last check-in and the last
   * accepted offline unlock code (which starts the clock again). Undefined without a limit.
   */
  #dueAt(): number | undefined {
    const limit = this.lockAfterMs;
    if (limit === null) return undefined;
    let from = Date.parse(this.core.state.lastCheckInAt);
    // An unreadable check-in is long ago: lock.
    if (Number.isNaN(from)) from = 0;
    for (const event of this.core.state.offlineEvents) {
      if (event.source === 'offline_code' && event.action === 'unlock') {
        from = Math.max(from, Date.parse(event.at) || 0);
      }
    }
    return from + limit;
  }

  /** True while the offline limit may lock: started, not checked in, not released, not uninstalled. */
  #mayLock(): boolean {
    const { state } = this.core;
    return (
      this.core.client !== undefined &&
      !this.isStopping() &&
      !this.core.hasSaidHello &&
      !state.uninstalled &&
      !state.refusedAt
    );
  }

  /**
   * When the phone locks itself for the paid-through date of the policy it holds (device protocol
   * §12.5; domain paidThroughLockAt), ms since the epoch, or null when that version never does.
   */
  get paidThroughLockAt(): number | null {
    return paidThroughLockAtOf(this.core.state);
  }

  /**
   * Arms both self-locks: the offline limit while started and not checked in (no hello on this
   * connection), and the paid-through date while started, online or not (§12.5); either locks now
   * if its time has come and the device is unlocked.
   */
  sync(): void {
    this.stop();
    this.#syncPaidThrough();
    const dueAt = this.#dueAt();
    if (dueAt === undefined || !this.#mayLock()) return;
    const wait = dueAt - Date.now();
    if (wait > 0) {
      this.#timer = setTimeout(() => this.sync(), Math.min(wait, MAX_TIMER_MS));
      this.#timer.unref();
      return;
    }
    if (this.core.state.isLocked) return;
    this.core.enqueue(() => this.#lockForLimit()).catch((error: Error) => this.core.warn(error));
  }

  /** Disarms the offline limit's and the paid-through date's timers. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    clearTimeout(this.#paidThroughTimer);
    this.#paidThroughTimer = undefined;
  }

  /** True while the paid-through date may lock: started, not stopping, not released or uninstalled. */
  #mayLockForDate(): boolean {
    const { state } = this.core;
    return this.core.client !== undefined && !this.isStopping() && !state.uninstalled && !state.refusedAt;
  }

  /** Arms a timer for the paid-through date, or locks now if it has passed and the phone is unlocked. */
  #syncPaidThrough(): void {
    const lockAt = this.paidThroughLockAt;
    if (lockAt === null || !this.#mayLockForDate()) return;
    const wait = lockAt - Date.now();
    if (wait > 0) {
      this.#paidThroughTimer = setTimeout(() => this.sync(), Math.min(wait, MAX_TIMER_MS));
      this.#paidThroughTimer.unref();
      return;
    }
    if (this.core.state.isLocked) return;
    this.core.enqueue(() => this.#lockForDate()).catch((error: Error) => this.core.warn(error));
  }

  /** The paid-through lock (queued): locks as the lock command would, saves, records the event. */
  async #lockForDate(): Promise<void> {
    const state = this.core.state;
    const lockAt = this.paidThroughLockAt;
    // A newer policy moved the date, or already locked, stopped or released: nothing to do.
    if (lockAt === null || Date.now() < lockAt || state.isLocked || !this.#mayLockForDate()) return;
    const applied = applyCommand(state, { name: 'lock', args: {} });
    if ('error' in applied) throw new Error(`cannot lock: ${applied.error}`);
    const event: TOfflineEvent = {
      id: randomUUID(),
      source: 'paid_through',
      action: 'lock',
      at: new Date().toISOString(),
      paidThrough: new Date(lockAt).toISOString(),
      isReportPending: true,
    };
    await this.core.commit({
      ...applied.state,
      offlineEvents: rememberOfflineEvent(state.offlineEvents, event),
    });
    this.core.emitter.emit('offline', event);
    // Online, the server hears at once; offline, after the next hello.
    if (this.core.hasSaidHello)
      void this.reports.flushOfflineReports().catch((error: Error) => this.core.warn(error));
  }

  /** The offline auto-lock (queued): locks as the lock command would, saves, records the event. */
  async #lockForLimit(): Promise<void> {
    const state = this.core.state;
    const dueAt = this.#dueAt();
    // Checked in meanwhile, already locked, stopped or released: nothing to do.
    if (dueAt === undefined || Date.now() < dueAt || state.isLocked || !this.#mayLock()) return;
    const applied = applyCommand(state, { name: 'lock', args: {} });
    if ('error' in applied) throw new Error(`cannot lock: ${applied.error}`);
    const event: TOfflineEvent = {
      id: randomUUID(),
      source: 'offline_limit',
      action: 'lock',
      at: new Date().toISOString(),
      lastCheckInAt: state.lastCheckInAt,
      isReportPending: true,
    };
    await this.core.commit({
      ...applied.state,
      offlineEvents: rememberOfflineEvent(state.offlineEvents, event),
    });
    this.core.emitter.emit('offline', event);
  }
}

/** `events` with `event` appended, dropping the oldest beyond OFFLINE_EVENTS_LIMIT. */
const rememberOfflineEvent = (events: readonly TOfflineEvent[], event: TOfflineEvent): TOfflineEvent[] =>
  [...events, event].slice(-OFFLINE_EVENTS_LIMIT);

/**
 * When a phone in state `state` locks itself for the paid-through date of the policy it holds
 * (device protocol §12.5; domain paidThroughLockAt over its offline events), ms since the epoch,
 * or null when that version never does.
 */
export const paidThroughLockAtOf = (state: TAgentStateFile): number | null => {
  const held = state.policy;
  if (!held) return null;
  const eventsAt = state.offlineEvents.map((event) => Date.parse(event.at) || 0);
  return paidThroughLockAt({ paidThrough: held.policy.paidThrough, issuedAt: held.issuedAt }, eventsAt);
};
