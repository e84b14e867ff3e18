import { describe, expect, it } from 'vitest';
import { deriveLockDisplay, isPhoneLockingCommand, lockRuleFor, lockScreenFor } from './devices.rules';
import type { TDeviceCommand } from './devices.schema';
import { ZLockScreen } from './protocol.schema';

const pending = (name: TDeviceCommand['name']): TDeviceCommand => ({
  id: '0190f000-0000-7000-8000-000000000000',
  name,
  state: 'sent',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  error: null,
});

describe('deriveLockDisplay', () => {
  it.each([
    [0, null, 'unlocked'],
    [1, null, 'locked'],
    [2, null, 'unlocked'], // spec §4: anything but 1 is unlocked
    [0, pending('lock'), 'locking'],
    [1, pending('unlock'), 'unlocking'],
    [1, pending('reboot'), 'locked'],
  ] as const)('lockStatus %s with %o → %s', (lockStatus, pendingCommand, expected) => {
    expect(deriveLockDisplay({ lockStatus, pendingCommand })).toBe(expected);
  });
});

describe('lockRuleFor (issue 12: never lock a phone that is paid up)', () => {
  const TODAY = '2026-03-10';
  const emi = (dueDate: string, amountPaise: number, paidPaise: number) => ({
    dueDate,
    amountPaise,
    paidPaise,
  });
  it.each([
    [
      'EMIs completed (5) is never locked',
      5,
      [emi('2026-02-10', 1000, 0)],
      { kind: 'refused', why: 'loan_completed' },
    ],
    ['nothing due yet needs a reason', 1, [emi('2026-03-11', 1000, 0)], { kind: 'needs_reason' }],
    ['due today is not overdue', 1, [emi('2026-03-10', 1000, 0)], { kind: 'needs_reason' }],
    ['paid up needs a reason', 1, [emi('2026-02-10', 1000, 1000)], { kind: 'needs_reason' }],
    ['no schedule needs a reason', 0, [], { kind: 'needs_reason' }],
    [
      'overdue instalments, partly paid, add up',
      1,
      [emi('2026-02-10', 1000, 400), emi('2026-03-09', 1000, 0), emi('2026-04-10', 1000, 0)],
      { kind: 'overdue', overduePaise: 1600 },
    ],
    [
      'maturing (6) with an overdue instalment',
      6,
      [emi('2026-01-10', 2500, 0)],
      { kind: 'overdue', overduePaise: 2500 },
    ],
  ] as const)('%s', (_what, status, instalments, expected) => {
    expect(lockRuleFor({ status, instalments }, TODAY)).toEqual(expected);
  });

  it('knows which commands leave only a lock screen', () => {
    expect(['lock', 'lost_mode_on', 'antitheft_lost_mode_on'].every(isPhoneLockingCommand)).toBe(true);
    expect(['unlock', 'lost_mode_off', 'app_lock', 'camera_lock', 'reboot'].some(isPhoneLockingCommand)).toBe(
      false,
    );
  });

  it('builds a lock screen that always allows emergency calls', () => {
    const screen = lockScreenFor({
      retailerName: 'R'.repeat(130),
      retailerPhone: '+919876543210',
      overduePaise: 250_000,
      howToPay: 'UPI ravimobiles@okaxis',
    });
    expect(screen).toEqual({
      retailerName: 'R'.repeat(120),
      retailerPhone: '+919876543210',
      overduePaise: 250_000,
      howToPay: 'UPI ravimobiles@okaxis',
      emergencyCalls: true,
    });
    expect(ZLockScreen.parse(screen)).toEqual(screen);
  });
});
