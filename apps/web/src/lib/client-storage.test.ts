import { beforeEach, describe, expect, it } from 'vitest';
import { ensureClientDefaults, randomUuid } from './client-storage';

const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

beforeEach(() => localStorage.clear());

describe('ensureClientDefaults (spec §3 local storage keys)', () => {
  it('makes device_id once, sets isAndroid from the user agent and showAd to 1', () => {
    ensureClientDefaults({ storage: localStorage, userAgent: ANDROID });
    const deviceId = localStorage.getItem('device_id');
    expect(deviceId).toMatch(UUID);
    expect(localStorage.getItem('isAndroid')).toBe('true');
    expect(localStorage.getItem('showAd')).toBe('1');
    ensureClientDefaults({ storage: localStorage, userAgent: IPHONE });
    expect(localStorage.getItem('device_id')).toBe(deviceId);
  });

  it("says 'false' for a device that is not Android and keeps existing values", () => {
    ensureClientDefaults({ storage: localStorage, userAgent: IPHONE });
    expect(localStorage.getItem('isAndroid')).toBe('false');
    localStorage.setItem('showAd', '0');
    ensureClientDefaults({ storage: localStorage, userAgent: IPHONE });
    expect(localStorage.getItem('showAd')).toBe('0');
  });

  it('makes version 4 UUIDs', () => {
    expect(randomUuid()).toMatch(UUID);
    expect(randomUuid()).not.toBe(randomUuid());
  });
});
