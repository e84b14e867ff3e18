import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import {
  DEMO_CUSTOMER_MOBILE,
  DEMO_MINI_RETAILER_MOBILE,
  DEMO_ORG_ID,
  DEMO_RETAILER_MOBILE,
  DEMO_RETAILER_UPI_ID,
  SECOND_ORG_ID,
  SECOND_RETAILER_MOBILE,
} from '../../db/seed/seed';
import { apiGet, apiPut } from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';

/** retailer_payment_qr: the actor's own UPI ID, payee name and standing UPI QR link. */
let t: TestApp;
let retailer: string;

beforeEach(async () => {
  t = await createTestApp();
  retailer = await t.login(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
});
afterEach(async () => {
  await t.close();
});

/** Every user's UPI ID by mobile and user type, straight from the table. */
const upiIds = async () =>
  Object.fromEntries(
    (
      await queryRows<{ mobile: string; user_type: string; upi_id: string | null }>(
        t.app.ctx.db,
        sql`select mobile, user_type, upi_id from users order by id`,
      )
    ).map((row) => [`${row.user_type} ${row.mobile}`, row.upi_id]),
  );

const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field);

describe('payment_qr', () => {
  it('reads the UPI ID with its payee name and a UPI link without an amount, then sets a new one', async () => {
    const initial = await apiGet(t, retailer, paths.users.paymentQr);
    expect(initial.status).toBe(200);
    expect(initial.body.data).toEqual({
      upiId: DEMO_RETAILER_UPI_ID,
      payeeName: 'Ravi Mobiles',
      upiLink: `upi://pay?pa=${DEMO_RETAILER_UPI_ID}&pn=Ravi%20Mobiles&cu=INR`,
    });

    const saved = await apiPut(t, retailer, paths.users.paymentQr, { upiId: '  RaviShop.1@YBL ' });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({
      upiId: 'ravishop.1@ybl',
      payeeName: 'Ravi Mobiles',
      upiLink: 'upi://pay?pa=ravishop.1@ybl&pn=Ravi%20Mobiles&cu=INR',
    });
    expect((await apiGet(t, retailer, paths.users.paymentQr)).body.data).toEqual(saved.body.data);
    expect((await upiIds())[`retailer ${DEMO_RETAILER_MOBILE}`]).toBe('ravishop.1@ybl');
    const audit = await queryRows<{ details: unknown }>(
      t.app.ctx.db,
      sql`select details from audit_log where action = 'user.payment_qr'`,
    );
    expect(audit.map((row) => row.details)).toEqual([
      { before: DEMO_RETAILER_UPI_ID, after: 'ravishop.1@ybl' },
    ]);
  });

  it('refuses a bad UPI ID or a payee name naming the field, and writes nothing', async () => {
    const before = await upiIds();
    for (const [body, field] of [
      [{ upiId: 'ravimobiles' }, 'upiId'],
      [{ upiId: 'ravi mobiles@okaxis' }, 'upiId'],
      [{ upiId: 'ravi@okaxis1' }, 'upiId'],
      [{ upiId: `${'a'.repeat(250)}@okaxis` }, 'upiId'],
      [{ upiId: 42 }, 'upiId'],
      [{}, 'upiId'],
      // The payee name is the account's name: it is refused here, not silently ignored.
      [{ upiId: 'ravi@okaxis', payeeName: 'Someone Else' }, 'payeeName'],
    ] as const) {
      const refused = await apiPut(t, retailer, paths.users.paymentQr, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(refused.body)).toEqual([field]);
    }
    expect(await upiIds()).toEqual(before);
    expect(
      await queryRows(t.app.ctx.db, sql`select id from audit_log where action = 'user.payment_qr'`),
    ).toEqual([]);
  });

  it('refuses a customer with 403, reading and writing nothing', async () => {
    const before = await upiIds();
    const customer = await t.login(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    expect((await apiGet(t, customer, paths.users.paymentQr)).status).toBe(403);
    const refused = await apiPut(t, customer, paths.users.paymentQr, { upiId: 'thief@okaxis' });
    expect(refused.status).toBe(403);
    expect(await upiIds()).toEqual(before);
  });

  it("keeps each shop's settings its own: no request names a user, so another's row is never reached", async () => {
    // Other-tenant ids cannot be named: GET and PUT take no user id, the session decides whose row.
    const mini = await t.login(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE);
    const other = await t.login(SECOND_ORG_ID, SECOND_RETAILER_MOBILE);
    const before = await upiIds();

    expect((await apiGet(t, mini, paths.users.paymentQr)).body.data).toEqual({
      upiId: null,
      payeeName: 'Ravi Mobiles – Andheri',
      upiLink: null,
    });
    const miniSaved = await apiPut(t, mini, paths.users.paymentQr, { upiId: 'andheri.shop@okhdfcbank' });
    expect(miniSaved.status).toBe(200);
    expect(miniSaved.body.data.upiLink).toBe(
      'upi://pay?pa=andheri.shop@okhdfcbank&pn=Ravi%20Mobiles%20%E2%80%93%20Andheri&cu=INR',
    );
    expect((await apiPut(t, other, paths.users.paymentQr, { upiId: 'shree@okicici' })).status).toBe(200);

    // Each write landed on its own row only; the parent retailer's UPI ID is untouched.
    expect(await upiIds()).toEqual({
      ...before,
      [`miniretailer ${DEMO_MINI_RETAILER_MOBILE}`]: 'andheri.shop@okhdfcbank',
      [`retailer ${SECOND_RETAILER_MOBILE}`]: 'shree@okicici',
    });
    expect((await apiGet(t, retailer, paths.users.paymentQr)).body.data.upiId).toBe(DEMO_RETAILER_UPI_ID);
    expect((await apiGet(t, other, paths.users.paymentQr)).body.data.upiId).toBe('shree@okicici');
  });
});
