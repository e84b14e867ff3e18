import { zEnvelope } from '@kisht/domain/common/envelope';
import { paths } from '@kisht/domain/paths';
import { ZRetailer, ZRetailerPage } from '@kisht/domain/retailers/retailers.schema';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import {
  DEMO_CUSTOMER_MOBILE,
  DEMO_INACTIVE_MINI_RETAILER_MOBILE,
  DEMO_MINI_RETAILER_MOBILE,
  DEMO_ORG_ID,
  DEMO_RETAILER_MOBILE,
} from '../../db/seed/seed';
import { apiGet, apiPost, apiUpload, JPEG_BYTES, PDF_BYTES, PNG_1X1 } from '../../test/fixtures';
import { bearer, type TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

/** retailer_list, add_retailer, retailer_profile: a retailer's mini-retailers (issue 13). */
let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field);

const ADDRESS = {
  line1: 'Shop 4, FC Road',
  countryCode: 'IN',
  stateCode: 'MH',
  city: 'Pune',
  pincode: '411004',
};
const addBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Suresh Patil',
  shopName: 'Patil Mobiles',
  mobile: '9812300001',
  email: 'suresh@example.in',
  address: ADDRESS,
  gstNumber: '27AAPFU0939F1ZV',
  ...overrides,
});

/** Counts of the tables a mini-retailer change writes. */
const counts = async () =>
  (
    await queryRows<{ users: number; audits: number; media: number }>(
      t.app.ctx.db,
      sql`select (select count(*)::int from users) as users,
                 (select count(*)::int from audit_log) as audits,
                 (select count(*)::int from media) as media`,
    )
  )[0]!;

const userIdOf = async (orgId: number, mobile: string, type = 'miniretailer') =>
  (
    await queryRows<{ id: number }>(
      t.app.ctx.db,
      sql`select id from users where org_id = ${orgId} and mobile = ${mobile} and user_type = ${type}`,
    )
  )[0]!.id;

const auditActions = async (userId: number) =>
  (
    await queryRows<{ action: string }>(
      t.app.ctx.db,
      sql`select action from audit_log where entity = 'user' and entity_id = ${String(userId)} and action like 'retailer.%' order by id`,
    )
  ).map((r) => r.action);

describe('add_retailer and retailer_list', () => {
  it('adds a mini-retailer with +91 mobile, GSTIN, address and default access, listed newest first with its customer count', async () => {
    const added = await apiPost(t, retailer, paths.retailers.add, addBody());
    expect(added.status).toBe(200);
    const mini = zEnvelope(ZRetailer).parse(added.body).data;
    expect(mini).toMatchObject({
      name: 'Suresh Patil',
      shopName: 'Patil Mobiles',
      mobile: '+919812300001',
      gstNumber: '27AAPFU0939F1ZV',
      userType: 'miniretailer',
      isActive: true,
      customerCount: 0,
      parentName: 'Ravi Mobiles',
      address: { ...ADDRESS, countryName: 'India', stateName: 'Maharashtra' },
      userAccess: {
        feature_access: '1',
        lock_unlock: '1',
        unistall: '1',
        active_deactive: '1',
        bulk_retailer: '0',
      },
      lockAccess: { lock: '1', unlock: '1', read: '1', uninstall: '1' },
    });
    expect(await auditActions(mini.id)).toEqual(['retailer.create']);

    const list = await apiGet(t, retailer, paths.retailers.list);
    const page = zEnvelope(ZRetailerPage).parse(list.body).data;
    expect(page.items.map((i) => i.mobile)).toEqual([
      '+919812300001',
      DEMO_INACTIVE_MINI_RETAILER_MOBILE,
      DEMO_MINI_RETAILER_MOBILE,
    ]);
    expect(page.total).toBe(3);

    const active = (await apiGet(t, retailer, `${paths.retailers.list}?status=inactive`)).body.data;
    expect(active.items.map((i: { mobile: string }) => i.mobile)).toEqual([
      DEMO_INACTIVE_MINI_RETAILER_MOBILE,
    ]);
    const searched = (await apiGet(t, retailer, `${paths.retailers.list}?search=patil`)).body.data;
    expect(searched.items.map((i: { name: string }) => i.name)).toEqual(['Suresh Patil']);
  });

  it('counts the customers each mini-retailer enrolled', async ({ miniRetailer: mini }) => {
    const products = (await apiGet(t, mini, `${paths.catalogue.products}?device_type=0`)).body.data;
    const { customerBody } = await import('../../test/fixtures');
    const created = await apiPost(t, mini, paths.customers.create, customerBody(products[0].id));
    expect(created.status).toBe(200);
    const list = (await apiGet(t, retailer, `${paths.retailers.list}?search=Andheri`)).body.data;
    expect(list.items[0].customerCount).toBe(1);
  });

  it('refuses bad input naming the field and writes nothing', async () => {
    const before = await counts();
    for (const [body, field] of [
      [addBody({ name: '' }), 'name'],
      [addBody({ shopName: undefined }), 'shopName'],
      [addBody({ mobile: '12345' }), 'mobile'],
      [addBody({ email: 'not-an-email' }), 'email'],
      [addBody({ gstNumber: '27AAPFU0939F1ZW' }), 'gstNumber'],
      [addBody({ address: { ...ADDRESS, pincode: '12' } }), 'address.pincode'],
      [addBody({ address: { ...ADDRESS, city: 'Atlantis' } }), 'address.city'],
      [addBody({ userAccess: { bulk_retailer: 'yes' } }), 'userAccess.bulk_retailer'],
    ] as const) {
      const refused = await apiPost(t, retailer, paths.retailers.add, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(refused.body)).toEqual([field]);
    }
    const required = await apiPost(t, retailer, paths.retailers.add, addBody({ name: '  ' }));
    expect(required.body.fields[0].message).toBe('This is a required field');
    expect(await counts()).toEqual(before);
  });

  it('refuses a mobile another shop user of the organisation has with 409 MOBILE_IN_USE naming mobile', async ({
    otherRetailer: other,
  }) => {
    const before = await counts();
    for (const mobile of [DEMO_MINI_RETAILER_MOBILE.slice(3), DEMO_RETAILER_MOBILE.slice(3)]) {
      const refused = await apiPost(t, retailer, paths.retailers.add, addBody({ mobile }));
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('MOBILE_IN_USE');
      expect(fieldsOf(refused.body)).toEqual(['mobile']);
    }
    expect(await counts()).toEqual(before);
    // Another organisation may have the same number.
    const added = await apiPost(
      t,
      other,
      paths.retailers.add,
      addBody({ mobile: DEMO_MINI_RETAILER_MOBILE.slice(3) }),
    );
    expect(added.status).toBe(200);
  });

  it('refuses a mini-retailer and a customer with 403, writing nothing', async ({ miniRetailer }) => {
    const before = await counts();
    const miniId = await userIdOf(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE);
    for (const token of [miniRetailer, await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE)]) {
      expect((await apiPost(t, token, paths.retailers.add, addBody())).status).toBe(403);
      expect((await apiGet(t, token, paths.retailers.list)).status).toBe(403);
      expect((await apiPost(t, token, paths.retailers.update, { user_id: miniId, name: 'X' })).status).toBe(
        403,
      );
    }
    expect(await counts()).toEqual(before);
  });
});

describe('retailer_profile', () => {
  it("reads a mini-retailer for its parent and the actor's own profile; others' ids answer 404", async ({
    miniRetailer: mini,
    otherRetailer: other,
  }) => {
    const miniId = await userIdOf(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE);
    const read = await apiGet(t, retailer, `${paths.retailers.readById}?user_id=${miniId}`);
    expect(read.status).toBe(200);
    expect(zEnvelope(ZRetailer).parse(read.body).data).toMatchObject({
      id: miniId,
      shopName: 'Ravi Mobiles Andheri',
      parentName: 'Ravi Mobiles',
    });
    const own = await apiGet(t, retailer, paths.retailers.profile);
    expect(own.body.data).toMatchObject({
      mobile: DEMO_RETAILER_MOBILE,
      userType: 'retailer',
      parentId: null,
    });

    expect((await apiGet(t, mini, paths.retailers.profile)).body.data).toMatchObject({
      id: miniId,
      parentName: 'Ravi Mobiles',
    });
    expect((await apiGet(t, mini, `${paths.retailers.readById}?user_id=${miniId}`)).status).toBe(200);

    const retailerId = await userIdOf(DEMO_ORG_ID, DEMO_RETAILER_MOBILE, 'retailer');
    const sibling = await userIdOf(DEMO_ORG_ID, DEMO_INACTIVE_MINI_RETAILER_MOBILE);
    for (const [token, id] of [
      [other, miniId],
      [mini, retailerId],
      [mini, sibling],
      [retailer, 2_147_483_647],
    ] as const) {
      const refused = await apiGet(t, token, `${paths.retailers.readById}?user_id=${id}`);
      expect(refused.status).toBe(404);
      expect(JSON.stringify(refused.body)).not.toContain('Andheri');
    }
    const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    expect((await apiGet(t, customer, paths.retailers.profile)).status).toBe(403);
    expect((await apiGet(t, retailer, `${paths.retailers.readById}?user_id=abc`)).status).toBe(400);
  });

  it('edits details and access flags, audited; another retailer and bad input change nothing', async ({
    otherRetailer: other,
    miniRetailer: mini,
  }) => {
    const miniId = await userIdOf(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE);
    const before = await counts();
    expect(
      (await apiPost(t, other, paths.retailers.update, { user_id: miniId, name: 'Stolen' })).status,
    ).toBe(404);
    for (const [body, field] of [
      [{ user_id: miniId, gstNumber: '99AAPFU0939F1ZV' }, 'gstNumber'],
      [{ user_id: miniId, mobile: '555' }, 'mobile'],
      [{ user_id: miniId, lockAccess: { lock: 1 } }, 'lockAccess.lock'],
      [{ user_id: 'x' }, 'user_id'],
    ] as const) {
      const refused = await apiPost(t, retailer, paths.retailers.update, body);
      expect(refused.status).toBe(400);
      expect(fieldsOf(refused.body)).toEqual([field]);
    }
    const taken = await apiPost(t, retailer, paths.retailers.update, {
      user_id: miniId,
      mobile: DEMO_INACTIVE_MINI_RETAILER_MOBILE,
    });
    expect(taken.status).toBe(409);
    expect(fieldsOf(taken.body)).toEqual(['mobile']);
    expect(await counts()).toEqual(before);

    const edited = await apiPost(t, retailer, paths.retailers.update, {
      user_id: miniId,
      shopName: 'Andheri Mobile Point',
      gstNumber: '29aagcb7383j1z4',
      userAccess: { bulk_retailer: '1', lock_unlock: '0' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({
      shopName: 'Andheri Mobile Point',
      gstNumber: '29AAGCB7383J1Z4',
      userAccess: { bulk_retailer: '1', lock_unlock: '0', feature_access: '1' },
    });
    expect(await auditActions(miniId)).toEqual(['retailer.update', 'retailer.access']);
    // The mini-retailer's own view of its flags follows.
    expect((await apiGet(t, mini, paths.users.userAccess)).body.data).toMatchObject({
      bulk_retailer: '1',
      lock_unlock: '0',
    });
    const cleared = await apiPost(t, retailer, paths.retailers.update, { user_id: miniId, gstNumber: '' });
    expect(cleared.body.data.gstNumber).toBeNull();
  });

  it('deactivating ends every session at once and blocks OTP and MPIN login; reactivating restores it', async () => {
    const miniId = await userIdOf(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE);
    const first = await t.login(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE);
    const second = await t.login(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE);
    expect((await apiPost(t, first, paths.auth.setMpin, { mpin: '4826' })).status).toBe(200);

    const deactivated = await apiPost(t, retailer, paths.retailers.update, {
      user_id: miniId,
      isActive: false,
    });
    expect(deactivated.status).toBe(200);
    expect(deactivated.body.data.isActive).toBe(false);
    expect(deactivated.body.data.deactivatedAt).not.toBeNull();
    for (const token of [first, second]) expect((await apiGet(t, token, paths.users.me)).status).toBe(511);

    // OTP: the request answers as for anyone; the verified code is refused with USER_INACTIVE.
    const requested = await t.app.inject({
      method: 'POST',
      url: paths.auth.loginWithOtp,
      payload: { orgId: DEMO_ORG_ID, mobile: DEMO_MINI_RETAILER_MOBILE },
    });
    expect(requested.statusCode).toBe(200);
    const code = /^(\d{6})/.exec(t.sms.at(-1)!.text)![1];
    const verified = await t.app.inject({
      method: 'POST',
      url: paths.auth.verifyOtp,
      payload: { orgId: DEMO_ORG_ID, mobile: DEMO_MINI_RETAILER_MOBILE, otp: code },
    });
    expect(verified.statusCode).toBe(403);
    expect(verified.json()).toMatchObject({
      code: 'USER_INACTIVE',
      message: 'Your account is deactivated. Please contact your retailer.',
    });
    // MPIN: a wrong one is just wrong (nothing told); the right one is refused.
    const mpin = (value: string) =>
      t.app.inject({
        method: 'POST',
        url: paths.auth.loginWithMpin,
        payload: { orgId: DEMO_ORG_ID, mobile: DEMO_MINI_RETAILER_MOBILE, mpin: value },
      });
    expect((await mpin('1111')).json().code).toBe('MPIN_INVALID');
    const right = await mpin('4826');
    expect(right.statusCode).toBe(403);
    expect(right.json().code).toBe('USER_INACTIVE');
    const sessions = await queryRows<{ live: number }>(
      t.app.ctx.db,
      sql`select count(*)::int as live from sessions where user_id = ${miniId} and revoked_at is null`,
    );
    expect(sessions[0]!.live).toBe(0);

    const reactivated = await apiPost(t, retailer, paths.retailers.update, {
      user_id: miniId,
      isActive: true,
    });
    expect(reactivated.body.data).toMatchObject({ isActive: true, deactivatedAt: null });
    expect((await mpin('4826')).statusCode).toBe(200);
    const again = await t.login(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE);
    expect((await apiGet(t, again, paths.users.me)).status).toBe(200);
    expect(await auditActions(miniId)).toEqual(['retailer.deactivate', 'retailer.reactivate']);
  });
});

describe('profile image and signature', () => {
  it("stores the actor's own and a mini-retailer's profile image, sniffed, and serves the bytes scoped", async ({
    otherRetailer: other,
  }) => {
    const miniId = await userIdOf(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE);
    const own = await apiUpload(
      t,
      retailer,
      paths.users.profileImage,
      {},
      { bytes: JPEG_BYTES, type: 'image/jpeg' },
    );
    expect(own.status).toBe(200);
    expect(own.body.data.hasProfileImage).toBe(true);
    const child = await apiUpload(
      t,
      retailer,
      paths.users.profileImage,
      { user_id: miniId },
      { bytes: PNG_1X1 },
    );
    expect(child.body.data).toMatchObject({ id: miniId, hasProfileImage: true });

    const bytes = await t.app.inject({
      method: 'GET',
      url: `${paths.users.image}?user_id=${miniId}&kind=profile_image`,
      headers: bearer(retailer),
    });
    expect(bytes.statusCode).toBe(200);
    expect(bytes.headers['content-type']).toBe('image/png');
    expect(new Uint8Array(bytes.rawPayload)).toEqual(PNG_1X1);
    const mine = await t.app.inject({
      method: 'GET',
      url: `${paths.users.image}?kind=profile_image`,
      headers: bearer(retailer),
    });
    expect(mine.headers['content-type']).toBe('image/jpeg');

    const rows = await queryRows<{ customer_id: number | null; owner_user_id: number; kind: string }>(
      t.app.ctx.db,
      sql`select customer_id, owner_user_id, kind from media where owner_user_id = ${miniId}`,
    );
    expect(rows).toEqual([{ customer_id: null, owner_user_id: miniId, kind: 'user_profile_image' }]);

    const before = await counts();
    expect(
      (await apiUpload(t, other, paths.users.profileImage, { user_id: miniId }, { bytes: PNG_1X1 })).status,
    ).toBe(404);
    const peek = await t.app.inject({
      method: 'GET',
      url: `${paths.users.image}?user_id=${miniId}&kind=profile_image`,
      headers: bearer(other),
    });
    expect(peek.statusCode).toBe(404);
    const bad = await apiUpload(t, retailer, paths.users.profileImage, {}, { bytes: PDF_BYTES });
    expect(bad.status).toBe(415);
    expect(fieldsOf(bad.body)).toEqual(['file']);
    expect(await counts()).toEqual(before);
  });

  it('stores the own signature as a PNG only', async ({ miniRetailer: mini }) => {
    const refused = await apiUpload(t, mini, paths.users.signature, {}, { bytes: JPEG_BYTES });
    expect(refused.status).toBe(415);
    expect(fieldsOf(refused.body)).toEqual(['file']);
    const saved = await apiUpload(t, mini, paths.users.signature, {}, { bytes: PNG_1X1 });
    expect(saved.status).toBe(200);
    expect(saved.body.data.hasSignature).toBe(true);
    const back = await t.app.inject({
      method: 'GET',
      url: `${paths.users.image}?kind=signature`,
      headers: bearer(mini),
    });
    expect(back.statusCode).toBe(200);
    const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    expect((await apiUpload(t, customer, paths.users.signature, {}, { bytes: PNG_1X1 })).status).toBe(403);
  });
});

describe('customers of mini-retailers', () => {
  it('filters the customer list, its CSV and the dashboard by retailer_id within the actor’s retailers', async ({
    miniRetailer: mini,
    otherRetailer: other,
  }) => {
    const miniId = await userIdOf(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE);
    const retailerId = await userIdOf(DEMO_ORG_ID, DEMO_RETAILER_MOBILE, 'retailer');
    const products = (await apiGet(t, mini, `${paths.catalogue.products}?device_type=0`)).body.data;
    const { customerBody } = await import('../../test/fixtures');
    await apiPost(
      t,
      mini,
      paths.customers.create,
      customerBody(products[0].id, { firstName: 'Minicustomer' }),
    );

    const all = (await apiGet(t, retailer, paths.customers.list)).body.data;
    const onlyMini = (await apiGet(t, retailer, `${paths.customers.list}?retailer_id=${miniId}`)).body.data;
    expect(onlyMini.items.map((c: { firstName: string }) => c.firstName)).toEqual(['Minicustomer']);
    const onlyOwn = (await apiGet(t, retailer, `${paths.customers.list}?retailer_id=${retailerId}`)).body
      .data;
    expect(onlyOwn.total).toBe(all.total - 1);
    const csv = await t.app.inject({
      method: 'GET',
      url: `${paths.customers.listCsv}?retailer_id=${miniId}`,
      headers: bearer(retailer),
    });
    expect(csv.body.trim().split('\n')).toHaveLength(2);
    const dashboard = (await apiGet(t, retailer, `${paths.stats.dashboard}?retailer_id=${miniId}`)).body.data;
    expect(dashboard.total).toBe(1);
    expect((await apiGet(t, retailer, paths.stats.dashboard)).body.data.total).toBe(all.total);

    // A mini-retailer sees only its own; another id, or another organisation's, is 404.
    expect((await apiGet(t, mini, `${paths.customers.list}?retailer_id=${miniId}`)).body.data.total).toBe(1);
    for (const [token, url] of [
      [mini, `${paths.customers.list}?retailer_id=${retailerId}`],
      [mini, `${paths.stats.dashboard}?retailer_id=${retailerId}`],
      [other, `${paths.customers.list}?retailer_id=${miniId}`],
      [other, `${paths.stats.dashboard}?retailer_id=${miniId}`],
      [other, `${paths.customers.listCsv}?retailer_id=${miniId}`],
    ] as const) {
      const refused = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(refused.statusCode, url).toBe(404);
      expect(refused.body).not.toContain('Minicustomer');
    }
    expect((await apiGet(t, retailer, `${paths.customers.list}?retailer_id=0`)).status).toBe(400);
  });
});
