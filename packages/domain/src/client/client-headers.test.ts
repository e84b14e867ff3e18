import { describe, expect, it } from 'vitest';
import {
  buildAuthSession,
  buildRequestToken,
  pathTail,
  readAuthSession,
  requestPath,
} from './client-headers';

describe('auth-session header (spec §7)', () => {
  it('round-trips the timestamp for the same path, as ivhex:cipherhex', async () => {
    const value = await buildAuthSession('/api/customer?page=2', 1_795_000_000_123);
    expect(value).toMatch(/^[0-9a-f]{32}:[0-9a-f]{32}$/);
    expect(await readAuthSession('/api/customer', value)).toBe(1_795_000_000_123);
  });

  it('uses a fresh IV every time', async () => {
    const a = await buildAuthSession('/api/customer', 1);
    const b = await buildAuthSession('/api/customer', 1);
    expect(a).not.toBe(b);
  });

  it.each([
    [
      'another path',
      async () =>
        readAuthSession('/api/products', await buildAuthSession('/api/customer', 1_795_000_000_000)),
    ],
    ['garbage', async () => readAuthSession('/api/customer', 'zz:yy')],
    ['a short IV', async () => readAuthSession('/api/customer', 'abcd:00112233445566778899aabbccddeeff')],
    ['no colon', async () => readAuthSession('/api/customer', '00112233445566778899aabbccddeeff')],
  ])('gives null for %s', async (_label, read) => {
    expect(await read()).toBeNull();
  });
});

describe('request token', () => {
  it('depends on org, path tail and secret only', async () => {
    const token = await buildRequestToken({
      orgId: 41,
      path: '/api/customer/get_customers_qrCode?customer_id=5',
      secret: 's',
    });
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(await buildRequestToken({ orgId: 41, path: 'http://x/y/get_customers_qrCode', secret: 's' })).toBe(
      token,
    );
    expect(await buildRequestToken({ orgId: 46, path: '/get_customers_qrCode', secret: 's' })).not.toBe(
      token,
    );
    expect(await buildRequestToken({ orgId: 41, path: '/get_customers_qrCode', secret: 't' })).not.toBe(
      token,
    );
  });

  it.each([
    ['/api/customer/get_customers_qrCode?x=1', 'get_customers_qrCode'],
    ['https://kisht.in/api/products', 'products'],
    ['/', ''],
  ])('path tail of %s is %s', (path, tail) => {
    expect(pathTail(path)).toBe(tail);
  });

  it('strips origin and query from a request path', () => {
    expect(requestPath('http://localhost:8080/api/customer?page=1#x')).toBe('/api/customer');
  });
});
