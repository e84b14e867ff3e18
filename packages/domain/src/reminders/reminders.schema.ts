import { z } from 'zod';
import { ZIsoDate } from '../common/envelope';
import { ZId, ZQueryId } from '../common/identifiers';
import {
  REMINDER_CHANNELS,
  REMINDER_OFFSET_MAX,
  REMINDER_OFFSET_MIN,
  REMINDER_OFFSETS_MAX,
} from './reminders.rules';

const hasNoRepeat = (values: readonly unknown[]) => new Set(values).size === values.length;

/**
 * An organisation's reminder schedule (issue 29): the days from a due date on which an unpaid
 * instalment is reminded (negative: before it; 0: on the day), and the channels used.
 */
export const ZReminderSettings = z.object({
  offsetsDays: z
    .array(
      z
        .number()
        .int('Whole days')
        .min(REMINDER_OFFSET_MIN, `At most ${-REMINDER_OFFSET_MIN} days before`)
        .max(REMINDER_OFFSET_MAX, `At most ${REMINDER_OFFSET_MAX} days after`),
    )
    .min(1, 'Choose at least one day')
    .max(REMINDER_OFFSETS_MAX, `At most ${REMINDER_OFFSETS_MAX} days`)
    .refine(hasNoRepeat, 'Each day once'),
  channels: z
    .array(z.enum(REMINDER_CHANNELS))
    .min(1, 'Choose at least one channel')
    .refine(hasNoRepeat, 'Each channel once'),
});
export type TReminderSettings = z.infer<typeof ZReminderSettings>;

/** PUT reminder settings: the schedule, or null for no reminders. */
export const ZReminderSettingsRequest = z.object({ reminders: ZReminderSettings.nullable() });
export type TReminderSettingsRequest = z.input<typeof ZReminderSettingsRequest>;

/** Where a reminder is: waiting (queued), handed over (sent), on the phone (delivered), seen (read), or not sent. */
export const REMINDER_STATES = ['queued', 'sent', 'delivered', 'read', 'failed', 'cancelled'] as const;
export type TReminderState = (typeof REMINDER_STATES)[number];

/** One reminder of a customer's, as their page lists it. */
export const ZReminder = z.object({
  id: ZId,
  channel: z.enum(REMINDER_CHANNELS),
  instalmentNo: z.number().int(),
  dueDate: ZIsoDate,
  /** Days from the due date (negative: before). */
  offsetDays: z.number().int(),
  state: z.enum(REMINDER_STATES),
  /** Not before this instant (quiet hours), ISO 8601 UTC. */
  sendAfter: z.string(),
  sentAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  readAt: z.string().nullable(),
  /** Why it failed or was cancelled (paid, opted out), when it did. */
  error: z.string().nullable(),
});
export type TReminder = z.infer<typeof ZReminder>;

/** A customer's reminders, newest first, and whether they refused WhatsApp. */
export const ZCustomerReminders = z.object({
  whatsappOptOut: z.boolean(),
  items: z.array(ZReminder),
});
export type TCustomerReminders = z.infer<typeof ZCustomerReminders>;

/** The reminders query: one customer. */
export const ZCustomerRemindersQuery = z.object({ customer_id: ZQueryId });

/** Record that a customer does (or no longer does) want WhatsApp reminders. */
export const ZWhatsAppOptOutRequest = z.object({ customer_id: ZId, opt_out: z.boolean() });
export type TWhatsAppOptOutRequest = z.input<typeof ZWhatsAppOptOutRequest>;
