import { z } from 'zod';
import { IDEMPOTENCY_KEY_HEADER } from './idempotency-key-header';

// Zod-free (idempotency-key-header.ts) so the web app's EMI calls read it without zod; re-exported.
export { IDEMPOTENCY_KEY_HEADER } from './idempotency-key-header';

/** Longest key the server stores, characters. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** 1–255 visible ASCII characters (0x21–0x7E): a UUID, or any opaque token without spaces. */
const VISIBLE_ASCII_KEY = new RegExp(`^[\\x21-\\x7E]{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}$`);
/** The body of a Structured Field sf-string (RFC 9651 §3.3.3): printable ASCII, `\"` and `\\` escaped. */
const SF_STRING_BODY = /^(?:[\x20\x21\x23-\x5B\x5D-\x7E]|\\["\\])*$/;

/**
 * The key an `Idempotency-Key` header value carries, or null when it is malformed. The draft makes
 * the value a Structured Field string (`"8e03978e-…"`); clients often send it bare, so both are
 * taken and give the same key. The key must be 1–255 visible ASCII characters (a UUID is one).
 * Surrounding spaces are ignored; keys are compared exactly (case-sensitive).
 */
export const parseIdempotencyKey = (raw: string): string | null => {
  const value = raw.trim();
  let key = value;
  if (value.startsWith('"')) {
    const body = value.length >= 2 && value.endsWith('"') ? value.slice(1, -1) : null;
    if (body === null || !SF_STRING_BODY.test(body)) return null;
    key = body.replace(/\\(["\\])/g, '$1');
  }
  return VISIBLE_ASCII_KEY.test(key) ? key : null;
};

/**
 * Request headers of a route that takes an optional `Idempotency-Key` (Fastify lower-cases header
 * names). Other headers pass through untouched. A malformed key fails validation naming
 * `Idempotency-Key`, so the route answers 400 before anything is written; the route reads the key
 * with parseIdempotencyKey.
 */
export const ZIdempotencyKeyHeaders = z
  .looseObject({
    'idempotency-key': z
      .string()
      .optional()
      .meta({
        description:
          'Idempotency-Key (IETF draft "The Idempotency-Key HTTP Header Field"): one key per payment ' +
          'attempt, a UUID or 1–255 visible ASCII characters, bare or as a quoted Structured Field string. ' +
          'A retry with the same key and request answers the first receipt and records nothing again; ' +
          'the same key with a different request answers 422 IDEMPOTENCY_KEY_REUSED. Keys are per organisation.',
        example: '8e03978e-40d5-43e8-bc93-6894a57f9324',
      }),
  })
  .superRefine((headers, ctx) => {
    const raw = headers['idempotency-key'];
    if (raw === undefined || parseIdempotencyKey(raw) !== null) return;
    ctx.addIssue({
      code: 'custom',
      path: [IDEMPOTENCY_KEY_HEADER],
      message: `${IDEMPOTENCY_KEY_HEADER} must be a UUID or 1–${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters`,
    });
  });
