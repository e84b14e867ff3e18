import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import Provider from 'oidc-provider';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_CUSTOMER_MOBILE, DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import { apiGet } from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * Sign in with Google against a LOCAL OpenID provider (oidc-provider on an ephemeral port, one
 * client, its development login and consent screens driven by hand with fetch and a cookie jar):
 * the real discovery, authorization redirect, code exchange with PKCE, state and nonce, and ID token.
 */
const KISHT_BASE = 'http://localhost:5173';
const CLIENT_ID = 'kisht-test-client';
const CLIENT_SECRET = 'kisht-test-client-secret-0123456789';

/** The provider's accounts by id: the claims its ID tokens carry. */
const accounts: Record<string, Record<string, unknown>> = {};
let issuer: string;
let server: Server;

beforeAll(async () => {
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${KISHT_BASE}${paths.oauth.callback}`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      phone: ['phone_number', 'phone_number_verified'],
    },
    // Claims of the granted scopes in the ID token itself, as Google does.
    conformIdTokenClaims: false,
    cookies: { keys: ['oidc-provider-test-cookie-key'] },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, ...accounts[id] }) }),
  });
  const handle = provider.callback();
  server.on('request', (request, response) => {
    if (isIdTokenForged && request.url?.startsWith('/token')) forgeIdTokenSignature(response);
    handle(request, response);
  });
});

/** While true, the token endpoint's ID tokens carry a signature changed by one character. */
let isIdTokenForged = false;

/**
 * Changes one character in the middle of the signature of the ID token the provider answers (same
 * length, so the Content-Length already set still holds): what a token not signed by the
 * provider's key looks like to the client.
 */
const forgeIdTokenSignature = (response: import('node:http').ServerResponse) => {
  const end = response.end.bind(response) as (chunk?: unknown, ...rest: unknown[]) => unknown;
  response.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (chunk === undefined || typeof chunk === 'function') return end(chunk, ...rest);
    const body = JSON.parse(String(chunk)) as { id_token?: string };
    if (body.id_token) {
      const [header, payload, signature] = body.id_token.split('.');
      const at = Math.floor(signature!.length / 2);
      const swapped = signature![at] === 'A' ? 'B' : 'A';
      body.id_token = `${header}.${payload}.${signature!.slice(0, at)}${swapped}${signature!.slice(at + 1)}`;
    }
    return end(JSON.stringify(body), ...rest);
  }) as typeof response.end;
};
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({
    GOOGLE_OIDC_ISSUER: issuer,
    GOOGLE_CLIENT_ID: CLIENT_ID,
    GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
    PUBLIC_BASE_URL: KISHT_BASE,
  });
  await t.app.ctx.db.execute(
    sql`update users set email = 'Ravi.Mobiles@example.in' where mobile = ${DEMO_RETAILER_MOBILE} and user_type = 'retailer'`,
  );
});
afterEach(async () => {
  await t.close();
});

/** A cookie jar for the provider, by hand: name → value from every Set-Cookie seen. */
const jar = () => {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    take: (response: Response) => {
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair!.indexOf('=');
        cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
    },
  };
};

/** GET on the provider without following redirects; answers the Location. */
const step = async (cookies: ReturnType<typeof jar>, url: string, form?: Record<string, string>) => {
  const response = await fetch(url, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: {
      cookie: cookies.header(),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
  cookies.take(response);
  const location = response.headers.get('location');
  if (!location)
    throw new Error(`provider answered ${response.status} without a redirect: ${await response.text()}`);
  return new URL(location, url).toString();
};

/**
 * Starts the sign-in at Kisht and signs in at the provider as `accountId` (login, then consent);
 * answers Kisht's cookie and the provider's redirect back to Kisht's callback.
 */
const signInAtProvider = async (accountId: string) => {
  const started = await t.app.inject({ method: 'GET', url: `${paths.oauth.url}?org_id=${DEMO_ORG_ID}` });
  expect(started.statusCode, started.body).toBe(200);
  const kishtCookie = String(started.headers['set-cookie']).split(';')[0]!;
  const cookies = jar();
  let url = await step(cookies, started.json().data.url);
  for (const prompt of ['login', 'consent']) {
    expect(url).toContain('/interaction/');
    url = await step(cookies, url, { prompt, login: accountId, password: 'x' });
    url = await step(cookies, url); // the provider resumes the authorization
  }
  expect(url.startsWith(`${KISHT_BASE}${paths.oauth.callback}?`)).toBe(true);
  return { kishtCookie, callback: new URL(url) };
};

/** Sends the provider's redirect to Kisht's callback; answers where Kisht sends the browser. */
const callback = async (callbackUrl: URL, cookie: string | undefined) => {
  const response = await t.app.inject({
    method: 'GET',
    url: `${callbackUrl.pathname}${callbackUrl.search}`,
    headers: cookie ? { cookie } : {},
  });
  expect(response.statusCode).toBe(302);
  expect(String(response.headers['set-cookie'])).toContain('Max-Age=0');
  const location = new URL(String(response.headers.location));
  expect(`${location.origin}${location.pathname}`).toBe(`${KISHT_BASE}/login`);
  return location.searchParams;
};

const complete = async (ticket: string | null) => {
  const response = await t.app.inject({ method: 'POST', url: paths.oauth.complete, payload: { ticket } });
  return { status: response.statusCode, body: response.json() };
};

const counts = async () =>
  (
    await queryRows<{ users: number; sessions: number; linked: number }>(
      t.app.ctx.db,
      sql`select (select count(*)::int from users) as users, (select count(*)::int from sessions) as sessions,
            (select count(*)::int from users where google_subject is not null) as linked`,
    )
  )[0];

describe('Sign in with Google (local OpenID provider)', () => {
  it("links a retailer by verified e-mail, opens the OTP login's session, and later signs in by subject", async () => {
    accounts['g-ravi'] = { email: 'ravi.mobiles@example.in', email_verified: true };
    const { kishtCookie, callback: back } = await signInAtProvider('g-ravi');
    const result = await callback(back, kishtCookie);
    expect(result.get('oauth_error')).toBeNull();
    const session = await complete(result.get('oauth_ticket'));
    expect(session.status).toBe(200);
    expect(session.body.data.user).toMatchObject({
      userType: 'retailer',
      mobile: DEMO_RETAILER_MOBILE,
      orgId: DEMO_ORG_ID,
    });
    expect((await apiGet(t, session.body.data.token, paths.users.me)).body.data.mobile).toBe(
      DEMO_RETAILER_MOBILE,
    );
    const [linked] = await queryRows<{ google_subject: string }>(
      t.app.ctx.db,
      sql`select google_subject from users where google_subject is not null`,
    );
    expect(linked).toEqual({ google_subject: 'g-ravi' });
    expect(
      await queryRows(
        t.app.ctx.db,
        sql`select action, details from audit_log where action = 'user.google_linked'`,
      ),
    ).toEqual([{ action: 'user.google_linked', details: { by: 'email' } }]);

    // The ticket works once.
    const again = await complete(result.get('oauth_ticket'));
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('OAUTH_FAILED');

    // Later: the account is found by its subject, even once the Google account's e-mail changed.
    accounts['g-ravi'] = { email: 'ravi@elsewhere.example', email_verified: true };
    const later = await signInAtProvider('g-ravi');
    const laterResult = await callback(later.callback, later.kishtCookie);
    expect((await complete(laterResult.get('oauth_ticket'))).status).toBe(200);
  });

  it('refuses an ID token whose signature is not the provider’s (OAUTH_FAILED, nothing linked)', async () => {
    accounts['g-forged'] = { email: 'ravi.mobiles@example.in', email_verified: true };
    const before = await counts();
    const { kishtCookie, callback: back } = await signInAtProvider('g-forged');
    isIdTokenForged = true;
    try {
      const result = await callback(back, kishtCookie);
      expect(result.get('oauth_error')).toBe('OAUTH_FAILED');
      expect(result.get('oauth_ticket')).toBeNull();
    } finally {
      isIdTokenForged = false;
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses an unknown e-mail, an unverified one and a customer: OAUTH_NOT_LINKED, nothing created', async () => {
    await t.app.ctx.db.execute(
      sql`update users set email = 'customer@example.in' where mobile = ${DEMO_CUSTOMER_MOBILE}`,
    );
    accounts['g-stranger'] = { email: 'stranger@example.in', email_verified: true };
    accounts['g-unverified'] = { email: 'ravi.mobiles@example.in', email_verified: false };
    accounts['g-customer'] = { email: 'customer@example.in', email_verified: true };
    const before = await counts();
    for (const account of ['g-stranger', 'g-unverified', 'g-customer']) {
      const { kishtCookie, callback: back } = await signInAtProvider(account);
      const result = await callback(back, kishtCookie);
      expect(result.get('oauth_error'), account).toBe('OAUTH_NOT_LINKED');
      expect(result.get('oauth_ticket')).toBeNull();
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses a deactivated retailer with USER_INACTIVE (403), linked or not, opening no session', async () => {
    accounts['g-ravi'] = { email: 'ravi.mobiles@example.in', email_verified: true };
    const first = await signInAtProvider('g-ravi');
    const firstResult = await callback(first.callback, first.kishtCookie);
    const ticket = firstResult.get('oauth_ticket');
    // Deactivated between Google's answer and the app completing the sign-in.
    await t.app.ctx.db.execute(
      sql`update users set is_active = false where mobile = ${DEMO_RETAILER_MOBILE} and user_type = 'retailer'`,
    );
    const before = await counts();
    const meanwhile = await complete(ticket);
    expect(meanwhile.status).toBe(403);
    expect(meanwhile.body).toMatchObject({
      code: 'USER_INACTIVE',
      message: 'Your account is deactivated. Please contact your retailer.',
    });

    // Already linked (found by subject), and unlinked (found by e-mail): the same answer.
    await t.app.ctx.db.execute(sql`update users set google_subject = null`);
    for (const linkedFirst of [false, true]) {
      if (linkedFirst) {
        await t.app.ctx.db.execute(
          sql`update users set google_subject = 'g-ravi' where mobile = ${DEMO_RETAILER_MOBILE} and user_type = 'retailer'`,
        );
      }
      const { kishtCookie, callback: back } = await signInAtProvider('g-ravi');
      const result = await callback(back, kishtCookie);
      expect(result.get('oauth_error')).toBeNull();
      const refused = await complete(result.get('oauth_ticket'));
      expect(refused.status, `linked first: ${linkedFirst}`).toBe(403);
      expect(refused.body.code).toBe('USER_INACTIVE');
    }
    // No session was opened, and a deactivated account is never linked by e-mail.
    expect((await counts())?.sessions).toBe(before?.sessions);
    expect(
      await queryRows(t.app.ctx.db, sql`select action from audit_log where action = 'user.google_linked'`),
    ).toHaveLength(1);
  });

  it('refuses a bad state, a missing cookie, a provider error and a forged ticket: OAUTH_FAILED', async () => {
    accounts['g-ravi'] = { email: 'ravi.mobiles@example.in', email_verified: true };
    const before = await counts();
    const { kishtCookie, callback: back } = await signInAtProvider('g-ravi');
    const forged = new URL(back);
    forged.searchParams.set('state', 'not-the-state');
    expect((await callback(forged, kishtCookie)).get('oauth_error')).toBe('OAUTH_FAILED');
    expect((await callback(back, undefined)).get('oauth_error')).toBe('OAUTH_FAILED');
    expect((await callback(back, `kisht_oauth=${'x'.repeat(40)}`)).get('oauth_error')).toBe('OAUTH_FAILED');
    const denied = new URL(`${KISHT_BASE}${paths.oauth.callback}`);
    denied.searchParams.set('error', 'access_denied');
    denied.searchParams.set('state', back.searchParams.get('state')!);
    expect((await callback(denied, kishtCookie)).get('oauth_error')).toBe('OAUTH_FAILED');
    expect(await counts()).toEqual(before);

    const forgedTicket = await complete('eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..forged.forged.forged');
    expect(forgedTicket.status).toBe(400);
    expect(forgedTicket.body.code).toBe('OAUTH_FAILED');
    expect((await complete('')).status).toBe(400);
  });

  it('tells the app Google sign-in is on', async () => {
    const config = await t.app.inject({ method: 'GET', url: paths.orgs.clientConfig });
    expect(config.json().data.googleSignIn).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: `${paths.oauth.url}?org_id=999999` })).statusCode).toBe(
      404,
    );
  });
});

describe('Sign in with Google, not configured', () => {
  it('answers 404 for the authorization URL and tells the app it is off', async () => {
    const off = await createTestApp();
    try {
      const url = await off.app.inject({ method: 'GET', url: `${paths.oauth.url}?org_id=${DEMO_ORG_ID}` });
      expect(url.statusCode).toBe(404);
      expect(url.json().message).toBe('Sign in with Google is not set up for this app');
      expect(
        (await off.app.inject({ method: 'GET', url: paths.orgs.clientConfig })).json().data.googleSignIn,
      ).toBe(false);
    } finally {
      await off.close();
    }
  });
});
