import { describe, expect, it } from 'vitest';
import { imeiCheckDigit, isValidImei, normaliseIndianMobile, ZImei, ZMobile } from './identifiers';

describe('isValidImei', () => {
  it.each([
    ['490154203237518', true], // the example IMEI of 3GPP TS 23.003 annex
    ['356938035643809', true],
    ['490154203237517', false], // wrong check digit
    ['49015420323751', false], // 14 digits
    ['4901542032375180', false], // 16 digits
    ['49015420323751a', false],
    ['', false],
  ])('%s → %s', (imei, expected) => {
    expect(isValidImei(imei)).toBe(expected);
  });

  it('computes the check digit of a body', () => {
    expect(imeiCheckDigit('49015420323751')).toBe('8');
  });
});

describe('normaliseIndianMobile', () => {
  it.each([
    ['9876543210', '+919876543210'],
    ['+91 98765 43210', '+919876543210'],
    ['919876543210', '+919876543210'],
    ['09876543210', '+919876543210'],
    ['6000000000', '+916000000000'],
    ['5876543210', null], // must start 6–9
    ['987654321', null],
    ['98765432100', null],
    ['+1 9876543210', null],
  ])('%s → %s', (input, expected) => {
    expect(normaliseIndianMobile(input)).toBe(expected);
  });

  it('schemas report the problem', () => {
    expect(ZMobile.safeParse('123').success).toBe(false);
    expect(ZMobile.parse('9876543210')).toBe('+919876543210');
    expect(ZImei.safeParse('490154203237517').success).toBe(false);
  });
});
