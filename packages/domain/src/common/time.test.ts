import { describe, expect, it } from 'vitest';
import { addDays, istDate, istMonthStart } from './time';

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
