import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  OFFLINE_CODE_SLOT_MS,
  offlineCodeFor,
  offlineCodeKey,
  offlineCodeSlot,
  offlineCodeValidUntil,
  verifyOfflineCode,
} from './offline-code';

const SECRET = 'd3v1ce-s3cret-for-tests';
const DEVICE = '01933b6e-7f3a-7c1d-9b2e-5a4f3c2d1e0f';
const NOW = Date.UTC(2026, 10, 22, 10, 7, 0);

/** The same maths written out with Node's crypto, as an independent check of the Web Crypto code. */
const reference = (challenge: string, action: string, slot: number) => {
  const key = createHash('sha256').update(SECRET).digest('hex');
  const mac = createHmac('sha256', key)
    .update(`kisht-offline-v1|${DEVICE}|${challenge}|${action}|${slot}`)
    .digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 100_000_000).padStart(8, '0');
};

describe('offline codes (design §5)', () => {
  it('derives the key as SHA-256 hex of the device secret', async () => {
    expect(await offlineCodeKey(SECRET)).toBe(createHash('sha256').update(SECRET).digest('hex'));
  });

  it('matches the RFC 4226 truncation of HMAC-SHA256 computed independently', async () => {
    const keyHex = await offlineCodeKey(SECRET);
    for (const [challenge, action] of [
      ['123456', 'unlock'],
      ['000001', 'lock'],
      ['987654', 'unlock'],
    ] as const) {
      const slot = offlineCodeSlot(NOW);
      const code = await offlineCodeFor({ keyHex, deviceId: DEVICE, challenge, action, slot });
      expect(code).toMatch(/^\d{8}$/);
      expect(code).toBe(reference(challenge, action, slot));
    }
  });

  it('binds a code to its device, challenge and action', async () => {
    const keyHex = await offlineCodeKey(SECRET);
    const slot = offlineCodeSlot(NOW);
    const base = { keyHex, deviceId: DEVICE, challenge: '123456', action: 'unlock' as const, slot };
    const code = await offlineCodeFor(base);
    const check = (overrides: Partial<Parameters<typeof verifyOfflineCode>[0]>) =>
      verifyOfflineCode({ ...base, code, nowMs: NOW, ...overrides });
    expect(await check({})).toBe(true);
    expect(await check({ action: 'lock' })).toBe(false);
    expect(await check({ challenge: '123457' })).toBe(false);
    expect(await check({ deviceId: '01933b6e-0000-7c1d-9b2e-5a4f3c2d1e0f' })).toBe(false);
    expect(await check({ keyHex: await offlineCodeKey('another secret') })).toBe(false);
  });

  it('is accepted in its slot and the next, and not after', async () => {
    const keyHex = await offlineCodeKey(SECRET);
    const input = { keyHex, deviceId: DEVICE, challenge: '424242', action: 'unlock' as const };
    const code = await offlineCodeFor({ ...input, slot: offlineCodeSlot(NOW) });
    const validUntil = offlineCodeValidUntil(NOW);
    expect(validUntil - NOW).toBeGreaterThan(OFFLINE_CODE_SLOT_MS);
    expect(validUntil - NOW).toBeLessThanOrEqual(2 * OFFLINE_CODE_SLOT_MS);
    expect(await verifyOfflineCode({ ...input, code, nowMs: validUntil - 1 })).toBe(true);
    expect(await verifyOfflineCode({ ...input, code, nowMs: validUntil })).toBe(false);
    // A code from the future (phone clock behind) is refused too.
    expect(await verifyOfflineCode({ ...input, code, nowMs: NOW - OFFLINE_CODE_SLOT_MS })).toBe(false);
  });

  it('rejects malformed codes and challenges', async () => {
    const keyHex = await offlineCodeKey(SECRET);
    const input = { keyHex, deviceId: DEVICE, challenge: '424242', action: 'unlock' as const, nowMs: NOW };
    for (const code of ['', '1234567', '123456789', 'abcdefgh']) {
      expect(await verifyOfflineCode({ ...input, code })).toBe(false);
    }
    await expect(offlineCodeFor({ ...input, challenge: '12ab56', slot: 1 })).rejects.toThrow(/6 digits/);
  });
});
