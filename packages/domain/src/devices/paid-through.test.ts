import { describe, expect, it } from 'vitest';
import { CustomerStatus, DeviceType } from '../common/enums';
import {
  DEFAULT_PAID_THROUGH_GRACE_DAYS,
  PAID_THROUGH_COUNTDOWN_MS,
  paidThroughCountdown,
  paidThroughFor,
  paidThroughGraceDaysOf,
  paidThroughLockAt,
} from './paid-through';

const active = { status: CustomerStatus.INSTALL, deviceType: DeviceType.DEVICE_POLICY_CONTROLLER };

describe('paidThroughFor: the date the server puts in the policy', () => {
  it('is the start (+05:30) of the day after the oldest unpaid due date plus the grace days', () => {
    // Due 10-12-2026, 3 grace days: the phone may be used through 13-12; it locks at 14-12 00:00 IST.
    expect(
      paidThroughFor({ ...active, oldestUnpaidDueDate: '2026-12-10', graceDays: 3 })?.toISOString(),
    ).toBe('2026-12-13T18:30:00.000Z');
    // No grace: through the due day itself.
    expect(
      paidThroughFor({ ...active, oldestUnpaidDueDate: '2026-12-31', graceDays: 0 })?.toISOString(),
    ).toBe('2026-12-31T18:30:00.000Z');
    // Across a month end.
    expect(
      paidThroughFor({ ...active, oldestUnpaidDueDate: '2027-02-27', graceDays: 2 })?.toISOString(),
    ).toBe('2027-03-01T18:30:00.000Z');
  });

  it('is none for a paid-up loan, the lock turned off, a released phone or managed Android', () => {
    expect(paidThroughFor({ ...active, oldestUnpaidDueDate: null, graceDays: 3 })).toBeNull();
    expect(paidThroughFor({ ...active, oldestUnpaidDueDate: '2026-12-10', graceDays: null })).toBeNull();
    for (const status of [
      CustomerStatus.EMI_COMPLETED,
      CustomerStatus.UNINSTALL,
      CustomerStatus.APPLE_REMOVED,
    ]) {
      expect(
        paidThroughFor({ ...active, status, oldestUnpaidDueDate: '2026-12-10', graceDays: 3 }),
      ).toBeNull();
    }
    expect(
      paidThroughFor({
        ...active,
        deviceType: DeviceType.MANAGED_ANDROID_API,
        oldestUnpaidDueDate: '2026-12-10',
        graceDays: 3,
      }),
    ).toBeNull();
  });

  it('takes the default grace days when the organisation set none, none when it turned the lock off', () => {
    expect(paidThroughGraceDaysOf({})).toBe(DEFAULT_PAID_THROUGH_GRACE_DAYS);
    expect(paidThroughGraceDaysOf({ paidThroughGraceDays: null })).toBeNull();
    expect(paidThroughGraceDaysOf({ paidThroughGraceDays: 0 })).toBe(0);
  });
});

describe('paidThroughLockAt: when the phone locks itself for the version it holds', () => {
  const paidThrough = '2026-12-13T18:30:00.000Z';
  const lockAt = Date.parse(paidThrough);

  it('is the date for a version issued before it', () => {
    expect(paidThroughLockAt({ paidThrough, issuedAt: '2026-12-01T05:00:00.000Z' })).toBe(lockAt);
  });

  it('is never for no date, a version issued at or after its date, or unreadable instants', () => {
    expect(paidThroughLockAt({ paidThrough: null, issuedAt: '2026-12-01T05:00:00.000Z' })).toBeNull();
    expect(paidThroughLockAt({ issuedAt: '2026-12-01T05:00:00.000Z' })).toBeNull();
    expect(paidThroughLockAt({ paidThrough, issuedAt: paidThrough })).toBeNull();
    expect(paidThroughLockAt({ paidThrough, issuedAt: '2026-12-14T05:00:00.000Z' })).toBeNull();
    expect(paidThroughLockAt({ paidThrough: 'soon', issuedAt: '2026-12-01T05:00:00.000Z' })).toBeNull();
  });

  it('is settled by something the phone did offline at or after the date, not before it', () => {
    const held = { paidThrough, issuedAt: '2026-12-01T05:00:00.000Z' };
    expect(paidThroughLockAt(held, [lockAt - 1])).toBe(lockAt);
    expect(paidThroughLockAt(held, [lockAt])).toBeNull();
    expect(paidThroughLockAt(held, [lockAt - 1, lockAt + 60_000])).toBeNull();
  });
});

describe('paidThroughCountdown', () => {
  const lockAt = Date.parse('2026-12-13T18:30:00.000Z');

  it('shows from three days before until the moment, not before, after or without a date', () => {
    expect(PAID_THROUGH_COUNTDOWN_MS).toBe(3 * 86_400_000);
    expect(paidThroughCountdown(lockAt, lockAt - PAID_THROUGH_COUNTDOWN_MS - 1)).toBeNull();
    expect(paidThroughCountdown(lockAt, lockAt - PAID_THROUGH_COUNTDOWN_MS)).toEqual({
      msLeft: PAID_THROUGH_COUNTDOWN_MS,
    });
    expect(paidThroughCountdown(lockAt, lockAt - 3_600_000)).toEqual({ msLeft: 3_600_000 });
    expect(paidThroughCountdown(lockAt, lockAt)).toBeNull();
    expect(paidThroughCountdown(null, lockAt)).toBeNull();
  });
});
