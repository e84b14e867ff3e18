import { describe, expect, it } from 'vitest';
import { remainingYears, truncate } from './text';

describe('truncate (spec §9: over 10 characters → 10 + ellipsis)', () => {
  it.each([
    ['', ''],
    ['Ramesh', 'Ramesh'],
    ['ABCDEFGHIJ', 'ABCDEFGHIJ'],
    ['ABCDEFGHIJK', 'ABCDEFGHIJ...'],
    ['Ramesh Kumar Sharma', 'Ramesh Kum...'],
    // Hindi: each code point counts once (matras included).
    ['नमस्ते', 'नमस्ते'],
    ['नमस्ते दुनिया', 'नमस्ते दुन...'],
    // Emoji are two UTF-16 units each but one character, and are never split.
    ['😀'.repeat(10), '😀'.repeat(10)],
    ['😀'.repeat(11), `${'😀'.repeat(10)}...`],
    ['abcdefghi😀x', 'abcdefghi😀...'],
  ])('%j → %j', (text, expected) => {
    expect(truncate(text)).toBe(expected);
  });

  it.each([[null], [undefined]])('%s → empty string', (text) => {
    expect(truncate(text)).toBe('');
  });

  it('takes another limit', () => {
    expect(truncate('Samsung Galaxy', 7)).toBe('Samsung...');
    expect(truncate('Samsung', 7)).toBe('Samsung');
  });

  it('never leaves a lone surrogate', () => {
    const result = truncate(`${'a'.repeat(9)}😀😀`);
    expect(result).toBe(`${'a'.repeat(9)}😀...`);
    // encodeURIComponent throws a URIError on a lone surrogate.
    expect(() => encodeURIComponent(result)).not.toThrow();
  });
});

describe('remainingYears (spec §9: from days ahead, rounded down)', () => {
  it.each([
    [0, 0],
    [1, 0],
    [364, 0],
    [365, 1],
    [366, 1],
    [729, 1],
    [730, 2],
    [364.9, 0],
    [3650, 10],
  ])('%d days → %i years', (days, years) => {
    expect(remainingYears(days)).toBe(years);
  });

  it.each([[-1], [-365], [-0], [Number.NaN], [Number.POSITIVE_INFINITY], [Number.NEGATIVE_INFINITY]])(
    '%d days → 0',
    (days) => {
      expect(remainingYears(days)).toBe(0);
    },
  );
});
