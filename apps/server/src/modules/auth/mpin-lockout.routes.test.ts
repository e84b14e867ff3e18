import { ZAuthSession } from '@kisht/domain/auth/auth.schema';
import { ZFailure, zEnvelope } from '@kisht/domain/common/envelope';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import * as crypto from '../../lib/crypto';
import { apiPost } from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';

// Wraps the real scrypt check so the test can count how many MPIN guesses were evaluated.
vi.mock('../../lib/crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../lib/crypto')>();
  return { ...actual, verifySecret: vi.fn(actual.verifySecret) };
});
const verifySecret = vi.mocked(crypto.verifySecret);

const MAX_ATTEMPTS = 5;
const RIGHT_MPIN = '1234';
const WRONG_MPIN = '0000';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ MPIN_MAX_ATTEMPTS: String(MAX_ATTEMPTS), MPIN_LOCK_MINUTES: '15' });
  const token = await t.login(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
  expect((await apiPost(t, token, paths.auth.setMpin, { mpin: RIGHT_MPIN })).status).toBe(200);
  verifySecret.mockClear();
});
afterEach(async () => {
  await t?.close();
});

let clients = 0;
/** One MPIN login from a new client address: the guesses below come from many machines, so the
 * per-IP route rate limit never applies and only the per-account lockout stands in the way. */
const mpinLogin = async (mpin: string) => {
  clients += 1;
  const response = await t.app.inject({
    method: 'POST',
    url: paths.auth.loginWithMpin,
    payload: { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE, mpin },
    remoteAddress: `10.0.${Math.floor(clients / 250)}.${(clients % 250) + 1}`,
  });
  return { status: response.statusCode, body: response.json() };
};
const failure = (response: { status: number; body: unknown }) => ({
  status: response.status,
  ...ZFailure.parse(response.body),
});
const mpinState = async () => {
  const [row] = await queryRows<{ attempts: number; locked: boolean | null }>(
    t.app.ctx.db,
    sql`select mpin_failed_attempts as attempts, mpin_locked_until > now() as locked
        from users where mpin_hash is not null`,
  );
  return row!;
};

describe('MPIN lockout under concurrent guesses', () => {
  it('evaluates at most MPIN_MAX_ATTEMPTS of 60 simultaneous wrong MPINs and refuses the rest as locked', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => mpinLogin(WRONG_MPIN)).map((p) => p.then(failure)),
    );

    expect(verifySecret).toHaveBeenCalledTimes(MAX_ATTEMPTS);
    // Sequentially the 5th wrong MPIN is answered "locked" (it is the one that locks), so of the 5
    // evaluated guesses 4 say how many tries are left; the other 56 are refused unevaluated.
    const invalid = answers.filter((a) => a.code === 'MPIN_INVALID');
    const locked = answers.filter((a) => a.code === 'MPIN_LOCKED');
    expect(invalid.map((a) => a.message).sort()).toEqual([
      'Incorrect MPIN. 1 try left',
      'Incorrect MPIN. 2 tries left',
      'Incorrect MPIN. 3 tries left',
      'Incorrect MPIN. 4 tries left',
    ]);
    expect(invalid.every((a) => a.status === 400)).toBe(true);
    expect(locked).toHaveLength(60 - (MAX_ATTEMPTS - 1));
    expect(locked.every((a) => a.status === 429)).toBe(true);
    expect((await mpinState()).locked).toBe(true);

    // While locked even the right MPIN is refused, without being evaluated.
    expect(failure(await mpinLogin(RIGHT_MPIN))).toMatchObject({ status: 429, code: 'MPIN_LOCKED' });
    expect(verifySecret).toHaveBeenCalledTimes(MAX_ATTEMPTS);
  });

  it('lets the right MPIN in once the lock has expired, and starts counting again from zero', async () => {
    await Promise.all(Array.from({ length: 20 }, () => mpinLogin(WRONG_MPIN)));
    expect((await mpinState()).locked).toBe(true);
    await queryRows(
      t.app.ctx.db,
      sql`update users set mpin_locked_until = now() - interval '1 minute' where mpin_hash is not null`,
    );

    const login = await mpinLogin(RIGHT_MPIN);
    expect(login.status).toBe(200);
    expect(zEnvelope(ZAuthSession).parse(login.body).data.user.mobile).toBe(DEMO_RETAILER_MOBILE);
    expect(await mpinState()).toEqual({ attempts: 0, locked: null });
    expect(failure(await mpinLogin(WRONG_MPIN)).message).toBe('Incorrect MPIN. 4 tries left');
  });

  it('gives a fresh allowance when a wrong MPIN follows an expired lock', async () => {
    await Promise.all(Array.from({ length: 20 }, () => mpinLogin(WRONG_MPIN)));
    await queryRows(
      t.app.ctx.db,
      sql`update users set mpin_locked_until = now() - interval '1 minute' where mpin_hash is not null`,
    );
    expect(failure(await mpinLogin(WRONG_MPIN))).toMatchObject({
      status: 400,
      code: 'MPIN_INVALID',
      message: 'Incorrect MPIN. 4 tries left',
    });
    expect(await mpinState()).toEqual({ attempts: 1, locked: null });
  });
});
