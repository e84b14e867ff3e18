import { describe, expect, it } from 'vitest';
import {
  MAX_WRONG_OTP_COOLDOWN_MS,
  refuseOtpSend,
  refuseOtpTry,
  type TOtpHistoryEntry,
  type TOtpLimits,
  wrongOtpCooldownMs,
} from './otp-limits';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);
const HOUR = 3600;

const LIMITS: TOtpLimits = {
  resendAfterMs: 30_000,
  dailySendsPerMobile: 3,
  dailyWrongPerMobile: 6,
  freeWrongTries: 2,
  wrongCooldownMs: 30_000,
};

/** A challenge made `createdSecondsAgo`, sent then (unless `sent: false`), alive 5 minutes. */
const entry = (createdSecondsAgo: number, overrides: Partial<TOtpHistoryEntry> = {}): TOtpHistoryEntry => ({
  orgId: 41,
  purpose: 'LOGIN',
  createdAt: ago(createdSecondsAgo),
  sentAt: ago(createdSecondsAgo),
  expiresAt: new Date(ago(createdSecondsAgo).getTime() + 300_000),
  attempts: 0,
  lastAttemptAt: null,
  ...overrides,
});

describe('refuseOtpSend', () => {
  it.each<[string, TOtpHistoryEntry[], { orgId: number; purpose: string }, ReturnType<typeof refuseOtpSend>]>(
    [
      ['nothing sent yet', [], { orgId: 41, purpose: 'LOGIN' }, null],
      [
        'inside the cool-down of the same org and purpose',
        [entry(10)],
        { orgId: 41, purpose: 'LOGIN' },
        { reason: 'resend_cool_down', retryAt: ago(-20) },
      ],
      ['another purpose has its own cool-down', [entry(10)], { orgId: 41, purpose: 'FORGOT_PASSWORD' }, null],
      ['another organisation has its own cool-down', [entry(10)], { orgId: 46, purpose: 'LOGIN' }, null],
      [
        'a queued, unsent SMS starts no cool-down',
        [entry(10, { sentAt: null })],
        { orgId: 41, purpose: 'LOGIN' },
        null,
      ],
      [
        'an SMS being delivered right now starts the cool-down from its challenge (issue 27)',
        [entry(1, { sentAt: null, isSmsInFlight: true })],
        { orgId: 41, purpose: 'LOGIN' },
        { reason: 'resend_cool_down', retryAt: ago(-29) },
      ],
      [
        'one replaced (expired) while in flight does not',
        [entry(1, { sentAt: null, isSmsInFlight: true, expiresAt: ago(0) })],
        { orgId: 41, purpose: 'LOGIN' },
        null,
      ],
      [
        'the cool-down runs from when the SMS went, not when it was queued',
        [entry(100, { sentAt: ago(5) })],
        { orgId: 41, purpose: 'LOGIN' },
        { reason: 'resend_cool_down', retryAt: ago(-25) },
      ],
      [
        'at the daily cap across purposes and organisations',
        [entry(5 * HOUR), entry(3 * HOUR, { purpose: 'FORGOT_PASSWORD' }), entry(HOUR, { orgId: 46 })],
        { orgId: 41, purpose: 'BYPASS_CODE' },
        { reason: 'daily_send_cap', retryAt: ago(5 * HOUR - 24 * HOUR) },
      ],
      [
        'a pending (queued, unexpired) SMS counts towards the cap',
        [entry(5 * HOUR), entry(3 * HOUR), entry(60, { sentAt: null })],
        { orgId: 41, purpose: 'UNINSTALL' },
        { reason: 'daily_send_cap', retryAt: ago(5 * HOUR - 24 * HOUR) },
      ],
      [
        'an SMS dropped unsent (its OTP expired) does not count',
        [entry(5 * HOUR), entry(3 * HOUR), entry(HOUR, { sentAt: null })],
        { orgId: 41, purpose: 'LOGIN' },
        null,
      ],
      [
        'challenges older than 24 hours do not count',
        [entry(25 * HOUR), entry(24 * HOUR), entry(3 * HOUR), entry(HOUR)],
        { orgId: 41, purpose: 'LOGIN' },
        null,
      ],
    ],
  )('%s', (_name, history, request, expected) => {
    expect(refuseOtpSend(history, request, LIMITS, NOW)).toEqual(expected);
  });
});

describe('wrongOtpCooldownMs', () => {
  it.each([
    [0, 0],
    [1, 0],
    [2, 30_000],
    [3, 60_000],
    [4, 120_000],
    [8, 1_920_000],
    [9, MAX_WRONG_OTP_COOLDOWN_MS],
    [500, MAX_WRONG_OTP_COOLDOWN_MS],
  ])('after %i wrong codes waits %i ms', (wrong, ms) => {
    expect(wrongOtpCooldownMs(wrong, LIMITS)).toBe(ms);
  });
});

describe('refuseOtpTry', () => {
  it.each<[string, TOtpHistoryEntry[], ReturnType<typeof refuseOtpTry>]>([
    ['no wrong code yet', [entry(60)], null],
    ['within the free tries', [entry(60, { attempts: 1, lastAttemptAt: ago(1) })], null],
    [
      'after the free tries, inside the cool-down',
      [entry(60, { attempts: 2, lastAttemptAt: ago(10) })],
      { reason: 'wrong_cool_down', retryAt: ago(-20) },
    ],
    ['after the free tries, the cool-down over', [entry(60, { attempts: 2, lastAttemptAt: ago(30) })], null],
    [
      'the cool-down doubles and counts every purpose of the number',
      [
        entry(600, { attempts: 2, lastAttemptAt: ago(500) }),
        entry(60, { purpose: 'FORGOT_PASSWORD', orgId: 46, attempts: 1, lastAttemptAt: ago(40) }),
      ],
      { reason: 'wrong_cool_down', retryAt: ago(-20) },
    ],
    [
      'a wrong try with no recorded time waits from the challenge',
      [entry(10, { attempts: 2 })],
      { reason: 'wrong_cool_down', retryAt: ago(-20) },
    ],
    [
      'at the daily cap, until enough wrong codes leave the window',
      [
        entry(20 * HOUR, { attempts: 2, lastAttemptAt: ago(20 * HOUR) }),
        entry(10 * HOUR, { attempts: 3, lastAttemptAt: ago(10 * HOUR) }),
        entry(2 * HOUR, { attempts: 1, lastAttemptAt: ago(2 * HOUR) }),
      ],
      { reason: 'daily_wrong_cap', retryAt: ago(20 * HOUR - 24 * HOUR) },
    ],
    [
      'wrong codes older than 24 hours do not count',
      [entry(25 * HOUR, { attempts: 5, lastAttemptAt: ago(25 * HOUR) }), entry(60)],
      null,
    ],
  ])('%s', (_name, history, expected) => {
    expect(refuseOtpTry(history, LIMITS, NOW)).toEqual(expected);
  });
});
