import type { TWebhookEventType } from '@kisht/domain/webhooks/webhooks.rules';
import { sql } from 'drizzle-orm';
import { type Db, type DbOrTx, queryRows } from '../../db/client';

/**
 * Which event types each organisation's endpoints take, known in memory so that the hot requests
 * (a payment, a round of acknowledgements) spend no statement on webhooks for an organisation that
 * has none. Loaded when the app starts, reloaded by every run of the "webhooks" job (every 5 s) and
 * at once in the process that changes an endpoint; another server process sees a change within
 * that interval. A stale answer costs nothing wrong: told "subscribed" for an endpoint since
 * removed, the enqueue writes no row.
 */
export class WebhookSubscriptions {
  private byOrg = new Map<number, Set<string>>();

  /** Reads every organisation's subscribed types afresh (one statement). */
  async refresh(db: DbOrTx): Promise<void> {
    const rows = await queryRows<{ org_id: number; events: string[] }>(
      db,
      sql`select org_id, array_agg(distinct event) as events
          from webhook_endpoints, unnest(events) as event
          where deleted_at is null group by org_id`,
    );
    this.byOrg = new Map(rows.map((row) => [row.org_id, new Set(row.events)]));
  }

  /** Whether an endpoint of `orgId` takes `type`. */
  takes(orgId: number, type: TWebhookEventType): boolean {
    return this.byOrg.get(orgId)?.has(type) ?? false;
  }
}

const byDatabase = new WeakMap<Db, WebhookSubscriptions>();

/** The subscriptions known for a database (one per app, created empty on first use). */
export const webhookSubscriptionsOf = (db: Db): WebhookSubscriptions => {
  let subscriptions = byDatabase.get(db);
  if (!subscriptions) {
    subscriptions = new WebhookSubscriptions();
    byDatabase.set(db, subscriptions);
  }
  return subscriptions;
};
