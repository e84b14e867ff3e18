import { main as agentCli } from '@kisht/device-agent/cli';
import { AppType } from '@kisht/domain/common/enums';
import { paths } from '@kisht/domain/paths';
import { ACTIVATION_CODE_PATTERN } from '@kisht/domain/plans/plans.schema';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID, SECOND_ORG_ID } from '../../db/seed/seed';
import { apiGet, apiPost } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

/**
 * A plan's code redeemed the way the app on the customer's phone does it: the reference agent's
 * `kisht-agent redeem` against a listening server (issue 14).
 */
let t: TestApp;
let serverUrl: string;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures); the app listens,
// since the agent redeems over HTTP.
it.beforeEach(async ({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
  serverUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
});

/** Runs `kisht-agent <args>` in-process; returns the exit code and what it printed. */
const runAgent = async (args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await agentCli(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
};

const sellAntihacking = async (imei?: string) => {
  const plans = await apiGet(t, retailer, paths.plans.antihacking);
  const plan = (plans.body.data as { id: number; app_type: number }[]).find(
    (p) => p.app_type === AppType.ANTI_HACKING_PRO,
  )!;
  const sold = await apiPost(t, retailer, paths.plans.sell, {
    firstName: 'Meena',
    lastName: 'Iyer',
    mobile: '9811122233',
    plan_id: plan.id,
    app_type: plan.app_type,
    plan_name: 'Anti-Hacking Pro',
    ...(imei ? { imei } : {}),
  });
  expect(sold.status).toBe(200);
  return sold.body.data[0].antihacking_code as string;
};

describe('kisht-agent redeem', () => {
  it('redeems a sold code once: the same phone again gets the same answer, another phone exit 1', async () => {
    const code = await sellAntihacking();
    expect(code).toMatch(ACTIVATION_CODE_PATTERN);
    const phone = ['--server', serverUrl, '--org', String(DEMO_ORG_ID), '--imei', '356938035643809'];

    // Typed as a person would read it off the screen: lower case, no dashes.
    const first = await runAgent(['redeem', ...phone, '--code', code.replace(/-/g, '').toLowerCase()]);
    expect(first).toMatchObject({ code: 0, err: [] });
    const answer = JSON.parse(first.out[0]!);
    expect(answer).toMatchObject({ planName: 'Anti-Hacking Pro', appType: AppType.ANTI_HACKING_PRO });
    expect(answer.endsOn > answer.startsOn).toBe(true);

    expect(await runAgent(['redeem', ...phone, '--code', code])).toMatchObject({
      code: 0,
      out: [first.out[0]],
    });
    const other = await runAgent([
      'redeem',
      '--server',
      serverUrl,
      '--org',
      String(DEMO_ORG_ID),
      '--imei',
      '490154203237518',
      '--code',
      code,
    ]);
    expect(other).toMatchObject({ code: 1, err: ['error: This code was already used on another phone'] });

    const rows = await queryRows<{ status: string; redeemed_device: unknown }>(
      t.app.ctx.db,
      sql`select status, redeemed_device from plan_activations where code = ${code}`,
    );
    expect(rows).toEqual([{ status: 'redeemed', redeemed_device: { imei: '356938035643809' } }]);
    const listed = await apiGet(t, retailer, `${paths.plans.activations}?app_type=8,12,13`);
    expect(listed.body.data.find((a: { code: string }) => a.code === code)).toMatchObject({
      status: 'redeemed',
    });
  });

  it('redeems a code sold for an IMEI only on that phone: another phone first gets 409 and takes nothing (issue 27)', async () => {
    const code = await sellAntihacking('356938035643809');
    const redeem = (imei: string) =>
      runAgent([
        'redeem',
        '--server',
        serverUrl,
        '--org',
        String(DEMO_ORG_ID),
        '--imei',
        imei,
        '--code',
        code,
      ]);
    expect(await redeem('490154203237518')).toMatchObject({
      code: 1,
      err: ['error: This code was sold for another phone'],
    });
    const [untouched] = await queryRows<{ status: string }>(
      t.app.ctx.db,
      sql`select status from plan_activations where code = ${code}`,
    );
    expect(untouched?.status).toBe('issued');
    expect(await redeem('356938035643809')).toMatchObject({ code: 0, err: [] });
  });

  it('says Code not found for an unknown code or another organisation, and refuses bad options', async () => {
    const code = await sellAntihacking();
    const unknown = await runAgent([
      'redeem',
      '--server',
      serverUrl,
      '--org',
      '41',
      '--code',
      '0000-0000-0000',
    ]);
    expect(unknown).toMatchObject({ code: 1, err: ['error: Code not found'] });
    const otherOrg = await runAgent([
      'redeem',
      '--server',
      serverUrl,
      '--org',
      String(SECOND_ORG_ID),
      '--code',
      code,
    ]);
    expect(otherOrg).toMatchObject({ code: 1, err: ['error: Code not found'] });
    const malformed = await runAgent(['redeem', '--server', serverUrl, '--org', '41', '--code', 'abc']);
    expect(malformed.code).toBe(1);
    expect(malformed.err[0]).toMatch(/^error: /);
    expect((await runAgent(['redeem', '--server', serverUrl, '--code', code])).code).toBe(2);
    expect((await runAgent(['redeem', '--server', serverUrl, '--org', 'x', '--code', code])).code).toBe(2);
    const rows = await queryRows<{ status: string }>(
      t.app.ctx.db,
      sql`select status from plan_activations where code = ${code}`,
    );
    expect(rows).toEqual([{ status: 'issued' }]);
  });
});
