import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Signing of outbound webhooks by the Standard Webhooks specification, through its reference
 * library (`standardwebhooks`): `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` under each
 * secret, space-separated (the current secret, and the previous one while a rotation is honoured).
 * `at` is the `webhook-timestamp` (sent as Unix seconds).
 */
export const webhookSignature = (secrets: readonly string[], id: string, at: Date, body: string): string =>
  secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' ');

/** A new endpoint secret: `whsec_` and 24 random bytes in base64 (the specification's form). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;
