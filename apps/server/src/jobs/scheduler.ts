import { istDate } from '@kisht/domain/common/time';
import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { JobRunners } from '../lib/job-runners';
import { markMaturingLoans } from '../modules/customers/customers.service';
import { runAutoLockLadder } from '../modules/devices/auto-lock.service';
import { resumeStaleBulkBatches } from '../modules/devices/bulk-batches.service';
import {
  dispatchDueScheduledCommands,
  expireOverdueCommands,
  reconcileDeviceServices,
  redeliverUnacknowledgedCommands,
} from '../modules/devices/command-jobs.service';
import { releaseLapsedReservations } from '../modules/ledger/ledger.service';
import { deliverReminders, planReminders, type TReminderDeps } from '../modules/reminders/reminders.service';
import { notificationsJob } from './notifications.job';
import { warrantyReminderJob } from './warranty-reminders.job';

/**
 * How often scheduled commands are checked for being due, and unacknowledged commands of connected
 * devices for a re-send, ms (more often when intervalMs is shorter).
 */
export const SCHEDULED_COMMANDS_INTERVAL_MS = 30_000;

/** How often the SMS outbox is checked for SMS to try again (more often when intervalMs is shorter). */
export const SMS_OUTBOX_INTERVAL_MS = 10_000;
/** How often payment reminders are planned and sent at most, ms (issue 29). */
export const REMINDERS_INTERVAL_MS = 5 * 60_000;

/** A cron pattern that matches every second; croner's `interval` option then spaces the runs. */
const EVERY_SECOND = '* * * * * *';

/**
 * Runs `run` now and then every intervalMs (whole seconds, at least one: croner's resolution), and
 * never twice at once: when a run is still going as the next is due, that next run is skipped and
 * logged as a warning (croner's `protect`). A run that throws or rejects is logged as
 * "<name> job failed". The timer does not keep the process alive. Stop it with `job.stop()`; a run
 * in progress then finishes on its own.
 */
export const startProtectedJob = ({
  name,
  intervalMs,
  run,
  log,
}: {
  name: string;
  intervalMs: number;
  run: () => Promise<void>;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}): Cron => {
  const intervalSeconds = Math.max(1, Math.round(intervalMs / 1000));
  const job = new Cron(
    EVERY_SECOND,
    {
      interval: intervalSeconds,
      // The first scheduled run comes one interval after the immediate one below.
      startAt: new Date(Date.now() + intervalSeconds * 1000),
      protect: () => log.warn({ job: name }, `${name} job still running; this run is skipped`),
      catch: (error) => log.error({ err: error }, `${name} job failed`),
      unref: true,
    },
    run,
  );
  // trigger() marks the job busy, so a scheduled run cannot overlap this first one either.
  void job.trigger();
  return job;
};

/**
 * One run of the payment reminders (issue 29) as if it were `at` (UTC): today's reminders planned
 * (planReminders), then those due sent outside the quiet hours (deliverReminders). Answers how many
 * were planned and sent.
 */
export const runPaymentReminders = async (
  deps: TReminderDeps,
  at: Date = new Date(),
): Promise<{ planned: number; sent: number }> => {
  const planned = await planReminders(deps.db, at);
  const sent = await deliverReminders(deps, at);
  return { planned, sent };
};

/**
 * Registers the jobs of this scheduler that the job clock may run at another instant: the payment
 * reminders and the auto-lock ladder (on the +05:30 date of that instant).
 */
export const registerClockedJobs = (
  jobs: JobRunners,
  deps: Omit<TReminderDeps, 'log'>,
  log: FastifyBaseLogger,
): void => {
  jobs.register('payment_reminders', (at) => runPaymentReminders({ ...deps, log }, at));
  jobs.register('auto_lock', (at) => runAutoLockLadder(deps, istDate(at)));
};

/**
 * Periodic jobs (design §1 jobs): the EMIs-maturing rule, the auto-lock ladder (reminder
 * wallpaper, lock when overdue), the expiry of undelivered commands in organisations that set one
 * (design §5: nothing expires silently), the return of keys reserved by enrolment QRs that lapsed
 * unused (issue 27: releaseLapsedReservations), every intervalMs; and scheduled commands, the re-send
 * of unacknowledged ones and bulk requests whose writing stopped (issue 26) every
 * SCHEDULED_COMMANDS_INTERVAL_MS, or every intervalMs when that is shorter, as is the reconciliation
 * with the MDM services (what NanoMDM's lost webhooks left undone: reconcileDeviceServices); and the SMS outbox's retries (SmsOutbox.deliverDue) every SMS_OUTBOX_INTERVAL_MS, or
 * every intervalMs when that is shorter; and the extended-warranty expiry reminders once a day
 * (warranty-reminders.job); and the notification jobs (phone offline, plan expiring) hourly
 * (notifications.job). Each job is skipped while its previous run is still going
 * (startProtectedJob). Every job takes its rows with FOR UPDATE SKIP LOCKED or is an idempotent
 * statement, so several server processes may run them side by side. Runs once at start; returns a
 * function that stops the jobs.
 */
export const startJobs = (
  deps: Omit<TReminderDeps, 'log'>,
  intervalMs: number,
  log: FastifyBaseLogger,
): (() => void) => {
  const scheduledIntervalMs = Math.min(intervalMs, SCHEDULED_COMMANDS_INTERVAL_MS);
  const jobs = [
    startProtectedJob({
      name: 'maturing',
      intervalMs,
      log,
      run: async () => {
        const moved = await markMaturingLoans(deps.db);
        if (moved > 0) log.info(`${moved} loans moved to EMIs maturing`);
      },
    }),
    startProtectedJob(warrantyReminderJob(deps, intervalMs, log)),
    startProtectedJob(notificationsJob(deps, intervalMs, log)),
    startProtectedJob({
      name: 'auto-lock',
      intervalMs,
      log,
      run: async () => {
        const { reminders, locks } = await runAutoLockLadder(deps);
        // One debug line per run (the scale-out test counts them per process).
        log.debug({ job: 'auto-lock', reminders, locks }, 'auto-lock ladder ran');
        if (reminders + locks > 0) log.info(`auto-lock ladder: ${reminders} reminders, ${locks} locks`);
      },
    }),
    startProtectedJob({
      // Payment reminders (issue 29): planned for today and sent, outside the quiet hours, every
      // few minutes (so a reminder held overnight goes soon after 09:00 +05:30).
      name: 'payment reminders',
      intervalMs: Math.min(intervalMs, REMINDERS_INTERVAL_MS),
      log,
      run: async () => {
        const { planned, sent } = await runPaymentReminders({ ...deps, log });
        if (planned + sent > 0)
          log.info({ job: 'payment reminders', planned, sent }, 'payment reminders ran');
      },
    }),
    startProtectedJob({
      name: 'command expiry',
      intervalMs,
      log,
      run: async () => {
        const expired = await expireOverdueCommands(deps);
        if (expired > 0) log.info(`${expired} undelivered commands expired`);
      },
    }),
    startProtectedJob({
      name: 'key reservations',
      intervalMs,
      log,
      run: async () => {
        const released = await releaseLapsedReservations(deps.db);
        if (released > 0) log.info(`${released} keys of lapsed enrolment QRs returned to their retailers`);
      },
    }),
    startProtectedJob({
      name: 'scheduled commands',
      intervalMs: scheduledIntervalMs,
      log,
      run: async () => {
        const sent = await dispatchDueScheduledCommands(deps);
        log.debug({ job: 'scheduled', sent }, 'scheduled commands ran');
      },
    }),
    startProtectedJob({
      name: 'bulk batches',
      intervalMs: scheduledIntervalMs,
      log,
      run: async () => {
        const resumed = await resumeStaleBulkBatches(deps);
        if (resumed > 0) log.info(`${resumed} bulk requests taken up again`);
      },
    }),
    startProtectedJob({
      name: 'command re-send',
      intervalMs: scheduledIntervalMs,
      log,
      run: async () => {
        const sent = await redeliverUnacknowledgedCommands(deps);
        if (sent > 0) log.info(`${sent} unacknowledged commands re-sent`);
      },
    }),
    startProtectedJob({
      name: 'device service reconciliation',
      intervalMs: scheduledIntervalMs,
      log,
      run: async () => {
        const sent = await reconcileDeviceServices(deps);
        if (sent > 0)
          log.info(`${sent} messages delivered again after the reconciliation with the MDM services`);
      },
    }),
    startProtectedJob({
      name: 'sms outbox',
      intervalMs: Math.min(intervalMs, SMS_OUTBOX_INTERVAL_MS),
      log,
      run: async () => {
        const { sent, retried, failed, expired } = await deps.sms.deliverDue();
        if (sent + retried + failed + expired > 0) {
          log.info({ job: 'sms outbox', sent, retried, failed, expired }, 'SMS outbox ran');
        }
      },
    }),
  ];
  return () => {
    for (const job of jobs) job.stop();
  };
};
