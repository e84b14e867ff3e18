import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { notifyExpiringPlans, notifyLongOfflinePhones } from '../modules/notifications/notifications.service';
import { enqueueWebhookEvents, tellOverdueInstalments } from '../modules/webhooks/webhooks.service';

/**
 * The lender's `device.offline` webhook of each long-offline phone (docs/webhooks.md), in the
 * notification job's transaction, so once per offline spell.
 */
export const tellLendersOffline: NonNullable<Parameters<typeof notifyLongOfflinePhones>[2]> = (tx, phones) =>
  enqueueWebhookEvents(
    tx,
    phones.map((phone) => ({
      orgId: phone.orgId,
      type: 'device.offline' as const,
      orderingKey: `customer:${phone.customerId}`,
      data: {
        customerId: phone.customerId,
        deviceId: phone.deviceId,
        lastSeenAt: phone.lastSeenAt.toISOString(),
        offlineDays: phone.days,
      },
    })),
  );

/** How often long-offline phones, plans ending soon and newly overdue instalments are looked for: hourly. */
export const NOTIFICATIONS_INTERVAL_MS = 60 * 60_000;

/**
 * The notification jobs (issue 16), for startProtectedJob: at start and then every hour (or every
 * intervalMs when that is longer), `phone_offline` for enrolled phones not seen for the
 * organisation's offlineNotifyDays (once per offline spell, with the lender's device.offline
 * webhook), `plan_expiring` for plans ending within 7 days (once per activation), and the lender's
 * instalment.overdue webhook once per instalment that fell overdue (issue 30). Rows are claimed
 * FOR UPDATE SKIP LOCKED and each is told once, so several server processes may run it.
 */
export const notificationsJob = (deps: { db: Db }, intervalMs: number, log: FastifyBaseLogger) => ({
  name: 'notifications',
  intervalMs: Math.max(intervalMs, NOTIFICATIONS_INTERVAL_MS),
  log,
  run: async () => {
    const offline = await notifyLongOfflinePhones(deps.db, new Date(), tellLendersOffline);
    const expiring = await notifyExpiringPlans(deps.db);
    const overdue = await tellOverdueInstalments(deps.db);
    if (offline + expiring + overdue > 0)
      log.info({ job: 'notifications', offline, expiring, overdue }, 'notifications written');
  },
});
