/**
 * The request header that makes recording a payment safe to retry (IETF httpapi draft "The
 * Idempotency-Key HTTP Header Field"): the client sends one key per payment attempt, the same key
 * on every retry of it, and the server answers a repeat with the first result instead of recording
 * the money twice.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
