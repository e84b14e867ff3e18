import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { markMaturingLoans } from '../modules/customers/customers.service';

/**
 * Periodic jobs (design §1 jobs): today only the EMIs-maturing rule. Every job is an idempotent
 * statement, so several server processes may run them side by side. Runs once at start, then every
 * intervalMs; returns a function that stops the timer.
 */
export const startJobs = (db: Db, intervalMs: number, log: FastifyBaseLogger): (() => void) => {
  const run = () => {
    markMaturingLoans(db)
      .then((moved) => {
        if (moved > 0) log.info(`${moved} loans moved to EMIs maturing`);
      })
      .catch((error: unknown) => log.error({ err: error }, 'maturing job failed'));
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
};
