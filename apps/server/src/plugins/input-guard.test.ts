import { paths } from '@kisht/domain/paths';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../db/seed/seed';
import { createTestApp, type TestApp } from '../test/harness';

describe('a NUL character in the input (issue 12, found by the fuzz suite)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
  });
  afterAll(() => t.close());

  it('answers 400 naming the query field instead of a 500 from the database', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `${paths.customers.list}?search=a%00b`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: [{ field: 'search', message: 'must not contain a NUL character' }],
    });
  });

  it('names every nested body field holding one', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: paths.customers.create,
      headers: { authorization: `Bearer ${token}` },
      payload: { firstName: 'a\u0000b', address: { city: 'x\u0000' }, tags: ['ok', '\u0000'] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.map((f: { field: string }) => f.field)).toEqual([
      'firstName',
      'address.city',
      'tags.1',
    ]);
  });
});

describe('a deeply nested JSON body (issue 27)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
  });
  afterAll(() => t.close());

  /** 10,000 levels of arrays in ~20 KB: what overflowed the recursive walk's stack (a 500). */
  const nested = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;

  it('answers 400 naming the body on a public route, and sends no OTP', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: paths.auth.loginWithOtp,
      headers: { 'content-type': 'application/json' },
      payload: `{"orgId":${DEMO_ORG_ID},"mobile":"${DEMO_RETAILER_MOBILE}","x":${nested}}`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: [{ field: 'body', message: 'must not nest deeper than 64 levels' }],
    });
  });

  it('answers 400 on a signed-in route and writes nothing', async () => {
    const before = await t.app.inject({
      method: 'GET',
      url: `${paths.customers.list}?pageSize=1`,
      headers: { authorization: `Bearer ${token}` },
    });
    const response = await t.app.inject({
      method: 'POST',
      url: paths.customers.create,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: `{"firstName":"Deep","tags":${nested}}`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual([
      { field: 'body', message: 'must not nest deeper than 64 levels' },
    ]);
    const after = await t.app.inject({
      method: 'GET',
      url: `${paths.customers.list}?pageSize=1`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(after.json().data.total).toBe(before.json().data.total);
  });

  it('lets a body nested to the limit through to the route', async () => {
    const atLimit = `${'['.repeat(63)}${']'.repeat(63)}`;
    const response = await t.app.inject({
      method: 'POST',
      url: paths.customers.create,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: `{"firstName":"Deep","tags":${atLimit}}`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.map((f: { field: string }) => f.field)).not.toContain('body');
  });
});
