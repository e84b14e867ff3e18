import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/*
 * The WhatsApp Cloud API's webhook, as its public sources give it; checked against:
 * - https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/create-webhook-endpoint:
 *   Meta verifies the callback URL with GET ?hub.mode=subscribe&hub.challenge=…&hub.verify_token=…
 *   and expects the challenge back; each POST carries X-Hub-Signature-256.
 * - Meta's WhatsApp/WhatsApp-Nodejs-SDK (the official SDK): src/api/webhooks.ts answers the GET as
 *   above and checks the POST's X-Hub-Signature-256, "sha256=" then the hex HMAC-SHA256 of the raw
 *   body under the app secret (src/utils.ts); src/types/webhooks.ts: { object:
 *   'whatsapp_business_account', entry: [{ id, changes: [{ field, value: { messaging_product,
 *   metadata, contacts?, messages?, statuses?: [{ id, status, timestamp, recipient_id,
 *   conversation?, pricing?, errors?: [{ code, title, message, error_data: { details } }] }] } }] }] }.
 * - https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/status:
 *   statuses arrive on the `messages` field for sent, delivered, read and failed messages (also
 *   played voice messages and group sends); "delivered" may be skipped when a message is read at once.
 * - great-detail/WhatsApp-Nodejs-SDK src/EventNotification/EventNotificationStatus.ts: a status
 *   carries the sent message's biz_opaque_callback_data (Graph API, November 14, 2023); timestamp is
 *   unix seconds (sent as a string).
 * - Graph API webhooks guide, as quoted in michalsanger/serverless-facebook-messenger-bot issue 2:
 *   the signature is computed "on the escaped unicode version of the payload", so only the exact raw
 *   bytes verify (tawn33y/whatsapp-cloud-api issue 60: re-serialised JSON does not).
 */

/** The statuses Kisht shows; others (e.g. 'played', 'deleted', 'warning') are skipped. */
const KNOWN_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;

/** X-Hub-Signature-256's form: "sha256=" and 64 hex digits. */
const SIGNATURE_HEADER = /^sha256=([0-9a-fA-F]{64})$/;

/**
 * True when header (X-Hub-Signature-256: 'sha256=<hex>') is the HMAC-SHA256 of rawBody under
 * appSecret (the Meta app's secret), compared in constant time (crypto.timingSafeEqual). rawBody
 * must be the exact bytes received: Meta signs its escaped-unicode JSON, which re-serialising
 * changes. False on a missing or malformed header, and when appSecret is empty (anyone can sign
 * with an empty key). Source: the Graph API webhooks guide, WhatsApp-Nodejs-SDK src/utils.ts.
 */
export const isValidWhatsAppSignature = (
  appSecret: string,
  rawBody: Buffer,
  header: string | undefined,
): boolean => {
  const hex = header ? SIGNATURE_HEADER.exec(header.trim())?.[1] : undefined;
  if (!hex || appSecret === '') return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(hex, 'hex'), expected);
};

/** One delivery status from a webhook payload. */
export type TWhatsAppStatus = {
  /** WhatsApp's message id (wamid.…), as sendTemplate resolved it. */
  messageId: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  /** When WhatsApp says the message reached this status (whole seconds). */
  at: Date;
  /** Our reference (biz_opaque_callback_data) when the status carries it, else null. */
  reference: string | null;
  /** WhatsApp's errors, e.g. "131026 Message undeliverable: <details>", or null when it gave none. */
  error: string | null;
};

const ZWebhook = z.object({ object: z.literal('whatsapp_business_account'), entry: z.array(z.unknown()) });
const ZEntry = z.object({ changes: z.array(z.unknown()) });
const ZChange = z.object({
  field: z.string().optional(),
  value: z.object({ statuses: z.array(z.unknown()).optional() }),
});
const ZStatus = z.object({
  id: z.string().min(1).max(256),
  status: z.enum(KNOWN_STATUSES),
  // Unix seconds: a string in Meta's payloads; a number is taken too (some SDKs type it so).
  timestamp: z.union([z.string().regex(/^\d{1,12}$/), z.number().int().min(0).max(999_999_999_999)]),
  recipient_id: z.string().optional(),
  biz_opaque_callback_data: z.string().max(512).optional(),
  errors: z
    .array(
      z.object({
        code: z.number().int(),
        title: z.string().optional(),
        message: z.string().optional(),
        error_data: z.object({ details: z.string().optional() }).optional(),
      }),
    )
    .optional(),
});

/** The items of `list` that `schema` accepts; the others are skipped. */
const parsedItems = <T>(schema: z.ZodType<T>, list: unknown[]): T[] =>
  list.flatMap((item) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });

/** WhatsApp's errors of a status as one line, e.g. "131026 Message undeliverable: <details>". */
const errorTextOf = (errors: z.infer<typeof ZStatus>['errors']): string | null => {
  const texts = (errors ?? []).map(({ code, title, message, error_data }) => {
    const detail = [error_data?.details, message].find((text) => text && text !== title);
    return `${code}${title ? ` ${title}` : ''}${detail ? `: ${detail}` : ''}`;
  });
  return texts.length > 0 ? texts.join('; ').slice(0, 500) : null;
};

/**
 * The statuses of a webhook payload (object 'whatsapp_business_account', entry[].changes[].value
 * .statuses[] with id, status, timestamp (unix seconds string), recipient_id,
 * biz_opaque_callback_data?, errors?[{ code, title, message?, error_data? }]), in payload order.
 * Parsed defensively with zod: a payload of another object gives []; a change of another field
 * than `messages`, an unknown status ('played', 'deleted', …) and a malformed entry, change or
 * status (no id, a timestamp that is not unix seconds) are skipped; inbound `messages` are ignored. Never throws.
 */
export const statusesOfWebhook = (payload: unknown): TWhatsAppStatus[] => {
  const webhook = ZWebhook.safeParse(payload);
  if (!webhook.success) return [];
  return parsedItems(ZEntry, webhook.data.entry)
    .flatMap((entry) => parsedItems(ZChange, entry.changes))
    .filter((change) => change.field === undefined || change.field === 'messages')
    .flatMap((change) => parsedItems(ZStatus, change.value.statuses ?? []))
    .map((status) => ({
      messageId: status.id,
      status: status.status,
      at: new Date(Number(status.timestamp) * 1000),
      reference: status.biz_opaque_callback_data || null,
      error: errorTextOf(status.errors),
    }));
};

/** A challenge we echo: Meta sends a number; anything else is refused rather than reflected. */
const CHALLENGE = /^[A-Za-z0-9._~-]{1,256}$/;

/** Constant-time equality of two strings of any length (compares their SHA-256 digests). */
const isSameSecret = (given: string, expected: string) =>
  timingSafeEqual(
    createHash('sha256').update(given).digest(),
    createHash('sha256').update(expected).digest(),
  );

/**
 * The answer to Meta's verification GET (the webhook URL's query, as Fastify parses it: keys
 * 'hub.mode', 'hub.verify_token', 'hub.challenge'): the challenge when hub.mode is 'subscribe' and
 * hub.verify_token equals verifyToken (WHATSAPP_VERIFY_TOKEN, compared in constant time), else null
 * (the route answers 403). Also null when verifyToken is empty, a value is repeated, or the
 * challenge is not a plain token (Meta sends an integer), so nothing arbitrary is reflected.
 * Answer the challenge as text/plain.
 */
export const verificationChallenge = (query: Record<string, unknown>, verifyToken: string): string | null => {
  const mode = query['hub.mode'];
  const token = query['hub.verify_token'];
  const challenge = query['hub.challenge'];
  if (mode !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string') return null;
  if (verifyToken === '' || !isSameSecret(token, verifyToken) || !CHALLENGE.test(challenge)) return null;
  return challenge;
};
