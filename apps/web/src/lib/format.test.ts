import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatMobile,
  formatRupees,
  paiseToRupeesInput,
  percentToBps,
  rupeesToPaise,
} from './format';

describe('formatDateTime (spec §1: fixed +05:30, DD-MM-YYYY hh:mm A)', () => {
  it.each([
    ['2026-01-15T00:00:00.000Z', '15-01-2026 05:30 AM'],
    ['2026-01-15T06:45:00Z', '15-01-2026 12:15 PM'],
    // 20:00 UTC is already the next day in India.
    ['2026-03-31T20:00:00Z', '01-04-2026 01:30 AM'],
    ['2026-12-31T18:29:59Z', '31-12-2026 11:59 PM'],
    ['2026-12-31T18:30:00Z', '01-01-2027 12:00 AM'],
    // An offset in the input is honoured, not the browser's zone.
    ['2026-06-01T10:00:00+05:30', '01-06-2026 10:00 AM'],
  ])('%s → %s', (iso, expected) => {
    expect(formatDateTime(iso)).toBe(expected);
  });

  it('returns an empty string for a value that is not a date', () => {
    expect(formatDateTime('not a date')).toBe('');
  });
});

describe('formatDate', () => {
  it('reformats a calendar date without shifting it', () => {
    expect(formatDate('2026-02-28')).toBe('28-02-2026');
  });
  it('returns an empty string for anything else', () => {
    expect(formatDate('28/02/2026')).toBe('');
  });
});

describe('formatRupees (paise → ₹ with en-IN grouping)', () => {
  it.each([
    [881486, '₹8,814.86'],
    [0, '₹0.00'],
    [5, '₹0.05'],
    [1299900, '₹12,999.00'],
    [1234567890, '₹1,23,45,678.90'],
  ])('%i paise → %s', (paise, expected) => {
    expect(formatRupees(paise)).toBe(expected);
  });
});

describe('rupeesToPaise', () => {
  it.each([
    ['12999', 1299900],
    ['12,999.5', 1299950],
    ['0.05', 5],
    ['₹ 100.10', 10010],
    ['7.', 700],
  ])('%s → %i', (text, expected) => {
    expect(rupeesToPaise(text)).toBe(expected);
  });
  it.each(['', 'abc', '-5', '1.005', '1.2.3'])('rejects %j', (text) => {
    expect(rupeesToPaise(text)).toBeNull();
  });
});

describe('paiseToRupeesInput', () => {
  it('drops whole-rupee decimals and keeps two otherwise', () => {
    expect(paiseToRupeesInput(1299900)).toBe('12999');
    expect(paiseToRupeesInput(1299905)).toBe('12999.05');
  });
  it('round-trips with rupeesToPaise', () => {
    for (const paise of [0, 1, 99, 100, 881486]) expect(rupeesToPaise(paiseToRupeesInput(paise))).toBe(paise);
  });
});

describe('percentToBps', () => {
  it('converts a yearly percentage to basis points', () => {
    expect(percentToBps('10.5')).toBe(1050);
    expect(percentToBps('0')).toBe(0);
    expect(percentToBps('18')).toBe(1800);
  });
  it('rejects malformed values', () => {
    expect(percentToBps('')).toBeNull();
    expect(percentToBps('1.234')).toBeNull();
  });
});

describe('formatMobile', () => {
  it('groups an E.164 Indian mobile', () => {
    expect(formatMobile('+919876543210')).toBe('+91 98765 43210');
  });
  it('leaves anything else alone', () => {
    expect(formatMobile('12345')).toBe('12345');
  });
});
