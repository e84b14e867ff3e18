import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { apiGet, apiPost, customerIdNamed, freshImei } from '../../test/fixtures';
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
const deviceImeis = async () =>
  queryRows(t.app.ctx.db, sql`select imei1, imei2, serial_number from devices order by id`);

describe('IMEI_EDIT (update_customer_detailsV3)', () => {
  it('corrects both IMEIs and the serial number, with old and new values in the audit trail', async () => {
    const rahul = await customerNamed('Rahul');
    const before = (await apiGet(t, retailer, `${paths.customers.details}?customer_id=${rahul}`)).body.data;
    const imei1 = freshImei();
    const imei2 = freshImei();
    const updated = await apiPost(t, retailer, paths.customers.updateImei, {
      customer_id: rahul,
      imei1,
      imei2,
      serialNumber: 'R5CT1234XYZ',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ imei1, imei2, serialNumber: 'R5CT1234XYZ' });
    const [audit] = await queryRows(
      t.app.ctx.db,
      sql`select details from audit_log where action = 'customer.imei_edit'`,
    );
    expect(audit!.details).toMatchObject({
      before: { imei1: before.imei1, imei2: before.imei2 },
      after: { imei1, imei2, serialNumber: 'R5CT1234XYZ' },
    });
    // The list search finds the customer by the new IMEI.
    const found = await apiGet(t, retailer, `${paths.customers.list}?search=${imei2}`);
    expect(found.body.data.items[0].id).toBe(rahul);
  });

  it('refuses an invalid or repeated IMEI, and one another device holds, writing nothing', async () => {
    const rahul = await customerNamed('Rahul');
    const aarav = (
      await apiGet(t, retailer, `${paths.customers.details}?customer_id=${await customerNamed('Aarav')}`)
    ).body.data;
    const before = await deviceImeis();
    const luhn = await apiPost(t, retailer, paths.customers.updateImei, {
      customer_id: rahul,
      imei1: '490154203237519',
      imei2: freshImei(),
    });
    expect(luhn.status).toBe(400);
    expect(luhn.body.fields[0].field).toBe('imei1');
    const same = freshImei();
    const repeated = await apiPost(t, retailer, paths.customers.updateImei, {
      customer_id: rahul,
      imei1: same,
      imei2: same,
    });
    expect(repeated.status).toBe(400);
    expect(repeated.body.fields[0].field).toBe('imei2');
    const taken = await apiPost(t, retailer, paths.customers.updateImei, {
      customer_id: rahul,
      imei1: freshImei(),
      imei2: aarav.imei1,
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'IMEI_IN_USE', fields: [{ field: 'imei2' }] });
    expect(await deviceImeis()).toEqual(before);
  });

  it('answers 404 for another organisation’s customer', async ({ otherRetailer: other }) => {
    const kiran = await customerNamed('Kiran', other);
    const before = await deviceImeis();
    const foreign = await apiPost(t, retailer, paths.customers.updateImei, {
      customer_id: kiran,
      imei1: freshImei(),
      imei2: freshImei(),
    });
    expect(foreign.status).toBe(404);
    expect(await deviceImeis()).toEqual(before);
  });
});
