import type { FastifyBaseLogger } from 'fastify';

/** Sends a text message to an E.164 mobile number. */
export type SmsTransport = { send: (options: { to: string; text: string }) => Promise<void> };

/**
 * Development transport: writes the message to the server log. Never used when
 * NODE_ENV=production (see createSmsTransport).
 */
export const createLogSmsTransport = (log: FastifyBaseLogger): SmsTransport => ({
  send: async ({ to, text }) => {
    log.info({ to }, `[dev SMS] ${text}`);
  },
});

/** Production transport: POSTs `{ to, text }` as JSON to the operator's SMS gateway webhook. */
export const createWebhookSmsTransport = (url: string): SmsTransport => ({
  send: async ({ to, text }) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to, text }),
    });
    if (!response.ok) throw new Error(`SMS gateway answered ${response.status}`);
  },
});
