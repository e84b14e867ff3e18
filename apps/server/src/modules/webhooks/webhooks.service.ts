import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { istDate } from '@kisht/domain/common/time';
import {
  nextWebhookAttemptAt,
  type TWebhookEventType,
  WEBHOOK_PREVIOUS_SECRET_TTL_MS,
  WEBHOOK_TIMEOUT_MS,
} from '@kisht/domain/webhooks/webhooks.rules';
import type {
  TCreateWebhookEndpoint,
  TWebhookDelivery,
  TWebhookEndpoint,
} from '@kisht/domain/webhooks/webhooks.schema';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import { notify } from '../notifications/notifications.service';
import { webhookSubscriptionsOf } from './webhook-subscriptions';
import * as repo from './webhooks.repository';
import { newWebhookSecret, webhookSignature } from './webhooks.signing';

/** What delivering webhooks needs: the database, a log, and `fetch` (tests may pass their own). */
export type TWebhookDeps = {
  db: Db;
  log: Pick<FastifyBaseLogger, 'warn' | 'error' | 'info'>;
  fetch?: typeof fetch;
};

/** How many messages one run of the job sends at most. */
const BATCH = 50;
/** How long a claimed message is left to its attempt before another run may take it, ms. */
const LEASE_MS = 60_000;
/** The delivery log's length. */
const LOG_LENGTH = 50;

const endpointNotFound = () => new AppError(AppErrorCode.NOT_FOUND, 'Webhook endpoint not found');

/** Only the organisation admin manages webhooks; throws FORBIDDEN for anyone else. */
const requireAdmin = (actor: TActor) => {
  if (actor.userType !== 'admin')
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only the organisation admin manages webhooks');
};

const endpointOf = (row: repo.TEndpointRow): TWebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events as TWebhookEndpoint['events'],
  status: row.status,
  disabledReason: row.disabledReason,
  createdAt: row.createdAt.toISOString(),
});

const deliveryOf = (row: repo.TMessageRow): TWebhookDelivery => ({
  id: row.id,
  eventType: row.eventType as TWebhookDelivery['eventType'],
  status: row.status,
  attempts: row.attempts,
  lastStatusCode: row.lastStatusCode,
  lastError: row.lastError,
  nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
  createdAt: row.createdAt.toISOString(),
  deliveredAt: row.deliveredAt?.toISOString() ?? null,
});

const audit = (
  db: DbOrTx,
  actor: TActor,
  action:
    | 'webhook.endpoint_created'
    | 'webhook.endpoint_removed'
    | 'webhook.endpoint_enabled'
    | 'webhook.secret_rotated',
  row: repo.TEndpointRow,
) =>
  insertAudit(db, {
    orgId: actor.orgId,
    actorUserId: actor.userId,
    action,
    entity: 'webhook_endpoint',
    entityId: String(row.id),
    details: { url: row.url, events: row.events, status: row.status },
  });

/** The organisation's endpoints (paths.webhooks.endpoints GET; admin). */
export const listEndpoints = async (db: DbOrTx, actor: TActor): Promise<TWebhookEndpoint[]> => {
  requireAdmin(actor);
  return (await repo.listEndpoints(db, actor.orgId)).map(endpointOf);
};

/**
 * Adds an endpoint (paths.webhooks.endpoints POST; admin), with a new secret answered this once.
 * In production only an https URL is taken (400 naming `url`).
 */
export const createEndpoint = async (
  db: Db,
  options: { actor: TActor; request: TCreateWebhookEndpoint; isProduction: boolean },
): Promise<{ endpoint: TWebhookEndpoint; secret: string }> => {
  const { actor, request } = options;
  requireAdmin(actor);
  if (options.isProduction && !request.url.startsWith('https://'))
    throw new AppError(AppErrorCode.VALIDATION_FAILED, 'Webhooks go to https URLs only', [
      { field: 'url', message: 'An https URL' },
    ]);
  const secret = newWebhookSecret();
  const row = await db.transaction(async (tx) => {
    const inserted = await repo.insertEndpoint(tx, {
      orgId: actor.orgId,
      url: request.url,
      description: request.description || null,
      events: [...request.events],
      secret,
      createdBy: actor.userId,
    });
    await audit(tx, actor, 'webhook.endpoint_created', inserted);
    return inserted;
  });
  await webhookSubscriptionsOf(db).refresh(db);
  return { endpoint: endpointOf(row), secret };
};

/** The admin's endpoint `id`, or NOT_FOUND (404; another organisation's too). */
const reachEndpoint = async (db: DbOrTx, actor: TActor, id: number) => {
  requireAdmin(actor);
  const row = await repo.findEndpoint(db, actor.orgId, id);
  if (!row) throw endpointNotFound();
  return row;
};

/** Removes an endpoint (paths.webhooks.endpoints DELETE; admin): what waits for it is dropped. */
export const removeEndpoint = async (db: Db, actor: TActor, id: number): Promise<TWebhookEndpoint> => {
  const row = await reachEndpoint(db, actor, id);
  const removed = await db.transaction(async (tx) => {
    const updated = await repo.updateEndpoint(tx, row.id, { deletedAt: new Date() });
    await repo.failPendingOf(tx, row.id, 'endpoint removed');
    await audit(tx, actor, 'webhook.endpoint_removed', updated);
    return updated;
  });
  await webhookSubscriptionsOf(db).refresh(db);
  return endpointOf(removed);
};

/**
 * A new secret for an endpoint (paths.webhooks.rotate; admin), answered this once; the previous
 * one also signs for WEBHOOK_PREVIOUS_SECRET_TTL_MS, so the receiver can switch without a gap.
 */
export const rotateSecret = async (
  db: Db,
  actor: TActor,
  id: number,
): Promise<{ endpoint: TWebhookEndpoint; secret: string }> => {
  const row = await reachEndpoint(db, actor, id);
  const secret = newWebhookSecret();
  const rotated = await db.transaction(async (tx) => {
    const updated = await repo.updateEndpoint(tx, row.id, {
      secret,
      previousSecret: row.secret,
      previousSecretExpiresAt: new Date(Date.now() + WEBHOOK_PREVIOUS_SECRET_TTL_MS),
    });
    await audit(tx, actor, 'webhook.secret_rotated', updated);
    return updated;
  });
  return { endpoint: endpointOf(rotated), secret };
};

/** Enables a disabled endpoint again (paths.webhooks.enable; admin); what waits for it is sent. */
export const enableEndpoint = async (db: Db, actor: TActor, id: number): Promise<TWebhookEndpoint> => {
  const row = await reachEndpoint(db, actor, id);
  if (row.status === 'enabled') return endpointOf(row);
  const enabled = await db.transaction(async (tx) => {
    const updated = await repo.updateEndpoint(tx, row.id, { status: 'enabled', disabledReason: null });
    await audit(tx, actor, 'webhook.endpoint_enabled', updated);
    return updated;
  });
  return endpointOf(enabled);
};

/** The endpoint's delivery log (paths.webhooks.deliveries; admin): its newest 50 messages. */
export const listDeliveries = async (
  db: DbOrTx,
  actor: TActor,
  endpointId: number,
): Promise<TWebhookDelivery[]> => {
  const row = await reachEndpoint(db, actor, endpointId);
  return (await repo.listMessages(db, row.id, LOG_LENGTH)).map(deliveryOf);
};

/**
 * Sends a message again now (paths.webhooks.resend; admin), with a fresh retry schedule, under its
 * own `webhook-id` (the receiver deduplicates by it). NOT_FOUND for another organisation's.
 */
export const resendMessage = async (db: Db, actor: TActor, messageId: string): Promise<TWebhookDelivery> => {
  requireAdmin(actor);
  const message = await repo.findMessage(db, actor.orgId, messageId);
  if (!message || !(await repo.findEndpoint(db, actor.orgId, message.endpointId)))
    throw new AppError(AppErrorCode.NOT_FOUND, 'Webhook message not found');
  return deliveryOf(await repo.requeueMessage(db, message.id, new Date()));
};

/** One event for the outbox: its organisation, type, subject (ordering key) and data. */
export type TWebhookEvent = {
  orgId: number;
  type: TWebhookEventType;
  /** Keeps one subject's messages in order, e.g. `device:<id>` or `customer:<id>`. */
  orderingKey: string;
  data: Record<string, unknown>;
  occurredAt?: Date;
};

/**
 * Writes events to the webhook outbox in one statement, in the caller's transaction (so they are
 * sent only if what they tell commits): a message per event and endpoint of its organisation that
 * takes its type, its body `{ type, timestamp, data }` (Standard Webhooks' payload shape;
 * `timestamp` ISO 8601 UTC of `occurredAt`). Answers how many messages were written.
 */
export const enqueueWebhookEvents = (db: DbOrTx, events: readonly TWebhookEvent[]): Promise<number> =>
  repo.insertEventMessages(
    db,
    events.map((event) => ({
      orgId: event.orgId,
      type: event.type,
      orderingKey: event.orderingKey,
      body: JSON.stringify({
        type: event.type,
        timestamp: (event.occurredAt ?? new Date()).toISOString(),
        data: event.data,
      }),
    })),
  );

/** One event to the webhook outbox (enqueueWebhookEvents). */
export const enqueueWebhookEvent = (db: DbOrTx, event: TWebhookEvent): Promise<number> =>
  enqueueWebhookEvents(db, [event]);

/**
 * The events of a hot request (a payment, a round of acknowledgements), written only for the
 * organisations whose endpoints take them as far as `webhookSubscriptionsOf(db)` knows, so an
 * organisation without endpoints pays no statement. One statement when any is written.
 */
export const enqueueSubscribedWebhookEvents = (
  db: Db,
  tx: DbOrTx,
  events: readonly TWebhookEvent[],
): Promise<number> => {
  const subscriptions = webhookSubscriptionsOf(db);
  return enqueueWebhookEvents(
    tx,
    events.filter((event) => subscriptions.takes(event.orgId, event.type)),
  );
};

/** Instalments told overdue per run of tellOverdueInstalments, at most. */
const OVERDUE_BATCH = 500;

/**
 * The `instalment.overdue` events (docs/webhooks.md): each unpaid instalment whose due date has
 * passed (+05:30) is told once, in the transaction that marks it (emis.overdue_told_at), ordered
 * with its loan's other events. For the notification job (hourly): the day after a due date, the
 * lender hears within the hour. Several processes may run it. Returns how many were told.
 */
export const tellOverdueInstalments = (db: Db, now: Date = new Date()): Promise<number> =>
  db.transaction(async (tx) => {
    const rows = await repo.claimNewlyOverdue(tx, { today: istDate(now), now, limit: OVERDUE_BATCH });
    await enqueueWebhookEvents(
      tx,
      rows.map((row) => ({
        orgId: row.org_id,
        type: 'instalment.overdue' as const,
        orderingKey: `customer:${row.customer_id}`,
        data: {
          customerId: row.customer_id,
          instalmentId: row.id,
          instalmentNo: row.instalment_no,
          dueDate: row.due_date,
          amountPaise: row.amount_paise,
          paidPaise: row.paid_paise,
          overduePaise: row.amount_paise - row.paid_paise,
        },
      })),
    );
    return rows.length;
  });

/** The secrets a message is signed with at `now`: the current one, and the previous while honoured. */
const secretsOf = (message: repo.TClaimedMessage, now: Date): string[] => {
  const expiresAt = message.previous_secret_expires_at ? new Date(message.previous_secret_expires_at) : null;
  return message.previous_secret && expiresAt && expiresAt > now
    ? [message.secret, message.previous_secret]
    : [message.secret];
};

/** One attempt: POST the body, signed; answers the receiver's status, or the error. */
const attempt = async (
  deps: TWebhookDeps,
  message: repo.TClaimedMessage,
  now: Date,
): Promise<{ statusCode: number | null; error: string | null }> => {
  try {
    const response = await (deps.fetch ?? fetch)(message.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Kisht-Webhooks/1',
        'webhook-id': message.id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': webhookSignature(secretsOf(message, now), message.id, now, message.body),
      },
      body: message.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return response.ok
      ? { statusCode: response.status, error: null }
      : { statusCode: response.status, error: `answered ${response.status}` };
  } catch (error) {
    return { statusCode: null, error: (error as Error).message.slice(0, 200) };
  }
};

/**
 * Disables an endpoint whose message failed its whole retry schedule, and tells the
 * organisation's admins (notification webhook_disabled), once.
 */
const disableEndpoint = async (deps: TWebhookDeps, message: repo.TClaimedMessage, reason: string) => {
  await deps.db.transaction(async (tx) => {
    const endpoint = await repo.findEndpoint(tx, message.org_id, message.endpoint_id);
    if (!endpoint || endpoint.status === 'disabled') return;
    await repo.updateEndpoint(tx, endpoint.id, { status: 'disabled', disabledReason: reason });
    await notify(tx, {
      orgId: message.org_id,
      userIds: await repo.listAdminIds(tx, message.org_id),
      kind: 'webhook_disabled',
      params: { url: endpoint.url },
      customerId: null,
      dedupeKey: `webhook-disabled:${endpoint.id}:${message.id}`,
    });
  });
  deps.log.warn({ endpointId: message.endpoint_id, messageId: message.id }, 'webhook endpoint disabled');
};

/**
 * The "webhooks" job (issue 30): sends the messages due at `now`, at most 50 a run, each the
 * earliest waiting one of its endpoint and subject (claimDueMessages), signed. A 2xx answer
 * delivers it; anything else (another status, a redirect, no answer within WEBHOOK_TIMEOUT_MS) is
 * tried again after the next delay of WEBHOOK_RETRY_DELAYS_MS, and after the last the message
 * fails and its endpoint is disabled, the admins notified. Answers how many were delivered.
 */
export const deliverWebhooks = async (deps: TWebhookDeps, now: Date = new Date()): Promise<number> => {
  const claimed = await repo.claimDueMessages(deps.db, { now, leaseMs: LEASE_MS, limit: BATCH });
  const outcomes = await Promise.all(
    claimed.map(async (message) => ({ message, ...(await attempt(deps, message, now)) })),
  );
  let delivered = 0;
  for (const { message, statusCode, error } of outcomes) {
    const attempts = message.attempts + 1;
    if (error === null) {
      delivered += 1;
      await repo.finishAttempt(deps.db, message.id, {
        status: 'delivered',
        attempts,
        nextAttemptAt: null,
        lastStatusCode: statusCode,
        lastError: null,
        deliveredAt: now,
      });
      continue;
    }
    const next = nextWebhookAttemptAt(attempts, now);
    await repo.finishAttempt(deps.db, message.id, {
      status: next ? 'pending' : 'failed',
      attempts,
      nextAttemptAt: next,
      lastStatusCode: statusCode,
      lastError: error,
      deliveredAt: null,
    });
    if (!next)
      await disableEndpoint(deps, message, `Message ${message.id} failed ${attempts} attempts: ${error}`);
  }
  return delivered;
};

/** The webhook event of a command the phone applied: a lock or an unlock (others tell nothing). */
const APPLIED_EVENTS: Partial<Record<string, TWebhookEventType>> = {
  lock: 'device.locked',
  unlock: 'device.unlocked',
};

/**
 * Tells the lender's webhooks of the locks and unlocks a round of acknowledgements found done on
 * the phones (`device.locked` / `device.unlocked`: when the phone applied it, not when it was
 * asked), for the organisations that take them (enqueueSubscribedWebhookEvents: no statement for
 * the others, one for the round otherwise).
 */
export const tellCommandsApplied = (
  db: Db,
  done: readonly {
    device: { id: string; orgId: number; customerId: number };
    command: { id: string; name: string };
  }[],
): Promise<number> =>
  enqueueSubscribedWebhookEvents(
    db,
    db,
    done.flatMap(({ device, command }) => {
      const type = APPLIED_EVENTS[command.name];
      return type
        ? [
            {
              orgId: device.orgId,
              type,
              orderingKey: `customer:${device.customerId}`,
              data: { customerId: device.customerId, deviceId: device.id, commandId: command.id },
            },
          ]
        : [];
    }),
  );
