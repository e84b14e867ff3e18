import { buildAuthSession, buildRequestToken } from '@kisht/domain/client/client-headers';
import { paths } from '@kisht/domain/paths';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../db/seed/seed';
import { bearer, createTestApp, type TestApp } from '../test/harness';
import { SeenValues } from './client-contract';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const products = (headers: Record<string, string>) =>
  t.app
    .inject({ method: 'GET', url: paths.catalogue.products, headers })
    .then((r) => ({ status: r.statusCode, body: r.json() }));

describe('client headers of spec §7', () => {
  it('accepts a fresh auth-session header built by the client code, once', async () => {
    t = await createTestApp();
    const token = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
    const header = await buildAuthSession(paths.catalogue.products);
    expect((await products({ ...bearer(token), 'auth-session': header })).status).toBe(200);
    const replay = await products({ ...bearer(token), 'auth-session': header });
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({
      code: 'AUTH_SESSION_INVALID',
      message: 'The auth-session header was already used',
    });
  });

  it.each([
    ['another path', () => buildAuthSession('/api/customer')],
    ['a stale timestamp', () => buildAuthSession(paths.catalogue.products, Date.now() - 6 * 60_000)],
    ['a future timestamp', () => buildAuthSession(paths.catalogue.products, Date.now() + 6 * 60_000)],
    ['garbage', async () => 'abc:def'],
  ])('refuses a header made for %s', async (_label, make) => {
    t = await createTestApp();
    const token = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
    const response = await products({ ...bearer(token), 'auth-session': await make() });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('AUTH_SESSION_INVALID');
  });

  it('requires the header when configured to, except for device enrolment', async () => {
    t = await createTestApp({ AUTH_SESSION_REQUIRED: 'true' });
    const missing = await t.app.inject({ method: 'GET', url: `${paths.orgs.appConfig}?org_id=41` });
    expect(missing.statusCode).toBe(400);
    const withHeader = await t.app.inject({
      method: 'GET',
      url: `${paths.orgs.appConfig}?org_id=41`,
      headers: { 'auth-session': await buildAuthSession(paths.orgs.appConfig) },
    });
    expect(withHeader.statusCode).toBe(200);
    const enrol = await t.app.inject({ method: 'POST', url: paths.devices.enrol, payload: {} });
    expect(enrol.json().code).toBe('VALIDATION_FAILED'); // reached the route, not refused for headers
  });

  it('checks the request token against the organisation and path', async () => {
    t = await createTestApp();
    const token = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
    const secret = (await t.app.inject({ method: 'GET', url: paths.orgs.clientConfig })).json().data
      .requestTokenSecret;
    const good = await buildRequestToken({ orgId: DEMO_ORG_ID, path: paths.catalogue.products, secret });
    expect((await products({ ...bearer(token), 'request-token': good })).status).toBe(200);
    const otherOrg = await buildRequestToken({ orgId: 46, path: paths.catalogue.products, secret });
    const refused = await products({ ...bearer(token), 'request-token': otherOrg });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('REQUEST_TOKEN_INVALID');
  });

  it('serves the client config', async () => {
    t = await createTestApp();
    const config = (await t.app.inject({ method: 'GET', url: paths.orgs.clientConfig })).json().data;
    expect(config).toMatchObject({
      authSessionWindowSeconds: 300,
      defaultCacheSeconds: 300,
      plansCacheSeconds: 5,
    });
  });
});

describe('SeenValues', () => {
  // The cache treats a start time of 0 as "no time to live", so the fake clock starts later.
  const START_MS = 1_000_000;

  it('refuses a value seen within its time to live and forgets it after', () => {
    let nowMs = START_MS;
    const seen = new SeenValues({ ttlMs: 1000, now: () => nowMs });
    expect(seen.remember('a')).toBe(true);
    nowMs += 999;
    expect(seen.remember('a')).toBe(false);
    nowMs += 2; // 1001 ms after it was seen
    expect(seen.remember('a')).toBe(true);
  });

  it('keeps at most max values however many arrive within the window', () => {
    let nowMs = START_MS;
    const seen = new SeenValues({ ttlMs: 60_000, max: 100, now: () => nowMs });
    for (let i = 0; i < 1_000; i += 1) {
      expect(seen.remember(`value-${i}`)).toBe(true);
      nowMs += 10;
    }
    expect(seen.size).toBe(100);
    expect(seen.remember('value-999')).toBe(false); // the newest are still remembered
    nowMs += 60_001;
    expect(seen.remember('value-999')).toBe(true); // and expire after the time to live
    expect(seen.size).toBeLessThanOrEqual(100);
  });
});
