import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { markMaturingLoans } from '../modules/customers/customers.service';
import { expireOverdueCommands } from '../modules/devices/devices.service';

/**
 * Periodic jobs (design §1 jobs): the EMIs-maturing rule and the expiry of undelivered commands
 * in organisations that set one (design §5: nothing expires silently). Every job is an idempotent
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
    expireOverdueCommands(db)
      .then((expired) => {
        if (expired > 0) log.info(`${expired} undelivered commands expired`);
      })
      .catch((error: unknown) => log.error({ err: error }, 'command expiry job failed'));
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
};
