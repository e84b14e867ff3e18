import { IST_OFFSET_MINUTES } from './format';

/**
 * India wall-clock time for pickers. A `datetime-local` input holds a zone-less text
 * (`2026-11-23T09:00`) that the browser would read in its own zone; Kisht shows and takes every
 * time in +05:30 (spec §1), so these helpers read and write that text as India time with plain
 * arithmetic on UTC milliseconds, never through the browser's zone.
 */

/** The offset every picked time is sent with. */
export const INDIA_OFFSET = '+05:30';
const IST_OFFSET_MS = IST_OFFSET_MINUTES * 60_000;

/** `YYYY-MM-DDTHH:mm`, optionally with `:ss`, as a datetime-local input gives it. */
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * An instant (UTC ms, or ISO 8601 text) as India wall-clock text for a datetime-local input,
 * `YYYY-MM-DDTHH:mm`. Returns '' for an invalid instant.
 */
export const toIndiaLocal = (instant: number | string): string => {
  const ms = typeof instant === 'number' ? instant : Date.parse(instant);
  if (!Number.isFinite(ms)) return '';
  // Shifting by the offset and reading the result as UTC gives India's wall clock.
  return new Date(ms + IST_OFFSET_MS).toISOString().slice(0, 16);
};

/**
 * India wall-clock text (`2026-11-23T09:00`) as UTC milliseconds, or null when it is not a real
 * date and time (`2026-02-30T10:00`, `25:00`).
 */
export const indiaLocalToMs = (local: string): number | null => {
  const match = LOCAL_DATE_TIME.exec(local);
  if (!match) return null;
  const [, year, month, day, hour, minute, second = '00'] = match;
  const wallClockAsUtc = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
  );
  // Date.UTC rolls 30 February over into March: a text that does not come back unchanged is no date.
  const roundTrip = new Date(wallClockAsUtc).toISOString().slice(0, 19);
  if (roundTrip !== `${year}-${month}-${day}T${hour}:${minute}:${second}`) return null;
  return wallClockAsUtc - IST_OFFSET_MS;
};

/**
 * India wall-clock text as ISO 8601 with the +05:30 offset, as the API's `run_at` takes it
 * (`2026-11-23T09:00` → `2026-11-23T09:00:00+05:30`), or null when it is not a real date and time.
 */
export const indiaLocalToIso = (local: string): string | null => {
  if (indiaLocalToMs(local) === null) return null;
  const withSeconds = local.length === 16 ? `${local}:00` : local;
  return `${withSeconds}${INDIA_OFFSET}`;
};

/** The earliest a command may be scheduled: the server takes 1 minute to 90 days ahead. */
export const SCHEDULE_MIN_AHEAD_MS = 60_000;
/** The latest a command may be scheduled, ahead of now. */
export const SCHEDULE_MAX_AHEAD_MS = 90 * 86_400_000;

/** Why a picked time cannot be a command's run_at. */
export type TRunAtProblem = 'invalid' | 'tooSoon' | 'tooLate';

/** Whether India wall-clock text is a time a command may be scheduled for, `now` being UTC ms. */
export const runAtProblem = (local: string, now: number): TRunAtProblem | null => {
  const ms = indiaLocalToMs(local);
  if (ms === null) return 'invalid';
  if (ms < now + SCHEDULE_MIN_AHEAD_MS) return 'tooSoon';
  if (ms > now + SCHEDULE_MAX_AHEAD_MS) return 'tooLate';
  return null;
};

/**
 * The picker's bounds as India wall-clock text: from the first whole minute at least a minute
 * ahead to 90 days ahead (the input's min and max).
 */
export const scheduleBounds = (now: number): { min: string; max: string } => ({
  min: toIndiaLocal(Math.ceil((now + SCHEDULE_MIN_AHEAD_MS) / 60_000) * 60_000),
  max: toIndiaLocal(Math.floor((now + SCHEDULE_MAX_AHEAD_MS) / 60_000) * 60_000),
});

/** The hours of India's day a suggested time falls in: 9 AM to 9 PM (shop hours, not the night). */
const SUGGESTED_FIRST_HOUR = 9;
const SUGGESTED_LAST_HOUR = 21;

/**
 * The picker's first suggestion, India time: the next whole hour at least 30 minutes ahead, or
 * 9:00 AM when that would fall in the night (after 9 PM or before 9 AM).
 */
export const defaultRunAtLocal = (now: number): string => {
  const hour = 3_600_000;
  // Whole hours are counted on India's clock (it is 5½ hours from UTC, not a whole number).
  const indiaNow = now + IST_OFFSET_MS;
  const nextHour = Math.ceil((indiaNow + 30 * 60_000) / hour) * hour;
  const hourOfDay = new Date(nextHour).getUTCHours();
  if (hourOfDay >= SUGGESTED_FIRST_HOUR && hourOfDay <= SUGGESTED_LAST_HOUR) {
    return toIndiaLocal(nextHour - IST_OFFSET_MS);
  }
  const day = 24 * hour;
  const startOfDay = Math.floor(nextHour / day) * day;
  const morning = startOfDay + SUGGESTED_FIRST_HOUR * hour;
  return toIndiaLocal((morning >= nextHour ? morning : morning + day) - IST_OFFSET_MS);
};
