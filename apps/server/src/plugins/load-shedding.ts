import underPressure from '@fastify/under-pressure';
import { AppErrorCode } from '@kisht/domain/common/errors';
import type { FastifyInstance } from 'fastify';
import type { TConfig } from '../config';

/** Seconds a shed client is told to wait (the Retry-After header, RFC 9110 §10.2.3). */
const RETRY_AFTER_SECONDS = 5;

/**
 * Load shedding with @fastify/under-pressure: while the event loop is saturated (its delay over
 * LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS, or its utilisation over LOAD_SHED_MAX_EVENT_LOOP_UTILIZATION,
 * sampled every LOAD_SHED_SAMPLE_INTERVAL_MS) a new request answers 503 SERVICE_UNAVAILABLE at
 * once, in the envelope of design §3 with Retry-After, instead of queueing behind the work in
 * hand (PGlite runs on this thread, so a saturated loop is a saturated database too). Off when
 * both limits are 0. Requests already accepted run to the end.
 */
export const registerLoadShedding = async (app: FastifyInstance, config: TConfig): Promise<void> => {
  const maxDelay = config.LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS;
  const maxUtilization = config.LOAD_SHED_MAX_EVENT_LOOP_UTILIZATION;
  if (maxDelay === 0 && maxUtilization === 0) return;
  await app.register(underPressure, {
    ...(maxDelay > 0 ? { maxEventLoopDelay: maxDelay } : {}),
    // 'interval': the share of the last sample interval, not of the whole uptime (the default).
    ...(maxUtilization > 0
      ? { maxEventLoopUtilization: maxUtilization, eventLoopUtilizationMode: 'interval' as const }
      : {}),
    sampleInterval: config.LOAD_SHED_SAMPLE_INTERVAL_MS,
    retryAfter: RETRY_AFTER_SECONDS,
    pressureHandler: (request, reply, type, value) => {
      request.log.warn({ type, value }, 'overloaded: request shed with 503');
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
