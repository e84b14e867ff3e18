import { ZFailure } from '@kisht/domain/common/envelope';
import { AppErrorCode } from '@kisht/domain/common/errors';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../db/client';
import { DEMO_RETAILER_MOBILE } from '../db/seed/seed';
import { customerIdNamed } from '../test/fixtures';
import { bearer, type TestApp } from '../test/harness';
import { routeTest as it } from '../test/route-test';

/** The largest PostgreSQL `integer`: every id column is serial, so no row can have a larger id. */
const LARGEST_ID = 2_147_483_647;
const TOO_LARGE_ID = LARGEST_ID + 1;

let t: TestApp;
let retailer: string;
let aarav: number;

// The file's helpers and cases below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(async ({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
  aarav = await customerIdNamed(t, retailer, 'Aarav');
});

/** Rows in every table these routes write to, and the SMS sent: equal before and after means nothing was written. */
const writes = async () => {
  const [row] = await queryRows(
    t.app.ctx.db,
    sql`select (select count(*)::int from otp_challenges) as otps,
               (select count(*)::int from audit_log) as audits,
               (select count(*)::int from device_commands) as commands,
               (select count(*)::int from media) as media,
               (select coalesce(sum(paid_paise), 0)::text from emis) as paid`,
  );
  return { ...row, sms: t.sms.length };
};

type Case = {
  name: string;
  field: string;
  send: (id: number) => Promise<{ statusCode: number; json: () => unknown }>;
};

const post = (url: string, payload: Record<string, unknown>, token?: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: token ? bearer(token) : {} });

const cases: Case[] = [
  {
    name: 'orgId of POST loginWithOtp (no login)',
    field: 'orgId',
    send: (id) => post(paths.auth.loginWithOtp, { orgId: id, mobile: DEMO_RETAILER_MOBILE }),
  },
  {
    name: 'customer_id of GET customer details',
    field: 'customer_id',
    send: (id) =>
      t.app.inject({
        method: 'GET',
        url: `${paths.customers.details}?customer_id=${id}`,
        headers: bearer(retailer),
      }),
  },
  {
    name: 'emi_id of POST update_emi_status',
    field: 'emi_id',
    send: (id) =>
      post(
        paths.emi.updateStatus,
        { customer_id: aarav, emi_id: id, status: 'waived', reason: 'Paid in cash at the shop' },
        retailer,
      ),
  },
  {
    name: 'media_id of POST customer_document/delete',
    field: 'media_id',
    send: (id) => post(paths.customers.deleteDocument, { customer_id: aarav, media_id: id }, retailer),
  },
];

describe('ids beyond PostgreSQL integer (issue 12)', () => {
  it.each(cases)('$name: 2^31 answers 400 naming $field and writes nothing', async ({ field, send }) => {
    const before = await writes();
    const response = await send(TOO_LARGE_ID);
    expect(response.statusCode).toBe(400);
    const body = ZFailure.parse(response.json());
    expect(body.code).toBe(AppErrorCode.VALIDATION_FAILED);
    expect(body.fields?.map((f) => f.field)).toEqual([field]);
    expect(await writes()).toEqual(before);
  });

  it.each(cases)('$name: 2^31 − 1 is a valid id that matches nothing (404)', async ({ send }) => {
    const before = await writes();
    const response = await send(LARGEST_ID);
    expect(response.statusCode).toBe(404);
    expect(await writes()).toEqual(before);
  });

  it('bulk lock: customer_ids [2^31] answers 400 naming the element and queues nothing', async () => {
    const before = await writes();
    const response = await post(
      paths.devices.bulkLockUnlock,
      { action: 'lock', customer_ids: [aarav, TOO_LARGE_ID] },
      retailer,
    );
    expect(response.statusCode).toBe(400);
    const body = ZFailure.parse(response.json());
    expect(body.fields?.map((f) => f.field)).toEqual(['customer_ids.1']);
    expect(await writes()).toEqual(before);
  });
});
