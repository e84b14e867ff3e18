import { addDays } from '@kisht/domain/common/time';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { apiGet, apiPost, customerBody, customerIdNamed } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';
import { markMaturingLoans } from './customers.service';

let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

const customerNamed = (firstName: string, token = retailer) => customerIdNamed(t, token, firstName);
const history = async (customerId: number) =>
  (await apiGet(t, retailer, `${paths.customers.statusHistory}?customer_id=${customerId}`)).body.data;

describe('status changes with an audit trail', () => {
  it('deactivates and reactivates an installed customer, recording who, when and why', async () => {
    const aarav = await customerNamed('Aarav');
    const off = await apiPost(t, retailer, paths.customers.updateStatus, {
      customer_id: aarav,
      status: 2,
      reason: 'Customer moved away',
    });
    expect(off.status).toBe(200);
    expect(off.body.data.status).toBe(2);
    await apiPost(t, retailer, paths.customers.updateStatus, {
      customer_id: aarav,
      status: 1,
      reason: 'Back in town',
    });
    const trail = await history(aarav);
    expect(trail.slice(0, 2)).toMatchObject([
      { fromStatus: 2, toStatus: 1, reason: 'Back in town', actorName: 'Ravi Mobiles' },
      { fromStatus: 1, toStatus: 2, reason: 'Customer moved away', actorName: 'Ravi Mobiles' },
    ]);
  });

  it.each([
    [{ status: 5 }, 409, 'status'],
    [{ status: 3 }, 409, 'status'],
    [{ status: 9 }, 400, 'status'],
    [{ reason: 'x' }, 400, 'reason'],
  ])('refuses %o with %i naming %s, writing nothing', async (override, code, field) => {
    const aarav = await customerNamed('Aarav');
    const response = await apiPost(t, retailer, paths.customers.updateStatus, {
      customer_id: aarav,
      status: 2,
      reason: 'Because',
      ...override,
    });
    expect(response.status).toBe(code);
    expect(response.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect(await history(aarav)).toEqual([]);
  });

  it('answers 404 for another organisation’s customer', async ({ otherRetailer: other }) => {
    const foreign = await customerNamed('Kiran', other);
    const change = await apiPost(t, retailer, paths.customers.updateStatus, {
      customer_id: foreign,
      status: 2,
      reason: 'Nope',
    });
    expect(change.status).toBe(404);
    expect(
      (await apiGet(t, retailer, `${paths.customers.statusHistory}?customer_id=${foreign}`)).status,
    ).toBe(404);
  });

  it('records enrolment and loan completion in the trail too', async () => {
    const aarav = await customerNamed('Aarav');
    const { instalments, totals } = (await apiGet(t, retailer, `${paths.emi.details}?customer_id=${aarav}`))
      .body.data;
    await apiPost(t, retailer, paths.emi.pay, {
      customer_id: aarav,
      emi_ids: instalments.map((i: { id: number }) => i.id),
      amountPaise: totals.outstandingPaise,
      mode: 'cash',
    });
    expect((await history(aarav))[0]).toMatchObject({ fromStatus: 1, toStatus: 5, reason: 'All EMIs paid' });
  });
});

describe('EMI_EDIT before the first payment', () => {
  it('rebuilds the schedule with the new terms, and refuses after a payment', async () => {
    const productId = (await apiGet(t, retailer, `${paths.catalogue.products}?device_type=0`)).body.data[0]
      .id;
    const customer = (await apiPost(t, retailer, paths.customers.create, customerBody(productId))).body.data;
    const edited = await apiPost(t, retailer, paths.emi.editTerms, {
      customer_id: customer.id,
      loanAmountPaise: 1_200_000,
      annualRateBps: 1200,
      tenureMonths: 12,
      interestMethod: 'flat',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data.instalments).toHaveLength(12);
    expect(
      edited.body.data.instalments.every((i: { amountPaise: number }) => i.amountPaise === 112_000),
    ).toBe(true);
    expect(edited.body.data.instalments[0].dueDate).toBe(customer.emis[0].dueDate);

    const first = edited.body.data.instalments[0];
    await apiPost(t, retailer, paths.emi.pay, {
      customer_id: customer.id,
      emi_ids: [first.id],
      amountPaise: 100,
      mode: 'cash',
    });
    const refused = await apiPost(t, retailer, paths.emi.editTerms, {
      customer_id: customer.id,
      loanAmountPaise: 1_000_000,
      annualRateBps: 0,
      tenureMonths: 6,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('EMI_ALREADY_PAID');
    expect(
      (await apiGet(t, retailer, `${paths.emi.details}?customer_id=${customer.id}`)).body.data.instalments,
    ).toHaveLength(12);
  });

  it.each([
    [{ tenureMonths: 0 }, 400, 'tenureMonths'],
    [{ loanAmountPaise: 99_999_999 }, 400, 'loanAmountPaise'],
    [{ interestMethod: 'simple' }, 400, 'interestMethod'],
  ])('refuses %o naming the field', async (override, code, field) => {
    const priya = await customerNamed('Priya');
    const response = await apiPost(t, retailer, paths.emi.editTerms, {
      customer_id: priya,
      loanAmountPaise: 1_000_000,
      annualRateBps: 1000,
      tenureMonths: 6,
      ...override,
    });
    expect(response.status).toBe(code);
    expect(response.body.fields[0].field).toBe(field);
  });

  it('answers 404 for another organisation’s customer', async ({ otherRetailer: other }) => {
    const foreign = await customerNamed('Kiran', other);
    const response = await apiPost(t, retailer, paths.emi.editTerms, {
      customer_id: foreign,
      loanAmountPaise: 100_000,
      annualRateBps: 0,
      tenureMonths: 3,
    });
    expect(response.status).toBe(404);
  });
});

describe('EMIs maturing (status 6)', () => {
  it('moves installed loans whose last EMI falls due within 30 days, once', async () => {
    // Priya's loan (50 days old) ends first among the installed demo customers.
    const priya = await customerNamed('Priya');
    const lastDue = (
      await queryRows<{ d: string }>(
        t.app.ctx.db,
        sql`select max(due_date)::text as d from emis where customer_id = ${priya}`,
      )
    )[0]!.d;
    expect(await markMaturingLoans(t.app.ctx.db, addDays(lastDue, -31))).toBe(0);
    expect(await markMaturingLoans(t.app.ctx.db, addDays(lastDue, -30))).toBe(1);
    expect(
      (await apiGet(t, retailer, `${paths.customers.details}?customer_id=${priya}`)).body.data.status,
    ).toBe(6);
    expect((await history(priya))[0]).toMatchObject({ fromStatus: 1, toStatus: 6 });
    expect(await markMaturingLoans(t.app.ctx.db, addDays(lastDue, -30))).toBe(0);
  });
});
