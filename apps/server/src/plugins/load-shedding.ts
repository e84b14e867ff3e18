import underPressure from '@fastify/under-pressure';
import { AppErrorCode } from '@kisht/domain/common/errors';
import type { FastifyInstance } from 'fastify';
import type { TConfig } from '../config';

/** Seconds a shed client is told to wait (the Retry-After header, RFC 9110 §10.2.3). */
const RETRY_AFTER_SECONDS = 5;

/**
 * Load shedding with @fastify/under-pressure: while the server is overloaded a new request answers
 * 503 SERVICE_UNAVAILABLE at once, in the envelope of design §3 with Retry-After, instead of
 * queueing behind the work in hand. Overloaded means either
 * - more than LOAD_SHED_MAX_IN_FLIGHT requests in hand (the database serves a few queries at a
 *   time, so a queue past this only adds wait: Little's law, in flight = throughput × wait),
 *   checked every tenth of the sample interval; or
 * - the event loop's mean delay over the last sample (LOAD_SHED_SAMPLE_INTERVAL_MS) past
 *   LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS.
 * Event-loop utilisation is not used: on PGlite a merely busy server runs near 100% and serves
 * well. A limit of 0 turns its check off. Requests already accepted run to the end. On PGlite the
 * database works on this thread, so a 503 waits for the loop like everything else; with PostgreSQL
 * it is answered at once (docs/benchmarks.md, load-shedding).
 */
export const registerLoadShedding = async (app: FastifyInstance, config: TConfig): Promise<void> => {
  const maxDelay = config.LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS;
  const maxInFlight = config.LOAD_SHED_MAX_IN_FLIGHT;
  if (maxDelay === 0 && maxInFlight === 0) return;
  // Every request is counted from its first hook (before under-pressure's) until it is answered or
  // its client hangs up, whichever comes first (a WeakSet makes the two one).
  let inFlight = 0;
  const counted = new WeakSet<object>();
  if (maxInFlight > 0) {
    app.addHook('onRequest', async (request) => {
      counted.add(request);
      inFlight += 1;
    });
    const done = async (request: object) => {
      if (counted.delete(request)) inFlight -= 1;
    };
    app.addHook('onResponse', done);
    app.addHook('onRequestAbort', done);
  }
  await app.register(underPressure, {
    ...(maxDelay > 0 ? { maxEventLoopDelay: maxDelay } : {}),
    ...(maxInFlight > 0
      ? {
          healthCheck: async () => inFlight <= maxInFlight,
          healthCheckInterval: Math.max(10, Math.round(config.LOAD_SHED_SAMPLE_INTERVAL_MS / 10)),
        }
      : {}),
    sampleInterval: config.LOAD_SHED_SAMPLE_INTERVAL_MS,
    retryAfter: RETRY_AFTER_SECONDS,
    pressureHandler: (request, reply, type, value) => {
      request.log.warn({ type, value, inFlight }, 'overloaded: request shed with 503');
      reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({
          response: 'failure',
          message: `The server is busy. Please try again in ${RETRY_AFTER_SECONDS} seconds`,
          code: AppErrorCode.SERVICE_UNAVAILABLE,
          data: null,
        });
    },
  });
};
