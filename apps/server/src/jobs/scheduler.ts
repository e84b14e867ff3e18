import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { markMaturingLoans } from '../modules/customers/customers.service';
import { runAutoLockLadder } from '../modules/devices/auto-lock.service';
import type { CommandDispatcher } from '../modules/devices/device-outbox.service';
import {
  dispatchDueScheduledCommands,
  expireOverdueCommands,
  redeliverUnacknowledgedCommands,
} from '../modules/devices/devices.service';

/**
 * How often scheduled commands are checked for being due, and unacknowledged commands of connected
 * devices for a re-send, ms (more often when intervalMs is shorter).
 */
export const SCHEDULED_COMMANDS_INTERVAL_MS = 30_000;

/**
 * Periodic jobs (design §1 jobs): the EMIs-maturing rule, the auto-lock ladder (reminder
 * wallpaper, lock when overdue), the expiry of undelivered commands in organisations that set one
 * (design §5: nothing expires silently), every intervalMs; and scheduled commands and the re-send
 * of unacknowledged ones every SCHEDULED_COMMANDS_INTERVAL_MS, or every intervalMs when that is
 * shorter. Every job takes its rows with FOR UPDATE SKIP LOCKED or is an idempotent statement, so
 * several server processes may run them side by side. Runs once at start; returns a function that
 * stops the timers.
 */
export const startJobs = (
  deps: { db: Db; dispatcher: CommandDispatcher },
  intervalMs: number,
  log: FastifyBaseLogger,
): (() => void) => {
  const report = (name: string) => (error: unknown) => log.error({ err: error }, `${name} job failed`);
  const run = () => {
    markMaturingLoans(deps.db)
      .then((moved) => {
        if (moved > 0) log.info(`${moved} loans moved to EMIs maturing`);
      })
      .catch(report('maturing'));
    runAutoLockLadder(deps)
      .then(({ reminders, locks }) => {
        // One debug line per run (the scale-out test counts them per process).
        log.debug({ job: 'auto-lock', reminders, locks }, 'auto-lock ladder ran');
        if (reminders + locks > 0) log.info(`auto-lock ladder: ${reminders} reminders, ${locks} locks`);
      })
      .catch(report('auto-lock'));
    expireOverdueCommands(deps)
      .then((expired) => {
        if (expired > 0) log.info(`${expired} undelivered commands expired`);
      })
      .catch(report('command expiry'));
  };
  const runScheduled = () => {
    dispatchDueScheduledCommands(deps)
      .then((sent) => log.debug({ job: 'scheduled', sent }, 'scheduled commands ran'))
      .catch(report('scheduled commands'));
    redeliverUnacknowledgedCommands(deps)
      .then((sent) => {
        if (sent > 0) log.info(`${sent} unacknowledged commands re-sent`);
      })
      .catch(report('command re-send'));
  };
  run();
  runScheduled();
  const timer = setInterval(run, intervalMs);
  const scheduledTimer = setInterval(runScheduled, Math.min(intervalMs, SCHEDULED_COMMANDS_INTERVAL_MS));
  timer.unref();
  scheduledTimer.unref();
  return () => {
    clearInterval(timer);
    clearInterval(scheduledTimer);
  };
};
