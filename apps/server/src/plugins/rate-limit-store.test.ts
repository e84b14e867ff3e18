import { describe, expect, it } from 'vitest';
import { SnapshotRateLimitStore } from './rate-limit-store';

type TCount = { current: number; ttl: number };

describe('SnapshotRateLimitStore', () => {
  it('gives each of a burst of increments its own count, even when read after all of them', async () => {
    const store = new SnapshotRateLimitStore({}).child({});
    const answers: TCount[] = [];
    for (let i = 0; i < 5; i += 1) {
      store.incr('203.0.113.7', (_error, result) => answers.push(result!), 60_000, 3);
    }
    // The plugin reads the answers only after an await, when every increment has happened.
    await Promise.resolve();
    expect(answers.map((a) => a.current)).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps routes and keys apart, and reads without counting', () => {
    const root = new SnapshotRateLimitStore({});
    const mpin = root.child({});
    const otp = root.child({});
    const read = (store: SnapshotRateLimitStore, key: string) => {
      let current = -1;
      store.read(
        key,
        (_error, result) => {
          current = result!.current;
        },
        60_000,
        3,
      );
      return current;
    };
    mpin.incr('a', () => {}, 60_000, 3);
    mpin.incr('a', () => {}, 60_000, 3);
    mpin.incr('b', () => {}, 60_000, 3);
    otp.incr('a', () => {}, 60_000, 3);
    expect([read(mpin, 'a'), read(mpin, 'b'), read(otp, 'a'), read(otp, 'b')]).toEqual([2, 1, 1, 0]);
    expect(read(mpin, 'a')).toBe(2);
  });
});
