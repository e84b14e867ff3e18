import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE, SECOND_RETAILER_MOBILE } from '../../db/seed/seed';
import { bearer, createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const requestOtp = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/auth/loginWithOtp', payload });
const verify = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/auth/verifyOtpAuth', payload });
const otpRows = async () =>
  Number((await queryRows(t.app.ctx.db, sql`select count(*)::int as n from otp_challenges`))[0]!.n);

describe('OTP login', () => {
  it('sends an OTP, shows it as devOtp outside production, and opens a session', async () => {
    t = await createTestApp();
    const sent = await requestOtp({ orgId: DEMO_ORG_ID, mobile: '98765 43210' });
    expect(sent.statusCode).toBe(200);
    const devOtp = sent.json().data.devOtp as string;
    expect(devOtp).toMatch(/^\d{6}$/);
    expect(t.sms).toEqual([{ to: DEMO_RETAILER_MOBILE, text: expect.stringContaining(devOtp) }]);

    const verified = await verify({ orgId: DEMO_ORG_ID, mobile: '9876543210', otp: devOtp });
    expect(verified.statusCode).toBe(200);
    const { token, user } = verified.json().data;
    expect(user).toMatchObject({ orgId: DEMO_ORG_ID, userType: 'retailer', mobile: DEMO_RETAILER_MOBILE });

    const me = await t.app.inject({ method: 'GET', url: '/api/user/get-details', headers: bearer(token) });
    expect(me.json().data.name).toBe('Ravi Mobiles');
  });

  it('stores only a hash of the OTP', async () => {
    t = await createTestApp();
    const devOtp = (await requestOtp({ orgId: DEMO_ORG_ID, mobile: '9876543210' })).json().data.devOtp;
    const rows = await queryRows(t.app.ctx.db, sql`select code_hash from otp_challenges`);
    expect(rows).toHaveLength(1);
    expect(String(rows[0]!.code_hash)).not.toContain(devOtp);
  });

  it('never returns the OTP in production, where it goes only through the SMS transport', async () => {
    t = await createTestApp({
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(40),
      OTP_PEPPER: 'y'.repeat(20),
      SMS_WEBHOOK_URL: 'http://127.0.0.1:9/sms',
      DPC_DOWNLOAD_URL: 'https://downloads.example.com/kisht-dpc.apk',
      DPC_SIGNATURE_CHECKSUM: 'n5Q2jv8oXh0cQ0bJz3qB7n6m0S0g3sQd2dY8fHq7s1A',
    });
    const sent = await requestOtp({ orgId: DEMO_ORG_ID, mobile: '9876543210' });
    expect(sent.statusCode).toBe(200);
    expect(sent.json().data.devOtp).toBeUndefined();
    expect(t.sms).toHaveLength(1);
  });

  it.each([
    [{ orgId: DEMO_ORG_ID, mobile: '12345' }, 'mobile'],
    [{ orgId: DEMO_ORG_ID }, 'mobile'],
    [{ mobile: '9876543210' }, 'orgId'],
    [{ orgId: 'x', mobile: '9876543210' }, 'orgId'],
  ])('refuses %o naming %s, and writes nothing', async (payload, field) => {
    t = await createTestApp();
    const response = await requestOtp(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ response: 'failure', code: 'VALIDATION_FAILED' });
    expect(response.json().fields.map((f: { field: string }) => f.field)).toContain(field);
    expect(await otpRows()).toBe(0);
    expect(t.sms).toHaveLength(0);
  });

  it("answers another organisation's user as a registered one, and sends nothing (issue 12)", async () => {
    t = await createTestApp();
    const response = await requestOtp({ orgId: DEMO_ORG_ID, mobile: SECOND_RETAILER_MOBILE });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ message: 'OTP sent', data: { delivery: 'sent' } });
    expect(t.sms).toHaveLength(0);
    // Recorded as if sent, so the cool-down and the caps treat the number as any other.
    expect(await otpRows()).toBe(1);
  });

  it('enforces the resend cool-down', async () => {
    t = await createTestApp({ OTP_RESEND_AFTER_SECONDS: '30' });
    expect((await requestOtp({ orgId: DEMO_ORG_ID, mobile: '9876543210' })).statusCode).toBe(200);
    const again = await requestOtp({ orgId: DEMO_ORG_ID, mobile: '9876543210' });
    expect(again.statusCode).toBe(429);
    expect(again.json().code).toBe('RATE_LIMITED');
  });

  it('counts wrong codes and burns the OTP after the attempt limit', async () => {
    t = await createTestApp({ OTP_MAX_ATTEMPTS: '3' });
    const devOtp = (await requestOtp({ orgId: DEMO_ORG_ID, mobile: '9876543210' })).json().data
      .devOtp as string;
    const wrong = devOtp === '000000' ? '111111' : '000000';
    for (let i = 0; i < 3; i += 1) {
      const response = await verify({ orgId: DEMO_ORG_ID, mobile: '9876543210', otp: wrong });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'OTP_INVALID', fields: [{ field: 'otp' }] });
    }
    const right = await verify({ orgId: DEMO_ORG_ID, mobile: '9876543210', otp: devOtp });
    expect(right.json().code).toBe('OTP_EXPIRED');
  });

  it('refuses an expired or reused OTP', async () => {
    t = await createTestApp();
    const devOtp = (await requestOtp({ orgId: DEMO_ORG_ID, mobile: '9876543210' })).json().data
      .devOtp as string;
    expect((await verify({ orgId: DEMO_ORG_ID, mobile: '9876543210', otp: devOtp })).statusCode).toBe(200);
    expect((await verify({ orgId: DEMO_ORG_ID, mobile: '9876543210', otp: devOtp })).json().code).toBe(
      'OTP_EXPIRED',
    );

    const second = (await requestOtp({ orgId: DEMO_ORG_ID, mobile: '9876543210' })).json().data
      .devOtp as string;
    await t.app.ctx.db.execute(sql`update otp_challenges set expires_at = now() - interval '1 second'`);
    expect((await verify({ orgId: DEMO_ORG_ID, mobile: '9876543210', otp: second })).json().code).toBe(
      'OTP_EXPIRED',
    );
  });

  it('refuses a malformed OTP naming the field', async () => {
    t = await createTestApp();
    const response = await verify({ orgId: DEMO_ORG_ID, mobile: '9876543210', otp: '12ab' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual([{ field: 'otp', message: 'OTP is 6 digits' }]);
  });
});

describe('sessions', () => {
  it('answers 511 without a token, with a bad token, and after logout', async () => {
    t = await createTestApp();
    const me = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: '/api/user/get-details', headers });
    expect((await me({})).statusCode).toBe(511);
    expect((await me(bearer('not-a-jwt'))).statusCode).toBe(511);

    const token = await t.login(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
    expect((await me(bearer(token))).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });
    expect(out.statusCode).toBe(200);
    const after = await me(bearer(token));
    expect(after.statusCode).toBe(511);
    expect(after.json()).toMatchObject({ response: 'failure', code: 'SESSION_INVALID' });
  });

  it('refuses a token signed with another key', async () => {
    t = await createTestApp();
    const other = await createTestApp({ JWT_SECRET: 'z'.repeat(48) });
    try {
      const foreign = await other.login(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/user/get-details',
        headers: bearer(foreign),
      });
      expect(response.statusCode).toBe(511);
    } finally {
      await other.close();
    }
  });
});

describe('organisation app config', () => {
  it('serves the white-label config, 404 for an unknown org, 400 for a bad id', async () => {
    t = await createTestApp();
    const good = await t.app.inject({
      method: 'GET',
      url: '/api/organizations/get_org_app_config?org_id=46',
    });
    expect(good.json().data).toMatchObject({ orgId: 46, orgName: 'Shree Finance', mainLayout: 'compact' });
    // Flags are off by default (spec §1); organisation 46 turns the witness layout on.
    expect(good.json().data.features).toEqual({ witnessLayout: true, paymentGateway: false });
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/organizations/get_org_app_config?org_id=999',
    });
    expect(missing.statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/organizations/get_org_app_config?org_id=abc',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].field).toBe('org_id');
  });
});

describe('white-label organisations', () => {
  it.each([
    [41, 'navigate', 'default'],
    [46, 'warn', 'compact'],
    [35, 'warn', 'default'],
    [36, 'warn', 'default'],
  ])('organisation %i: inactive customer → %s, layout %s', async (orgId, action, layout) => {
    t = await createTestApp();
    const config = (
      await t.app.inject({ method: 'GET', url: `/api/organizations/get_org_app_config?org_id=${orgId}` })
    ).json().data;
    expect(config.pages.inactiveCustomer).toBe(action);
    expect(config.mainLayout).toBe(layout);
    expect(config).toMatchObject({ apiBaseUrl: '', aiName: '', aiAgentId: '' });
  });
});
