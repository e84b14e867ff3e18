import { istDate } from '@kisht/domain/common/time';
import { ZMyLoan } from '@kisht/domain/emi/emi.schema';
import { paths } from '@kisht/domain/paths';
import { describe, expect } from 'vitest';
import { z } from 'zod';
import { DEMO_CUSTOMER_MOBILE, DEMO_ORG_ID } from '../../db/seed/seed';
import { apiGet, apiPost, customerIdNamed } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

let t: TestApp;
let retailer: string;
let customer: string;

// The file's helpers below act as the test's app, retailer and customer (Priya, the demo borrower).
it.beforeEach(async ({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
  customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
});

const myLoans = async () => z.array(ZMyLoan).parse((await apiGet(t, customer, paths.emi.myLoans)).body.data);
/** Whole calendar days from `from` to `to` (`YYYY-MM-DD`). */
const daysFrom = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;
/** The organisation's flat late fee in the demo seed (org 41: ₹200 after 3 grace days). */
const LATE_FEE_PAISE = 20_000;

describe("the customer's own loan: late fee, total due and days overdue", () => {
  it("shows the late fee the organisation's rule adds to an overdue instalment, and the total due with it", async () => {
    const [loan] = await myLoans();
    const [first, second] = loan!.instalments;
    expect(first!.status).toBe('overdue');
    const days = daysFrom(first!.dueDate, istDate());
    expect(days).toBeGreaterThan(3); // Priya's loan started 50 days ago: past the grace days
    expect(first).toMatchObject({
      daysOverdue: days,
      penaltyPaise: 0,
      lateFeePaise: LATE_FEE_PAISE,
      totalDuePaise: first!.outstandingPaise + LATE_FEE_PAISE,
    });
    // Not yet due: no days overdue, no late fee, the instalment alone.
    expect(second!.status).not.toBe('overdue');
    expect(second).toMatchObject({
      daysOverdue: 0,
      lateFeePaise: 0,
      totalDuePaise: second!.outstandingPaise,
    });
    // The UPI link asks for the total due, late fee included.
    const link = new URL(loan!.payTo.upiLink!.replace('upi://', 'http://'));
    expect(link.searchParams.get('am')).toBe(((first!.outstandingPaise + LATE_FEE_PAISE) / 100).toFixed(2));
  });

  it('counts a levied late fee once, and shows it after the instalment is paid', async () => {
    const priya = await customerIdNamed(t, retailer, 'Priya');
    const before = (await myLoans())[0]!.instalments[0]!;
    const levied = await apiPost(t, retailer, paths.customers.sendPenalty, {
      customer_id: priya,
      emi_id: before.id,
    });
    expect(levied.status).toBe(200);
    const after = (await myLoans())[0]!.instalments[0]!;
    expect(after).toMatchObject({
      penaltyPaise: LATE_FEE_PAISE,
      penaltyDuePaise: 0,
      lateFeePaise: LATE_FEE_PAISE,
      outstandingPaise: before.outstandingPaise + LATE_FEE_PAISE,
      totalDuePaise: before.totalDuePaise,
    });

    const paid = await apiPost(t, retailer, paths.emi.pay, {
      customer_id: priya,
      emi_ids: [before.id],
      amountPaise: after.outstandingPaise,
      mode: 'cash',
    });
    expect(paid.status).toBe(200);
    expect((await myLoans())[0]!.instalments[0]).toMatchObject({
      status: 'paid',
      daysOverdue: 0,
      lateFeePaise: LATE_FEE_PAISE,
      totalDuePaise: 0,
    });
  });
});
