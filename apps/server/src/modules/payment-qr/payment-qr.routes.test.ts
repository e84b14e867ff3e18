import type { TMyLoan } from '@kisht/domain/emi/emi.schema';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import {
  DEMO_CUSTOMER_MOBILE,
  DEMO_MINI_RETAILER_MOBILE,
  DEMO_ORG_ID,
  DEMO_RETAILER_MOBILE,
  DEMO_RETAILER_UPI_ID,
  SECOND_RETAILER_MOBILE,
} from '../../db/seed/seed';
import { apiGet, apiPut, apiUpload, JPEG_BYTES, PDF_BYTES, PNG_1X1 } from '../../test/fixtures';
import { bearer, type TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

/** retailer_payment_qr: the actor's own UPI ID, payee name and standing UPI QR link. */
let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
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
      isPayeeNameCustom: false,
      upiLink: `upi://pay?pa=${DEMO_RETAILER_UPI_ID}&pn=Ravi%20Mobiles&cu=INR`,
      qrImage: null,
    });

    const saved = await apiPut(t, retailer, paths.users.paymentQr, { upiId: '  RaviShop.1@YBL ' });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({
      upiId: 'ravishop.1@ybl',
      payeeName: 'Ravi Mobiles',
      isPayeeNameCustom: false,
      upiLink: 'upi://pay?pa=ravishop.1@ybl&pn=Ravi%20Mobiles&cu=INR',
      qrImage: null,
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

  it('refuses a bad UPI ID or payee name naming the field, and writes nothing', async () => {
    const before = await upiIds();
    for (const [body, field] of [
      [{ upiId: 'ravimobiles' }, 'upiId'],
      [{ upiId: 'ravi mobiles@okaxis' }, 'upiId'],
      [{ upiId: 'ravi@okaxis1' }, 'upiId'],
      [{ upiId: `${'a'.repeat(250)}@okaxis` }, 'upiId'],
      [{ upiId: 42 }, 'upiId'],
      [{}, 'upiId'],
      [{ upiId: 'ravi@okaxis', payeeName: '' }, 'payeeName'],
      [{ upiId: 'ravi@okaxis', payeeName: 'a'.repeat(51) }, 'payeeName'],
      [{ upiId: 'ravi@okaxis', payeeName: 'Ravi <Mobiles>' }, 'payeeName'],
      [{ upiId: 'ravi@okaxis', payeeName: 7 }, 'payeeName'],
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
    const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    expect((await apiGet(t, customer, paths.users.paymentQr)).status).toBe(403);
    const refused = await apiPut(t, customer, paths.users.paymentQr, { upiId: 'thief@okaxis' });
    expect(refused.status).toBe(403);
    expect(await upiIds()).toEqual(before);
  });

  it("keeps each shop's settings its own: no request names a user, so another's row is never reached", async ({
    miniRetailer: mini,
    otherRetailer: other,
  }) => {
    // Other-tenant ids cannot be named: GET and PUT take no user id, the session decides whose row.
    const before = await upiIds();

    expect((await apiGet(t, mini, paths.users.paymentQr)).body.data).toEqual({
      upiId: null,
      payeeName: 'Ravi Mobiles – Andheri',
      isPayeeNameCustom: false,
      upiLink: null,
      qrImage: null,
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

/** The customer's own loan screen (customer_emi_details) as the demo customer sees it. */
const myLoans = async () => {
  const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
  return { customer, loans: (await apiGet(t, customer, paths.emi.myLoans)).body.data as TMyLoan[] };
};

describe('payee name', () => {
  it('sets the payee name used as pn in the shop QR and in the customer’s instalment link, and resets it', async () => {
    const saved = await apiPut(t, retailer, paths.users.paymentQr, {
      upiId: DEMO_RETAILER_UPI_ID,
      payeeName: '  R.K. Mobiles & Co-1 ',
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({
      payeeName: 'R.K. Mobiles & Co-1',
      isPayeeNameCustom: true,
      upiLink: `upi://pay?pa=${DEMO_RETAILER_UPI_ID}&pn=R.K.%20Mobiles%20%26%20Co-1&cu=INR`,
    });
    const { loans } = await myLoans();
    const links = loans.map((loan) => loan.payTo.upiLink).filter((link) => link !== null);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link).toContain('&pn=R.K.%20Mobiles%20%26%20Co-1&am=');

    // Saving only the UPI ID keeps the payee name; null goes back to the account name.
    const kept = await apiPut(t, retailer, paths.users.paymentQr, { upiId: 'ravi@okaxis' });
    expect(kept.body.data.payeeName).toBe('R.K. Mobiles & Co-1');
    const reset = await apiPut(t, retailer, paths.users.paymentQr, { upiId: 'ravi@okaxis', payeeName: null });
    expect(reset.body.data).toMatchObject({ payeeName: 'Ravi Mobiles', isPayeeNameCustom: false });
    const names = await queryRows<{ upi_payee_name: string | null }>(
      t.app.ctx.db,
      sql`select upi_payee_name from users where mobile = ${DEMO_RETAILER_MOBILE} and user_type = 'retailer'`,
    );
    expect(names).toEqual([{ upi_payee_name: null }]);
  });
});

describe('uploaded QR image', () => {
  const imageOf = (token: string, customerId: number) =>
    t.app.inject({
      method: 'GET',
      url: `${paths.users.paymentQrImage}?customer_id=${customerId}`,
      headers: bearer(token),
    });
  const mediaRows = () =>
    queryRows<{ id: number; deleted: boolean; customer_id: number | null; owner: string }>(
      t.app.ctx.db,
      sql`select m.id, m.deleted_at is not null as deleted, m.customer_id, u.mobile as owner
          from media m join users u on u.id = m.owner_user_id where m.kind = 'user_payment_qr' order by m.id`,
    );

  it('stores a PNG or JPEG as the shop’s own file, shows it to its customer, replaces and deletes it', async () => {
    const uploaded = await apiUpload(
      t,
      retailer,
      paths.users.paymentQrImage,
      {},
      { bytes: PNG_1X1, name: 'qr.png' },
    );
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    expect(uploaded.body.data.qrImage).toMatchObject({
      mimeType: 'image/png',
      sizeBytes: PNG_1X1.byteLength,
    });
    expect((await apiGet(t, retailer, paths.users.paymentQr)).body.data.qrImage.mimeType).toBe('image/png');

    // The customer's "How to pay" says there is one and can fetch its bytes.
    const { customer, loans } = await myLoans();
    expect(loans.every((loan) => loan.payTo.hasQrImage === true)).toBe(true);
    const image = await imageOf(customer, loans[0]!.customerId);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(new Uint8Array(image.rawPayload)).toEqual(PNG_1X1);
    // The retailer sees what its customer sees.
    expect((await imageOf(retailer, loans[0]!.customerId)).statusCode).toBe(200);

    // A JPEG replaces it; the old row is kept, marked deleted.
    const replaced = await apiUpload(t, retailer, paths.users.paymentQrImage, {}, { bytes: JPEG_BYTES });
    expect(replaced.body.data.qrImage.mimeType).toBe('image/jpeg');
    expect((await mediaRows()).map((row) => [row.deleted, row.customer_id, row.owner])).toEqual([
      [true, null, DEMO_RETAILER_MOBILE],
      [false, null, DEMO_RETAILER_MOBILE],
    ]);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: paths.users.paymentQrImage,
      headers: bearer(retailer),
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.qrImage).toBeNull();
    expect((await mediaRows()).every((row) => row.deleted)).toBe(true);
    // Their own customer with no image: nothing to show (204), not a missing id.
    expect((await imageOf(customer, loans[0]!.customerId)).statusCode).toBe(204);
    expect((await myLoans()).loans.every((loan) => loan.payTo.hasQrImage === false)).toBe(true);
    const audit = await queryRows<{ action: string }>(
      t.app.ctx.db,
      sql`select action from audit_log where action like 'user.payment_qr_image%' order by id`,
    );
    expect(audit.map((row) => row.action)).toEqual([
      'user.payment_qr_image',
      'user.payment_qr_image',
      'user.payment_qr_image_delete',
    ]);
  });

  it('refuses a file over 5 MB (413) or not PNG/JPEG (415) naming file, or no file (400), writing nothing', async () => {
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(PNG_1X1);
    for (const [file, status] of [
      [{ bytes: big, name: 'big.png', type: 'image/png' }, 413],
      [{ bytes: PDF_BYTES, name: 'qr.png', type: 'image/png' }, 415],
      [{ bytes: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'), name: 'qr.svg' }, 415],
      [undefined, 400],
    ] as const) {
      const refused = await apiUpload(t, retailer, paths.users.paymentQrImage, {}, file);
      expect(refused.status, JSON.stringify(refused.body)).toBe(status);
      expect(fieldsOf(refused.body)).toEqual(['file']);
    }
    expect(await mediaRows()).toEqual([]);
    expect((await apiGet(t, retailer, paths.users.paymentQr)).body.data.qrImage).toBeNull();
  });

  it('serves no image of another retailer’s or organisation’s customer (404), and refuses a customer’s upload (403)', async ({
    otherRetailer: other,
  }) => {
    expect((await apiUpload(t, retailer, paths.users.paymentQrImage, {}, { bytes: PNG_1X1 })).status).toBe(
      200,
    );
    const { customer, loans } = await myLoans();
    const customerId = loans[0]!.customerId;
    expect((await imageOf(other, customerId)).statusCode).toBe(404);
    // A customer user reads only the QR of their own loans' retailer.
    const strangers = await queryRows<{ id: number }>(
      t.app.ctx.db,
      sql`select id from customers where org_id = ${DEMO_ORG_ID} and mobile <> ${DEMO_CUSTOMER_MOBILE} limit 1`,
    );
    expect((await imageOf(customer, strangers[0]!.id)).statusCode).toBe(404);
    expect((await imageOf(retailer, 2_000_000)).statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'GET',
      url: `${paths.users.paymentQrImage}?customer_id=abc`,
      headers: bearer(retailer),
    });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad.json())).toEqual(['customer_id']);
    expect((await apiUpload(t, customer, paths.users.paymentQrImage, {}, { bytes: PNG_1X1 })).status).toBe(
      403,
    );
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: paths.users.paymentQrImage,
      headers: bearer(customer),
    });
    expect(deleted.statusCode).toBe(403);
    expect((await mediaRows()).length).toBe(1);
  });
});
