import dayjs, { type Dayjs } from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);
dayjs.extend(customParseFormat);

/**
 * The one home of India time (spec §1: time is stored in UTC and shown in the fixed +05:30 offset
 * as `DD-MM-YYYY hh:mm A`). Every +05:30 date of the server and the web app goes through here:
 * UTC instants in, +05:30 calendar dates, wall-clock texts and display strings out. India has no
 * daylight saving, so the offset is a constant and nothing reads the machine's or browser's zone.
 * Parsing and formatting are dayjs's (with its utc and customParseFormat plugins, strict parsing).
 *
 * Shapes: an instant is a Date, UTC milliseconds or ISO 8601 text; a calendar date is `YYYY-MM-DD`
 * (no zone: an EMI due date); a wall-clock text is `YYYY-MM-DDTHH:mm[:ss]` read as India time (what
 * a datetime-local input holds).
 */

/** India Standard Time offset from UTC, minutes (+05:30). */
export const IST_OFFSET_MINUTES = 330;
/** The same offset as ISO 8601 writes it. */
export const IST_OFFSET = '+05:30';
/** How a calendar date is shown (spec §1), in dayjs tokens. */
export const DATE_FORMAT = 'DD-MM-YYYY';
/** How an instant is shown (spec §1), in dayjs tokens: 12-hour clock, +05:30. */
export const DATE_TIME_FORMAT = 'DD-MM-YYYY hh:mm A';

const CALENDAR_DATE_FORMAT = 'YYYY-MM-DD';
const WALL_CLOCK_FORMATS = ['YYYY-MM-DDTHH:mm', 'YYYY-MM-DDTHH:mm:ss'];

/** An instant as given to the helpers below: a Date, UTC milliseconds or ISO 8601 text. */
export type TInstant = Date | number | string;

/** ISO 8601 date-time; a text without a zone is read as UTC (the API always sends `Z`). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** An instant on India's clock, or null when it is not one (ISO 8601 text only, no other forms). */
const inIndia = (instant: TInstant): Dayjs | null => {
  if (typeof instant === 'string' && !ISO_INSTANT.test(instant)) return null;
  const parsed = dayjs.utc(instant);
  return parsed.isValid() ? parsed.utcOffset(IST_OFFSET_MINUTES) : null;
};

/** The +05:30 calendar date of an instant (default now), `YYYY-MM-DD`. */
export const istDate = (at: Date = new Date()): string =>
  dayjs.utc(at).utcOffset(IST_OFFSET_MINUTES).format(CALENDAR_DATE_FORMAT);

/** A `YYYY-MM-DD` calendar date moved by whole days (negative goes back), `YYYY-MM-DD`. */
export const addDays = (isoDate: string, days: number): string =>
  dayjs.utc(isoDate, CALENDAR_DATE_FORMAT, true).add(days, 'day').format(CALENDAR_DATE_FORMAT);

/** The UTC instant at which the +05:30 month containing `at` (default now) began: 00:00 IST on the 1st. */
export const istMonthStart = (at: Date = new Date()): Date =>
  new Date(istWallClockToMs(`${istDate(at).slice(0, 7)}-01T00:00`)!);

/**
 * An instant shown as spec §1 wants it: +05:30, `DD-MM-YYYY hh:mm A` (`2026-01-15T06:45:00Z` →
 * `15-01-2026 12:15 PM`). An offset in ISO text is honoured. Returns '' for anything not an instant.
 */
export const formatIstDateTime = (instant: TInstant): string =>
  inIndia(instant)?.format(DATE_TIME_FORMAT) ?? '';

/**
 * A calendar date `YYYY-MM-DD` (an EMI due date) as `DD-MM-YYYY`. A calendar date has no zone, so
 * it is not shifted. Returns '' for anything else.
 */
export const formatCalendarDate = (isoDate: string): string => {
  const date = dayjs.utc(isoDate, CALENDAR_DATE_FORMAT, true);
  return date.isValid() ? date.format(DATE_FORMAT) : '';
};

/**
 * An instant as India wall-clock text for a datetime-local input, `YYYY-MM-DDTHH:mm`
 * (`2026-11-23T03:30:00Z` → `2026-11-23T09:00`). Returns '' for anything not an instant.
 */
export const istWallClock = (instant: TInstant): string =>
  inIndia(instant)?.format(WALL_CLOCK_FORMATS[0]) ?? '';

/**
 * India wall-clock text (`2026-11-23T09:00`, seconds optional) as UTC milliseconds, or null when it
 * is not a real date and time (`2026-02-30T10:00`, `24:00`, another shape: strict parsing).
 */
export const istWallClockToMs = (local: string): number | null => {
  const format = WALL_CLOCK_FORMATS.find((candidate) => candidate.length === local.length);
  if (!format) return null;
  const wall = dayjs.utc(local, format, true);
  return wall.isValid() ? wall.valueOf() - IST_OFFSET_MINUTES * 60_000 : null;
};

/**
 * India wall-clock text as ISO 8601 with the +05:30 offset (`2026-11-23T09:00` →
 * `2026-11-23T09:00:00+05:30`), or null when it is not a real date and time.
 */
export const istWallClockToIso = (local: string): string | null => {
  if (istWallClockToMs(local) === null) return null;
  return `${local.length === 16 ? `${local}:00` : local}${IST_OFFSET}`;
};
