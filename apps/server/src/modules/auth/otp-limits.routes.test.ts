import { ZFailure } from '@kisht/domain/common/envelope';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE, SECOND_ORG_ID } from '../../db/seed/seed';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

let clients = 0;
/**
 * POST from a new client address each time: an attacker spreads requests over many machines, so the
 * per-IP route limits never apply and only the per-number and per-account limits stand in the way.
 */
const post = async (url: string, payload: Record<string, unknown>) => {
  clients += 1;
  const response = await t.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: `10.1.${Math.floor(clients / 250) % 250}.${(clients % 250) + 1}`,
  });
  return { status: response.statusCode, body: response.json() };
};
const failure = (answer: { status: number; body: unknown }) => ({
  status: answer.status,
  ...ZFailure.parse(answer.body),
});
const sendLogin = (orgId = DEMO_ORG_ID) =>
  post(paths.auth.loginWithOtp, { orgId, mobile: DEMO_RETAILER_MOBILE });
const sendForgot = () => post(paths.auth.forgotMpin, { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE });
const verifyLogin = (otp: string) =>
  post(paths.auth.verifyOtp, { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE, otp });
const resetMpin = (otp: string) =>
  post(paths.auth.resetMpin, { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE, otp, mpin: '4321' });
const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');
/** Moves every recorded wrong try of the number `seconds` into the past (instead of waiting). */
const ageWrongTries = (seconds: number) =>
  queryRows(
    t.app.ctx.db,
    sql`update otp_challenges set last_attempt_at = last_attempt_at - make_interval(secs => ${seconds})
        where last_attempt_at is not null`,
  );

describe('daily cap of OTP SMS per mobile number (issue 12)', () => {
  it('stops sending OTPs to one number after the daily cap, across purposes and organisations', async () => {
    t = await createTestApp({ OTP_DAILY_LIMIT_PER_MOBILE: '4' });
    expect((await sendLogin()).status).toBe(200);
    expect((await sendForgot()).status).toBe(200);
    expect(
      (
        await post(paths.auth.resendOtp, {
          orgId: DEMO_ORG_ID,
          mobile: DEMO_RETAILER_MOBILE,
          purpose: 'LOGIN',
        })
      ).status,
    ).toBe(200);
    // Organisation 46 has no user with this number, but the number still counts.
    expect((await sendLogin(SECOND_ORG_ID)).status).toBe(200);
    const smsBefore = t.sms.length;

    for (const refused of [await sendLogin(), await sendForgot(), await sendLogin(SECOND_ORG_ID)]) {
      expect(failure(refused)).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
      expect(failure(refused).message).toMatch(
        /^Too many OTPs were sent to this number today\. Try again after \d{2}-\d{2}-\d{4} \d{2}:\d{2} [AP]M$/,
      );
    }
    expect(t.sms).toHaveLength(smsBefore);
  });

  it('lets the number have OTPs again once the oldest falls out of the 24-hour window', async () => {
    t = await createTestApp({ OTP_DAILY_LIMIT_PER_MOBILE: '2' });
    expect((await sendLogin()).status).toBe(200);
    expect((await sendForgot()).status).toBe(200);
    expect((await sendLogin()).status).toBe(429);
    await queryRows(
      t.app.ctx.db,
      sql`update otp_challenges set created_at = now() - interval '25 hours'
          where id = (select min(id) from otp_challenges)`,
    );
    expect((await sendLogin()).status).toBe(200);
  });
});

describe('wrong OTPs per account: daily cap and growing cool-down (issue 12)', () => {
  it('caps wrong OTPs per number per day across purposes, then refuses even the right code', async () => {
    t = await createTestApp({ OTP_DAILY_WRONG_LIMIT_PER_MOBILE: '4', OTP_FREE_WRONG_TRIES: '100' });
    const loginOtp = (await sendLogin()).body.data.devOtp as string;
    for (let i = 0; i < 3; i += 1) {
      expect(failure(await verifyLogin(wrongFor(loginOtp)))).toMatchObject({
        status: 400,
        code: 'OTP_INVALID',
      });
    }
    const forgotOtp = (await sendForgot()).body.data.devOtp as string;
    expect(failure(await resetMpin(wrongFor(forgotOtp)))).toMatchObject({ status: 400, code: 'OTP_INVALID' });

    // Four wrong codes over two purposes: the fifth try is refused before the code is looked at.
    const refused = failure(await resetMpin(forgotOtp));
    expect(refused).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(refused.message).toMatch(
      /^Too many wrong OTPs for this number today\. Try again after \d{2}-\d{2}-\d{4} \d{2}:\d{2} [AP]M$/,
    );
    expect(failure(await verifyLogin(loginOtp))).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    // A new OTP does not help: the cap is the number's, not the challenge's.
    const fresh = (await sendLogin()).body.data.devOtp as string;
    expect(failure(await verifyLogin(fresh))).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    const [row] = await queryRows<{ attempts: number }>(
      t.app.ctx.db,
      sql`select sum(attempts)::int as attempts from otp_challenges`,
    );
    expect(row!.attempts).toBe(4);
  });

  it('makes each wrong try after the first few wait twice as long as the one before', async () => {
    t = await createTestApp({
      OTP_FREE_WRONG_TRIES: '2',
      OTP_WRONG_COOLDOWN_SECONDS: '30',
      OTP_MAX_ATTEMPTS: '10',
    });
    const otp = (await sendLogin()).body.data.devOtp as string;
    const wrong = wrongFor(otp);
    expect((await verifyLogin(wrong)).status).toBe(400);
    expect((await verifyLogin(wrong)).status).toBe(400);

    const third = failure(await verifyLogin(otp));
    expect(third).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(third.message).toBe('Too many wrong OTPs. Try again in 30 seconds');

    await ageWrongTries(31);
    expect(failure(await verifyLogin(wrong))).toMatchObject({ status: 400, code: 'OTP_INVALID' });
    expect(failure(await verifyLogin(otp)).message).toBe('Too many wrong OTPs. Try again in 60 seconds');
    await ageWrongTries(31);
    expect(failure(await verifyLogin(otp)).message).toBe('Too many wrong OTPs. Try again in 29 seconds');
    await ageWrongTries(30);
    expect((await verifyLogin(otp)).status).toBe(200);
  });

  it('counts concurrent wrong tries one by one: no more than the cap are evaluated', async () => {
    t = await createTestApp({
      OTP_DAILY_WRONG_LIMIT_PER_MOBILE: '5',
      OTP_FREE_WRONG_TRIES: '100',
      OTP_MAX_ATTEMPTS: '100',
    });
    const otp = (await sendLogin()).body.data.devOtp as string;
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => verifyLogin(wrongFor(otp)).then(failure)),
    );
    expect(answers.filter((a) => a.code === 'OTP_INVALID')).toHaveLength(5);
    expect(answers.filter((a) => a.code === 'RATE_LIMITED')).toHaveLength(25);
  });

  it('lets the legitimate user in after a few typos', async () => {
    t = await createTestApp();
    const otp = (await sendLogin()).body.data.devOtp as string;
    expect((await verifyLogin(wrongFor(otp))).status).toBe(400);
    expect((await verifyLogin(wrongFor(otp))).status).toBe(400);
    expect((await verifyLogin(otp)).status).toBe(200);
  });
});

describe('the resend cool-down under concurrent sends (issue 27)', () => {
  it('sends one SMS for 30 requests at once to one number; the others answer 429', async () => {
    // A gateway that takes 300 ms, as a real one may: the other requests arrive while it works.
    t = await createTestApp(
      { OTP_RESEND_AFTER_SECONDS: '30', OTP_DAILY_LIMIT_PER_MOBILE: '100' },
      { smsDelayMs: 300 },
    );
    const smsBefore = t.sms.length;
    const answers = await Promise.all(Array.from({ length: 30 }, () => sendLogin()));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(29);
    expect(t.sms.length - smsBefore).toBe(1);
  });
});
