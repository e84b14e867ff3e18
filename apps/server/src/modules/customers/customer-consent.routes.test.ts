import { AppErrorCode } from '@kisht/domain/common/errors';
import { ZCustomerConsent, ZMyConsent } from '@kisht/domain/customers/consent.schema';
import { CONSENT_TEXT_VERSION } from '@kisht/domain/customers/consent-texts';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_CUSTOMER_MOBILE, DEMO_ORG_ID, SECOND_ORG_ID } from '../../db/seed/seed';
import {
  apiGet,
  apiPost,
  apiUpload,
  customerBody,
  JPEG_BYTES,
  PNG_1X1,
  recordConsent,
} from '../../test/fixtures';
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

const countOf = async (table: string) =>
  Number((await queryRows(t.app.ctx.db, sql.raw(`select count(*)::int as n from ${table}`)))[0]!.n);
/** What a consent recording may write: the consent row and its audit entry. */
const written = async () => [await countOf('customer_consents'), await countOf('audit_log')];

/** A new inactive customer of `token` (the retailer unless given), with no consent yet. */
const newCustomer = async (token = retailer) =>
  (await apiPost(t, token, paths.customers.create, customerBody(productId))).body.data.id as number;

const uploadSignature = async (customerId: number, token = retailer) =>
  (
    await apiUpload(
      t,
      token,
      paths.customers.signature,
      { customer_id: customerId, kind: 'customer_signature' },
      { bytes: PNG_1X1, name: 'signature.png', type: 'image/png' },
    )
  ).body.data.id as number;

const consentOf = (customerId: number, token = retailer) =>
  apiGet(t, token, `${paths.customers.consent}?customer_id=${customerId}`);

describe('consent to remote locking: record and read', () => {
  it("records the text in the customer's language, who recorded it, when, and the signature", async () => {
    const customerId = await newCustomer();
    expect((await consentOf(customerId)).body.data).toBeNull();

    const shown = await apiGet(
      t,
      retailer,
      `${paths.customers.consentText}?customer_id=${customerId}&language=hn`,
    );
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({ language: 'hn', textVersion: CONSENT_TEXT_VERSION });
    // In Hindi, naming the customer, the retailer and how to reach them, and the emergency number.
    expect(shown.body.data.text).toMatch(/[\u0900-\u097F]/);
    for (const part of ['Meera Nair', 'Ravi Mobiles', '+91 98765 43210', '(112)']) {
      expect(shown.body.data.text).toContain(part);
    }

    const signatureId = await uploadSignature(customerId);
    const before = Date.now();
    const recorded = await apiPost(t, retailer, paths.customers.consent, {
      customer_id: customerId,
      language: 'hn',
      textVersion: CONSENT_TEXT_VERSION,
      signature_media_id: signatureId,
    });
    expect(recorded.status).toBe(200);
    const consent = ZCustomerConsent.parse(recorded.body.data);
    expect(consent).toMatchObject({
      customerId,
      language: 'hn',
      textVersion: CONSENT_TEXT_VERSION,
      text: shown.body.data.text,
      recordedByName: 'Ravi Mobiles',
      signature: { mediaId: signatureId, imageName: expect.stringMatching(/^41\/customer_signature\//) },
    });
    expect(Date.parse(consent.consentedAt)).toBeGreaterThanOrEqual(before - 1000);

    expect((await consentOf(customerId)).body.data).toEqual(recorded.body.data);
    const audit = await queryRows<{ action: string }>(
      t.app.ctx.db,
      sql`select action from audit_log where entity_id = ${String(customerId)} and action = 'customer.consent'`,
    );
    expect(audit).toHaveLength(1);
  });

  it('lets a mini-retailer record consent for their own customer, and the parent retailer read it', async ({
    miniRetailer: mini,
  }) => {
    const customerId = await newCustomer(mini);
    const recorded = await recordConsent(t, mini, customerId, 'tm');
    expect(recorded.status).toBe(200);
    expect(recorded.body.data).toMatchObject({ language: 'tm', recordedByName: 'Ravi Mobiles – Andheri' });
    // The mini-retailer's customer names the mini-retailer as whom to contact.
    expect(recorded.body.data.text).toContain('Ravi Mobiles – Andheri');
    expect((await consentOf(customerId)).body.data.language).toBe('tm');
  });

  it('answers a repeat with the consent that stands, and writes nothing more', async () => {
    const customerId = await newCustomer();
    const first = await recordConsent(t, retailer, customerId, 'en');
    expect(first.status).toBe(200);
    const before = await written();
    const again = await recordConsent(t, retailer, customerId, 'mr');
    expect(again.status).toBe(200);
    expect(again.body.message).toBe('Consent was already recorded');
    expect(again.body.data).toEqual(first.body.data);
    // The repeat's signature upload is a media row and its audit; the consent and its audit are not.
    const after = await written();
    expect(after[0]).toBe(before[0]);
    expect(
      await queryRows(
        t.app.ctx.db,
        sql`select 1 from audit_log where entity_id = ${String(customerId)} and action = 'customer.consent'`,
      ),
    ).toHaveLength(1);
  });

  it("answers 404 for another organisation's customer and writes nothing", async ({
    otherRetailer: other,
    miniRetailer: mini,
  }) => {
    const customerId = await newCustomer();
    const signatureId = await uploadSignature(customerId);
    const before = await written();
    const recorded = await apiPost(t, other, paths.customers.consent, {
      customer_id: customerId,
      language: 'en',
      textVersion: CONSENT_TEXT_VERSION,
      signature_media_id: signatureId,
    });
    expect(recorded.status).toBe(404);
    expect(recorded.body.code).toBe(AppErrorCode.CUSTOMER_NOT_FOUND);
    expect((await consentOf(customerId, other)).status).toBe(404);
    const text = await apiGet(
      t,
      other,
      `${paths.customers.consentText}?customer_id=${customerId}&language=en`,
    );
    expect(text.status).toBe(404);
    expect(await written()).toEqual(before);
    // A sibling mini-retailer sees only their own customers.
    expect((await consentOf(customerId, mini)).status).toBe(404);
  });

  it.each([
    ['language', { language: 'ta' }],
    ['textVersion', { textVersion: 'lock-consent-v0' }],
    ['textVersion', { textVersion: '' }],
    ['customer_id', { customer_id: 2_147_483_648 }],
    ['customer_id', { customer_id: undefined }],
    ['signature_media_id', { signature_media_id: 'abc' }],
  ])('refuses a bad %s with 400 naming it, and writes nothing', async (field, override) => {
    const customerId = await newCustomer();
    const signatureId = await uploadSignature(customerId);
    const before = await written();
    const response = await apiPost(t, retailer, paths.customers.consent, {
      customer_id: customerId,
      language: 'en',
      textVersion: CONSENT_TEXT_VERSION,
      signature_media_id: signatureId,
      ...override,
    });
    expect(response.status).toBe(400);
    expect(response.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect(await written()).toEqual(before);
    expect((await consentOf(customerId)).body.data).toBeNull();
  });

  it("refuses a signature that is not this customer's signature, naming signature_media_id", async () => {
    const customerId = await newCustomer();
    const photo = await apiUpload(
      t,
      retailer,
      paths.customers.uploadImage,
      { customer_id: customerId, kind: 'customer_profile' },
      { bytes: JPEG_BYTES, name: 'photo.jpg', type: 'image/jpeg' },
    );
    const otherCustomersSignature = await uploadSignature(await newCustomer());
    const before = await written();
    const body = { customer_id: customerId, language: 'en', textVersion: CONSENT_TEXT_VERSION };
    const notASignature = await apiPost(t, retailer, paths.customers.consent, {
      ...body,
      signature_media_id: photo.body.data.id,
    });
    expect(notASignature.status).toBe(400);
    expect(notASignature.body.fields[0].field).toBe('signature_media_id');
    const someoneElses = await apiPost(t, retailer, paths.customers.consent, {
      ...body,
      signature_media_id: otherCustomersSignature,
    });
    expect(someoneElses.status).toBe(404);
    expect(someoneElses.body.fields[0].field).toBe('signature_media_id');
    expect(await written()).toEqual(before);
  });

  it('refuses a bad language or customer id on the text and the read with 400 naming it', async () => {
    const customerId = await newCustomer();
    const text = await apiGet(
      t,
      retailer,
      `${paths.customers.consentText}?customer_id=${customerId}&language=xx`,
    );
    expect(text.status).toBe(400);
    expect(text.body.fields.map((f: { field: string }) => f.field)).toContain('language');
    const read = await apiGet(t, retailer, `${paths.customers.consent}?customer_id=abc`);
    expect(read.status).toBe(400);
    expect(read.body.fields.map((f: { field: string }) => f.field)).toContain('customer_id');
  });
});

describe('the enrolment QR needs the consent first', () => {
  it('answers 409 CONSENT_REQUIRED without consent and issues no token; after consent it issues the QR', async () => {
    const customerId = await newCustomer();
    const tokenHash = async () =>
      (
        await queryRows<{ h: string | null }>(
          t.app.ctx.db,
          sql`select enrolment_token_hash as h from devices where customer_id = ${customerId}`,
        )
      )[0]!.h;

    const refused = await apiGet(t, retailer, `${paths.customers.qrCode}?customer_id=${customerId}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe(AppErrorCode.CONSENT_REQUIRED);
    expect(refused.body.message).toMatch(/consent/i);
    const png = await t.app.inject({
      method: 'GET',
      url: `${paths.customers.qrCodePng}?customer_id=${customerId}`,
      headers: { authorization: `Bearer ${retailer}` },
    });
    expect(png.statusCode).toBe(409);
    expect(await tokenHash()).toBeNull();

    expect((await recordConsent(t, retailer, customerId)).status).toBe(200);
    const qr = await apiGet(t, retailer, `${paths.customers.qrCode}?customer_id=${customerId}`);
    expect(qr.status).toBe(200);
    expect(await tokenHash()).not.toBeNull();
  });

  it('issues the QR of a demo customer still to enrol (the seed recorded their consent)', async () => {
    const rahul = (await apiGet(t, retailer, `${paths.customers.list}?search=Rahul`)).body.data.items[0].id;
    expect((await consentOf(rahul)).body.data).toMatchObject({
      language: 'en',
      recordedByName: 'Ravi Mobiles',
    });
    expect((await apiGet(t, retailer, `${paths.customers.qrCode}?customer_id=${rahul}`)).status).toBe(200);
  });
});

describe("the customer's own view of their consent", () => {
  it('lists the consents the logged-in customer gave, with the signature inline', async () => {
    const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    const mine = await apiGet(t, customer, paths.customers.myConsents);
    expect(mine.status).toBe(200);
    expect(mine.body.data).toHaveLength(1);
    const consent = ZMyConsent.parse(mine.body.data[0]);
    expect(consent).toMatchObject({ language: 'en', recordedByName: 'Ravi Mobiles' });
    expect(consent.productName).toContain('Redmi');
    expect(consent.text).toContain('Priya Patel');
    expect(consent.signatureDataUrl).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/);
  });

  it("is the customer's alone: a retailer gets 403 there, and a customer gets 403 on the retailer's routes", async () => {
    expect((await apiGet(t, retailer, paths.customers.myConsents)).status).toBe(403);
    const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    const priya = (await apiGet(t, retailer, `${paths.customers.list}?search=Priya`)).body.data.items[0].id;
    expect((await consentOf(priya, customer)).status).toBe(403);
    // Another organisation's customer sees none of organisation 41's consents.
    const kiran = await t.tokenFor(SECOND_ORG_ID, '+919822222201');
    const theirs = (await apiGet(t, kiran, paths.customers.myConsents)).body.data;
    expect(theirs.every((c: { text: string }) => !c.text.includes('Priya'))).toBe(true);
  });
});
