import { describe, expect, it } from 'vitest';
import {
  addDays,
  formatCalendarDate,
  formatIstDateTime,
  istDate,
  istMonthStart,
  istWallClock,
  istWallClockToIso,
  istWallClockToMs,
} from './time';

describe('+05:30 calendar helpers', () => {
  it.each([
    ['2026-11-22T18:29:59.999Z', '2026-11-22'],
    ['2026-11-22T18:30:00.000Z', '2026-11-23'], // midnight in India
    ['2026-12-31T20:00:00.000Z', '2027-01-01'],
  ])('%s is %s in India', (iso, date) => {
    expect(istDate(new Date(iso))).toBe(date);
  });

  it('starts the month at 00:00 IST on the 1st', () => {
    expect(istMonthStart(new Date('2026-11-30T20:00:00Z')).toISOString()).toBe('2026-11-30T18:30:00.000Z');
    expect(istMonthStart(new Date('2026-11-15T10:00:00Z')).toISOString()).toBe('2026-10-31T18:30:00.000Z');
  });

  it('adds days across months and years', () => {
    expect(addDays('2026-12-29', 6)).toBe('2027-01-04');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});

describe('formatIstDateTime (spec §1: UTC in, +05:30 DD-MM-YYYY hh:mm A out)', () => {
  it.each<[string | number | Date, string]>([
    ['2026-01-15T00:00:00.000Z', '15-01-2026 05:30 AM'],
    ['2026-01-15T06:45:00Z', '15-01-2026 12:15 PM'],
    ['2026-01-15T06:29:00Z', '15-01-2026 11:59 AM'],
    // The IST day turns at 18:30 UTC.
    ['2026-11-22T18:29:59Z', '22-11-2026 11:59 PM'],
    ['2026-11-22T18:30:00Z', '23-11-2026 12:00 AM'],
    // Month and year ends, and a leap day.
    ['2026-02-28T18:30:00Z', '01-03-2026 12:00 AM'],
    ['2028-02-28T18:30:00Z', '29-02-2028 12:00 AM'],
    ['2026-04-30T20:00:00Z', '01-05-2026 01:30 AM'],
    ['2026-12-31T18:29:59Z', '31-12-2026 11:59 PM'],
    ['2026-12-31T18:30:00Z', '01-01-2027 12:00 AM'],
    // An offset in the text is honoured; a zone-less text is UTC.
    ['2026-06-01T10:00:00+05:30', '01-06-2026 10:00 AM'],
    ['2026-06-01T10:00:00', '01-06-2026 03:30 PM'],
    // Dates and milliseconds too.
    [new Date('2026-06-01T06:30:00Z'), '01-06-2026 12:00 PM'],
    [Date.parse('2026-06-01T18:30:00Z'), '02-06-2026 12:00 AM'],
  ])('%s → %s', (instant, shown) => {
    expect(formatIstDateTime(instant)).toBe(shown);
  });

  it.each<string | number | Date>([
    'not a date',
    '',
    '15-01-2026',
    '2026-01-15 10:00',
    Number.NaN,
    new Date('x'),
  ])('shows %j as an empty string', (instant) => {
    expect(formatIstDateTime(instant)).toBe('');
  });
});

describe('formatCalendarDate (a zone-less date, not shifted)', () => {
  it.each([
    ['2026-02-28', '28-02-2026'],
    ['2026-12-31', '31-12-2026'],
    ['28/02/2026', ''],
    ['2026-2-8', ''],
  ])('%s → %j', (date, shown) => {
    expect(formatCalendarDate(date)).toBe(shown);
  });
});

describe('India wall-clock text (datetime-local)', () => {
  it.each([
    ['2026-11-23T03:30:00Z', '2026-11-23T09:00'],
    ['2026-11-22T18:29:59Z', '2026-11-22T23:59'],
    ['2026-11-22T18:30:00Z', '2026-11-23T00:00'],
    ['2026-01-31T18:30:00Z', '2026-02-01T00:00'],
  ])('%s is %s in India, and back', (iso, local) => {
    expect(istWallClock(iso)).toBe(local);
    expect(istWallClockToMs(local)).toBe(Date.parse(iso) - (Date.parse(iso) % 60_000));
    expect(istWallClockToIso(local)).toBe(`${local}:00+05:30`);
  });

  it.each(['', '2026-02-30T10:00', '2026-11-23T24:00', '2026-11-23 09:00', '23-11-2026T09:00'])(
    'refuses %j',
    (text) => {
      expect(istWallClockToMs(text)).toBeNull();
      expect(istWallClockToIso(text)).toBeNull();
    },
  );

  it('returns an empty text for an instant that is not one', () => {
    expect(istWallClock('soon')).toBe('');
  });
});
