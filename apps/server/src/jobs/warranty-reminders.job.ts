import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { SmsOutbox } from '../modules/sms/sms.service';
import { sendWarrantyExpiryReminders } from '../modules/warranty/warranty.service';

/** How often extended warranties ending soon are looked for: once a day. */
export const WARRANTY_REMINDER_INTERVAL_MS = 24 * 60 * 60_000;

/**
 * The extended-warranty expiry reminder (issue 14), for startProtectedJob: at start and then once a
 * day (or every intervalMs when that is longer), an SMS to the buyer of each warranty ending within
 * 30 days, once per warranty (warranty.service sendWarrantyExpiryReminders, rows claimed FOR UPDATE
 * SKIP LOCKED, so several server processes may run it).
 */
export const warrantyReminderJob = (
  deps: { db: Db; sms: SmsOutbox },
  intervalMs: number,
  log: FastifyBaseLogger,
) => ({
  name: 'warranty reminders',
  intervalMs: Math.max(intervalMs, WARRANTY_REMINDER_INTERVAL_MS),
  log,
  run: async () => {
    const sent = await sendWarrantyExpiryReminders(deps);
    if (sent > 0) log.info({ job: 'warranty reminders', sent }, 'extended warranty expiry reminders queued');
  },
});
