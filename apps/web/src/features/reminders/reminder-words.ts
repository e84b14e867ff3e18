import type { TReminderChannel } from '@kisht/domain/reminders/reminders.rules';
import type { TReminderState } from '@kisht/domain/reminders/reminders.schema';
import type { ParseKeys } from 'i18next';

/** The translation key of a channel's name (Phone, SMS, WhatsApp). */
export const channelKey = (channel: TReminderChannel): ParseKeys =>
  `reminders.channels.${channel}` as ParseKeys;

/** The translation key of a reminder's state (Waiting, Sent, Delivered, Read, Failed, Cancelled). */
export const stateKey = (state: TReminderState): ParseKeys => `reminders.states.${state}` as ParseKeys;

/** A chip colour per state: done well (read, delivered), on its way, or not sent. */
export const STATE_COLOURS: Record<TReminderState, 'default' | 'info' | 'success' | 'error'> = {
  queued: 'default',
  sent: 'info',
  delivered: 'success',
  read: 'success',
  failed: 'error',
  cancelled: 'default',
};

/**
 * An offset in words, through the translator: "3 days before", "on the due date", "1 day after".
 * `t` is i18next's, with the `reminders.offset.*` plural keys.
 */
export const offsetWords = (
  t: (key: ParseKeys, options?: Record<string, unknown>) => string,
  offsetDays: number,
) => {
  if (offsetDays === 0) return t('reminders.offset.onTheDay' as ParseKeys);
  return offsetDays < 0
    ? t('reminders.offset.before' as ParseKeys, { count: -offsetDays })
    : t('reminders.offset.after' as ParseKeys, { count: offsetDays });
};
