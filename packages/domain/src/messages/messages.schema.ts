import { z } from 'zod';
import { ZIsoDate } from '../common/envelope';
import { ZId } from '../common/identifiers';
import { channelOfDeviceType } from '../devices/device-families';

/** Longest message title and text (the phone's show_message limits, ZShowMessageArgs). */
export const MESSAGE_TITLE_MAX = 60;
export const MESSAGE_TEXT_MAX = 500;

/**
 * How many messages one customer's phone takes in any 24 hours (issue 16): a retailer may remind,
 * not flood. The next one answers 429 RATE_LIMITED saying when it may go.
 */
export const MESSAGES_PER_PHONE_PER_DAY = 10;

/**
 * send_fcm_retailer_to_customer (spec §7): a text message from the shop to the customer's phone,
 * shown there as a `show_message` command. `title` is optional (blank counts as none); `message`
 * 1–500 characters after trimming.
 */
export const ZSendCustomerMessageRequest = z.object({
  customer_id: ZId,
  title: z
    .string()
    .trim()
    .max(MESSAGE_TITLE_MAX, `At most ${MESSAGE_TITLE_MAX} characters`)
    .optional()
    .transform((v) => v || undefined),
  message: z
    .string()
    .trim()
    .min(1, 'Write the message')
    .max(MESSAGE_TEXT_MAX, `At most ${MESSAGE_TEXT_MAX} characters`),
});
export type TSendCustomerMessageRequest = z.input<typeof ZSendCustomerMessageRequest>;

/**
 * Whether a phone of device family `deviceType` (spec §1) can show a message: only the families on
 * Kisht's own device channel (device policy controller, link-based app). Apple's MDM and Google's
 * Android Management API have no command that shows a text, so their phones are not offered it.
 */
export const canShowMessages = (deviceType: number): boolean => channelOfDeviceType(deviceType) === 'mqtt';

/**
 * Whether a person born on `dateOfBirth` (YYYY-MM-DD) has their birthday on `today` (YYYY-MM-DD,
 * the +05:30 day): same month and day; someone born on 29 February celebrates on 28 February in a
 * year without one.
 */
export const isBirthdayOn = (dateOfBirth: string | null | undefined, today: string): boolean => {
  if (!dateOfBirth) return false;
  return birthdayMonthDays(today).includes(dateOfBirth.slice(5, 10));
};

/** The birth month-days (`MM-DD`) whose birthday falls on `today` (YYYY-MM-DD): one, or two on 28 Feb of a common year. */
export const birthdayMonthDays = (today: string): string[] => {
  const monthDay = today.slice(5, 10);
  const year = Number(today.slice(0, 4));
  const isLeap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return monthDay === '02-28' && !isLeap ? ['02-28', '02-29'] : [monthDay];
};

/** Most customers the dashboard's "birthdays today" card lists. */
export const BIRTHDAYS_TODAY_LIMIT = 50;

/** A customer whose birthday is today, as the dashboard card lists them. */
export const ZBirthdayCustomer = z.object({
  id: ZId,
  name: z.string(),
  mobile: z.string(),
  dateOfBirth: ZIsoDate,
  /** True when the phone is enrolled and its family can show a message: "Send wishes" is offered. */
  canMessage: z.boolean(),
});
export type TBirthdayCustomer = z.infer<typeof ZBirthdayCustomer>;

/**
 * GET birthdays_today: the +05:30 `today`, whether it is the signed-in user's own birthday (a
 * retailer's users.date_of_birth; a customer's date of birth on their loans), their name, and for
 * retailers and mini-retailers the customers in their scope born on this day (at most
 * BIRTHDAYS_TODAY_LIMIT, by name; `total` counts them all). A customer gets no list.
 */
export const ZBirthdaysToday = z.object({
  today: ZIsoDate,
  isOwnBirthday: z.boolean(),
  name: z.string(),
  customers: z.array(ZBirthdayCustomer),
  total: z.number().int().nonnegative(),
});
export type TBirthdaysToday = z.infer<typeof ZBirthdaysToday>;
