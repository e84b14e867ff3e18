import { ZFailure } from '@kisht/domain/common/envelope';
import { paths } from '@kisht/domain/paths';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import { apiPost } from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

/** The per-IP limit of POST loginWithMpin (auth.routes.ts). */
const MPIN_LOGINS_PER_MINUTE = 20;

describe('per-IP rate limit of MPIN login under a burst (issue 12)', () => {
  it('admits the first 20 of 60 simultaneous MPIN logins from one address and refuses only the other 40', async () => {
    t = await createTestApp({ MPIN_MAX_ATTEMPTS: '100' });
    const token = await t.login(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
    expect((await apiPost(t, token, paths.auth.setMpin, { mpin: '1234' })).status).toBe(200);

    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: paths.auth.loginWithMpin,
          payload: { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE, mpin: i === 0 ? '1234' : '0000' },
          remoteAddress: '203.0.113.7',
        }),
      ),
    );
    const limited = answers.filter((a) => a.statusCode === 429);
    expect(limited).toHaveLength(60 - MPIN_LOGINS_PER_MINUTE);
    for (const answer of limited) expect(ZFailure.parse(answer.json()).code).toBe('RATE_LIMITED');
    // The admitted ones were evaluated: the right MPIN logged in, the wrong ones were told so.
    const admitted = answers.filter((a) => a.statusCode !== 429);
    expect(admitted.map((a) => a.statusCode).sort()).toEqual([
      200,
      ...Array.from({ length: MPIN_LOGINS_PER_MINUTE - 1 }, () => 400),
    ]);
    // Each admitted answer counted its own request: remaining goes 19, 18, …, 0.
    expect(admitted.map((a) => Number(a.headers['x-ratelimit-remaining'])).sort((a, b) => a - b)).toEqual(
      Array.from({ length: MPIN_LOGINS_PER_MINUTE }, (_, i) => i),
    );
  });

  it('keeps counting per address: another address is still admitted', async () => {
    t = await createTestApp();
    const burst = (remoteAddress: string, n: number) =>
      Promise.all(
        Array.from({ length: n }, () =>
          t.app.inject({
            method: 'POST',
            url: paths.auth.loginWithMpin,
            payload: { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE, mpin: '0000' },
            remoteAddress,
          }),
        ),
      );
    const first = await burst('203.0.113.8', 25);
    expect(first.filter((a) => a.statusCode === 429)).toHaveLength(5);
    const other = await burst('203.0.113.9', 1);
    expect(other[0]!.statusCode).not.toBe(429);
  });
});
