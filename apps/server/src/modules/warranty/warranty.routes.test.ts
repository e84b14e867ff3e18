import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppType } from '@kisht/domain/common/enums';
import { addDays, formatCalendarDate, istDate } from '@kisht/domain/common/time';
import { paths } from '@kisht/domain/paths';
import {
  type TPlan,
  type TPlanActivation,
  ZPlan,
  ZSellPlanResponseItem,
} from '@kisht/domain/plans/plans.schema';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { z } from 'zod';
import { queryRows } from '../../db/client';
import { DEMO_CUSTOMER_MOBILE, DEMO_ORG_ID } from '../../db/seed/seed';
import { apiGet, apiPost, freshImei } from '../../test/fixtures';
import { bearer, type TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';
import { sendWarrantyExpiryReminders } from './warranty.service';

/** Extended warranty (issue 14, app_type 5): the PDF certificate and the expiry reminders. */
let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

const plansOf = async (token: string, appType: number): Promise<TPlan[]> =>
  z.array(ZPlan).parse((await apiGet(t, token, `${paths.plans.list}?app_type=${appType}`)).body.data);

/** Sells the demo organisation's first plan of `appType` to a new buyer; returns the activation. */
const sell = async (appType: number, overrides: Record<string, unknown> = {}): Promise<TPlanActivation> => {
  const [plan] = await plansOf(retailer, appType);
  const products = (await apiGet(t, retailer, paths.catalogue.products)).body.data as { id: number }[];
  const productId = plan!.productIds[0] ?? products[0]!.id;
  const answer = await apiPost(t, retailer, paths.plans.sell, {
    firstName: 'Sunita',
    lastName: 'Verma',
    mobile: '9123400001',
    plan_id: plan!.id,
    product_id: productId,
    imei: freshImei(),
    ...overrides,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return z.array(ZSellPlanResponseItem).parse(answer.body.data)[0]!.activation;
};

const certificate = (token: string, query: string) =>
  t.app.inject({ method: 'GET', url: `${paths.plans.warrantyCertificate}?${query}`, headers: bearer(token) });

/** The PDF's text through poppler's pdftotext when the machine has it; null otherwise. */
const pdfText = (pdf: Buffer): string | null => {
  const dir = mkdtempSync(join(tmpdir(), 'warranty-'));
  try {
    const file = join(dir, 'certificate.pdf');
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

describe('warranty certificate', () => {
  it('is a PDF naming the code, buyer, IMEI, term and price, in English and in Hindi', async () => {
    const activation = await sell(AppType.EXTENDED_WARRANTY, { start_date: '2026-03-01' });
    for (const [lang, title] of [
      ['en', 'Extended Warranty Certificate'],
      ['hn', 'वारंटी'],
    ] as const) {
      const response = await certificate(retailer, `activation_id=${activation.id}&lang=${lang}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toContain(`warranty-${activation.code}.pdf`);
      const pdf = response.rawPayload;
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.length).toBeGreaterThan(5_000);
      // The code is the document's subject: in the bytes whether or not a text extractor exists.
      expect(pdf.toString('latin1')).toContain(activation.code);
      const text = pdfText(pdf);
      if (text !== null) {
        for (const expected of [
          activation.code,
          title,
          'Sunita Verma',
          '+91 91234 00001',
          activation.imei!,
          '01-03-2026',
          '28-02-2027',
          '₹999.00',
          'Ravi Mobiles',
        ])
          expect(text, lang).toContain(expected);
      }
    }
  });

  it('defaults to English', async () => {
    const activation = await sell(AppType.EXTENDED_WARRANTY);
    const response = await certificate(retailer, `activation_id=${activation.id}`);
    expect(response.statusCode).toBe(200);
    const text = pdfText(response.rawPayload);
    if (text !== null) expect(text).toContain('Extended Warranty Certificate');
  });

  it('answers 404 to another organisation’s retailer and 409 for a plan that is not a warranty', async ({
    otherRetailer: other,
  }) => {
    const warranty = await sell(AppType.EXTENDED_WARRANTY);
    const foreign = await certificate(other, `activation_id=${warranty.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain(warranty.code);
    expect(foreign.json().code).toBe('ACTIVATION_CODE_NOT_FOUND');

    const antiHacking = await sell(AppType.ANTI_HACKING, { imei: undefined });
    const notWarranty = await certificate(retailer, `activation_id=${antiHacking.id}`);
    expect(notWarranty.statusCode).toBe(409);
    expect(notWarranty.json().code).toBe('PLAN_NOT_APPLICABLE');
  });

  it('gives a customer user the certificate of a warranty bought with their mobile, and not another’s', async () => {
    const theirs = await sell(AppType.EXTENDED_WARRANTY, { mobile: DEMO_CUSTOMER_MOBILE.slice(3) });
    const someoneElses = await sell(AppType.EXTENDED_WARRANTY, { mobile: '9123400099' });
    const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    const own = await certificate(customer, `activation_id=${theirs.id}&lang=mr`);
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(own.rawPayload);
    if (text !== null) expect(text).toContain('वॉरंटी');
    expect((await certificate(customer, `activation_id=${someoneElses.id}`)).statusCode).toBe(404);
  });

  it('refuses a bad activation_id or language naming the field', async () => {
    for (const [query, field] of [
      ['activation_id=abc', 'activation_id'],
      ['', 'activation_id'],
      ['activation_id=-1', 'activation_id'],
      ['activation_id=1&lang=fr', 'lang'],
    ] as const) {
      const response = await certificate(retailer, query);
      expect(response.statusCode, query).toBe(400);
      expect(
        (response.json().fields as { field: string }[]).map((f) => f.field),
        query,
      ).toContain(field);
    }
  });
});

describe('warranty expiry reminders', () => {
  const reminders = () =>
    queryRows<{ mobile: string; body: string | null }>(
      t.app.ctx.db,
      sql`select mobile, body from sms_outbox where purpose = 'WARRANTY_EXPIRY' order by id`,
    );
  const setEndsOn = (activationId: number, endsOn: string) =>
    t.app.ctx.db.execute(sql`update plan_activations set ends_on = ${endsOn} where id = ${activationId}`);

  it('texts the buyer of a warranty ending within 30 days once, and not one ending in 90 days', async () => {
    const soon = await sell(AppType.EXTENDED_WARRANTY, { mobile: '9123400010' });
    const later = await sell(AppType.EXTENDED_WARRANTY, { mobile: '9123400011' });
    const notWarranty = await sell(AppType.FAMILY_CARE, { mobile: '9123400012', imei: undefined });
    const today = istDate();
    await setEndsOn(soon.id, addDays(today, 10));
    await setEndsOn(later.id, addDays(today, 90));
    await setEndsOn(notWarranty.id, addDays(today, 5));
    const deps = { db: t.app.ctx.db, sms: t.app.ctx.sms };

    expect(await sendWarrantyExpiryReminders(deps)).toBe(1);
    await t.app.ctx.sms.settled();
    const rows = await reminders();
    expect(rows.map((row) => row.mobile)).toEqual(['+919123400010']);
    const text = t.sms.find((message) => message.to === '+919123400010')?.text ?? '';
    expect(text).toContain(soon.code);
    expect(text).toContain(formatCalendarDate(addDays(today, 10)));

    expect(await sendWarrantyExpiryReminders(deps)).toBe(0);
    expect(await reminders()).toHaveLength(1);
  });
});
