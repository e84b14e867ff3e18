import { describe, expect, it } from 'vitest';
import { CUSTOMER_STATUS_CODES, lockStatusLabel, statusWord } from './enums';

describe('spec §4 enums', () => {
  it('maps every status code to its word form', () => {
    expect(CUSTOMER_STATUS_CODES.map(statusWord)).toEqual([
      'inactive',
      'install',
      'deactive',
      'uninstall',
      'apple_removed',
      'emi_completed',
      'emi_maturing',
    ]);
  });

  it.each([
    [1, 'Locked'],
    [0, 'Unlocked'],
    ['1', 'Unlocked'],
    [null, 'Unlocked'],
  ])('lock status %o shows %s', (value, label) => {
    expect(lockStatusLabel(value)).toBe(label);
  });
});
