import { verifyOfflineCode } from '@kisht/domain/devices/offline-code';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { apiPost, customerIdNamed } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

const customerNamed = (firstName: string, token = retailer) => customerIdNamed(t, token, firstName);
const bypassOtp = async (token = retailer) =>
  (await apiPost(t, token, paths.auth.sendOtpToUser, { purpose: 'BYPASS_CODE' })).body.data.devOtp as string;
const auditCount = async () =>
  Number(
    (
      await queryRows(
        t.app.ctx.db,
        sql`select count(*)::int as n from audit_log where action = 'device.offline_code'`,
      )
    )[0]!.n,
  );

describe('offline codes (get_device_bypass_code, offline_lock_unlock)', () => {
  it('gives the locked phone’s unlock code after a BYPASS_CODE OTP; the phone’s own check accepts it', async () => {
    const priya = await customerNamed('Priya');
    const otp = await bypassOtp();
    expect(otp).toMatch(/^\d{6}$/);
    const issued = await apiPost(t, retailer, paths.devices.bypassCode, {
      customer_id: priya,
      challenge: '583920',
      otp,
    });
    expect(issued.status).toBe(200);
    expect(issued.body.data).toMatchObject({
      action: 'unlock',
      challenge: '583920',
      code: expect.stringMatching(/^\d{8}$/),
    });
    const [device] = await queryRows<{ id: string; secret_hash: string }>(
      t.app.ctx.db,
      sql`select d.id, d.secret_hash from devices d where d.customer_id = ${priya}`,
    );
    const check = {
      keyHex: device!.secret_hash,
      deviceId: device!.id,
      challenge: '583920',
      nowMs: Date.now(),
    };
    expect(await verifyOfflineCode({ ...check, action: 'unlock', code: issued.body.data.code })).toBe(true);
    expect(await verifyOfflineCode({ ...check, action: 'lock', code: issued.body.data.code })).toBe(false);
    expect(await auditCount()).toBe(1);

    // The OTP is single use; a fresh one gives a lock code through offline_lock_unlock.
    const reused = await apiPost(t, retailer, paths.devices.bypassCode, {
      customer_id: priya,
      challenge: '583920',
      otp,
    });
    expect(reused.status).toBe(400);
    expect(reused.body.fields[0].field).toBe('otp');
    const lock = await apiPost(t, retailer, paths.auth.offlineLockUnlock, {
      customer_id: priya,
      challenge: '111222',
      action: 'lock',
      otp: await bypassOtp(),
    });
    expect(lock.status).toBe(200);
    expect(lock.body.data.action).toBe('lock');
  });

  it('refuses a wrong OTP, a LOGIN OTP, a bad challenge and an unenrolled phone, issuing nothing', async () => {
    const priya = await customerNamed('Priya');
    const otp = await bypassOtp();
    const wrong = await apiPost(t, retailer, paths.devices.bypassCode, {
      customer_id: priya,
      challenge: '583920',
      otp: otp === '000000' ? '111111' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'OTP_INVALID', fields: [{ field: 'otp' }] });
    const badChallenge = await apiPost(t, retailer, paths.devices.bypassCode, {
      customer_id: priya,
      challenge: '58392',
      otp,
    });
    expect(badChallenge.status).toBe(400);
    expect(badChallenge.body.fields[0].field).toBe('challenge');
    const badPurpose = await apiPost(t, retailer, paths.auth.sendOtpToUser, { purpose: 'LOGIN' });
    expect(badPurpose.status).toBe(400);
    expect(badPurpose.body.fields[0].field).toBe('purpose');
    const rahul = await customerNamed('Rahul');
    const notEnrolled = await apiPost(t, retailer, paths.devices.bypassCode, {
      customer_id: rahul,
      challenge: '583920',
      otp,
    });
    expect(notEnrolled.status).toBe(409);
    expect(await auditCount()).toBe(0);
    // Refusals before the OTP check did not spend it, and one wrong try is within the limit.
    const ok = await apiPost(t, retailer, paths.devices.bypassCode, {
      customer_id: priya,
      challenge: '583920',
      otp,
    });
    expect(ok.status).toBe(200);
    expect(await auditCount()).toBe(1);
  });

  it('answers 404 for another organisation’s customer', async ({ otherRetailer: other }) => {
    const kiran = await customerNamed('Kiran', other);
    const foreign = await apiPost(t, retailer, paths.devices.bypassCode, {
      customer_id: kiran,
      challenge: '583920',
      otp: await bypassOtp(),
    });
    expect(foreign.status).toBe(404);
    expect(await auditCount()).toBe(0);
  });
});
