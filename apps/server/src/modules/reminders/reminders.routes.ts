import { remindersContract } from '@kisht/domain/contract/reminders';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import {
  isValidWhatsAppSignature,
  statusesOfWebhook,
  verificationChallenge,
} from '../whatsapp/whatsapp-webhook';
import {
  getReminderSettings,
  listCustomerReminders,
  recordWhatsAppStatuses,
  saveReminderSettings,
  setWhatsAppOptOut,
} from './reminders.service';

/** The largest webhook body read, bytes (a status batch is a few KB). */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

/**
 * The reminder routes (issue 29): the organisation's schedule, a customer's reminders and WhatsApp
 * choice (sessions), and the WhatsApp Cloud API's webhook (public: Meta's verification GET, and
 * delivery statuses POSTed with X-Hub-Signature-256 over the raw body).
 */
export const remindersRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  // The webhook: public, signed over the exact body bytes, so this scope keeps them raw.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    const r = scope.withTypeProvider<ZodTypeProvider>();
    r.route({
      ...contractRoute(remindersContract.whatsappVerify, {
        tags: ['reminders'],
        summary: "WhatsApp webhook verification (Meta's hub.challenge)",
        description:
          'Called by Meta when the webhook is subscribed: answers hub.challenge as text when hub.mode ' +
          'is subscribe and hub.verify_token is WHATSAPP_VERIFY_TOKEN, else 403.',
      }),
      handler: async (request, reply) => {
        const challenge = verificationChallenge(request.query, ctx.config.WHATSAPP_VERIFY_TOKEN ?? '');
        if (challenge === null) return reply.status(403).type('text/plain').send('Forbidden');
        return reply.type('text/plain').send(challenge);
      },
    });
    r.route({
      ...contractRoute(remindersContract.whatsappWebhook, {
        tags: ['reminders'],
        summary:
          'WhatsApp delivery statuses (sent, delivered, read, failed), signed with X-Hub-Signature-256',
        description:
          'Called by Meta, not the app. X-Hub-Signature-256 must be sha256=<hex HMAC-SHA256 of the raw ' +
          'body under WHATSAPP_APP_SECRET>, else 401 and nothing is recorded. Each status moves the ' +
          'reminder it reports on forward (never back); statuses of messages Kisht did not send are ignored.',
      }),
      handler: async (request, reply) => {
        const secret = ctx.config.WHATSAPP_APP_SECRET;
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['x-hub-signature-256'];
        if (
          !secret ||
          !isValidWhatsAppSignature(secret, rawBody, typeof signature === 'string' ? signature : undefined)
        ) {
          return reply.status(401).send({ error: 'invalid signature' });
        }
        let payload: unknown = null;
        try {
          payload = JSON.parse(rawBody.toString('utf8'));
        } catch {
          return reply.status(400).send({ error: 'invalid JSON' });
        }
        const recorded = await recordWhatsAppStatuses(ctx.db, statusesOfWebhook(payload));
        return reply.send({ recorded });
      },
    });
  });

  await app.register(async (scope) => {
    requireSession(scope, ctx);
    const r = scope.withTypeProvider<ZodTypeProvider>();
    r.route({
      ...contractRoute(remindersContract.getSettings, {
        tags: ['reminders'],
        summary: "The organisation's payment-reminder schedule (null: none)",
      }),
      handler: async (request) => ok(await getReminderSettings(ctx.db, request.actor)),
    });
    r.route({
      ...contractRoute(remindersContract.saveSettings, {
        tags: ['reminders'],
        summary: 'Replace the payment-reminder schedule (the retailer; null stops reminders)',
      }),
      handler: async (request) =>
        ok(await saveReminderSettings(ctx.db, request.actor, request.body.reminders), 'Reminders saved'),
    });
    r.route({
      ...contractRoute(remindersContract.ofCustomer, {
        tags: ['reminders'],
        summary: "A customer's payment reminders, newest first, and their WhatsApp choice",
      }),
      handler: async (request) =>
        ok(await listCustomerReminders(ctx.db, request.actor, request.query.customer_id)),
    });
    r.route({
      ...contractRoute(remindersContract.whatsappOptOut, {
        tags: ['reminders'],
        summary: 'The customer refuses (or accepts again) WhatsApp reminders',
      }),
      handler: async (request) => ok(await setWhatsAppOptOut(ctx.db, request.actor, request.body), 'Saved'),
    });
  });
};
