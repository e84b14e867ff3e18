import { describe, expect, it } from 'vitest';
import { deriveLockDisplay, lockScreenFor, overduePaiseOf } from './devices.rules';
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

describe('overduePaiseOf and the lock screen', () => {
  const TODAY = '2026-03-10';
  const emi = (dueDate: string, amountPaise: number, paidPaise: number) => ({
    dueDate,
    amountPaise,
    paidPaise,
  });
  it.each([
    ['nothing due yet', [emi('2026-03-11', 1000, 0)], 0],
    ['due today is not overdue', [emi('2026-03-10', 1000, 0)], 0],
    ['paid up', [emi('2026-02-10', 1000, 1000)], 0],
    ['no schedule', [], 0],
    [
      'overdue instalments, partly paid, add up',
      [emi('2026-02-10', 1000, 400), emi('2026-03-09', 1000, 0), emi('2026-04-10', 1000, 0)],
      1600,
    ],
  ] as const)('%s → %i paise', (_what, instalments, expected) => {
    expect(overduePaiseOf(instalments, TODAY)).toBe(expected);
  });

  it('builds a lock screen that always allows emergency calls', () => {
    const screen = lockScreenFor({
      reason: 'overdue_emi',
      retailerName: 'R'.repeat(130),
      retailerPhone: '+919876543210',
      overduePaise: 250_000,
      howToPay: 'UPI ravimobiles@okaxis',
    });
    expect(screen).toEqual({
      reason: 'overdue_emi',
      retailerName: 'R'.repeat(120),
      retailerPhone: '+919876543210',
      overduePaise: 250_000,
      howToPay: 'UPI ravimobiles@okaxis',
      emergencyCalls: true,
    });
    expect(ZLockScreen.parse(screen)).toEqual(screen);
  });
});
