import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inboxOf } from '@kisht/device-agent/commands';
import { ZDeviceCommand } from '@kisht/domain/devices/devices.schema';
import { MESSAGES_PER_PHONE_PER_DAY, ZBirthdaysToday } from '@kisht/domain/messages/messages.schema';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID } from '../../db/seed/seed';
import {
  apiGet,
  apiPost,
  customerBody,
  enrolReferenceAgent,
  recordConsent,
  waitUntil,
} from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

/** The first phone of the catalogue for a customer of `deviceType` (issue 28: the family's phones only). */
const productIdOf = async (token: string, deviceType = 0) =>
  (await apiGet(t, token, `${paths.catalogue.products}?device_type=${deviceType}`)).body.data[0].id as number;

/** Adds a customer as `token` (overrides on the add-customer body); returns its id. */
const addCustomer = async (token: string, overrides: Record<string, unknown> = {}) => {
  const body = customerBody(await productIdOf(token, Number(overrides.deviceType ?? 0)), overrides);
  const created = await apiPost(t, token, paths.customers.create, body);
  expect(created.status).toBe(200);
  return { customerId: created.body.data.id as number, body };
};

/** Adds a customer and enrols their phone through the enrolment route (no agent listening). */
const addEnrolledCustomer = async (token = retailer) => {
  const { customerId, body } = await addCustomer(token);
  await recordConsent(t, token, customerId);
  const qr = (await apiGet(t, token, `${paths.customers.qrCode}?customer_id=${customerId}`)).body.data;
  const enrolmentToken = JSON.parse(qr.payload)['android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE'][
    'in.kisht.ENROLMENT_TOKEN'
  ];
  const enrolled = await t.app.inject({
    method: 'POST',
    url: paths.devices.enrol,
    payload: { token: enrolmentToken, imei1: body.imei1, imei2: body.imei2 },
  });
  expect(enrolled.statusCode).toBe(200);
  return customerId;
};

const send = (token: string, payload: Record<string, unknown>) =>
  apiPost(t, token, paths.messages.send, payload);

const messageRows = (customerId: number) =>
  queryRows<{ name: string; state: string; args: Record<string, unknown> }>(
    t.app.ctx.db,
    sql`select c.name, c.state, c.args from device_commands c join devices d on d.id = c.device_id
        where d.customer_id = ${customerId} and c.name = 'show_message' order by c.created_at, c.id`,
  );

describe('send_fcm_retailer_to_customer', () => {
  it('shows the message on the enrolled phone (reference agent), done in the history, audited', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const stateDir = mkdtempSync(join(tmpdir(), 'kisht-agent-'));
    const { agent, customerId } = await enrolReferenceAgent(t, retailer, join(stateDir, 'phone.json'));
    try {
      const sent = await send(retailer, {
        customer_id: customerId,
        title: 'Diwali offer',
        message: '  Your next EMI is waived this month. Happy Diwali!  ',
      });
      expect(sent.status).toBe(200);
      const command = ZDeviceCommand.parse(sent.body.data);
      expect(command.name).toBe('show_message');

      const history = async () =>
        (await apiGet(t, retailer, `${paths.devices.history}?customer_id=${customerId}`)).body.data as {
          id: string;
          state: string;
          args: Record<string, unknown>;
          createdByName: string;
        }[];
      await waitUntil(async () => (await history()).find((c) => c.id === command.id)?.state === 'done');
      const row = (await history()).find((c) => c.id === command.id)!;
      expect(row.args).toEqual({
        title: 'Diwali offer',
        text: 'Your next EMI is waived this month. Happy Diwali!',
        from: 'Ravi Mobiles',
      });
      const shown = inboxOf(agent.state).messages.at(-1);
      expect(shown).toMatchObject({
        from: 'Ravi Mobiles',
        text: 'Your next EMI is waived this month. Happy Diwali!',
      });

      const audit = await queryRows<{ action: string }>(
        t.app.ctx.db,
        sql`select action from audit_log where entity = 'customer' and entity_id = ${String(customerId)}
            and action = 'device.show_message'`,
      );
      expect(audit).toHaveLength(1);
    } finally {
      await agent.stop();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it.each([
    ['empty', '   '],
    ['too long', 'x'.repeat(501)],
  ])('refuses a message that is %s with 400 naming message, writing nothing', async (_case, message) => {
    const customerId = await addEnrolledCustomer();
    const answer = await send(retailer, { customer_id: customerId, message });
    expect(answer.status).toBe(400);
    expect(answer.body.fields.map((f: { field: string }) => f.field)).toContain('message');
    expect(await messageRows(customerId)).toHaveLength(0);
  });

  it('refuses a title over 60 characters naming title', async () => {
    const customerId = await addEnrolledCustomer();
    const answer = await send(retailer, { customer_id: customerId, title: 't'.repeat(61), message: 'Hello' });
    expect(answer.status).toBe(400);
    expect(answer.body.fields.map((f: { field: string }) => f.field)).toContain('title');
  });

  it("answers 404 for another organisation's customer and writes nothing", async ({
    otherRetailer: other,
  }) => {
    const customerId = await addEnrolledCustomer();
    const answer = await send(other, { customer_id: customerId, message: 'Hello from elsewhere' });
    expect(answer.status).toBe(404);
    expect(await messageRows(customerId)).toHaveLength(0);
  });

  it("answers 404 to a mini-retailer for its parent's customer", async ({ miniRetailer: mini }) => {
    const customerId = await addEnrolledCustomer();
    expect((await send(mini, { customer_id: customerId, message: 'Hi' })).status).toBe(404);
  });

  it('answers 409 DEVICE_NOT_ENROLLED before the phone is enrolled', async () => {
    const { customerId } = await addCustomer(retailer);
    const answer = await send(retailer, { customer_id: customerId, message: 'Hello' });
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('DEVICE_NOT_ENROLLED');
    expect(await messageRows(customerId)).toHaveLength(0);
  });

  it('answers 409 NOT_FOR_THIS_DEVICE_FAMILY for an enrolled iPhone', async ({ make }) => {
    const { customerId } = await addCustomer(retailer, {
      deviceType: 3,
      appType: 2,
      serialNumber: 'DNPXX0MSG001',
    });
    await make.deviceRow(customerId, { enrolledAt: new Date() });
    const answer = await send(retailer, { customer_id: customerId, message: 'Hello' });
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('NOT_FOR_THIS_DEVICE_FAMILY');
    expect(await messageRows(customerId)).toHaveLength(0);
  });

  it('answers 403 naming user.feature_access to a mini-retailer whose parent turned it off', async ({
    miniRetailer: mini,
  }) => {
    const customerId = await addEnrolledCustomer(mini);
    const miniId = (await apiGet(t, mini, paths.users.me)).body.data.id as number;
    const off = await apiPost(t, retailer, paths.retailers.update, {
      user_id: miniId,
      userAccess: { feature_access: '0' },
    });
    expect(off.status).toBe(200);
    const answer = await send(mini, { customer_id: customerId, message: 'Hello' });
    expect(answer.status).toBe(403);
    expect(JSON.stringify(answer.body)).toContain('feature_access');
    // The parent retailer still may.
    expect((await send(retailer, { customer_id: customerId, message: 'Hello' })).status).toBe(200);
  });

  it(`takes ${MESSAGES_PER_PHONE_PER_DAY} messages a day per phone, then 429 saying when to retry`, async () => {
    const customerId = await addEnrolledCustomer();
    for (let i = 1; i <= MESSAGES_PER_PHONE_PER_DAY; i += 1) {
      expect((await send(retailer, { customer_id: customerId, message: `Message ${i}` })).status).toBe(200);
    }
    const over = await send(retailer, { customer_id: customerId, message: 'One too many' });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('RATE_LIMITED');
    expect(over.body.message).toMatch(/Try again after \d{2}-\d{2}-\d{4} \d{2}:\d{2} [AP]M/);
    expect(await messageRows(customerId)).toHaveLength(MESSAGES_PER_PHONE_PER_DAY);
    // Another customer's phone has its own allowance.
    const otherId = await addEnrolledCustomer();
    expect((await send(retailer, { customer_id: otherId, message: 'Hello' })).status).toBe(200);
  });

  it('does not queue a second copy of the same message still on its way', async () => {
    const customerId = await addEnrolledCustomer();
    const first = await send(retailer, { customer_id: customerId, message: 'Same words' });
    const again = await send(retailer, { customer_id: customerId, message: 'Same words' });
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await messageRows(customerId)).toHaveLength(1);
  });
});

describe('birthdays_today', () => {
  /** Today's month and day (+05:30), born in 1990. */
  const bornToday = () => {
    const today = new Date(Date.now() + 330 * 60_000).toISOString().slice(5, 10);
    return `1990-${today === '02-29' ? '02-28' : today}`;
  };
  const birthdays = async (token: string) => {
    const answer = await apiGet(t, token, paths.messages.birthdaysToday);
    expect(answer.status).toBe(200);
    return ZBirthdaysToday.parse(answer.body.data);
  };

  it("lists the scope's customers born today, and no one else's", async ({
    miniRetailer: mini,
    otherRetailer: other,
  }) => {
    const mine = await addCustomer(retailer, { firstName: 'Asha', dateOfBirth: bornToday() });
    const minis = await addCustomer(mini, { firstName: 'Bela', dateOfBirth: bornToday() });
    await addCustomer(retailer, {
      firstName: 'Chitra',
      dateOfBirth: '1990-01-01' === bornToday() ? '1990-01-02' : '1990-01-01',
    });
    const theirs = await addCustomer(other, { firstName: 'Deepa', dateOfBirth: bornToday() });

    const retailerView = await birthdays(retailer);
    expect(retailerView.customers.map((c) => c.id).sort()).toEqual(
      [mine.customerId, minis.customerId].sort(),
    );
    expect(retailerView.total).toBe(2);
    expect(retailerView.customers.every((c) => c.canMessage === false)).toBe(true);
    expect((await birthdays(mini)).customers.map((c) => c.id)).toEqual([minis.customerId]);
    expect((await birthdays(other)).customers.map((c) => c.id)).toEqual([theirs.customerId]);
  });

  it("says an enrolled customer's phone can take wishes", async ({ make }) => {
    const customerId = await addEnrolledCustomer();
    await make.customerRow(customerId, { dateOfBirth: bornToday() });
    const view = await birthdays(retailer);
    expect(view.customers.find((c) => c.id === customerId)?.canMessage).toBe(true);
  });

  it("celebrates the retailer's own birthday once set on the profile", async () => {
    expect((await birthdays(retailer)).isOwnBirthday).toBe(false);
    const saved = await apiPost(t, retailer, paths.retailers.updateOwnProfile, { dateOfBirth: bornToday() });
    expect(saved.status).toBe(200);
    expect(saved.body.data.dateOfBirth).toBe(bornToday());
    const view = await birthdays(retailer);
    expect(view.isOwnBirthday).toBe(true);
    expect(view.name).toBe('Ravi Mobiles');
  });

  it('refuses a date of birth in the future or malformed, naming dateOfBirth', async () => {
    for (const dateOfBirth of ['2999-01-01', '01-01-1990']) {
      const answer = await apiPost(t, retailer, paths.retailers.updateOwnProfile, { dateOfBirth });
      expect(answer.status).toBe(400);
      expect(answer.body.fields.map((f: { field: string }) => f.field)).toContain('dateOfBirth');
    }
  });

  it("celebrates a customer user's birthday from their loan and lists them nothing", async () => {
    const { body } = await addCustomer(retailer, { mobile: '9123400001', dateOfBirth: bornToday() });
    const customer = await t.login(DEMO_ORG_ID, `+91${body.mobile}`);
    const view = await birthdays(customer);
    expect(view.isOwnBirthday).toBe(true);
    expect(view.customers).toEqual([]);
  });
});
