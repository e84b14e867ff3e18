import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '@kisht/domain/paths';
import { afterEach, describe, expect, it } from 'vitest';
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
