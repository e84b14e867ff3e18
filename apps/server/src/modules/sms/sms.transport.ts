import type { FastifyBaseLogger } from 'fastify';
import type { TSmsContent } from './sms-templates';

/** A text message to an E.164 mobile number. */
export type TSmsMessage = { to: string; text: string };

/**
 * How to send one message: `signal` abandons the try (the outbox's time budget); `template` is the
 * DLT template the text was rendered from (kind and variables, sms-templates.ts), which a gateway
 * that sends by template id (MSG91) sends instead of the text. Absent only for a row queued before
 * templates existed.
 */
export type TSmsSendOptions = { signal?: AbortSignal; template?: TSmsContent };

/**
 * Hands a text message to an SMS gateway; rejects when the gateway did not take it. Throw
 * SmsRejectedError when trying again cannot help.
 */
export type SmsTransport = {
  send: (message: TSmsMessage, options?: TSmsSendOptions) => Promise<void>;
};

/** The gateway refused this message for good (a 4xx other than 408 and 429): no retry will help. */
export class SmsRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SmsRejectedError';
  }
}

/**
 * Development transport: writes the message to the server log. Never used when
 * NODE_ENV=production (see buildApp).
 */
export const createLogSmsTransport = (log: FastifyBaseLogger): SmsTransport => ({
  send: async ({ to, text }) => {
    log.info({ to }, `[dev SMS] ${text}`);
  },
});

/**
 * Production transport (SMS_PROVIDER=webhook): POSTs `{ to, text }` as JSON to the operator's SMS
 * gateway webhook; the text is the rendered DLT template, so a gateway that matches it against the
 * registered templates finds it (docs/sms.md, "The generic webhook"). Each
 * try is abandoned after timeoutMs (AbortSignal.timeout) or when `signal` aborts. A 2xx answer is
 * success; 408, 429 and 5xx are worth another try (plain Error); any other 4xx is SmsRejectedError.
 */
export const createWebhookSmsTransport = (
  url: string,
  { timeoutMs }: { timeoutMs: number },
): SmsTransport => ({
  send: async ({ to, text }, options = {}) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to, text }),
      signal: options.signal ? AbortSignal.any([timeout, options.signal]) : timeout,
    });
    // The body is not needed; reading it frees the connection.
    await response.arrayBuffer().catch(() => undefined);
    if (response.ok) return;
    const problem = `SMS gateway answered ${response.status}`;
    const isPermanent =
      response.status >= 400 && response.status < 500 && ![408, 429].includes(response.status);
    throw isPermanent ? new SmsRejectedError(problem) : new Error(problem);
  },
});
