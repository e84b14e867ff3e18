import { istWallClock, istWallClockToIso, istWallClockToMs } from '@kisht/domain/common/time';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultRunAtLocal, runAtProblem, scheduleBounds } from './india-time';

const ORIGINAL_TZ = process.env.TZ;
afterEach(() => {
  process.env.TZ = ORIGINAL_TZ;
});

/** Zones far from India on both sides, one with daylight saving, and UTC. */
const BROWSER_ZONES = ['UTC', 'America/Los_Angeles', 'Pacific/Kiritimati', 'Europe/London', 'Asia/Kolkata'];

describe('India time for the schedule picker (spec §1: +05:30 whatever the browser zone)', () => {
  it.each(BROWSER_ZONES)('reads the picked text as India time in a browser set to %s', (zone) => {
    process.env.TZ = zone;
    // The zone really changed: local midnight of 1 Jan 2026 differs between these zones.
    expect(istWallClockToIso('2026-11-23T09:00')).toBe('2026-11-23T09:00:00+05:30');
    expect(istWallClockToMs('2026-11-23T09:00')).toBe(Date.parse('2026-11-23T03:30:00Z'));
    expect(istWallClock('2026-11-23T03:30:00Z')).toBe('2026-11-23T09:00');
    // The evening in UTC is already the next day in India; a summer date (daylight saving
    // elsewhere) does not move it.
    expect(istWallClock(Date.parse('2026-03-31T20:00:00Z'))).toBe('2026-04-01T01:30');
    expect(istWallClockToMs('2026-07-01T00:15')).toBe(Date.parse('2026-06-30T18:45:00Z'));
  });

  it('runs in the zone it was given (the cases above are not all read in one zone)', () => {
    process.env.TZ = 'America/Los_Angeles';
    const losAngeles = new Date(2026, 0, 1).getTime();
    process.env.TZ = 'Asia/Kolkata';
    const kolkata = new Date(2026, 0, 1).getTime();
    expect(losAngeles - kolkata).toBe((8 + 5.5) * 3_600_000);
  });

  it('round-trips what it shows', () => {
    for (const iso of ['2026-01-15T00:00:00Z', '2026-12-31T18:30:00Z', '2027-02-28T23:59:00Z']) {
      const local = istWallClock(iso);
      expect(istWallClockToMs(local)).toBe(Date.parse(iso));
    }
  });

  it.each(['', '2026-02-30T10:00', '2026-11-23T24:00', '2026-11-23 09:00', '23-11-2026T09:00', 'soon'])(
    'refuses %j as a date and time',
    (text) => {
      expect(istWallClockToMs(text)).toBeNull();
      expect(istWallClockToIso(text)).toBeNull();
    },
  );

  it('keeps seconds when the picker gives them', () => {
    expect(istWallClockToIso('2026-11-23T09:00:30')).toBe('2026-11-23T09:00:30+05:30');
  });
});

describe('the schedule window: 1 minute to 90 days ahead', () => {
  // 15-01-2026 01:30 PM in India.
  const NOW = Date.parse('2026-01-15T08:00:00Z');

  it('accepts a time in the window and refuses one outside it', () => {
    expect(runAtProblem('2026-01-15T13:31', NOW)).toBeNull();
    expect(runAtProblem('2026-01-15T13:30', NOW)).toBe('tooSoon');
    // 1:30 PM in the browser's UTC would be 7 PM in India: it is India's clock that counts.
    process.env.TZ = 'UTC';
    expect(runAtProblem('2026-01-15T13:00', NOW)).toBe('tooSoon');
    expect(runAtProblem('2026-04-15T13:30', NOW)).toBeNull();
    expect(runAtProblem('2026-04-15T13:31', NOW)).toBe('tooLate');
    expect(runAtProblem('2026-02-30T10:00', NOW)).toBe('invalid');
  });

  it('suggests 9 AM rather than a time in the night', () => {
    process.env.TZ = 'UTC';
    // 11:30 PM in India: tomorrow morning.
    expect(defaultRunAtLocal(Date.parse('2026-01-15T18:00:00Z'))).toBe('2026-01-16T09:00');
    // 6:30 AM in India: this morning.
    expect(defaultRunAtLocal(Date.parse('2026-01-15T01:00:00Z'))).toBe('2026-01-15T09:00');
    // 8:20 PM in India: 9 PM is still a shop hour.
    expect(defaultRunAtLocal(Date.parse('2026-01-15T14:50:00Z'))).toBe('2026-01-15T21:00');
    // 8:31 PM: 10 PM would be the night.
    expect(defaultRunAtLocal(Date.parse('2026-01-15T15:01:00Z'))).toBe('2026-01-16T09:00');
  });

  it('bounds the picker in India time, and suggests the next whole hour at least 30 minutes ahead', () => {
    process.env.TZ = 'America/Los_Angeles';
    expect(scheduleBounds(NOW)).toEqual({ min: '2026-01-15T13:31', max: '2026-04-15T13:30' });
    expect(defaultRunAtLocal(NOW)).toBe('2026-01-15T14:00');
    expect(defaultRunAtLocal(Date.parse('2026-01-15T08:20:00Z'))).toBe('2026-01-15T15:00');
    expect(defaultRunAtLocal(Date.parse('2026-01-15T08:31:00Z'))).toBe('2026-01-15T15:00');
    expect(defaultRunAtLocal(Date.parse('2026-01-15T08:31:00Z') + 60 * 60_000)).toBe('2026-01-15T16:00');
  });
});
