import { createRequire } from 'node:module';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';

/** A rate-limit store's answer: requests counted in the window so far, and ms until it resets. */
type TCount = { current: number; ttl: number };
type TCountCallback = (error: Error | null, result?: TCount) => void;

/** The parts of @fastify/rate-limit's LocalStore this wrapper uses (it ships no types for it). */
type TInnerStore = {
  incr: (key: string, callback: TCountCallback, timeWindow: number, max: number) => void;
  read?: (key: string, callback: TCountCallback, timeWindow: number, max: number) => void;
  child: (routeOptions: object) => TInnerStore;
};
type TStoreOptions = { continueExceeding?: boolean; exponentialBackoff?: boolean; cache?: number };

const require = createRequire(import.meta.url);
const LocalStore = require('@fastify/rate-limit/store/LocalStore') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache?: number,
) => TInnerStore;

const snapshot =
  (callback: TCountCallback): TCountCallback =>
  (error, result) =>
    callback(error, result && { current: result.current, ttl: result.ttl });

/**
 * @fastify/rate-limit's in-memory store (LocalStore, 11.2.0), with each answer copied. LocalStore
 * hands every request the one mutable record it keeps per key, and the plugin reads its count only
 * after an `await`; requests of a burst that all reach the store before any of them resumes then
 * all read the burst's final count, so with max 20 a burst of 60 was refused whole (issue 12:
 * "even the first 20"). Copying `{ current, ttl }` when the store answers gives each request its
 * own count: the first `max` pass, the rest get 429. Counting, windows and options are LocalStore's.
 * Pass the class as the plugin's `store` option.
 */
export class SnapshotRateLimitStore implements FastifyRateLimitStore {
  private readonly inner: TInnerStore;

  constructor(options: TStoreOptions, inner?: TInnerStore) {
    this.inner =
      inner ??
      new LocalStore(options.continueExceeding ?? false, options.exponentialBackoff ?? false, options.cache);
  }

  incr(key: string, callback: TCountCallback, timeWindow: number, max: number): void {
    this.inner.incr(key, snapshot(callback), timeWindow, max);
  }

  read(key: string, callback: TCountCallback, timeWindow: number, max: number): void {
    if (!this.inner.read) throw new Error('The rate-limit store cannot read without counting');
    this.inner.read(key, snapshot(callback), timeWindow, max);
  }

  /** The store of one route (the plugin calls it for each route with its own rateLimit config). */
  child(routeOptions: TStoreOptions & object): SnapshotRateLimitStore {
    return new SnapshotRateLimitStore(routeOptions, this.inner.child(routeOptions));
  }
}
