import { addDays, istWallClock, istWallClockToMs } from '@kisht/domain/common/time';

/**
 * The schedule picker's rules on India's clock (+05:30, spec §1): what a command's run_at may be
 * and what the picker suggests. A `datetime-local` input holds zone-less wall-clock text
 * (`2026-11-23T09:00`); it is read and written as India time by @kisht/domain/common/time
 * (istWallClock, istWallClockToMs, istWallClockToIso), never through the browser's zone.
 */

/** The earliest a command may be scheduled: the server takes 1 minute to 90 days ahead. */
export const SCHEDULE_MIN_AHEAD_MS = 60_000;
/** The latest a command may be scheduled, ahead of now. */
export const SCHEDULE_MAX_AHEAD_MS = 90 * 86_400_000;

/** Why a picked time cannot be a command's run_at. */
export type TRunAtProblem = 'invalid' | 'tooSoon' | 'tooLate';

/** Whether India wall-clock text is a time a command may be scheduled for, `now` being UTC ms. */
export const runAtProblem = (local: string, now: number): TRunAtProblem | null => {
  const ms = istWallClockToMs(local);
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
  min: istWallClock(Math.ceil((now + SCHEDULE_MIN_AHEAD_MS) / 60_000) * 60_000),
  max: istWallClock(Math.floor((now + SCHEDULE_MAX_AHEAD_MS) / 60_000) * 60_000),
});

/** The hours of India's day a suggested time falls in: 9 AM to 9 PM (shop hours, not the night). */
const SUGGESTED_FIRST_HOUR = 9;
const SUGGESTED_LAST_HOUR = 21;
const HOUR_MS = 3_600_000;

/**
 * The picker's first suggestion, India time: the next whole hour at least 30 minutes ahead, or
 * 9:00 AM when that would fall in the night (after 9 PM or before 9 AM).
 */
export const defaultRunAtLocal = (now: number): string => {
  const soonest = now + 30 * 60_000;
  // Whole hours are counted on India's clock (it is 5½ hours from UTC, not a whole number).
  const hourStart = istWallClockToMs(`${istWallClock(soonest).slice(0, 13)}:00`)!;
  const nextHour = istWallClock(hourStart === soonest ? hourStart : hourStart + HOUR_MS);
  const hourOfDay = Number(nextHour.slice(11, 13));
  if (hourOfDay >= SUGGESTED_FIRST_HOUR && hourOfDay <= SUGGESTED_LAST_HOUR) return nextHour;
  const day = nextHour.slice(0, 10);
  const morning = `T${String(SUGGESTED_FIRST_HOUR).padStart(2, '0')}:00`;
  return hourOfDay < SUGGESTED_FIRST_HOUR ? `${day}${morning}` : `${addDays(day, 1)}${morning}`;
};
