import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import {
  DEMO_CUSTOMER_MOBILE,
  DEMO_MINI_RETAILER_MOBILE,
  DEMO_ORG_ID,
  DEMO_RETAILER_MOBILE,
  SECOND_ORG_ID,
} from '../../db/seed/seed';
import { apiGet, apiPost } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

/** Joining (issue 13): a shop asks to join from the login screen; the organisation admin decides. */
let t: TestApp;
let addressCounter = 0;

const ADMIN_MOBILE = '+919700000001';
const OTHER_ADMIN_MOBILE = '+919700000002';

// The file's helpers below act as the test's app (routeTest fixtures); each organisation gets an admin.
it.beforeEach(async ({ t: app, make }) => {
  t = app;
  await make.user({ mobile: ADMIN_MOBILE, name: 'Demo Admin', userType: 'admin' });
  await make.user({
    orgId: SECOND_ORG_ID,
    mobile: OTHER_ADMIN_MOBILE,
    name: 'Shree Admin',
    userType: 'admin',
  });
});

const joinBody = (overrides: Record<string, unknown> = {}) => ({
  orgId: DEMO_ORG_ID,
  name: 'Suresh Patil',
  shopName: 'Patil Mobile Point',
  mobile: '9822001122',
  city: 'Pune',
  ...overrides,
});

/** POSTs a join request from its own client address (so the per-address limit stays out of the way). */
const askToJoin = async (body: Record<string, unknown>, remoteAddress?: string) => {
  addressCounter += 1;
  const response = await t.app.inject({
    method: 'POST',
    url: paths.users.signupRequest,
    payload: body,
    remoteAddress: remoteAddress ?? `10.9.0.${addressCounter % 250}`,
  });
  return { status: response.statusCode, body: response.json() };
};

const signupRows = () =>
  queryRows<{ org_id: number; mobile: string; status: string; shop_name: string; city: string }>(
    t.app.ctx.db,
    sql`select org_id, mobile, status, shop_name, city from signup_requests order by id`,
  );

const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field);

describe('signup_request (public)', () => {
  it('records a pending request and answers the thank-you message; a second one for the mobile is 409', async () => {
    const asked = await askToJoin(joinBody());
    expect(asked.status).toBe(200);
    expect(asked.body.message).toBe('Thank you. We will call you once your request is approved.');
    expect(await signupRows()).toEqual([
      {
        org_id: DEMO_ORG_ID,
        mobile: '+919822001122',
        status: 'pending',
        shop_name: 'Patil Mobile Point',
        city: 'Pune',
      },
    ]);

    const again = await askToJoin(joinBody({ mobile: '+91 98220 01122', name: 'Someone' }));
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('SIGNUP_ALREADY_REQUESTED');
    expect(fieldsOf(again.body)).toEqual(['mobile']);
    // The same mobile may ask another organisation.
    expect((await askToJoin(joinBody({ orgId: SECOND_ORG_ID }))).status).toBe(200);
    expect(await signupRows()).toHaveLength(2);
  });

  it('answers the same success for a mobile that already has a shop account, and records nothing', async () => {
    for (const mobile of [DEMO_RETAILER_MOBILE, DEMO_MINI_RETAILER_MOBILE]) {
      const asked = await askToJoin(joinBody({ mobile }));
      expect(asked.status).toBe(200);
      expect(asked.body.message).toBe('Thank you. We will call you once your request is approved.');
    }
    expect(await signupRows()).toEqual([]);
    // A customer's mobile is not a shop account: a customer may ask to open a shop.
    expect((await askToJoin(joinBody({ mobile: DEMO_CUSTOMER_MOBILE }))).status).toBe(200);
    expect(await signupRows()).toHaveLength(1);
  });

  it('refuses bad input naming the field, and an unknown organisation with 404; writes nothing', async () => {
    for (const [body, fields] of [
      [joinBody({ name: '   ' }), ['name']],
      [joinBody({ shopName: undefined }), ['shopName']],
      [joinBody({ mobile: '12345' }), ['mobile']],
      [joinBody({ city: '' }), ['city']],
      [joinBody({ orgId: 'x' }), ['orgId']],
      [joinBody({ name: 'x'.repeat(81) }), ['name']],
    ] as const) {
      const refused = await askToJoin(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(refused.body)).toEqual(fields);
    }
    expect((await askToJoin(joinBody({ orgId: 999_999 }))).status).toBe(404);
    expect(await signupRows()).toEqual([]);
  });

  it('limits requests per client address (10 a minute)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      statuses.push(
        (await askToJoin(joinBody({ mobile: `98220011${String(i).padStart(2, '0')}` }), '10.8.8.8')).status,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe('join requests (organisation admin)', () => {
  it('lists pending first then newest first; refuses retailers, mini-retailers and customers with 403', async () => {
    await askToJoin(joinBody({ mobile: '9822000001', shopName: 'First' }));
    await askToJoin(joinBody({ mobile: '9822000002', shopName: 'Second' }));
    await askToJoin(joinBody({ mobile: '9822000003', shopName: 'Third' }));
    const admin = await t.tokenFor(DEMO_ORG_ID, ADMIN_MOBILE);
    const second = (await apiGet(t, admin, paths.admin.signupRequests)).body.data[1];
    expect(second.shopName).toBe('Second');
    expect(
      (await apiPost(t, admin, paths.admin.decideSignup, { id: second.id, decision: 'decline' })).status,
    ).toBe(200);

    const all = await apiGet(t, admin, paths.admin.signupRequests);
    expect(all.status).toBe(200);
    expect(
      all.body.data.map((r: { shopName: string; status: string }) => `${r.shopName} ${r.status}`),
    ).toEqual(['Third pending', 'First pending', 'Second declined']);
    const pending = await apiGet(t, admin, `${paths.admin.signupRequests}?status=pending`);
    expect(pending.body.data.map((r: { shopName: string }) => r.shopName)).toEqual(['Third', 'First']);
    expect((await apiGet(t, admin, `${paths.admin.signupRequests}?status=maybe`)).status).toBe(400);
    // Another organisation's admin sees none of them.
    const otherAdmin = await t.tokenFor(SECOND_ORG_ID, OTHER_ADMIN_MOBILE);
    expect((await apiGet(t, otherAdmin, paths.admin.signupRequests)).body.data).toEqual([]);

    for (const mobile of [DEMO_RETAILER_MOBILE, DEMO_MINI_RETAILER_MOBILE, DEMO_CUSTOMER_MOBILE]) {
      const token = await t.tokenFor(DEMO_ORG_ID, mobile);
      expect((await apiGet(t, token, paths.admin.signupRequests)).status).toBe(403);
      const decided = await apiPost(t, token, paths.admin.decideSignup, {
        id: second.id + 1,
        decision: 'approve',
      });
      expect(decided.status).toBe(403);
    }
    expect((await signupRows()).map((r) => r.status)).toEqual(['pending', 'declined', 'pending']);
  });

  it('approve creates the retailer with an SMS and an audit entry; the shop then logs in with an OTP', async () => {
    await askToJoin(joinBody());
    const admin = await t.tokenFor(DEMO_ORG_ID, ADMIN_MOBILE);
    const [request] = (await apiGet(t, admin, paths.admin.signupRequests)).body.data;

    const approved = await apiPost(t, admin, paths.admin.decideSignup, {
      id: request.id,
      decision: 'approve',
    });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({
      id: request.id,
      status: 'approved',
      userId: expect.any(Number),
    });
    await t.app.ctx.sms.settled();
    expect(t.sms.at(-1)).toEqual({
      to: '+919822001122',
      text: 'Welcome to Kisht: your shop Patil Mobile Point can now log in with +919822001122.',
    });
    const [user] = await queryRows<Record<string, unknown>>(
      t.app.ctx.db,
      sql`select id, user_type, name, shop_name, mobile, address, parent_id, is_active from users where mobile = '+919822001122'`,
    );
    expect(user).toEqual({
      id: approved.body.data.userId,
      user_type: 'retailer',
      name: 'Suresh Patil',
      shop_name: 'Patil Mobile Point',
      mobile: '+919822001122',
      address: { line1: '', countryCode: 'IN', stateCode: '', city: 'Pune' },
      parent_id: null,
      is_active: true,
    });
    const audit = await queryRows<{ action: string; entity_id: string; details: unknown }>(
      t.app.ctx.db,
      sql`select action, entity_id, details from audit_log where entity = 'signup_request'`,
    );
    expect(audit).toEqual([
      {
        action: 'signup.approve',
        entity_id: String(request.id),
        details: {
          mobile: '+919822001122',
          shopName: 'Patil Mobile Point',
          userId: user!.id,
          role: 'retailer',
          parentId: null,
        },
      },
    ]);

    // The new retailer logs in with an OTP (from the SMS), end to end.
    const token = await t.login(DEMO_ORG_ID, '+919822001122');
    const me = await apiGet(t, token, paths.users.me);
    expect(me.body.data).toMatchObject({ userType: 'retailer', name: 'Suresh Patil', orgId: DEMO_ORG_ID });

    // Deciding twice is refused and changes nothing.
    const twice = await apiPost(t, admin, paths.admin.decideSignup, { id: request.id, decision: 'decline' });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('SIGNUP_ALREADY_DECIDED');
    // Asking again now answers success but records nothing: the mobile has an account.
    expect((await askToJoin(joinBody())).status).toBe(200);
    expect((await signupRows()).map((r) => r.status)).toEqual(['approved']);
  });

  it('decline sends a polite SMS and an audit entry, and creates no user', async () => {
    await askToJoin(joinBody());
    const admin = await t.tokenFor(DEMO_ORG_ID, ADMIN_MOBILE);
    const [request] = (await apiGet(t, admin, paths.admin.signupRequests)).body.data;
    const smsBefore = t.sms.length;
    const declined = await apiPost(t, admin, paths.admin.decideSignup, {
      id: request.id,
      decision: 'decline',
    });
    expect(declined.status).toBe(200);
    expect(declined.body.data).toMatchObject({ status: 'declined', userId: null });
    await t.app.ctx.sms.settled();
    expect(t.sms.slice(smsBefore)).toEqual([
      {
        to: '+919822001122',
        text: 'Thank you for your interest in Kisht. We cannot add Patil Mobile Point just now; please contact us for details.',
      },
    ]);
    expect(await queryRows(t.app.ctx.db, sql`select id from users where mobile = '+919822001122'`)).toEqual(
      [],
    );
    expect(
      (
        await queryRows<{ action: string }>(
          t.app.ctx.db,
          sql`select action from audit_log where entity = 'signup_request'`,
        )
      ).map((r) => r.action),
    ).toEqual(['signup.decline']);
    // Once declined, the shop may ask again.
    expect((await askToJoin(joinBody())).status).toBe(200);
  });

  it("answers 404 for another organisation's request or none, bad input 400 naming the field; writes nothing", async () => {
    await askToJoin(joinBody());
    const admin = await t.tokenFor(DEMO_ORG_ID, ADMIN_MOBILE);
    const [request] = (await apiGet(t, admin, paths.admin.signupRequests)).body.data;
    const otherAdmin = await t.tokenFor(SECOND_ORG_ID, OTHER_ADMIN_MOBILE);
    const smsBefore = t.sms.length;

    const foreign = await apiPost(t, otherAdmin, paths.admin.decideSignup, {
      id: request.id,
      decision: 'approve',
    });
    expect(foreign.status).toBe(404);
    const missing = await apiPost(t, otherAdmin, paths.admin.decideSignup, {
      id: 2_147_483_647,
      decision: 'approve',
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ ...foreign.body });

    for (const [body, field] of [
      [{ id: request.id, decision: 'maybe' }, 'decision'],
      [{ id: 'one', decision: 'approve' }, 'id'],
      [{ decision: 'approve' }, 'id'],
    ] as const) {
      const refused = await apiPost(t, admin, paths.admin.decideSignup, body);
      expect(refused.status).toBe(400);
      expect(fieldsOf(refused.body)).toEqual([field]);
    }
    expect((await signupRows()).map((r) => r.status)).toEqual(['pending']);
    expect(await queryRows(t.app.ctx.db, sql`select id from users where mobile = '+919822001122'`)).toEqual(
      [],
    );
    expect(
      await queryRows(t.app.ctx.db, sql`select id from audit_log where entity = 'signup_request'`),
    ).toEqual([]);
    expect(t.sms.length).toBe(smsBefore);
  });
});
