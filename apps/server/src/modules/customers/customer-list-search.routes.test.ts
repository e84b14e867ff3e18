import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { apiGet, apiPost, customerBody } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

let t: TestApp;
let retailer: string;
let productId: number;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(async ({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
  productId = (await apiGet(t, retailer, `${paths.catalogue.products}?device_type=0`)).body.data[0].id;
});

type TListed = { items: { id: number; firstName: string }[]; total: number };
const list = async (token: string, query: string): Promise<TListed> =>
  (await apiGet(t, token, `${paths.customers.list}?pageSize=100&${query}`)).body.data;
const idsFound = async (search: string) =>
  (await list(retailer, `search=${encodeURIComponent(search)}`)).items.map((c) => c.id);

describe('customer list search (issue 17)', () => {
  it('finds a mobile stored with +91 by any run of its digits, an IMEI and an EMI PIN', async ({ make }) => {
    const body = customerBody(productId, { firstName: 'Zoya', lastName: 'Qureshi', mobile: '9123456780' });
    const created = (await apiPost(t, retailer, paths.customers.create, body)).body.data;
    expect(created.mobile).toBe('+919123456780');
    for (const search of [
      '56780', // the last digits
      '9123456780', // the national number
      '+91 91234 56780', // as typed, with the country code and spaces
      '919123456780',
      '91234', // a prefix
      '1234567', // the middle
      '+9191',
    ]) {
      expect(await idsFound(search), search).toContain(created.id);
    }
    for (const search of ['9123456781', '8123456780', '456790']) {
      expect(await idsFound(search), search).not.toContain(created.id);
    }

    // Either IMEI, whole or its last digits.
    expect(await idsFound(body.imei1)).toEqual([created.id]);
    expect(await idsFound(body.imei2.slice(-9))).toEqual([created.id]);
    const otherDigit = String((Number(body.imei2[7]) + 1) % 10);
    expect(await idsFound(`${body.imei2.slice(0, 7)}${otherDigit}${body.imei2.slice(8)}`)).not.toContain(
      created.id,
    );

    // A 6-digit search is also an EMI PIN.
    await make.customerRow(created.id, { emiPin: '480213' });
    expect(await idsFound('480213')).toEqual([created.id]);
  });

  it('never finds another organisation’s customer', async ({ otherRetailer: other }) => {
    const kiran = (await list(other, 'search=9822222201')).items;
    expect(kiran.map((c) => c.firstName)).toEqual(['Kiran']);
    expect(await list(retailer, 'search=9822222201')).toEqual(
      expect.objectContaining({ items: [], total: 0 }),
    );
    expect(await list(retailer, 'search=Kiran')).toEqual(expect.objectContaining({ items: [], total: 0 }));
    expect((await list(other, 'search=Meera')).total).toBe(0);
  });

  it('counts what it lists, by name (first, last or both), status and digits, as customers change', async ({
    make,
  }) => {
    const people: [string, string][] = [
      ['Asha', 'Ashar'],
      ['Asha', 'Rao'],
      ['Rao', 'Kumar'],
      ['Deepa', 'Ashok'],
    ];
    const created = new Map<string, number>();
    for (const [firstName, lastName] of people) {
      const response = await apiPost(
        t,
        retailer,
        paths.customers.create,
        customerBody(productId, { firstName, lastName }),
      );
      expect(response.status).toBe(200);
      created.set(`${firstName} ${lastName}`, response.body.data.id);
    }
    const expectCountsMatch = async () => {
      for (const query of [
        '',
        'search=asha',
        'search=Rao',
        'search=a',
        'search=ash',
        'search=%25',
        'status=inactive',
        'status=install&search=a',
        'search=9123456780',
      ]) {
        const page = await list(retailer, query);
        expect(page.total, query).toBe(page.items.length);
      }
    };
    await expectCountsMatch();
    expect((await list(retailer, 'search=asha')).total).toBe(2); // Asha Ashar counted once

    // Status and name changes, and a delete, keep the counts.
    await make.customerRow(created.get('Asha Rao')!, { status: 1, firstName: 'Usha' });
    await expectCountsMatch();
    expect((await list(retailer, 'search=asha')).total).toBe(1);
    const [deepa] = await queryRows<{ id: number }>(
      t.app.ctx.db,
      sql`select id from customers where first_name = 'Deepa'`,
    );
    await t.app.ctx.db.execute(sql`delete from emis where customer_id = ${deepa!.id}`);
    await t.app.ctx.db.execute(sql`delete from devices where customer_id = ${deepa!.id}`);
    await t.app.ctx.db.execute(sql`delete from customers where id = ${deepa!.id}`);
    await expectCountsMatch();
    expect((await list(retailer, 'search=deepa')).total).toBe(0);
  });
});
