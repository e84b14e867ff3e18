import { describe, expect, it } from 'vitest';
import { deriveLockDisplay } from './devices.rules';
import type { TDeviceCommand } from './devices.schema';

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
