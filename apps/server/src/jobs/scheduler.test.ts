import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startProtectedJob } from './scheduler';

const fakeLog = () => ({ warn: vi.fn(), error: vi.fn() });

describe('startProtectedJob', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2025-01-01T00:00:00.000Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at once and then every interval', async () => {
    const run = vi.fn(async () => {});
    const job = startProtectedJob({ name: 'quick', intervalMs: 1_000, run, log: fakeLog() });
    await vi.advanceTimersByTimeAsync(3_500);
    job.stop();
    expect(run).toHaveBeenCalledTimes(4); // at 0, 1, 2 and 3 s
  });

  it('does not start a run while the previous one is still going', async () => {
    let running = 0;
    let mostAtOnce = 0;
    const run = vi.fn(async () => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await new Promise((resolve) => setTimeout(resolve, 3_500)); // three and a half intervals
      running -= 1;
    });
    const log = fakeLog();
    const job = startProtectedJob({ name: 'slow', intervalMs: 1_000, run, log });
    await vi.advanceTimersByTimeAsync(3_200);
    expect(run).toHaveBeenCalledTimes(1);
    expect(log.warn).toHaveBeenCalledTimes(3); // the runs due at 1, 2 and 3 s were skipped
    expect(log.warn).toHaveBeenCalledWith({ job: 'slow' }, 'slow job still running; this run is skipped');
    await vi.advanceTimersByTimeAsync(1_000); // the first run ended at 3.5 s, the one at 4 s starts
    expect(run).toHaveBeenCalledTimes(2);
    job.stop();
    expect(mostAtOnce).toBe(1);
  });

  it('logs a failed run and keeps running', async () => {
    const run = vi.fn(async () => {
      throw new Error('database away');
    });
    const log = fakeLog();
    const job = startProtectedJob({ name: 'flaky', intervalMs: 1_000, run, log });
    await vi.advanceTimersByTimeAsync(1_500);
    job.stop();
    expect(run).toHaveBeenCalledTimes(2);
    expect(log.error).toHaveBeenCalledWith({ err: expect.any(Error) }, 'flaky job failed');
  });

  it('stops running once stopped', async () => {
    const run = vi.fn(async () => {});
    const job = startProtectedJob({ name: 'stopped', intervalMs: 1_000, run, log: fakeLog() });
    await vi.advanceTimersByTimeAsync(1_500);
    job.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(run).toHaveBeenCalledTimes(2);
  });
});
