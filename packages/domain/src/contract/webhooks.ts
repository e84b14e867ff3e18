import { paths } from '../paths';
import {
  ZCreateWebhookEndpoint,
  ZResendWebhook,
  ZWebhookDeliveriesQuery,
  ZWebhookDelivery,
  ZWebhookEndpoint,
  ZWebhookEndpointId,
  ZWebhookEndpointQuery,
  ZWebhookEndpointWithSecret,
} from '../webhooks/webhooks.schema';
import { defineRoutes } from './define';

/**
 * Outbound webhooks (issue 30, docs/webhooks.md): the organisation admin's receivers of signed
 * events (Standard Webhooks), their delivery log, and a resend. Another organisation's ids answer
 * 404; anyone but the organisation admin 403.
 */
export const webhooksContract = defineRoutes({
  /** The organisation's endpoints, newest first (never their secrets). */
  list: { method: 'GET', path: paths.webhooks.endpoints, response: ZWebhookEndpoint.array() },
  /** Adds an endpoint: answers it with its signing secret, shown this once. */
  create: {
    method: 'POST',
    path: paths.webhooks.endpoints,
    body: ZCreateWebhookEndpoint,
    response: ZWebhookEndpointWithSecret,
  },
  /** Removes an endpoint: nothing more is sent to it (what waits is dropped). */
  remove: {
    method: 'DELETE',
    path: paths.webhooks.endpoints,
    query: ZWebhookEndpointQuery,
    response: ZWebhookEndpoint,
  },
  /** A new signing secret, shown this once; the previous one also signs for 24 hours. */
  rotate: {
    method: 'POST',
    path: paths.webhooks.rotate,
    body: ZWebhookEndpointId,
    response: ZWebhookEndpointWithSecret,
  },
  /** Enables a disabled endpoint again; what waits for it is sent. */
  enable: {
    method: 'POST',
    path: paths.webhooks.enable,
    body: ZWebhookEndpointId,
    response: ZWebhookEndpoint,
  },
  /** The endpoint's newest 50 messages and how each was delivered. */
  deliveries: {
    method: 'GET',
    path: paths.webhooks.deliveries,
    query: ZWebhookDeliveriesQuery,
    response: ZWebhookDelivery.array(),
  },
  /** Sends a message again now (a failed one gets a fresh retry schedule). */
  resend: { method: 'POST', path: paths.webhooks.resend, body: ZResendWebhook, response: ZWebhookDelivery },
});
