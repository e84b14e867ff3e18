import { z } from 'zod';
import { paths } from '../paths';
import {
  ZCustomerReminders,
  ZCustomerRemindersQuery,
  ZReminderSettings,
  ZReminderSettingsRequest,
  ZWhatsAppOptOutRequest,
} from '../reminders/reminders.schema';
import { defineRoutes } from './define';

/** Meta's verification query of a webhook (hub.mode, hub.verify_token, hub.challenge). */
export const ZWhatsAppVerificationQuery = z.object({
  'hub.mode': z.string().max(32).optional(),
  'hub.verify_token': z.string().max(256).optional(),
  'hub.challenge': z.string().max(256).optional(),
});

/**
 * The reminder routes (issue 29): the organisation's schedule, a customer's reminders and their
 * WhatsApp choice (sessions; a customer outside the actor's scope answers 404), and the WhatsApp
 * Cloud API's webhook (public; its POST is signed with X-Hub-Signature-256).
 */
export const remindersContract = defineRoutes({
  /** The organisation's reminder schedule, null when it sends none (retailers and mini-retailers). */
  getSettings: { method: 'GET', path: paths.reminders.settings, response: ZReminderSettings.nullable() },
  /** Replace the schedule (the retailer); null stops reminders. Answers the new schedule. */
  saveSettings: {
    method: 'PUT',
    path: paths.reminders.settings,
    body: ZReminderSettingsRequest,
    response: ZReminderSettings.nullable(),
  },
  /** A customer's reminders, newest first, and whether they refused WhatsApp. */
  ofCustomer: {
    method: 'GET',
    path: paths.reminders.ofCustomer,
    query: ZCustomerRemindersQuery,
    response: ZCustomerReminders,
  },
  /** The customer refuses (or accepts again) WhatsApp reminders; answers their reminders. */
  whatsappOptOut: {
    method: 'POST',
    path: paths.reminders.whatsappOptOut,
    body: ZWhatsAppOptOutRequest,
    response: ZCustomerReminders,
  },
  /** Meta's webhook verification: answers hub.challenge as text when the verify token matches, else 403. */
  whatsappVerify: {
    method: 'GET',
    path: paths.reminders.whatsappWebhook,
    query: ZWhatsAppVerificationQuery,
    response: 'protocol',
  },
  /** Delivery statuses (sent, delivered, read, failed), signed over the raw body; answers 200 to Meta. */
  whatsappWebhook: { method: 'POST', path: paths.reminders.whatsappWebhook, response: 'protocol' },
});
