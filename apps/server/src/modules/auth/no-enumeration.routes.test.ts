import { ZLoginWithOtpResponse } from '@kisht/domain/auth/auth.schema';
import { zEnvelope } from '@kisht/domain/common/envelope';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE, SECOND_RETAILER_MOBILE } from '../../db/seed/seed';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

/** A retailer of organisation 41 (no MPIN yet). */
const REGISTERED = DEMO_RETAILER_MOBILE;
/** Nobody's number, and a number registered only in organisation 46: both unknown to organisation 41. */
const UNKNOWN = ['+919000000001', SECOND_RETAILER_MOBILE];

type TAnswer = { status: number; body: Record<string, unknown> };
const post = async (url: string, payload: Record<string, unknown>): Promise<TAnswer> => {
  const response = await t.app.inject({ method: 'POST', url, payload });
  return { status: response.statusCode, body: response.json() };
};
/** What a caller can tell apart: status, code, message, and the data's shape (not its values). */
const shape = ({ status, body }: TAnswer) => ({
  status,
  response: body.response,
  code: body.code,
  message: body.message,
  fields: body.fields,
  data:
    body.data && typeof body.data === 'object'
      ? Object.fromEntries(
          Object.entries(body.data as Record<string, unknown>).map(([key, value]) => [
            key,
            key === 'devOtp' ? /^\d{6}$/.test(String(value)) : value,
          ]),
        )
      : body.data,
});
const sendOtp = {
  login: (mobile: string) => post(paths.auth.loginWithOtp, { orgId: DEMO_ORG_ID, mobile }),
  forgot: (mobile: string) => post(paths.auth.forgotMpin, { orgId: DEMO_ORG_ID, mobile }),
  resendLogin: (mobile: string) =>
    post(paths.auth.resendOtp, { orgId: DEMO_ORG_ID, mobile, purpose: 'LOGIN' }),
  resendForgot: (mobile: string) =>
    post(paths.auth.resendOtp, { orgId: DEMO_ORG_ID, mobile, purpose: 'FORGOT_PASSWORD' }),
};
const devOtpOf = (answer: TAnswer) => zEnvelope(ZLoginWithOtpResponse).parse(answer.body).data.devOtp!;
const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');
const challengesOf = (mobile: string) =>
  queryRows<{ sent: boolean }>(
    t.app.ctx.db,
    sql`select sent_at is not null as sent from otp_challenges where mobile = ${mobile}`,
  );
const outboxRowsOf = (mobile: string) =>
  queryRows(t.app.ctx.db, sql`select id from sms_outbox where mobile = ${mobile}`);

describe('the same answer for a registered and an unknown mobile (issue 12)', () => {
  it.each(Object.keys(sendOtp) as (keyof typeof sendOtp)[])(
    '%s: answers alike, sends nothing to an unknown number, and records its challenge as sent',
    async (kind) => {
      t = await createTestApp();
      const registered = await sendOtp[kind](REGISTERED);
      expect(registered.status).toBe(200);
      expect(t.sms.map((m) => m.to)).toEqual([REGISTERED]);
      for (const mobile of UNKNOWN) {
        expect(shape(await sendOtp[kind](mobile))).toEqual(shape(registered));
        expect(await challengesOf(mobile)).toEqual([{ sent: true }]);
        expect(await outboxRowsOf(mobile)).toEqual([]);
      }
      expect(t.sms.map((m) => m.to)).toEqual([REGISTERED]);
    },
  );

  it('applies the resend cool-down to an unknown number as to a registered one', async () => {
    t = await createTestApp({ OTP_RESEND_AFTER_SECONDS: '30' });
    await sendOtp.login(REGISTERED);
    const registered = shape(await sendOtp.login(REGISTERED));
    expect(registered).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    for (const mobile of UNKNOWN) {
      await sendOtp.login(mobile);
      expect(shape(await sendOtp.login(mobile))).toEqual(registered);
    }
  });

  it('answers a code for an unknown number like a wrong code, even the devOtp it was given', async () => {
    t = await createTestApp();
    const otp = devOtpOf(await sendOtp.login(REGISTERED));
    const wrong = shape(
      await post(paths.auth.verifyOtp, { orgId: DEMO_ORG_ID, mobile: REGISTERED, otp: wrongFor(otp) }),
    );
    expect(wrong).toMatchObject({ status: 400, code: 'OTP_INVALID' });
    for (const mobile of UNKNOWN) {
      const fake = devOtpOf(await sendOtp.login(mobile));
      expect(shape(await post(paths.auth.verifyOtp, { orgId: DEMO_ORG_ID, mobile, otp: fake }))).toEqual(
        wrong,
      );
    }
  });

  it('answers alike when no OTP was asked for', async () => {
    t = await createTestApp();
    const registered = shape(
      await post(paths.auth.verifyOtp, { orgId: DEMO_ORG_ID, mobile: REGISTERED, otp: '123456' }),
    );
    expect(registered).toMatchObject({ status: 400, code: 'OTP_EXPIRED' });
    for (const mobile of UNKNOWN) {
      expect(shape(await post(paths.auth.verifyOtp, { orgId: DEMO_ORG_ID, mobile, otp: '123456' }))).toEqual(
        registered,
      );
    }
  });

  it('answers a reset of an unknown number like a wrong code', async () => {
    t = await createTestApp();
    const otp = devOtpOf(await sendOtp.forgot(REGISTERED));
    const reset = (mobile: string, code: string) =>
      post(paths.auth.resetMpin, { orgId: DEMO_ORG_ID, mobile, otp: code, mpin: '4321' });
    const wrong = shape(await reset(REGISTERED, wrongFor(otp)));
    expect(wrong).toMatchObject({ status: 400, code: 'OTP_INVALID' });
    for (const mobile of UNKNOWN) {
      expect(shape(await reset(mobile, devOtpOf(await sendOtp.forgot(mobile))))).toEqual(wrong);
    }
    // And with no OTP asked for at all, as for the registered number.
    const none = shape(await reset('+919000000002', '123456'));
    expect(none).toMatchObject({ status: 400, code: 'OTP_EXPIRED' });
  });

  it('answers an MPIN login of an unknown number like a registered user without an MPIN', async () => {
    t = await createTestApp();
    const mpinLogin = (mobile: string) =>
      post(paths.auth.loginWithMpin, { orgId: DEMO_ORG_ID, mobile, mpin: '1234' });
    const registered = shape(await mpinLogin(REGISTERED));
    expect(registered).toMatchObject({ status: 400, code: 'MPIN_NOT_SET' });
    for (const mobile of UNKNOWN) expect(shape(await mpinLogin(mobile))).toEqual(registered);
  });

  it('answers 404 for an organisation that does not exist (organisations are public), writing nothing', async () => {
    t = await createTestApp();
    const answer = await post(paths.auth.loginWithOtp, { orgId: 999, mobile: REGISTERED });
    expect(answer).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await challengesOf(REGISTERED)).toEqual([]);
  });

  it('never answers USER_NOT_FOUND from an auth route', async () => {
    t = await createTestApp();
    const mobile = '+919000000003';
    const answers = [
      await post(paths.auth.loginWithOtp, { orgId: DEMO_ORG_ID, mobile }),
      await post(paths.auth.resendOtp, { orgId: DEMO_ORG_ID, mobile, purpose: 'FORGOT_PASSWORD' }),
      await post(paths.auth.forgotMpin, { orgId: DEMO_ORG_ID, mobile }),
      await post(paths.auth.verifyOtp, { orgId: DEMO_ORG_ID, mobile, otp: '123456' }),
      await post(paths.auth.resetMpin, { orgId: DEMO_ORG_ID, mobile, otp: '123456', mpin: '1234' }),
      await post(paths.auth.loginWithMpin, { orgId: DEMO_ORG_ID, mobile, mpin: '1234' }),
    ];
    for (const answer of answers) {
      expect(answer.status).not.toBe(404);
      expect(answer.body.code).not.toBe('USER_NOT_FOUND');
    }
  });
});

describe('anonymous resend-otp only for signing in (issue 27)', () => {
  it.each(['UNINSTALL', 'BYPASS_CODE'])(
    '%s to a known number answers 400 naming purpose and sends nothing',
    async (purpose) => {
      t = await createTestApp();
      const answer = await post(paths.auth.resendOtp, { orgId: DEMO_ORG_ID, mobile: REGISTERED, purpose });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_FAILED');
      expect((answer.body.fields as { field: string }[]).map((f) => f.field)).toEqual(['purpose']);
      expect(await challengesOf(REGISTERED)).toEqual([]);
      expect(await outboxRowsOf(REGISTERED)).toEqual([]);
    },
  );
});
