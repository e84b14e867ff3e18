import { describe, expect, it } from 'vitest';
import {
  ID_MAX,
  imeiCheckDigit,
  isValidImei,
  normaliseIndianMobile,
  ZId,
  ZImei,
  ZMobile,
  ZQueryId,
} from './identifiers';

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

describe('ZId: a PostgreSQL integer/serial id', () => {
  it('is bounded by the largest integer PostgreSQL stores', () => {
    expect(ID_MAX).toBe(2 ** 31 - 1);
  });

  it.each([
    [0, false],
    [-1, false],
    [1, true],
    [2_147_483_647, true],
    [2_147_483_648, false],
    [Number.MAX_SAFE_INTEGER, false],
    [1.5, false],
    ['1', false], // JSON bodies carry numbers; a string id is a client bug
    [Number.NaN, false],
  ])('%o → %s', (value, isValid) => {
    expect(ZId.safeParse(value).success).toBe(isValid);
  });

  it.each([
    ['1', 1],
    ['2147483647', 2_147_483_647],
    ['2147483648', null],
    ['0', null],
    ['1.5', null],
    ['x', null],
    ['', null],
  ])('query text %o → %o', (value, expected) => {
    const parsed = ZQueryId.safeParse(value);
    expect(parsed.success ? parsed.data : null).toBe(expected);
  });
});
