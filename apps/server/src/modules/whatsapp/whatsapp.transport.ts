import { randomUUID } from 'node:crypto';
import { z } from 'zod';

/*
 * The WhatsApp Business Cloud API's "messages" endpoint, sending an approved template; checked against:
 * - Meta's WhatsApp/WhatsApp-Nodejs-SDK (the official SDK), src/types/messages.ts: the request body
 *   { messaging_product: 'whatsapp', recipient_type, to, type, template: { name, language: { code },
 *   components: [{ type: 'body', parameters: [{ type: 'text', text }] }] } } and the answer
 *   { messaging_product, contacts: [{ input, wa_id }], messages: [{ id }] }; src/utils.ts and
 *   src/api/*: POST https://graph.facebook.com/{version}/{phone number id}/messages with
 *   `Authorization: Bearer <access token>`.
 * - great-detail/WhatsApp-Nodejs-SDK (a maintained fork with fuller types): its create-message options
 *   document `biz_opaque_callback_data`, "an arbitrary 256B string, useful for tracking", not
 *   processed by the Cloud API but returned in the statuses of the sent/delivered/read webhooks
 *   (Graph API, November 14, 2023; src/EventNotification/EventNotificationStatus.ts); its answer type
 *   adds messages[].message_status ('accepted' | 'held_for_quality_assessment'), ignored here.
 * - https://developers.facebook.com/documentation/business-messaging/whatsapp/support/error-codes: an
 *   error answers { error: { message, type, code, error_data: { messaging_product, details },
 *   fbtrace_id } }; build on `code` and `details`, not on the title in `message`. Its table (as copied
 *   by help.botbee.io and docs.ycloud.com) gives 190 "Access token has expired" → 401, 130429 "Rate
 *   limit hit" → 429, 131000 "Something went wrong" → 500, 131008/131009 (parameter missing / not
 *   valid) → 400; great-detail's src/Error.ts lists 132000 "Template Param Count Mismatch" and 132001
 *   "Template does not exist" (both 400).
 * - netflie/whatsapp-cloud-api issue 201: the API refuses a text parameter with "Param text cannot
 *   have new-line/tab characters or more than 4 consecutive spaces", so whitespace runs are folded.
 * A template message needs no open 24-hour window, which is why reminders go as templates.
 */

/**
 * One template message: to (E.164 like +919876543210), the approved template's name, its language
 * code (WhatsApp's, e.g. 'en', 'hi', 'ta'), the body's text parameters in order ({{1}}, {{2}}, …),
 * and our own reference, sent as biz_opaque_callback_data and echoed back in the status webhooks
 * (whatsapp-webhook.ts).
 */
export type TWhatsAppTemplateMessage = {
  to: string;
  templateName: string;
  languageCode: string;
  bodyParameters: string[];
  reference: string;
};

/**
 * Hands one template message to WhatsApp; resolves with WhatsApp's message id (wamid.…), which the
 * status webhooks name. Rejects when WhatsApp did not take it: WhatsAppRejectedError when trying
 * again cannot help, any other error when it may. `signal` abandons the try.
 */
export type WhatsAppTransport = {
  sendTemplate: (
    message: TWhatsAppTemplateMessage,
    options?: { signal?: AbortSignal },
  ) => Promise<{ messageId: string }>;
};

/**
 * WhatsApp refused this message for good (a 4xx other than 408 and 429: a bad token, an unknown
 * template or language, a wrong parameter count, a number that is not E.164): do not retry.
 * `code` is the Graph API's error code (e.g. 190, 132000, 132001), null when there was none.
 */
export class WhatsAppRejectedError extends Error {
  readonly code: number | null;

  constructor(message: string, code: number | null = null) {
    super(message);
    this.name = 'WhatsAppRejectedError';
    this.code = code;
  }
}

/** What the Cloud API transport needs (from config: WHATSAPP_*, docs/whatsapp.md). */
export type TWhatsAppCloudSettings = {
  /** The Graph API base with its version, e.g. https://graph.facebook.com/v21.0. */
  apiUrl: string;
  /** The business phone number's id (not the number itself), from WhatsApp Manager or API Setup. */
  phoneNumberId: string;
  /** A permanent (system user) access token with whatsapp_business_messaging. */
  accessToken: string;
  /** How long one try may take, ms. */
  timeoutMs: number;
};

/** E.164: "+", a country code that does not start with 0, 8 to 15 digits in all. */
const E164 = /^\+[1-9]\d{7,14}$/;

/** The number as the Cloud API takes it (digits only), or a refusal when `to` is not E.164. */
const digitsOf = (to: string): string => {
  if (!E164.test(to)) throw new WhatsAppRejectedError('WhatsApp needs the number in E.164 format (+91…)');
  return to.slice(1);
};

/** A text parameter WhatsApp accepts: no newline or tab, no run of spaces (see the top). */
const toParameterText = (text: string) => text.replace(/\s+/g, ' ').trim();

/** HTTP statuses worth another try: the request timed out, too many requests, or Meta's side failed. */
const isRetryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

/**
 * Graph error codes that are rate limits, worth another try later whatever the HTTP status (Meta's
 * WhatsApp error codes: 130429 throughput, 131048 spam rate limit, 131056 pair rate limit).
 */
const RATE_LIMIT_CODES: ReadonlySet<number> = new Set([130429, 131048, 131056]);

/** The part of a success we use: the new message's id. */
const ZSendAnswer = z.object({ messages: z.array(z.object({ id: z.string().min(1) })).min(1) });

/** A Graph API error answer, every field optional: a proxy's or a newer API's answer must not throw here. */
const ZGraphError = z.object({
  error: z.object({
    message: z.string().optional(),
    type: z.string().optional(),
    code: z.number().int().optional(),
    error_subcode: z.number().int().optional(),
    error_data: z.object({ details: z.string().optional() }).optional(),
    fbtrace_id: z.string().optional(),
  }),
});

/**
 * WhatsApp through Meta's Cloud API (WHATSAPP_PROVIDER=cloud): POSTs the template message to
 * {apiUrl}/{phoneNumberId}/messages with the access token as a Bearer token, `to` as digits
 * without "+", each body parameter as a text parameter (whitespace runs folded to one space,
 * which the API requires), `reference` as biz_opaque_callback_data, and no components when there
 * are no parameters. Each try is abandoned after timeoutMs (AbortSignal.timeout) or when `signal`
 * aborts, rejecting with that abort's error. Resolves with messages[0].id of a 2xx answer. Throws
 * WhatsAppRejectedError (with the API's message, details and code) for another 4xx than 408 and 429,
 * and, without any request, for a `to` that is not E.164; throws a plain Error, worth another try,
 * for 408, 429, 5xx, a network failure and a 2xx without a message id.
 */
export const createCloudWhatsAppTransport = (settings: TWhatsAppCloudSettings): WhatsAppTransport => ({
  sendTemplate: async (message, options = {}) => {
    const to = digitsOf(message.to);
    const parameters = message.bodyParameters.map((text) => ({ type: 'text', text: toParameterText(text) }));
    const timeout = AbortSignal.timeout(settings.timeoutMs);
    const url = `${settings.apiUrl.replace(/\/+$/, '')}/${encodeURIComponent(settings.phoneNumberId)}/messages`;
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${settings.accessToken}`,
        accept: 'application/json',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to,
        type: 'template',
        biz_opaque_callback_data: message.reference,
        template: {
          name: message.templateName,
          language: { code: message.languageCode },
          ...(parameters.length > 0 ? { components: [{ type: 'body', parameters }] } : {}),
        },
      }),
      signal: options.signal ? AbortSignal.any([timeout, options.signal]) : timeout,
    });
    const answer: unknown = await response.json().catch(() => null);
    if (response.ok) {
      const sent = ZSendAnswer.safeParse(answer);
      if (sent.success) return { messageId: sent.data.messages[0]!.id };
      // A 2xx without an id (a proxy's page) says nothing of the message: try again.
      throw new Error(`WhatsApp Cloud API answered ${response.status} without a message id`);
    }
    const error = ZGraphError.safeParse(answer).data?.error;
    const code = error?.code ?? null;
    const said = [
      error?.message,
      error?.error_data?.details,
      error?.fbtrace_id ? `fbtrace_id ${error.fbtrace_id}` : undefined,
    ]
      .filter(Boolean)
      .join('; ');
    const subcode = error?.error_subcode ? `/${error.error_subcode}` : '';
    const problem = `WhatsApp Cloud API answered ${response.status}${code === null ? '' : ` (code ${code}${subcode})`}${said ? `: ${said.slice(0, 400)}` : ''}`;
    const isRateLimit = code !== null && RATE_LIMIT_CODES.has(code);
    if (isRetryableStatus(response.status) || response.status < 400 || isRateLimit) throw new Error(problem);
    throw new WhatsAppRejectedError(problem, code);
  },
});

/**
 * Development and tests: writes the template message to `log` (info, with to, template, language
 * and reference) instead of sending it, and answers a made-up id 'wamid.log-<uuid>'. Refuses a
 * `to` that is not E.164 as the Cloud API transport does, so a bad number shows up before
 * production.
 */
export const createLogWhatsAppTransport = (log: {
  info: (obj: object, msg: string) => void;
}): WhatsAppTransport => ({
  sendTemplate: async (message) => {
    digitsOf(message.to);
    const messageId = `wamid.log-${randomUUID()}`;
    log.info(
      {
        to: message.to,
        templateName: message.templateName,
        languageCode: message.languageCode,
        reference: message.reference,
        messageId,
      },
      `[dev WhatsApp] ${message.templateName} (${message.languageCode}): ${message.bodyParameters.join(' | ')}`,
    );
    return { messageId };
  },
});
