import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { paths } from '@kisht/domain/paths';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_ORG_ID } from './db/seed/seed';
import { createTestApp, type TestApp } from './test/harness';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

describe('buildApp', () => {
  it('serves the OpenAPI document at /docs with the spec paths', async () => {
    t = await createTestApp();
    const response = await t.app.inject({ method: 'GET', url: `${paths.docs}/json` });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        paths.customers.create,
        paths.auth.loginWithOtp,
        paths.devices.lock,
        paths.devices.enrol,
      ]),
    );
  });

  it('answers unknown API paths with a 404 envelope and client routes with the web app', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'kisht-web-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Kisht</title>');
    try {
      t = await createTestApp({ WEB_DIST_DIR: dist });
      const api = await t.app.inject({ method: 'GET', url: '/api/nope' });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toMatchObject({ response: 'failure', code: 'NOT_FOUND' });
      const page = await t.app.inject({ method: 'GET', url: '/customer_details/5' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<title>Kisht</title>');
      const missingFile = await t.app.inject({ method: 'GET', url: '/locales/xx.json' });
      expect(missingFile.statusCode).toBe(404);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('serves the web app like a production site: precompressed assets, immutable hashed bundles, index.html revalidated (issue 17)', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'kisht-web-'));
    const script = 'console.log("kisht");'.repeat(50);
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Kisht</title>');
    writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("install", () => {});');
    writeFileSync(join(dist, 'assets', 'index-3f9a1c.js'), script);
    writeFileSync(join(dist, 'assets', 'index-3f9a1c.js.br'), brotliCompressSync(script));
    writeFileSync(join(dist, 'assets', 'index-3f9a1c.js.gz'), gzipSync(script));
    try {
      t = await createTestApp({ WEB_DIST_DIR: dist });
      const get = (url: string, acceptEncoding?: string) =>
        t.app.inject({
          method: 'GET',
          url,
          headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
        });
      const brotli = await get('/assets/index-3f9a1c.js', 'gzip, deflate, br');
      expect(brotli.headers['content-encoding']).toBe('br');
      expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(brotli.headers.vary).toContain('accept-encoding');
      expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(script);
      const gzip = await get('/assets/index-3f9a1c.js', 'gzip');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(script);
      const plain = await get('/assets/index-3f9a1c.js');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(script);
      for (const url of ['/', '/customer_details/5', '/sw.js']) {
        const response = await get(url, 'br');
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['cache-control'], url).toBe('no-cache');
      }
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('refuses a malformed JSON body with 400, not 500', async () => {
    t = await createTestApp();
    const response = await t.app.inject({
      method: 'POST',
      url: paths.auth.loginWithOtp,
      headers: { 'content-type': 'application/json' },
      payload: '{"orgId":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().response).toBe('failure');
  });
});

/** POST /api/auth/loginWithOtp allows 10 sends a minute per client (auth.routes.ts, OTP_RATE_LIMIT). */
const OTP_SENDS_PER_MINUTE = 10;

describe('per-client rate limits behind X-Forwarded-For', () => {
  /** One more OTP send than the limit, each claiming a different client; the status codes in order. */
  const sendOtpsFromForgedClients = async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= OTP_SENDS_PER_MINUTE; i += 1) {
      const response = await t.app.inject({
        method: 'POST',
        url: paths.auth.loginWithOtp,
        remoteAddress: '10.0.0.1',
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
        // A number each, so only the per-client limit is measured (one number has a daily cap too).
        payload: { orgId: DEMO_ORG_ID, mobile: `98765432${String(i).padStart(2, '0')}` },
      });
      statuses.push(response.statusCode);
    }
    return statuses;
  };
  const LIMITED_AS_ONE_CLIENT = [...Array<number>(OTP_SENDS_PER_MINUTE).fill(200), 429];

  it('ignores the header by default, so rotating it does not dodge the OTP limit', async () => {
    t = await createTestApp();
    expect(await sendOtpsFromForgedClients()).toEqual(LIMITED_AS_ONE_CLIENT);
  });

  it('ignores the header from a peer TRUST_PROXY does not name', async () => {
    t = await createTestApp({ TRUST_PROXY: '10.0.0.2, 192.168.0.0/16' });
    expect(await sendOtpsFromForgedClients()).toEqual(LIMITED_AS_ONE_CLIENT);
  });

  it.each(['10.0.0.1', '10.0.0.0/8'])(
    'counts each forwarded client apart with TRUST_PROXY=%s',
    async (trustProxy) => {
      t = await createTestApp({ TRUST_PROXY: trustProxy });
      expect(await sendOtpsFromForgedClients()).toEqual(Array(OTP_SENDS_PER_MINUTE + 1).fill(200));
    },
  );
});
