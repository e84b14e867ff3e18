import { addDays } from '@kisht/domain/common/time';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_CUSTOMER_MOBILE, DEMO_ORG_ID } from '../../db/seed/seed';
import { FAKE_WHATSAPP_ACCOUNT, signedStatusesPayload, startFakeWhatsApp } from '../../test/fake-whatsapp';
import { apiGet, apiPost, apiPut } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it, type TTestFactories } from '../../test/route-test';
import { deliverReminders, planReminders, type TReminderDeps } from './reminders.service';

/*
 * Payment reminders (issue 29): an organisation's schedule, planned once per instalment, day and
 * channel, sent outside the quiet hours on the phone, by SMS (DLT template) and by WhatsApp (the
 * fake Cloud API checks every request), followed to delivered and read by the signed webhook.
 */

const APP_SECRET = 'whatsapp-app-secret-for-tests';
const VERIFY_TOKEN = 'whatsapp-verify-token';

let t: TestApp;
let retailer: string;
let whatsapp: Awaited<ReturnType<typeof startFakeWhatsApp>>;

// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's needs from this pattern, and it needs none.
it.override('appOverrides', async ({}, { onCleanup }) => {
  const fake = await startFakeWhatsApp();
  whatsapp = fake;
  onCleanup(() => fake.close());
  return {
    WHATSAPP_PROVIDER: 'cloud',
    WHATSAPP_API_URL: fake.url,
    WHATSAPP_PHONE_NUMBER_ID: FAKE_WHATSAPP_ACCOUNT.phoneNumberId,
    WHATSAPP_ACCESS_TOKEN: FAKE_WHATSAPP_ACCOUNT.accessToken,
    WHATSAPP_APP_SECRET: APP_SECRET,
    WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
  };
});
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

/** A +05:30 wall-clock instant. */
const ist = (wall: string) => new Date(`${wall}:00+05:30`);
/** 1 PM +05:30 on 29-11-2026: outside the quiet hours. */
const NOON = ist('2026-11-29T13:00');
const TODAY = '2026-11-29';

const deps = (): TReminderDeps => ({
  db: t.app.ctx.db,
  dispatcher: t.app.ctx.dispatcher,
  sms: t.app.ctx.sms,
  whatsapp: t.app.ctx.whatsapp,
  whatsappTemplate: 'emi_reminder',
  log: t.app.log,
});

const schedule = { offsetsDays: [2, -3, 0], channels: ['phone', 'sms', 'whatsapp'] };

/** A customer of the demo retailer whose first instalment (₹1,000) falls due on `dueDate`, the rest later. */
const customerDue = async (
  make: TTestFactories,
  firstName: string,
  dueDate: string,
  more: { isEnrolled?: boolean } = {},
) => {
  const { customer } = await make.customer({
    firstName,
    mobile: `+9198${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
    status: 1,
    ...more,
  });
  await t.app.ctx.db.execute(
    sql`update emis set due_date = (${dueDate}::date + (instalment_no - 1) * 30), amount_paise = 100000 where customer_id = ${customer.id}`,
  );
  return customer;
};

const remindersOf = (customerId: number) =>
  queryRows<{
    channel: string;
    offset_days: number;
    state: string;
    send_after: Date;
    provider_ref: string | null;
    last_error: string | null;
  }>(
    t.app.ctx.db,
    sql`select channel, offset_days, state, send_after, provider_ref, last_error from reminders where customer_id = ${customerId} order by channel, offset_days`,
  );

describe('reminder schedule (settings)', () => {
  it('is none at first; the retailer sets it (days sorted, audited); others may read but not change it', async ({
    miniRetailer,
  }) => {
    expect((await apiGet(t, retailer, paths.reminders.settings)).body.data).toBeNull();
    const saved = await apiPut(t, retailer, paths.reminders.settings, { reminders: schedule });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({ offsetsDays: [-3, 0, 2], channels: ['phone', 'sms', 'whatsapp'] });
    expect((await apiGet(t, miniRetailer, paths.reminders.settings)).body.data.offsetsDays).toEqual([
      -3, 0, 2,
    ]);
    expect((await apiPut(t, miniRetailer, paths.reminders.settings, { reminders: null })).status).toBe(403);
    const [audit] = await queryRows<{ details: { after: unknown } }>(
      t.app.ctx.db,
      sql`select details from audit_log where action = 'org.reminders' order by id desc limit 1`,
    );
    expect(audit!.details.after).toEqual({ offsetsDays: [-3, 0, 2], channels: ['phone', 'sms', 'whatsapp'] });
    expect((await apiPut(t, retailer, paths.reminders.settings, { reminders: null })).body.data).toBeNull();
  });

  it('refuses a bad schedule with 400 naming the field, and changes nothing', async () => {
    for (const [reminders, field] of [
      [{ offsetsDays: [100], channels: ['sms'] }, 'reminders.offsetsDays.0'],
      [{ offsetsDays: [1, 1], channels: ['sms'] }, 'reminders.offsetsDays'],
      [{ offsetsDays: [], channels: ['sms'] }, 'reminders.offsetsDays'],
      [{ offsetsDays: [1], channels: [] }, 'reminders.channels'],
      [{ offsetsDays: [1], channels: ['fax'] }, 'reminders.channels.0'],
    ] as const) {
      const bad = await apiPut(t, retailer, paths.reminders.settings, { reminders });
      expect(bad.status, JSON.stringify(reminders)).toBe(400);
      expect(bad.body.fields[0].field).toBe(field);
    }
    expect((await apiGet(t, retailer, paths.reminders.settings)).body.data).toBeNull();
  });
});

describe('planning and sending reminders', () => {
  it('plans each instalment, day and channel once, and sends them on the phone, by SMS and on WhatsApp', async ({
    make,
  }) => {
    await apiPut(t, retailer, paths.reminders.settings, { reminders: schedule });
    const soon = await customerDue(make, 'Soon', addDays(TODAY, 3), { isEnrolled: true }); // 3 days before
    const late = await customerDue(make, 'Late', addDays(TODAY, -2)); // 2 days after, no phone enrolled
    const other = await customerDue(make, 'Other', addDays(TODAY, 1)); // no day of the schedule
    expect(await planReminders(t.app.ctx.db, NOON)).toBeGreaterThanOrEqual(6);
    expect(await planReminders(t.app.ctx.db, NOON)).toBe(0); // once
    expect((await remindersOf(soon.id)).map((r) => [r.channel, r.offset_days, r.state])).toEqual([
      ['phone', -3, 'queued'],
      ['sms', -3, 'queued'],
      ['whatsapp', -3, 'queued'],
    ]);
    expect(await remindersOf(other.id)).toEqual([]);

    await deliverReminders(deps(), NOON);
    const soonSent = await remindersOf(soon.id);
    expect(soonSent.map((r) => r.state)).toEqual(['sent', 'sent', 'sent']);
    expect(soonSent[0]!.provider_ref).toMatch(/^command:/);
    expect(soonSent[1]!.provider_ref).toMatch(/^sms:\d+$/);
    expect(soonSent[2]!.provider_ref).toMatch(/^wamid\./);
    // The phone without an enrolment cannot take the command: that reminder fails, saying why.
    const lateSent = await remindersOf(late.id);
    expect(lateSent.map((r) => [r.channel, r.state])).toEqual([
      ['phone', 'failed'],
      ['sms', 'sent'],
      ['whatsapp', 'sent'],
    ]);
    expect(lateSent[0]!.last_error).toMatch(/not been enrolled/);

    // The SMS is the EMI_REMINDER DLT template, with its words for before and after the due date.
    const ddmmyyyy = (isoDate: string) => isoDate.split('-').reverse().join('-');
    await t.app.ctx.sms.settled();
    const textTo = (mobile: string) => t.sms.filter((sms) => sms.to === mobile).map((sms) => sms.text);
    expect(textTo(soon.mobile)).toEqual([
      `Kisht Demo Finance Pvt. Ltd.: Dear Soon, your EMI of ₹1,000.00 is due on ${ddmmyyyy(addDays(TODAY, 3))}. Please pay at your shop or with your EMI PIN.`,
    ]);
    expect(textTo(late.mobile)).toEqual([
      `Kisht Demo Finance Pvt. Ltd.: Dear Late, your EMI of ₹1,000.00 was due on ${ddmmyyyy(addDays(TODAY, -2))}. Please pay at your shop or with your EMI PIN.`,
    ]);
    const kinds = await queryRows<{ template_kind: string }>(
      t.app.ctx.db,
      // Only these two customers': a seeded loan may fall due on a day of the schedule too.
      sql`select template_kind from sms_outbox
          where purpose = 'EMI_REMINDER' and mobile in (${soon.mobile}, ${late.mobile})`,
    );
    expect(kinds.map((row) => row.template_kind)).toEqual(['EMI_REMINDER', 'EMI_REMINDER']);
    // WhatsApp got the approved template, in English (no consent recorded), with our reference.
    const toSoon = whatsapp.sent.find((m) => m.to === soon.mobile.slice(1))!;
    expect(toSoon).toMatchObject({ templateName: 'emi_reminder', languageCode: 'en' });
    expect(toSoon.bodyParameters).toEqual([
      expect.any(String),
      'Soon',
      '₹1,000.00',
      addDays(TODAY, 3).split('-').reverse().join('-'),
    ]);
    expect(toSoon.reference).toMatch(/^reminder:\d+$/);
  });

  it('holds what falls due in the quiet hours until 09:00 +05:30, and cancels what was paid meanwhile', async ({
    make,
  }) => {
    await apiPut(t, retailer, paths.reminders.settings, {
      reminders: { offsetsDays: [0], channels: ['sms', 'whatsapp'] },
    });
    const night = ist('2026-11-29T22:30');
    const dueToday = await customerDue(make, 'Night', TODAY);
    const paysOvernight = await customerDue(make, 'Payer', TODAY);
    await planReminders(t.app.ctx.db, night);
    expect((await remindersOf(dueToday.id)).map((r) => new Date(r.send_after).toISOString())).toEqual([
      ist('2026-11-30T09:00').toISOString(),
      ist('2026-11-30T09:00').toISOString(),
    ]);
    expect(await deliverReminders(deps(), night)).toBe(0);
    expect(await deliverReminders(deps(), ist('2026-11-30T08:59'))).toBe(0);
    expect(whatsapp.sent).toEqual([]);
    await t.app.ctx.db.execute(
      sql`update emis set paid_paise = amount_paise where customer_id = ${paysOvernight.id}`,
    );
    expect(await deliverReminders(deps(), ist('2026-11-30T09:05'))).toBe(2);
    expect((await remindersOf(dueToday.id)).map((r) => r.state)).toEqual(['sent', 'sent']);
    expect((await remindersOf(paysOvernight.id)).map((r) => [r.state, r.last_error])).toEqual([
      ['cancelled', 'Paid before it was sent'],
      ['cancelled', 'Paid before it was sent'],
    ]);
  });

  it('tries WhatsApp again after a failure worth it, and gives up on a refusal', async ({ make }) => {
    await apiPut(t, retailer, paths.reminders.settings, {
      reminders: { offsetsDays: [0], channels: ['whatsapp'] },
    });
    const first = await customerDue(make, 'First', TODAY);
    await planReminders(t.app.ctx.db, NOON);
    whatsapp.failNext(503);
    expect(await deliverReminders(deps(), NOON)).toBe(0);
    const [waiting] = await remindersOf(first.id);
    expect(waiting).toMatchObject({ state: 'queued', last_error: expect.stringContaining('503') });
    expect(new Date(waiting!.send_after).getTime()).toBe(NOON.getTime() + 15 * 60_000);
    expect(await deliverReminders(deps(), new Date(NOON.getTime() + 16 * 60_000))).toBe(1);

    const refused = await customerDue(make, 'Refused', addDays(TODAY, 0));
    await t.app.ctx.db.execute(sql`delete from reminders where customer_id = ${refused.id}`);
    await planReminders(t.app.ctx.db, NOON);
    whatsapp.failNext(400, { message: 'Template name does not exist in the translation', code: 132001 });
    await deliverReminders(deps(), NOON);
    expect((await remindersOf(refused.id))[0]).toMatchObject({
      state: 'failed',
      last_error: expect.stringContaining('132001'),
    });
  });
});

describe("a customer's reminders and WhatsApp choice", () => {
  it('lists them; a refusal of WhatsApp cancels those waiting and plans none after; other tenants 404', async ({
    make,
    otherRetailer,
  }) => {
    await apiPut(t, retailer, paths.reminders.settings, {
      reminders: { offsetsDays: [0, 1], channels: ['sms', 'whatsapp'] },
    });
    const customer = await customerDue(make, 'Choice', TODAY);
    await planReminders(t.app.ctx.db, NOON);
    const listed = await apiGet(t, retailer, `${paths.reminders.ofCustomer}?customer_id=${customer.id}`);
    expect(listed.body.data.whatsappOptOut).toBe(false);
    expect(
      listed.body.data.items.map((r: { channel: string; state: string }) => [r.channel, r.state]).sort(),
    ).toEqual([
      ['sms', 'queued'],
      ['whatsapp', 'queued'],
    ]);
    const refused = await apiPost(t, retailer, paths.reminders.whatsappOptOut, {
      customer_id: customer.id,
      opt_out: true,
    });
    expect(refused.body.data.whatsappOptOut).toBe(true);
    const whatsappRow = refused.body.data.items.find((r: { channel: string }) => r.channel === 'whatsapp');
    expect(whatsappRow).toMatchObject({ state: 'cancelled', error: 'The customer refused WhatsApp' });
    // Tomorrow's reminders: SMS only.
    await planReminders(t.app.ctx.db, ist('2026-11-30T13:00'));
    expect((await remindersOf(customer.id)).filter((r) => r.offset_days === 1).map((r) => r.channel)).toEqual(
      ['sms'],
    );

    expect(
      (await apiGet(t, otherRetailer, `${paths.reminders.ofCustomer}?customer_id=${customer.id}`)).status,
    ).toBe(404);
    expect(
      (
        await apiPost(t, otherRetailer, paths.reminders.whatsappOptOut, {
          customer_id: customer.id,
          opt_out: false,
        })
      ).status,
    ).toBe(404);
    const bad = await apiPost(t, retailer, paths.reminders.whatsappOptOut, {
      customer_id: customer.id,
      opt_out: 'yes',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('opt_out');
    expect(
      (await apiGet(t, retailer, `${paths.reminders.ofCustomer}?customer_id=x`)).body.fields[0].field,
    ).toBe('customer_id');
    const customerUser = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    expect((await apiGet(t, customerUser, paths.reminders.settings)).status).toBe(403);
  });
});

describe('the WhatsApp webhook', () => {
  it("answers Meta's verification with the challenge, and 403 to a wrong token", async () => {
    const url = (token: string) =>
      `${paths.reminders.whatsappWebhook}?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=1158201444`;
    const good = await t.app.inject({ method: 'GET', url: url(VERIFY_TOKEN) });
    expect([good.statusCode, good.body]).toEqual([200, '1158201444']);
    expect((await t.app.inject({ method: 'GET', url: url('guess') })).statusCode).toBe(403);
  });

  it('moves a sent reminder to delivered and read on signed statuses, never back, and refuses a bad signature', async ({
    make,
  }) => {
    await apiPut(t, retailer, paths.reminders.settings, {
      reminders: { offsetsDays: [0], channels: ['whatsapp'] },
    });
    const customer = await customerDue(make, 'Reader', TODAY);
    await planReminders(t.app.ctx.db, NOON);
    await deliverReminders(deps(), NOON);
    const [sent] = await remindersOf(customer.id);
    const messageId = sent!.provider_ref!;
    const post = (statuses: Parameters<typeof signedStatusesPayload>[1], secret = APP_SECRET) => {
      const { body, signature } = signedStatusesPayload(secret, statuses);
      return t.app.inject({
        method: 'POST',
        url: paths.reminders.whatsappWebhook,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
        payload: body,
      });
    };
    const forged = await post([{ messageId, status: 'read' }], 'not-the-secret');
    expect(forged.statusCode).toBe(401);
    expect((await remindersOf(customer.id))[0]!.state).toBe('sent');

    expect((await post([{ messageId, status: 'delivered' }])).statusCode).toBe(200);
    expect(
      (
        await post([
          { messageId, status: 'read' },
          { messageId: 'wamid.unknown', status: 'read' },
        ])
      ).json(),
    ).toEqual({
      recorded: 1,
    });
    await post([{ messageId, status: 'delivered' }]); // late, out of order
    const listed = await apiGet(t, retailer, `${paths.reminders.ofCustomer}?customer_id=${customer.id}`);
    expect(listed.body.data.items[0]).toMatchObject({
      state: 'read',
      deliveredAt: expect.any(String),
      readAt: expect.any(String),
    });
  });
});
