import { PROTOCOL_VERSION, type TReportEvent } from '@kisht/domain/devices/protocol.schema';
import type { AgentCore } from './agent-core';
import { locationFixOf } from './commands';
import { offlineReportData } from './state';

/**
 * What the phone tells the server by itself (device protocol §10, §12.3): SIM changes, location
 * fixes while tracking is on, and the offline locks and unlocks it made with no network. Each
 * report that must not be lost is kept pending in the state file until the broker has it.
 */
export class AgentReports {
  #trackingTimer: NodeJS.Timeout | undefined;
  /** Offline reports are published one flush at a time, in order. */
  #offlineFlush: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly core: AgentCore,
    /** Milliseconds between location reports while tracking is on. */
    private readonly trackingIntervalMs: number,
  ) {}

  /** After a hello: the pending SIM report and pending offline reports go out. */
  flushPending(): void {
    if (this.core.state.isSimReportPending) void this.flushSimReport();
    if (this.core.state.offlineEvents.some((event) => event.isReportPending)) void this.flushOfflineReports();
  }

  /** Publishes the pending SIM report; clears the pending flag once the broker has it. */
  async flushSimReport(): Promise<boolean> {
    const sims = this.core.state.sims;
    try {
      await this.publishReport('sim', { sims });
    } catch (error) {
      // Still pending: the next hello tries again.
      this.core.warn(error as Error);
      return false;
    }
    await this.core.enqueue(async () => {
      // A newer change that came meanwhile stays pending (and is reported by its own setSims).
      if (this.core.state.sims === sims && this.core.state.isSimReportPending) {
        await this.core.commit({ ...this.core.state, isSimReportPending: false });
      }
    });
    return true;
  }

  /** Starts or stops the tracking timer to match the `tracking` toggle (only while started). */
  syncTracking(): void {
    const shouldTrack = this.core.client !== undefined && this.core.state.controls.tracking === true;
    if (!shouldTrack) {
      this.stopTracking();
      return;
    }
    if (this.#trackingTimer) return;
    this.#trackingTimer = setInterval(() => this.reportPositionInBackground(), this.trackingIntervalMs);
    this.#trackingTimer.unref();
  }

  stopTracking(): void {
    clearInterval(this.#trackingTimer);
    this.#trackingTimer = undefined;
  }

  /** Publishes the pending offline reports, oldest first, one flush at a time. */
  flushOfflineReports(): Promise<boolean> {
    const run = this.#offlineFlush.then(() => this.#publishOfflineReports());
    this.#offlineFlush = run.catch(() => undefined);
    return run;
  }

  async #publishOfflineReports(): Promise<boolean> {
    for (const event of this.core.state.offlineEvents.filter((candidate) => candidate.isReportPending)) {
      if (!this.core.hasSaidHello) return false;
      try {
        await this.publishReport('offline_lock', offlineReportData(event));
      } catch (error) {
        // Still pending: the next hello tries again.
        this.core.warn(error as Error);
        return false;
      }
      try {
        await this.core.enqueue(() =>
          this.core.commit({
            ...this.core.state,
            offlineEvents: this.core.state.offlineEvents.map((candidate) =>
              candidate.id === event.id ? { ...candidate, isReportPending: false } : candidate,
            ),
          }),
        );
      } catch (error) {
        // Sent but not saved as sent: the server may get it twice, which it must tolerate.
        this.core.warn(error as Error);
        return false;
      }
    }
    return true;
  }

  /** A location report of the current position if connected; skipped (not queued) otherwise. */
  reportPositionInBackground(): void {
    if (!this.core.hasSaidHello) return;
    this.publishReport('location', locationFixOf(this.core.state.position)).catch((error: Error) =>
      this.core.warn(error),
    );
  }

  /** Publishes a report event with the current state; resolves once the broker has it. */
  async publishReport(kind: TReportEvent['kind'], data: Record<string, unknown>): Promise<void> {
    const report: TReportEvent = {
      v: PROTOCOL_VERSION,
      type: 'report',
      kind,
      data,
      state: this.core.reportedState,
      at: new Date().toISOString(),
      seq: this.core.nextSeq(),
      connectionId: this.core.connectionId,
    };
    await this.core.publishEvent(report);
    this.core.emitter.emit('report', report);
  }
}
