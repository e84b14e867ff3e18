import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { notifyExpiringPlans, notifyLongOfflinePhones } from '../modules/notifications/notifications.service';

/** How often long-offline phones and plans ending soon are looked for: once an hour. */
export const NOTIFICATIONS_INTERVAL_MS = 60 * 60_000;

/**
 * The notification jobs (issue 16), for startProtectedJob: at start and then every hour (or every
 * intervalMs when that is longer), `phone_offline` for enrolled phones not seen for the
 * organisation's offlineNotifyDays (once per offline spell) and `plan_expiring` for plans ending
 * within 7 days (once per activation). Rows are claimed FOR UPDATE SKIP LOCKED and each
 * notification is deduplicated, so several server processes may run it.
 */
export const notificationsJob = (deps: { db: Db }, intervalMs: number, log: FastifyBaseLogger) => ({
  name: 'notifications',
  intervalMs: Math.max(intervalMs, NOTIFICATIONS_INTERVAL_MS),
  log,
  run: async () => {
    const offline = await notifyLongOfflinePhones(deps.db);
    const expiring = await notifyExpiringPlans(deps.db);
    if (offline + expiring > 0)
      log.info({ job: 'notifications', offline, expiring }, 'notifications written');
  },
});
