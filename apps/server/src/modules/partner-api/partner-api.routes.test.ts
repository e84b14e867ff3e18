import { ZPartnerKey, ZPartnerKeyWithSecret } from '@kisht/domain/partner-api/partner-api.schema';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import {
  DEMO_ADMIN_MOBILE,
  DEMO_ORG_ID,
  DEMO_RETAILER_MOBILE,
  SECOND_ORG_ID,
  SECOND_RETAILER_MOBILE,
} from '../../db/seed/seed';
import { apiGet, apiPost, customerBody } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

/**
 * The partner API's keys and door (issue 30): only the organisation admin makes and revokes keys
 * (another organisation's key 404, a retailer 403, bad input 400 naming the field), the key is
 * shown once and kept hashed, a missing, wrong or revoked key answers 401 at once, a key without
 * the scope 403, another organisation's customer 404, bad input 400 naming the field with nothing
 * written, and each key has its rate limit.
 */

const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field);

/** The demo organisation's admin makes a key with `scopes`, booked under the demo retailer. */
const makeKey = async (t: TestApp, scopes: string[] = ['read', 'devices', 'payments']) => {
  const admin = await t.tokenFor(DEMO_ORG_ID, DEMO_ADMIN_MOBILE);
  const retailerId = (
    await queryRows<{ id: number }>(
      t.app.ctx.db,
      sql`select id from users where org_id = ${DEMO_ORG_ID} and mobile = ${DEMO_RETAILER_MOBILE}`,
    )
  )[0]!.id;
  const made = await apiPost(t, admin, paths.partnerKeys.keys, {
    name: 'Lender LMS',
    scopes,
    retailer_id: retailerId,
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return { admin, retailerId, ...ZPartnerKeyWithSecret.parse(made.body.data) };
};

/** A partner call with the key (or none), answering status, body and headers. */
const call = async (
  t: TestApp,
  apiKey: string | null,
  method: 'GET' | 'POST',
  url: string,
  payload?: Record<string, unknown>,
  headers: Record<string, string> = {},
) => {
  const response = await t.app.inject({
    method,
    url,
    headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...headers },
    ...(payload ? { payload } : {}),
  });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
};

const loanUrl = (customerId: number) => paths.partner.customer.replace(':customer_id', String(customerId));
const paymentsUrl = (customerId: number) =>
  paths.partner.payments.replace(':customer_id', String(customerId));
const commandsUrl = (customerId: number) =>
  paths.partner.commands.replace(':customer_id', String(customerId));

describe('partner API keys', () => {
  it('the admin makes one: its text shown once, only its hash kept, listed without it', async ({ t }) => {
    const { admin, key, apiKey } = await makeKey(t, ['read']);
    expect(apiKey).toMatch(/^kisht_pk_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(apiKey.startsWith(key.keyPrefix)).toBe(true);
    expect(key).toMatchObject({
      name: 'Lender LMS',
      scopes: ['read'],
      revokedAt: null,
      retailerName: 'Ravi Mobiles',
    });
    const list = await apiGet(t, admin, paths.partnerKeys.keys);
    expect(
      ZPartnerKey.array()
        .parse(list.body.data)
        .map((k) => k.id),
    ).toEqual([key.id]);
    expect(JSON.stringify(list.body)).not.toContain(apiKey);
    const stored = await queryRows<Record<string, unknown>>(
      t.app.ctx.db,
      sql`select * from partner_api_keys`,
    );
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(apiKey.slice(-43));
  });

  it('bad input names the field and writes nothing; a retailer of another organisation is not found', async ({
    t,
  }) => {
    const { admin, retailerId } = await makeKey(t);
    const otherRetailer = (
      await queryRows<{ id: number }>(
        t.app.ctx.db,
        sql`select id from users where org_id = ${SECOND_ORG_ID} and user_type = 'retailer' limit 1`,
      )
    )[0]!.id;
    for (const [body, status, field] of [
      [{ name: '', scopes: ['read'], retailer_id: retailerId }, 400, 'name'],
      [{ name: 'X', scopes: [], retailer_id: retailerId }, 400, 'scopes'],
      [{ name: 'X', scopes: ['admin'], retailer_id: retailerId }, 400, 'scopes.0'],
      [{ name: 'X', scopes: ['read', 'read'], retailer_id: retailerId }, 400, 'scopes'],
      [{ name: 'X', scopes: ['read'] }, 400, 'retailer_id'],
      [{ name: 'X', scopes: ['read'], retailer_id: otherRetailer }, 404, 'retailer_id'],
    ] as const) {
      const refused = await apiPost(t, admin, paths.partnerKeys.keys, body);
      expect(refused.status, JSON.stringify(body)).toBe(status);
      expect(fieldsOf(refused.body)).toEqual([field]);
    }
    expect((await apiGet(t, admin, paths.partnerKeys.keys)).body.data).toHaveLength(1);
  });

  it("another organisation's admin gets 404 and a retailer 403; a revoked key answers 401 at once", async ({
    t,
    retailer,
    make,
  }) => {
    const { admin, key, apiKey } = await makeKey(t);
    await make.user({
      mobile: '+919800000882',
      name: 'Other Admin',
      userType: 'admin',
      orgId: SECOND_ORG_ID,
    });
    const otherAdmin = await t.tokenFor(SECOND_ORG_ID, '+919800000882');
    const revoke = (token: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `${paths.partnerKeys.keys}?key_id=${key.id}`,
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await apiGet(t, otherAdmin, paths.partnerKeys.keys)).body.data).toEqual([]);
    expect((await revoke(otherAdmin)).statusCode).toBe(404);
    expect((await revoke(retailer)).statusCode).toBe(403);
    expect((await apiGet(t, retailer, paths.partnerKeys.keys)).status).toBe(403);
    const customerId = (await make.customer()).customer.id;
    expect((await call(t, apiKey, 'GET', loanUrl(customerId))).status).toBe(200);

    const revoked = await revoke(admin);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data.revokedAt).not.toBeNull();
    const after = await call(t, apiKey, 'GET', loanUrl(customerId));
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('API_KEY_INVALID');
    expect(after.headers['www-authenticate']).toMatch(/^Bearer/);
    // Revoking again answers the key as it is.
    expect((await revoke(admin)).statusCode).toBe(200);
  });
});

describe('the partner API door', () => {
  it('a missing, malformed or wrong key answers 401; a key without the scope 403', async ({ t, make }) => {
    const { apiKey } = await makeKey(t, ['read']);
    const customerId = (await make.customer()).customer.id;
    const wrongSecret = `${apiKey.slice(0, -43)}${'A'.repeat(43)}`;
    for (const key of [null, 'nonsense', wrongSecret, `kisht_pk_${'a'.repeat(12)}_${'B'.repeat(43)}`]) {
      const refused = await call(t, key, 'GET', loanUrl(customerId));
      expect(refused.status, String(key)).toBe(401);
      expect(refused.body.code).toBe('API_KEY_INVALID');
    }
    // A session token is not an API key either.
    const admin = await t.tokenFor(DEMO_ORG_ID, DEMO_ADMIN_MOBILE);
    expect((await call(t, admin, 'GET', loanUrl(customerId))).status).toBe(401);

    const noScope = await call(t, apiKey, 'POST', commandsUrl(customerId), { command: 'lock' });
    expect(noScope.status).toBe(403);
    const noPayments = await call(
      t,
      apiKey,
      'POST',
      paymentsUrl(customerId),
      { amountPaise: 100, mode: 'upi' },
      { 'idempotency-key': 'a1' },
    );
    expect(noPayments.status).toBe(403);
  });

  it("another organisation's customer answers 404 on every route; the key sees its whole organisation", async ({
    t,
    make,
  }) => {
    const { apiKey } = await makeKey(t);
    const other = (
      await make.customer({
        orgId: SECOND_ORG_ID,
        retailerId: (await make.userByMobile(SECOND_RETAILER_MOBILE, SECOND_ORG_ID)).id,
      })
    ).customer;
    const mini = await make.userByMobile('+919876543211');
    const ofMini = (await make.customer({ retailerId: mini.id })).customer;
    expect((await call(t, apiKey, 'GET', loanUrl(ofMini.id))).status).toBe(200);
    const before = await queryRows<{ n: number }>(t.app.ctx.db, sql`select count(*)::int as n from payments`);
    for (const [method, url, body, headers] of [
      ['GET', loanUrl(other.id), undefined, {}],
      ['GET', paths.partner.enrolmentQr.replace(':customer_id', String(other.id)), undefined, {}],
      ['POST', commandsUrl(other.id), { command: 'lock', reason_category: 'customer_request' }, {}],
      ['POST', paymentsUrl(other.id), { amountPaise: 100, mode: 'upi' }, { 'idempotency-key': 'b1' }],
      [
        'GET',
        `${paths.partner.consentText}?language=en&product_id=${other.productId}&first_name=A&last_name=B`,
        undefined,
        {},
      ],
    ] as const) {
      const refused = await call(t, apiKey, method, url, body, headers);
      expect(refused.status, url).toBe(404);
    }
    const after = await queryRows<{ n: number }>(t.app.ctx.db, sql`select count(*)::int as n from payments`);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it("lists its organisation's customers a page at a time, never another organisation's", async ({
    t,
    make,
  }) => {
    const { apiKey } = await makeKey(t, ['read']);
    const mini = await make.userByMobile('+919876543211');
    const ofMini = (await make.customer({ retailerId: mini.id, firstName: 'Listed' })).customer;
    const other = (
      await make.customer({
        orgId: SECOND_ORG_ID,
        retailerId: (await make.userByMobile(SECOND_RETAILER_MOBILE, SECOND_ORG_ID)).id,
        firstName: 'Foreign',
      })
    ).customer;
    const page = await call(t, apiKey, 'GET', `${paths.partner.customers}?pageSize=100`);
    expect(page.status).toBe(200);
    const ids = (page.body.data.items as { id: number }[]).map((c) => c.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toContain(ofMini.id);
    expect(ids).not.toContain(other.id);
    const found = await call(t, apiKey, 'GET', `${paths.partner.customers}?search=Listed`);
    expect(found.body.data.items.map((c: { id: number }) => c.id)).toEqual([ofMini.id]);
    const otherShop = await call(
      t,
      apiKey,
      'GET',
      `${paths.partner.customers}?retailer_id=${other.retailerId}`,
    );
    expect(otherShop.status).toBe(404);
    const bad = await call(t, apiKey, 'GET', `${paths.partner.customers}?pageSize=1000`);
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual(['pageSize']);
  });

  it('bad input names the field and writes nothing', async ({ t, make }) => {
    const { apiKey } = await makeKey(t);
    const customerId = (await make.customer()).customer.id;
    const productId = (
      await queryRows<{ id: number }>(
        t.app.ctx.db,
        sql`select id from products where org_id = ${DEMO_ORG_ID} and platform = 'android' order by id limit 1`,
      )
    )[0]!.id;
    const consent = { language: 'en', textVersion: 'lock-consent-v1', reference: 'ESIGN-1' };
    const customersBefore = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`select count(*)::int as n from customers`,
    );
    for (const [url, body, field, headers] of [
      [
        paths.partner.customers,
        { customer: customerBody(productId, { imei2: undefined }), consent },
        'customer.imei2',
        {},
      ],
      [paths.partner.customers, { customer: customerBody(productId) }, 'consent', {}],
      [
        paths.partner.customers,
        { customer: customerBody(productId), consent: { ...consent, textVersion: 'old' } },
        'consent.textVersion',
        {},
      ],
      [commandsUrl(customerId), { command: 'explode' }, 'command', {}],
      [paymentsUrl(customerId), { amountPaise: 0, mode: 'upi' }, 'amountPaise', { 'idempotency-key': 'c1' }],
      [paymentsUrl(customerId), { amountPaise: 100, mode: 'upi' }, 'idempotency-key', {}],
      [
        paymentsUrl(customerId),
        { amountPaise: 999_999_999, mode: 'upi' },
        'amountPaise',
        { 'idempotency-key': 'c2' },
      ],
    ] as const) {
      const refused = await call(t, apiKey, 'POST', url, body, headers);
      expect([400, 409], `${url} ${JSON.stringify(body)}`).toContain(refused.status);
      expect(fieldsOf(refused.body), JSON.stringify(refused.body)).toEqual([field]);
    }
    const customersAfter = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`select count(*)::int as n from customers`,
    );
    expect(customersAfter[0]!.n).toBe(customersBefore[0]!.n);
    expect((await call(t, apiKey, 'GET', '/partner/v1/customers/abc')).status).toBe(400);
  });

  it('its own OpenAPI document lists the partner routes only', async ({ t }) => {
    const response = await t.app.inject({ method: 'GET', url: paths.partner.openapi });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    const routes = Object.keys(document.paths);
    expect(routes.length).toBeGreaterThan(0);
    expect(routes.every((path) => path.startsWith('/partner/v1/'))).toBe(true);
    expect(routes).toContain('/partner/v1/customers/{customer_id}/payments');
    expect(document.components.securitySchemes.partnerKey.scheme).toBe('bearer');
  });
});

describe('the rate limit per key', () => {
  it.override('appOverrides', { PARTNER_RATE_LIMIT_PER_MINUTE: '3' });
  it('answers 429 past the limit of one key, not of another', async ({ t, make }) => {
    const first = await makeKey(t, ['read']);
    const second = await makeKey(t, ['read']);
    const customerId = (await make.customer()).customer.id;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await call(t, first.apiKey, 'GET', loanUrl(customerId))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await call(t, second.apiKey, 'GET', loanUrl(customerId))).status).toBe(200);
  });
});
