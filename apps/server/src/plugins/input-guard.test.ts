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
