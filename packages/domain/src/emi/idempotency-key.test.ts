import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, parseIdempotencyKey, ZIdempotencyKeyHeaders } from './idempotency-key';

describe('parseIdempotencyKey (IETF draft "The Idempotency-Key HTTP Header Field")', () => {
  it.each([
    ['8e03978e-40d5-43e8-bc93-6894a57f9324', '8e03978e-40d5-43e8-bc93-6894a57f9324'],
    ['"8e03978e-40d5-43e8-bc93-6894a57f9324"', '8e03978e-40d5-43e8-bc93-6894a57f9324'],
    ['  pay-2026-03-05#1 ', 'pay-2026-03-05#1'],
    ['a', 'a'],
    ['x'.repeat(255), 'x'.repeat(255)],
    ['"a\\"b\\\\c"', 'a"b\\c'],
    ['~!@#$%^&*()_+{}|:<>?', '~!@#$%^&*()_+{}|:<>?'],
  ])('takes %j as %j', (raw, key) => {
    expect(parseIdempotencyKey(raw)).toBe(key);
  });

  it.each([
    ['', 'empty'],
    ['""', 'an empty string'],
    ['x'.repeat(256), 'over 255 characters'],
    ['"has space"', 'a space inside'],
    ['has space', 'a space'],
    ['tab\there', 'a control character'],
    ['clé', 'not ASCII'],
    ['"unterminated', 'an unterminated string'],
    ['"a\\nb"', 'an escape other than \\" and \\\\'],
    ['"a"b"', 'an unescaped quote inside'],
  ])('refuses %j (%s)', (raw) => {
    expect(parseIdempotencyKey(raw)).toBeNull();
  });
});

describe('ZIdempotencyKeyHeaders', () => {
  it('passes requests without the header and with a good one, keeping the other headers', () => {
    expect(ZIdempotencyKeyHeaders.safeParse({ authorization: 'Bearer x' }).success).toBe(true);
    const parsed = ZIdempotencyKeyHeaders.parse({ authorization: 'Bearer x', 'idempotency-key': 'k-1' });
    expect(parsed).toEqual({ authorization: 'Bearer x', 'idempotency-key': 'k-1' });
  });

  it('names Idempotency-Key when the header is malformed', () => {
    const parsed = ZIdempotencyKeyHeaders.safeParse({ 'idempotency-key': 'two words' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path)).toEqual([[IDEMPOTENCY_KEY_HEADER]]);
  });
});
