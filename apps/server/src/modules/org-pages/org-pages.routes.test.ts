import {
  MAX_ORG_PAGE_MARKDOWN,
  ZOrgPageView,
  ZSupportContact,
} from '@kisht/domain/org-pages/org-pages.schema';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import {
  DEMO_ADMIN_MOBILE,
  DEMO_CUSTOMER_MOBILE,
  DEMO_ORG_ID,
  DEMO_SUPPORT_CONTACT,
  SECOND_ORG_ID,
} from '../../db/seed/seed';
import { apiGet, apiPut } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

/** The organisation's help, support and privacy pages (issue 16) through the HTTP routes. */
let t: TestApp;
let admin: string;

// The file's helpers below act as the test's app (routeTest fixtures) and the demo organisation's admin.
it.beforeEach(async ({ t: app }) => {
  t = app;
  admin = await t.tokenFor(DEMO_ORG_ID, DEMO_ADMIN_MOBILE);
});

const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field);
const pageOf = (body: { data: unknown }) => ZOrgPageView.parse(body.data);

const count = async (table: 'org_pages' | 'audit_log') =>
  (
    await queryRows<{ n: number }>(t.app.ctx.db, sql`select count(*)::int as n from ${sql.identifier(table)}`)
  )[0]!.n;

const settingsOf = async (orgId: number) =>
  (
    await queryRows<{ settings: Record<string, unknown> }>(
      t.app.ctx.db,
      sql`select settings from organizations where id = ${orgId}`,
    )
  )[0]!.settings;

describe('reading a page', () => {
  it('serves the seeded page in Hindi, falls back to English for a language not written, and carries the contact on support', async ({
    retailer,
  }) => {
    const hindi = pageOf((await apiGet(t, retailer, `${paths.orgPages.help}?language=hn`)).body);
    expect(hindi).toMatchObject({
      page: 'help',
      language: 'hn',
      requestedLanguage: 'hn',
      isFallback: false,
      pagesInLanguage: [],
    });
    expect(hindi.bodyMarkdown).toContain('## EMI का भुगतान');
    expect(hindi.bodyMarkdown).toContain('Kisht Demo');
    expect(hindi.updatedAt).not.toBeNull();

    const tamil = pageOf((await apiGet(t, retailer, `${paths.orgPages.privacyPolicy}?language=tm`)).body);
    expect(tamil).toMatchObject({
      language: 'en',
      requestedLanguage: 'tm',
      isFallback: true,
      isDefault: false,
      // Nothing of the demo organisation is in Tamil.
      pagesInLanguage: [],
    });
    expect(tamil.bodyMarkdown).toContain('## What we keep');
    expect(tamil.supportContact).toBeNull();

    const support = pageOf((await apiGet(t, retailer, paths.orgPages.support)).body);
    expect(support.requestedLanguage).toBe('en');
    expect(support.supportContact).toEqual(DEMO_SUPPORT_CONTACT);
  });

  it('lets a customer read every page of their own organisation', async () => {
    const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    for (const url of [paths.orgPages.help, paths.orgPages.support, paths.orgPages.privacyPolicy]) {
      const answer = await apiGet(t, customer, `${url}?language=hn`);
      expect(answer.status, url).toBe(200);
      expect(pageOf(answer.body).language).toBe('hn');
    }
  });

  it('falls back to the built-in text, in the language asked when there is one, else English', async () => {
    await t.app.ctx.db.execute(sql`delete from org_pages where org_id = ${DEMO_ORG_ID}`);
    const hindi = pageOf((await apiGet(t, admin, `${paths.orgPages.support}?language=hn`)).body);
    expect(hindi).toMatchObject({ language: 'hn', isFallback: false, isDefault: true, updatedAt: null });
    expect(hindi.bodyMarkdown).toContain('Kisht Demo Finance Pvt. Ltd.');
    const bengali = pageOf((await apiGet(t, admin, `${paths.orgPages.support}?language=bd`)).body);
    expect(bengali).toMatchObject({
      language: 'en',
      requestedLanguage: 'bd',
      isFallback: true,
      isDefault: true,
    });
    expect(bengali.bodyMarkdown).toContain('Monday to Saturday');
    // The organisation's English text wins over a built-in text in the language asked.
    await apiPut(t, admin, paths.orgPages.support, { language: 'en', bodyMarkdown: '# Call us' });
    const again = pageOf((await apiGet(t, admin, `${paths.orgPages.support}?language=hn`)).body);
    expect(again).toMatchObject({
      language: 'en',
      isFallback: true,
      isDefault: false,
      bodyMarkdown: '# Call us',
      // Help and the privacy policy are still served in Hindi (built-in); support is not.
      pagesInLanguage: ['help', 'privacy_policy'],
    });
    // A page the organisation wrote in Tamil is named when another page falls back from Tamil.
    await apiPut(t, admin, paths.orgPages.help, { language: 'tm', bodyMarkdown: '# உதவி' });
    const tamil = pageOf((await apiGet(t, admin, `${paths.orgPages.support}?language=tm`)).body);
    expect(tamil).toMatchObject({ language: 'en', isFallback: true, pagesInLanguage: ['help'] });
  });

  it('refuses an unknown language, naming it', async () => {
    const answer = await apiGet(t, admin, `${paths.orgPages.help}?language=xx`);
    expect(answer.status).toBe(400);
    expect(fieldsOf(answer.body)).toContain('language');
  });
});

describe('the admin writes a page', () => {
  it('writes the Hindi help page, which a retailer then reads, audited', async ({
    retailer,
    otherRetailer: second,
  }) => {
    const saved = await apiPut(t, admin, paths.orgPages.help, {
      language: 'hn',
      bodyMarkdown: '# नई मदद\n\nदुकान से संपर्क करें।',
    });
    expect(saved.status).toBe(200);
    expect(pageOf(saved.body)).toMatchObject({ language: 'hn', isFallback: false, isDefault: false });
    const read = pageOf((await apiGet(t, retailer, `${paths.orgPages.help}?language=hn`)).body);
    expect(read.bodyMarkdown).toBe('# नई मदद\n\nदुकान से संपर्क करें।');
    const audits = await queryRows<{ action: string; entity_id: string }>(
      t.app.ctx.db,
      sql`select action, entity_id from audit_log where action = 'org_page.update'`,
    );
    expect(audits).toEqual([{ action: 'org_page.update', entity_id: 'help:hn' }]);
    // The other organisation's page is untouched.
    const theirs = pageOf((await apiGet(t, second, `${paths.orgPages.help}?language=hn`)).body);
    expect(theirs.bodyMarkdown).toContain('Shree Finance');
  });

  it('refuses bad input (400 naming the field) and a retailer or customer (403), writing nothing', async ({
    retailer,
  }) => {
    const before = [await count('org_pages'), await count('audit_log')];
    for (const [body, field] of [
      [{ language: 'xx', bodyMarkdown: 'Hi' }, 'language'],
      [{ bodyMarkdown: 'Hi' }, 'language'],
      [{ language: 'en', bodyMarkdown: '   ' }, 'bodyMarkdown'],
      [{ language: 'en', bodyMarkdown: 'x'.repeat(MAX_ORG_PAGE_MARKDOWN + 1) }, 'bodyMarkdown'],
      [{ language: 'en', bodyMarkdown: 42 }, 'bodyMarkdown'],
    ] as const) {
      const answer = await apiPut(t, admin, paths.orgPages.privacyPolicy, body);
      expect(answer.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(fieldsOf(answer.body)).toContain(field);
    }
    const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    for (const token of [retailer, customer]) {
      expect(
        (await apiPut(t, token, paths.orgPages.help, { language: 'en', bodyMarkdown: 'x' })).status,
      ).toBe(403);
      expect((await apiPut(t, token, paths.orgPages.supportContact, { email: 'a@b.in' })).status).toBe(403);
    }
    expect([await count('org_pages'), await count('audit_log')]).toEqual(before);
  });

  it("lets another organisation's admin change only its own organisation", async ({
    make,
    otherRetailer: second,
  }) => {
    await make.user({
      orgId: SECOND_ORG_ID,
      mobile: '+919812300099',
      name: 'Shree Admin',
      userType: 'admin',
    });
    const theirAdmin = await t.tokenFor(SECOND_ORG_ID, '+919812300099');
    const demoBefore = pageOf((await apiGet(t, admin, `${paths.orgPages.help}?language=en`)).body);
    expect(
      (await apiPut(t, theirAdmin, paths.orgPages.help, { language: 'en', bodyMarkdown: '# Shree help' }))
        .status,
    ).toBe(200);
    expect(
      (await apiPut(t, theirAdmin, paths.orgPages.supportContact, { email: 'help@shree.example' })).status,
    ).toBe(200);
    expect(pageOf((await apiGet(t, admin, `${paths.orgPages.help}?language=en`)).body)).toEqual(demoBefore);
    expect((await settingsOf(DEMO_ORG_ID)).supportContact).toEqual(DEMO_SUPPORT_CONTACT);
    expect(pageOf((await apiGet(t, second, `${paths.orgPages.help}?language=en`)).body).bodyMarkdown).toBe(
      '# Shree help',
    );
    expect((await settingsOf(SECOND_ORG_ID)).supportContact).toEqual({ email: 'help@shree.example' });
  });
});

describe('support contact', () => {
  it('stores phone and WhatsApp as +91 mobiles, clears empty fields, keeps other settings, audited', async () => {
    const before = await settingsOf(DEMO_ORG_ID);
    const saved = await apiPut(t, admin, paths.orgPages.supportContact, {
      phone: '98765 43219',
      whatsapp: '',
      email: ' help@kisht.example ',
    });
    expect(saved.status).toBe(200);
    expect(ZSupportContact.parse(saved.body.data)).toEqual({
      phone: '+919876543219',
      email: 'help@kisht.example',
    });
    const after = await settingsOf(DEMO_ORG_ID);
    expect(after).toEqual({
      ...before,
      supportContact: { phone: '+919876543219', email: 'help@kisht.example' },
    });
    const support = pageOf((await apiGet(t, admin, paths.orgPages.support)).body);
    expect(support.supportContact).toEqual({ phone: '+919876543219', email: 'help@kisht.example' });
    // Nothing set: no contact at all.
    expect((await apiPut(t, admin, paths.orgPages.supportContact, {})).status).toBe(200);
    expect((await settingsOf(DEMO_ORG_ID)).supportContact).toBeUndefined();
    expect(pageOf((await apiGet(t, admin, paths.orgPages.support)).body).supportContact).toBeNull();
    const audits = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`select count(*)::int as n from audit_log where action = 'org.support_contact'`,
    );
    expect(audits[0]!.n).toBe(2);
  });

  it('refuses a bad phone, WhatsApp or e-mail, naming each', async () => {
    const answer = await apiPut(t, admin, paths.orgPages.supportContact, {
      phone: '12345',
      whatsapp: '+15551234567',
      email: 'not-an-email',
    });
    expect(answer.status).toBe(400);
    expect(fieldsOf(answer.body).sort()).toEqual(['email', 'phone', 'whatsapp']);
    expect((await settingsOf(DEMO_ORG_ID)).supportContact).toEqual(DEMO_SUPPORT_CONTACT);
  });
});
