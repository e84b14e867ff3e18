import { z } from 'zod';
import { ZId, ZQueryId } from '../common/identifiers';
import { WEBHOOK_EVENT_TYPES } from './webhooks.rules';

/** An event type (webhooks.rules WEBHOOK_EVENT_TYPES). */
export const ZWebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);

/**
 * POST paths.webhooks.endpoints: a lender's receiver (organisation admin). `url` is http(s), at most
 * 500 characters (the server takes only https in production); `events` at least one, each once.
 */
export const ZCreateWebhookEndpoint = z.object({
  url: z
    .url({ protocol: /^https?$/, message: 'An http(s) URL, e.g. https://lender.example/kisht' })
    .max(500, 'At most 500 characters'),
  events: z
    .array(ZWebhookEventType)
    .min(1, 'Choose at least one event')
    .refine((events) => new Set(events).size === events.length, 'Each event once'),
  description: z.string().trim().max(100, 'At most 100 characters').optional(),
});
export type TCreateWebhookEndpoint = z.input<typeof ZCreateWebhookEndpoint>;

/** DELETE paths.webhooks.endpoints: ?endpoint_id=. */
export const ZWebhookEndpointQuery = z.object({ endpoint_id: ZQueryId });
/** POST paths.webhooks.rotate and paths.webhooks.enable: `{ endpoint_id }`. */
export const ZWebhookEndpointId = z.object({ endpoint_id: ZId });

/** An endpoint as the admin sees it (never its secret). Times UTC. */
export const ZWebhookEndpoint = z.object({
  id: z.number().int().positive(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(ZWebhookEventType),
  status: z.enum(['enabled', 'disabled']),
  /** Why it was disabled (a message failed its whole retry schedule), else null. */
  disabledReason: z.string().nullable(),
  createdAt: z.string(),
});
export type TWebhookEndpoint = z.infer<typeof ZWebhookEndpoint>;

/**
 * An endpoint just created or rotated, with its signing secret (`whsec_` + base64), shown this
 * once: Kisht keeps it to sign, and never answers it again.
 */
export const ZWebhookEndpointWithSecret = z.object({ endpoint: ZWebhookEndpoint, secret: z.string() });

/** GET paths.webhooks.deliveries: ?endpoint_id=, newest first. */
export const ZWebhookDeliveriesQuery = z.object({ endpoint_id: ZQueryId });

/** One message to an endpoint and how its delivery stands (the delivery log). Times UTC. */
export const ZWebhookDelivery = z.object({
  /** The message id (`webhook-id`), the same on every attempt. */
  id: z.string(),
  eventType: ZWebhookEventType,
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int().nonnegative(),
  /** The receiver's HTTP status of the last attempt, or null (no answer). */
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

/** POST paths.webhooks.resend: `{ message_id }`, a message of the admin's organisation. */
export const ZResendWebhook = z.object({
  message_id: z.string().regex(/^msg_[A-Za-z0-9]{10,40}$/, 'A message id'),
});
