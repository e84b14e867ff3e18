import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zEnvelope } from '@kisht/domain/common/envelope';
import { ZCustomerDetails, ZEnrolmentQr } from '@kisht/domain/customers/customers.schema';
import {
  ENROLMENT_CODE_PATTERN,
  parseDeepLink,
  ZEnrolmentCode,
  ZEnrolmentCodeState,
  ZExchangeEnrolmentCodeResponse,
} from '@kisht/domain/devices/link-enrolment';
import { evtTopic, PROTOCOL_VERSION } from '@kisht/domain/devices/protocol.schema';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE, SECOND_ORG_ID } from '../../db/seed/seed';
import {
  apiGet,
  apiPost,
  customerBody,
  freshImei,
  recordConsent,
  TEST_LOCK_REASON,
} from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';
import { routeTest as it, type TTestFactories } from '../../test/route-test';
import { LINK_APP_PLACEHOLDER_TEXT } from './emm.routes';

let t: TestApp;
let retailer: string;
let make: TTestFactories;

// The file's helpers below act as the test's app, retailer and factories (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token, make: factories }) => {
  t = app;
  retailer = token;
  make = factories;
});

const productOf = async (token: string) =>
  (await apiGet(t, token, `${paths.catalogue.products}?device_type=0`)).body.data[0].id as number;

/** Adds a customer of device family `deviceType` (link-based by default) with their consent. */
const addCustomer = async (
  token = retailer,
  options: { deviceType?: number; appType?: number; hasConsent?: boolean } = {},
) => {
  const body = customerBody(await productOf(token), {
    imei1: freshImei(),
    imei2: freshImei(),
    deviceType: options.deviceType ?? 2,
    appType: options.appType ?? 1,
  });
  const created = await apiPost(t, token, paths.customers.create, body);
  expect(created.status).toBe(200);
  const customerId = created.body.data.id as number;
  if (options.hasConsent !== false) expect((await recordConsent(t, token, customerId)).status).toBe(200);
  return { customerId, imei1: body.imei1 as string, imei2: body.imei2 as string };
};

/** The path and query of a deep link, to open it through inject. */
const landingPathOf = (deepLink: string) => {
  const url = new URL(deepLink);
  return `${url.pathname}${url.search}`;
};

const linkFor = async (customerId: number, token = retailer) => {
  const answer = await apiPost(t, token, paths.emm.generateCodeLinkfl, { customer_id: customerId });
  expect(answer.status).toBe(200);
  return zEnvelope(ZEnrolmentQr).parse(answer.body).data;
};

const exchange = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: paths.emm.exchangeCode, payload });

const enrol = (payload: { token: string; imei1: string; imei2: string }) =>
  t.app.inject({ method: 'POST', url: paths.devices.enrol, payload });

const details = async (customerId: number) =>
  zEnvelope(ZCustomerDetails).parse(
    (await apiGet(t, retailer, `${paths.customers.details}?customer_id=${customerId}`)).body,
  ).data;

/** The customer's enrolment (token, link and code) expired a minute ago. */
const expireEnrolment = (customerId: number) =>
  make.deviceRow(customerId, { enrolmentExpiresAt: new Date(Date.now() - 60_000) });

describe('link-based enrolment: deep link, APK and code', () => {
  it('generate_code_linkfl answers a link QR: the deep link, the APK and an enrolment code', async () => {
    const { customerId } = await addCustomer();
    const qr = await linkFor(customerId);
    expect(qr.kind).toBe('link');
    const link = parseDeepLink(qr.payload);
    expect(link.orgId).toBe(DEMO_ORG_ID);
    expect(landingPathOf(qr.payload)).toBe(
      `${paths.emm.deepLinkLanding}?org_id=${DEMO_ORG_ID}&token=${link.token}`,
    );
    expect(new URL(qr.apkUrl!).pathname).toBe(paths.emm.linkApk);
    expect(new URL(qr.apkUrl!).origin).toBe(link.serverUrl);
    expect(qr.enrolmentCode).toMatch(ENROLMENT_CODE_PATTERN);
    expect(new Date(qr.expiresAt).getTime()).toBeGreaterThan(Date.now());
    // get_customers_qrCode of a link-based customer is the same kind of answer.
    const viaQr = await apiGet(t, retailer, `${paths.customers.qrCode}?customer_id=${customerId}`);
    expect(viaQr.status).toBe(200);
    expect(viaQr.body.data.kind).toBe('link');
    expect(parseDeepLink(viaQr.body.data.payload).token).not.toBe(link.token);
  });

  it('get_deep_link issues a fresh token each time; only the newest enrols', async () => {
    const { customerId, imei1, imei2 } = await addCustomer();
    const first = await apiGet(t, retailer, `${paths.customers.deepLink}?customer_id=${customerId}`);
    expect(first.status).toBe(200);
    const firstQr = zEnvelope(ZEnrolmentQr).parse(first.body).data;
    const second = zEnvelope(ZEnrolmentQr).parse(
      (await apiGet(t, retailer, `${paths.customers.deepLink}?customer_id=${customerId}`)).body,
    ).data;
    expect(second.kind).toBe('link');
    const oldToken = parseDeepLink(firstQr.payload).token;
    expect((await enrol({ token: oldToken, imei1, imei2 })).statusCode).toBe(400);
    const enrolled = await enrol({ token: parseDeepLink(second.payload).token, imei1, imei2 });
    expect(enrolled.statusCode).toBe(200);
    expect((await details(customerId)).status).toBe(1);
  });

  it("needs the customer's consent first, as the QR does", async () => {
    const { customerId } = await addCustomer(retailer, { hasConsent: false });
    const refused = await apiPost(t, retailer, paths.emm.generateCodeLinkfl, { customer_id: customerId });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CONSENT_REQUIRED');
  });

  it('the landing page offers the APK and the app link, escaped, with no scripts; an expired link is gone', async () => {
    const { customerId } = await addCustomer();
    const qr = await linkFor(customerId);
    const link = parseDeepLink(qr.payload);
    const landing = await t.app.inject({ method: 'GET', url: landingPathOf(qr.payload) });
    expect(landing.statusCode).toBe(200);
    expect(landing.headers['content-type']).toMatch(/^text\/html/);
    expect(landing.headers['referrer-policy']).toBe('no-referrer');
    expect(landing.headers['content-security-policy']).toContain("default-src 'none'");
    expect(landing.body).toContain('Install the Kisht app');
    expect(landing.body).toContain(`href="${qr.apkUrl}"`);
    // The app link carries the token, with the query's & and = escaped inside the attribute.
    const href = /href="(kisht:\/\/enrol\?[^"]+)"/.exec(landing.body)?.[1];
    expect(href).toMatch(/^kisht:\/\/enrol\?server&#61;[^&]+&amp;org_id&#61;41&amp;token&#61;/);
    const appLink = parseDeepLink(href!.replaceAll('&amp;', '&').replaceAll('&#61;', '='));
    expect(appLink).toEqual({
      serverUrl: expect.stringMatching(/^http:\/\/localhost/),
      orgId: DEMO_ORG_ID,
      token: link.token,
    });
    expect(landing.body).not.toMatch(/<script/i);

    // Unknown token, other organisation, expired: 410, never the app link.
    const unknown = await t.app.inject({
      method: 'GET',
      url: `${paths.emm.deepLinkLanding}?org_id=${DEMO_ORG_ID}&token=${'A'.repeat(43)}`,
    });
    expect(unknown.statusCode).toBe(410);
    expect(unknown.body).toContain('This link has expired');
    const otherOrg = await t.app.inject({
      method: 'GET',
      url: `${paths.emm.deepLinkLanding}?org_id=${SECOND_ORG_ID}&token=${link.token}`,
    });
    expect(otherOrg.statusCode).toBe(410);
    await expireEnrolment(customerId);
    const expired = await t.app.inject({ method: 'GET', url: landingPathOf(qr.payload) });
    expect(expired.statusCode).toBe(410);
    expect(expired.body).not.toContain('kisht://');

    // Bad input: 400 naming the field (markup in the token is refused, never echoed).
    const bad = await t.app.inject({
      method: 'GET',
      url: `${paths.emm.deepLinkLanding}?org_id=${DEMO_ORG_ID}&token=${encodeURIComponent('<script>alert(1)</script>')}`,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.map((f: { field: string }) => f.field)).toContain('token');
    const noOrg = await t.app.inject({
      method: 'GET',
      url: `${paths.emm.deepLinkLanding}?token=${link.token}`,
    });
    expect(noOrg.statusCode).toBe(400);
    expect(noOrg.json().fields.map((f: { field: string }) => f.field)).toContain('org_id');
  });

  it('serves a clearly named placeholder at linkflapk on a demo server, never a 404', async () => {
    const apk = await t.app.inject({ method: 'GET', url: paths.emm.linkApk });
    expect(apk.statusCode).toBe(200);
    expect(apk.headers['content-type']).toMatch(/^text\/plain/);
    expect(apk.headers['content-disposition']).toContain('PLACEHOLDER');
    expect(apk.body).toBe(LINK_APP_PLACEHOLDER_TEXT);
  });

  it('serves LINK_APP_APK_FILE as an APK, and points apkUrl at LINK_APP_DOWNLOAD_URL when set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kisht-apk-'));
    const file = join(dir, 'app.apk');
    writeFileSync(file, Buffer.from('PK\u0003\u0004fake-apk-bytes'));
    const withFile = await createTestApp({ LINK_APP_APK_FILE: file });
    try {
      const apk = await withFile.app.inject({ method: 'GET', url: paths.emm.linkApk });
      expect(apk.statusCode).toBe(200);
      expect(apk.headers['content-type']).toBe('application/vnd.android.package-archive');
      expect(apk.rawPayload.subarray(0, 4)).toEqual(Buffer.from('PK\u0003\u0004'));
    } finally {
      await withFile.close();
      rmSync(dir, { recursive: true, force: true });
    }
    const elsewhere = 'https://downloads.example.in/kisht-link-1.2.apk';
    const withUrl = await createTestApp({ LINK_APP_DOWNLOAD_URL: elsewhere });
    try {
      const redirect = await withUrl.app.inject({ method: 'GET', url: paths.emm.linkApk });
      expect(redirect.statusCode).toBe(302);
      expect(redirect.headers.location).toBe(elsewhere);
      const token = await withUrl.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
      const productId = (await apiGet(withUrl, token, `${paths.catalogue.products}?device_type=0`)).body
        .data[0].id as number;
      const created = await apiPost(
        withUrl,
        token,
        paths.customers.create,
        customerBody(productId, { deviceType: 2, appType: 1 }),
      );
      expect(created.status).toBe(200);
      const customerId = created.body.data.id as number;
      expect((await recordConsent(withUrl, token, customerId)).status).toBe(200);
      const qr = await withUrl.app.inject({
        method: 'POST',
        url: paths.emm.generateCodeLinkfl,
        headers: { authorization: `Bearer ${token}` },
        payload: { customer_id: customerId },
      });
      expect(qr.json().data.apkUrl).toBe(elsewhere);
    } finally {
      await withUrl.close();
    }
  });
});

describe('enrolment code exchange (/emm/generate_code)', () => {
  it('a right code gives a token that enrols; the deep link token it replaces no longer does', async () => {
    const { customerId, imei1, imei2 } = await addCustomer();
    const qr = await linkFor(customerId);
    // Typed loosely: lower case, no dash, O for 0 and I/L for 1 read as Crockford reads them.
    const typed = qr.enrolmentCode!.toLowerCase().replace('-', ' ');
    const answer = await exchange({ orgId: DEMO_ORG_ID, code: typed });
    expect(answer.statusCode).toBe(200);
    const data = zEnvelope(ZExchangeEnrolmentCodeResponse).parse(answer.json()).data;
    expect(new URL(data.serverUrl).origin).toBe(parseDeepLink(qr.payload).serverUrl);
    expect(data.expiresAt).toBe(qr.expiresAt);
    const oldToken = parseDeepLink(qr.payload).token;
    expect((await enrol({ token: oldToken, imei1, imei2 })).statusCode).toBe(400);
    expect((await enrol({ token: data.token, imei1, imei2 })).statusCode).toBe(200);
    expect((await details(customerId)).status).toBe(1);
    // Used: the code is gone.
    const again = await exchange({ orgId: DEMO_ORG_ID, code: qr.enrolmentCode });
    expect(again.statusCode).toBe(404);
    const audit = await queryRows<{ action: string }>(
      t.app.ctx.db,
      sql`select action from audit_log where entity = 'customer' and entity_id = ${String(customerId)}`,
    );
    expect(audit.map((row) => row.action)).toContain('device.enrolment_code_used');
  });

  it('a wrong code, another organisation and an expired code all answer 404 Code not found', async () => {
    const { customerId } = await addCustomer();
    const qr = await linkFor(customerId);
    const code = qr.enrolmentCode!;
    const wrongCode = code.startsWith('0') ? `1${code.slice(1)}` : `0${code.slice(1)}`;
    for (const payload of [
      { orgId: DEMO_ORG_ID, code: wrongCode },
      { orgId: SECOND_ORG_ID, code },
    ]) {
      const answer = await exchange(payload);
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({
        response: 'failure',
        message: 'Code not found',
        code: 'NOT_FOUND',
      });
      expect(answer.json().fields[0].field).toBe('code');
    }
    await expireEnrolment(customerId);
    const expired = await exchange({ orgId: DEMO_ORG_ID, code });
    expect(expired.statusCode).toBe(404);
    expect(expired.json().message).toBe('Code not found');
  });

  it('bad input answers 400 naming the field, with no client headers needed', async () => {
    const short = await exchange({ orgId: DEMO_ORG_ID, code: 'ABC' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields.map((f: { field: string }) => f.field)).toEqual(['code']);
    const noOrg = await exchange({ code: 'ABCD-EFGH' });
    expect(noOrg.statusCode).toBe(400);
    expect(noOrg.json().fields.map((f: { field: string }) => f.field)).toEqual(['orgId']);
    const badLetters = await exchange({ orgId: DEMO_ORG_ID, code: 'ABCD-EFG!' });
    expect(badLetters.statusCode).toBe(400);
  });

  it('is rate-limited per client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1)
      statuses.push((await exchange({ orgId: DEMO_ORG_ID, code: 'ZZZZ-ZZZZ' })).statusCode);
    expect(statuses.slice(0, 10).every((status) => status === 404)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('generate_emm_code and get_customers_keygen', () => {
  it('tracks the code: none → issued → a fresh code keeps the link → expired → used', async () => {
    const { customerId, imei1, imei2 } = await addCustomer();
    const stateOf = async () =>
      zEnvelope(ZEnrolmentCodeState).parse(
        (await apiGet(t, retailer, `${paths.customers.keygen}?customer_id=${customerId}`)).body,
      ).data;
    expect(await stateOf()).toMatchObject({ state: 'none', isCodeIssued: false, expiresAt: null });

    // No enrolment yet: generate_emm_code issues a whole one (token, link and code).
    const first = zEnvelope(ZEnrolmentCode).parse(
      (await apiPost(t, retailer, paths.customers.generateEmmCode, { customer_id: customerId })).body,
    ).data;
    expect(first.enrolmentCode).toMatch(ENROLMENT_CODE_PATTERN);
    expect(await stateOf()).toMatchObject({
      state: 'issued',
      isCodeIssued: true,
      expiresAt: first.expiresAt,
    });

    const qr = await linkFor(customerId);
    // A fresh code while the token stands: the deep link keeps working, the old code does not.
    const fresh = zEnvelope(ZEnrolmentCode).parse(
      (await apiPost(t, retailer, paths.customers.generateEmmCode, { customer_id: customerId })).body,
    ).data;
    expect(fresh.enrolmentCode).not.toBe(qr.enrolmentCode);
    expect(fresh.expiresAt).toBe(qr.expiresAt);
    expect((await exchange({ orgId: DEMO_ORG_ID, code: qr.enrolmentCode })).statusCode).toBe(404);
    const landing = await t.app.inject({
      method: 'GET',
      url: landingPathOf(qr.payload),
    });
    expect(landing.statusCode).toBe(200);

    await expireEnrolment(customerId);
    expect((await stateOf()).state).toBe('expired');
    // Expired: a new code comes with a new enrolment, which then enrols.
    const renewed = zEnvelope(ZEnrolmentCode).parse(
      (await apiPost(t, retailer, paths.customers.generateEmmCode, { customer_id: customerId })).body,
    ).data;
    const token = zEnvelope(ZExchangeEnrolmentCodeResponse).parse(
      (await exchange({ orgId: DEMO_ORG_ID, code: renewed.enrolmentCode })).json(),
    ).data.token;
    expect((await enrol({ token, imei1, imei2 })).statusCode).toBe(200);
    const used = await stateOf();
    expect(used.state).toBe('used');
    expect(used.enrolledAt).not.toBeNull();

    // Enrolled: no more codes.
    const late = await apiPost(t, retailer, paths.customers.generateEmmCode, { customer_id: customerId });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('ALREADY_ENROLLED');
  });
});

describe('uninstall location', () => {
  /** Enrols a link-based customer's phone over HTTP and returns its device id. */
  const enrolLinkPhone = async () => {
    const { customerId, imei1, imei2 } = await addCustomer();
    const qr = await linkFor(customerId);
    const enrolled = await enrol({ token: parseDeepLink(qr.payload).token, imei1, imei2 });
    expect(enrolled.statusCode).toBe(200);
    return { customerId, deviceId: enrolled.json().data.deviceId as string };
  };

  const reportRemoval = (deviceId: string, data: Record<string, unknown>) =>
    t.app.ctx.deviceEvents.handleEvent(
      evtTopic(deviceId),
      Buffer.from(
        JSON.stringify({
          v: PROTOCOL_VERSION,
          type: 'report',
          kind: 'app_removed',
          data,
          state: { isLocked: false, policyVersion: 0 },
          at: new Date().toISOString(),
          seq: Date.now() * 1000,
        }),
      ),
    );

  it('an app_removed report moves the customer to uninstall (3) with the location on customer details', async () => {
    const { customerId, deviceId } = await enrolLinkPhone();
    const before = await details(customerId);
    expect(before.uninstallLatitude).toBeNull();
    const lock = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: customerId,
      ...TEST_LOCK_REASON,
    });
    expect(lock.status).toBe(200);

    await reportRemoval(deviceId, {
      latitude: '19.076000',
      longitude: '72.877700',
      accuracyM: 20,
      at: new Date().toISOString(),
    });
    const after = await details(customerId);
    expect(after.status).toBe(3);
    expect(after.uninstallLatitude).toBe('19.076000');
    expect(after.uninstallLongitude).toBe('72.877700');
    // Its credentials are revoked and its pending lock will never reach a phone that is gone.
    const [device] = await queryRows<{ secret_hash: string | null }>(
      t.app.ctx.db,
      sql`select secret_hash from devices where id = ${deviceId}`,
    );
    expect(device!.secret_hash).toBeNull();
    const [command] = await queryRows<{ state: string }>(
      t.app.ctx.db,
      sql`select state from device_commands where device_id = ${deviceId}`,
    );
    expect(command!.state).toBe('cancelled');
    const history = await apiGet(t, retailer, `${paths.customers.statusHistory}?customer_id=${customerId}`);
    expect(history.body.data[0]).toMatchObject({
      toStatus: 3,
      reason: 'The link-based app was removed from the phone',
    });
  });

  it('records Bypassed when the phone had no fix', async () => {
    const { customerId, deviceId } = await enrolLinkPhone();
    await reportRemoval(deviceId, {
      latitude: 'Bypassed',
      longitude: 'Bypassed',
      at: new Date().toISOString(),
    });
    const after = await details(customerId);
    expect(after.status).toBe(3);
    expect([after.uninstallLatitude, after.uninstallLongitude]).toEqual(['Bypassed', 'Bypassed']);
  });
});

describe('scope and family of every retailer route', () => {
  const routes = (customerId: number) => [
    () => apiPost(t, retailer, paths.emm.generateCodeLinkfl, { customer_id: customerId }),
    () => apiGet(t, retailer, `${paths.customers.deepLink}?customer_id=${customerId}`),
    () => apiPost(t, retailer, paths.customers.generateEmmCode, { customer_id: customerId }),
    () => apiGet(t, retailer, `${paths.customers.keygen}?customer_id=${customerId}`),
  ];

  it("another organisation's customer answers 404 on each route, and nothing is written", async ({
    otherRetailer: other,
  }) => {
    const { customerId } = await addCustomer(other);
    for (const call of routes(customerId)) {
      const answer = await call();
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('CUSTOMER_NOT_FOUND');
    }
    const [device] = await queryRows<{
      enrolment_code_hash: string | null;
      enrolment_token_hash: string | null;
    }>(
      t.app.ctx.db,
      sql`select enrolment_code_hash, enrolment_token_hash from devices where customer_id = ${customerId}`,
    );
    expect(device).toEqual({ enrolment_code_hash: null, enrolment_token_hash: null });
  });

  it('a customer of another device family answers 409 NOT_FOR_THIS_DEVICE_FAMILY on each route', async () => {
    const { customerId } = await addCustomer(retailer, { deviceType: 0, appType: 0 });
    for (const call of routes(customerId)) {
      const answer = await call();
      expect(answer.status).toBe(409);
      expect(answer.body.code).toBe('NOT_FOR_THIS_DEVICE_FAMILY');
    }
  });

  it('bad input answers 400 naming customer_id on each route', async () => {
    const bad = [
      apiPost(t, retailer, paths.emm.generateCodeLinkfl, { customer_id: 'x' }),
      apiGet(t, retailer, `${paths.customers.deepLink}?customer_id=x`),
      apiPost(t, retailer, paths.customers.generateEmmCode, {}),
      apiGet(t, retailer, paths.customers.keygen),
    ];
    for (const answer of await Promise.all(bad)) {
      expect(answer.status).toBe(400);
      expect(answer.body.fields.map((f: { field: string }) => f.field)).toContain('customer_id');
    }
  });

  it('needs a session', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: paths.emm.generateCodeLinkfl,
      payload: { customer_id: 1 },
    });
    expect([401, 511]).toContain(answer.statusCode);
  });
});
