import { CustomerStatus } from '../common/enums';
import { LANGUAGE_BCP47 } from '../common/languages';
import { addDays, istDate, istWallClock, istWallClockToMs } from '../common/time';

/*
 * Payment reminders (issue 29): before and after a due date, on the phone, by SMS and by WhatsApp,
 * on each organisation's schedule, never in the quiet hours, each sent once.
 */

/** Where a reminder goes: the phone (the emi_alert command), an SMS (DLT template), WhatsApp (template). */
export const REMINDER_CHANNELS = ['phone', 'sms', 'whatsapp'] as const;
export type TReminderChannel = (typeof REMINDER_CHANNELS)[number];

/**
 * The schedule incumbents advertise and an organisation starts from: 3 days before the due date,
 * on the day, and 1, 3 and 7 days after it.
 */
export const DEFAULT_REMINDER_OFFSETS = [-3, 0, 1, 3, 7] as const;

/**
 * The loans that are reminded: open ones, enrolled or not yet (the money is owed either way). A
 * deactivated, released, removed or completed customer gets none.
 */
export const REMINDED_STATUSES: readonly number[] = [
  CustomerStatus.INACTIVE,
  CustomerStatus.INSTALL,
  CustomerStatus.EMI_MATURING,
];

/** The earliest and latest a reminder may be scheduled, days from the due date. */
export const REMINDER_OFFSET_MIN = -15;
export const REMINDER_OFFSET_MAX = 60;
/** The most reminders one instalment may get per channel. */
export const REMINDER_OFFSETS_MAX = 8;

/**
 * Quiet hours, +05:30 wall clock (TRAI's commercial-communication practice and the lender codes'
 * "no calls or messages at odd hours"): nothing is sent from 21:00 until 09:00.
 */
export const QUIET_HOURS = { startHour: 21, endHour: 9 } as const;

/** The +05:30 hour (0–23) of an instant (its wall clock `YYYY-MM-DDTHH:mm`). */
const istHour = (at: Date): number => Number(istWallClock(at).slice(11, 13));

/** Whether an instant falls in the quiet hours (21:00–09:00 +05:30). */
export const isQuietHour = (at: Date): boolean => {
  const hour = istHour(at);
  return hour >= QUIET_HOURS.startHour || hour < QUIET_HOURS.endHour;
};

/** The instant 09:00 +05:30 on a calendar date (YYYY-MM-DD). */
const quietHoursEndOn = (isoDate: string): Date =>
  new Date(istWallClockToMs(`${isoDate}T${String(QUIET_HOURS.endHour).padStart(2, '0')}:00`)!);

/**
 * The first instant from `at` on which a reminder may go: `at` itself outside the quiet hours,
 * else the 09:00 +05:30 that ends them (the same day before 09:00, the next day after 21:00).
 */
export const nextSendableAt = (at: Date): Date => {
  if (!isQuietHour(at)) return at;
  const today = istDate(at);
  return istHour(at) < QUIET_HOURS.endHour ? quietHoursEndOn(today) : quietHoursEndOn(addDays(today, 1));
};

/** The due date whose instalments get the reminder of `offsetDays` on `today` (both YYYY-MM-DD). */
export const dueDateForOffset = (today: string, offsetDays: number): string => addDays(today, -offsetDays);

/**
 * What a reminder says about the due date, by its offset: it is coming (before), today, or past
 * (after). Messages word themselves from this.
 */
export type TReminderStage = 'before' | 'on_the_day' | 'after';
export const reminderStageOf = (offsetDays: number): TReminderStage =>
  offsetDays < 0 ? 'before' : offsetDays === 0 ? 'on_the_day' : 'after';

/**
 * The WhatsApp template language of each of the spec's language codes: WhatsApp names its
 * template languages by the same ISO 639-1 tags as LANGUAGE_BCP47 (hn → hi, tm → ta…).
 */
export const WHATSAPP_LANGUAGE_CODES: Readonly<Record<string, string>> = LANGUAGE_BCP47;
