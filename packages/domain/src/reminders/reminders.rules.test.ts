import { describe, expect, it } from 'vitest';
import { dueDateForOffset, isQuietHour, nextSendableAt, reminderStageOf } from './reminders.rules';

/** An instant given as +05:30 wall clock. */
const ist = (wall: string) => new Date(`${wall}:00+05:30`);

describe('reminder rules (issue 29)', () => {
  it('keeps quiet from 21:00 to 09:00 +05:30', () => {
    expect(isQuietHour(ist('2026-11-29T08:59'))).toBe(true);
    expect(isQuietHour(ist('2026-11-29T09:00'))).toBe(false);
    expect(isQuietHour(ist('2026-11-29T20:59'))).toBe(false);
    expect(isQuietHour(ist('2026-11-29T21:00'))).toBe(true);
    expect(isQuietHour(ist('2026-11-29T00:30'))).toBe(true);
  });

  it('moves a reminder out of the quiet hours to the 09:00 that ends them', () => {
    expect(nextSendableAt(ist('2026-11-29T12:15'))).toEqual(ist('2026-11-29T12:15'));
    expect(nextSendableAt(ist('2026-11-29T06:00'))).toEqual(ist('2026-11-29T09:00'));
    expect(nextSendableAt(ist('2026-11-29T22:30'))).toEqual(ist('2026-11-30T09:00'));
    // 23:30 +05:30 on the 31st is still the 31st in India (18:00 UTC): the next morning is 1 December.
    expect(nextSendableAt(ist('2026-12-31T23:30'))).toEqual(ist('2027-01-01T09:00'));
  });

  it('finds the due date an offset reminds about, and words it', () => {
    expect(dueDateForOffset('2026-11-29', -3)).toBe('2026-12-02');
    expect(dueDateForOffset('2026-11-29', 7)).toBe('2026-11-22');
    expect([-3, 0, 1].map(reminderStageOf)).toEqual(['before', 'on_the_day', 'after']);
  });
});
