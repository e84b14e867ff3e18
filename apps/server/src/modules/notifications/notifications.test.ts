import { AppType } from '@kisht/domain/common/enums';
import { addDays, istDate } from '@kisht/domain/common/time';
import { evtTopic, PROTOCOL_VERSION } from '@kisht/domain/devices/protocol.schema';
import {
  ZMarkNotificationsReadResponse,
  ZNotificationPage,
  ZUnreadCount,
} from '@kisht/domain/notifications/notifications.schema';
import { paths } from '@kisht/domain/paths';
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { deviceCommands, devices, notifications, organizations, users } from '../../db/schema';
import {
  DEMO_CUSTOMER_MOBILE,
  DEMO_MINI_RETAILER_MOBILE,
  DEMO_ORG_ID,
  DEMO_RETAILER_MOBILE,
  SECOND_ORG_ID,
  SECOND_RETAILER_MOBILE,
} from '../../db/seed/seed';
import { apiGet, apiPost, customerBody, customerIdNamed, recordConsent } from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';
import { expireOverdueCommands } from '../devices/command-jobs.service';
import { notifySimChange } from '../devices/device-lifecycle.service';
import { notify, notifyExpiringPlans, notifyLongOfflinePhones } from './notifications.service';

let t: TestApp;
let retailer: string;

beforeEach(async () => {
  t = await createTestApp();
  retailer = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
});
afterEach(async () => {
  await t.close();
});

const db = () => t.app.ctx.db;
const userIdOf = async (
  orgId: number,
  mobile: string,
  userType: 'retailer' | 'miniretailer' | 'customer',
) => {
  const [row] = await db()
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.mobile, mobile), eq(users.userType, userType)));
  return row!.id;
};
const rowsOf = (userId: number) =>
  db().select().from(notifications).where(eq(notifications.userId, userId)).orderBy(notifications.id);
const listOf = async (token: string, query = '') => {
  const answer = await apiGet(t, token, `${paths.notifications.list}${query}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return ZNotificationPage.parse(answer.body.data);
};
const unreadOf = async (token: string) =>
  ZUnreadCount.parse((await apiGet(t, token, paths.notifications.unreadCount)).body.data).unread;
const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field);
const deviceOf = async (customerId: number) =>
  (await db().select().from(devices).where(eq(devices.customerId, customerId)))[0]!;

describe('/api/notifications: the actor’s own notifications', () => {
  it('lists newest first with the customer, counts unread, marks read by id and all', async () => {
    const retailerId = await userIdOf(DEMO_ORG_ID, DEMO_RETAILER_MOBILE, 'retailer');
    const priya = await customerIdNamed(t, retailer, 'Priya');
    await notify(db(), {
      orgId: DEMO_ORG_ID,
      userIds: [retailerId],
      kind: 'keys_low',
      params: { appType: 0, balance: 3 },
      customerId: null,
      dedupeKey: 'k1',
    });
    await notify(db(), {
      orgId: DEMO_ORG_ID,
      userIds: [retailerId],
      kind: 'sim_changed',
      params: { customerName: 'Priya Patel', operator: 'Airtel' },
      customerId: priya,
      dedupeKey: null,
    });
    // The same dedupe key again writes nothing.
    expect(
      await notify(db(), {
        orgId: DEMO_ORG_ID,
        userIds: [retailerId],
        kind: 'keys_low',
        params: { appType: 0, balance: 2 },
        customerId: null,
        dedupeKey: 'k1',
      }),
    ).toEqual([]);

    const page = await listOf(retailer);
    expect(page.total).toBe(2);
    expect(page.items.map((n) => n.kind)).toEqual(['sim_changed', 'keys_low']);
    expect(page.items[0]).toMatchObject({ customerId: priya, customerName: 'Priya Patel', readAt: null });
    expect(await unreadOf(retailer)).toBe(2);

    const one = await apiPost(t, retailer, paths.notifications.read, { ids: [page.items[0]!.id] });
    expect(ZMarkNotificationsReadResponse.parse(one.body.data)).toEqual({ marked: 1, unread: 1 });
    expect((await listOf(retailer, '?unread=true')).items.map((n) => n.kind)).toEqual(['keys_low']);

    const all = await apiPost(t, retailer, paths.notifications.read, { all: true });
    expect(ZMarkNotificationsReadResponse.parse(all.body.data)).toEqual({ marked: 1, unread: 0 });
    expect(await unreadOf(retailer)).toBe(0);
  });

  it('answers 404 naming ids for another user’s notification (also another organisation’s) and marks nothing', async () => {
    const secondRetailerToken = await t.tokenFor(SECOND_ORG_ID, SECOND_RETAILER_MOBILE);
    const retailerId = await userIdOf(DEMO_ORG_ID, DEMO_RETAILER_MOBILE, 'retailer');
    const miniId = await userIdOf(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE, 'miniretailer');
    const [mine] = await notify(db(), {
      orgId: DEMO_ORG_ID,
      userIds: [retailerId],
      kind: 'keys_low',
      params: { appType: 0, balance: 3 },
      customerId: null,
      dedupeKey: 'mine',
    });
    const [theirs] = await notify(db(), {
      orgId: DEMO_ORG_ID,
      userIds: [miniId],
      kind: 'keys_low',
      params: { appType: 0, balance: 3 },
      customerId: null,
      dedupeKey: 'theirs',
    });
    const mini = await t.tokenFor(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE);
    // The mini-retailer sees only its own.
    expect((await listOf(mini)).items.map((n) => n.id)).toEqual([theirs]);

    const refused = await apiPost(t, mini, paths.notifications.read, { ids: [theirs!, mine!] });
    expect(refused.status).toBe(404);
    expect(fieldsOf(refused.body)).toEqual(['ids']);
    expect(JSON.stringify(refused.body)).toContain(String(mine));
    expect(await unreadOf(mini)).toBe(1);
    expect((await rowsOf(retailerId))[0]!.readAt).toBeNull();
    const other = await apiPost(t, secondRetailerToken, paths.notifications.read, { ids: [mine!] });
    expect(other.status).toBe(404);
    expect(fieldsOf(other.body)).toEqual(['ids']);
  });

  it('answers 400 naming the field for a bad page, a bad unread flag and an empty body', async () => {
    for (const [query, field] of [
      ['?page=0', 'page'],
      ['?page=abc', 'page'],
      ['?unread=maybe', 'unread'],
    ] as const) {
      const answer = await apiGet(t, retailer, `${paths.notifications.list}${query}`);
      expect(answer.status, query).toBe(400);
      expect(fieldsOf(answer.body)).toContain(field);
    }
    const empty = await apiPost(t, retailer, paths.notifications.read, {});
    expect(empty.status).toBe(400);
    expect(fieldsOf(empty.body)).toContain('ids');
    const bad = await apiPost(t, retailer, paths.notifications.read, { ids: [-1] });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body).some((f) => f.startsWith('ids'))).toBe(true);
  });
});

describe('notifications generated where the events happen', () => {
  it('sim_changed: a SIM change tells the retailer with the customer and the new operator, not the customer', async () => {
    const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    const priya = await customerIdNamed(t, retailer, 'Priya');
    await notifySimChange(t.app.ctx, {
      device: await deviceOf(priya),
      before: [{ slot: 1, iccid: '8991000900000000999', operator: 'Jio' }],
      after: [{ slot: 1, iccid: '8991000900000000123', operator: 'Airtel' }],
    });
    const [item] = (await listOf(retailer)).items;
    expect(item).toMatchObject({
      kind: 'sim_changed',
      customerId: priya,
      params: { customerName: 'Priya Patel', operator: 'Airtel' },
    });
    expect((await listOf(customer)).total).toBe(0);
  });

  it('keys_low and a mini-retailer’s customer: the mini-retailer hears of its low keys, both it and its parent of the SIM change', async () => {
    const mini = await t.tokenFor(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE);
    const miniId = await userIdOf(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE, 'miniretailer');
    const retailerId = await userIdOf(DEMO_ORG_ID, DEMO_RETAILER_MOBILE, 'retailer');
    const productId = (await apiGet(t, mini, `${paths.catalogue.products}?device_type=0`)).body.data[0]
      .id as number;
    const created = await apiPost(
      t,
      mini,
      paths.customers.create,
      customerBody(productId, { appType: AppType.DEVICE_POLICY_CONTROLLER, mobile: '9123400555' }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const customerId = created.body.data.id as number;
    await recordConsent(t, mini, customerId);
    // The enrolment QR spends one of the mini-retailer's 5 keys: 4 left, under the default 5.
    const qr = await apiGet(t, mini, `${paths.customers.qrCode}?customer_id=${customerId}`);
    expect(qr.status, JSON.stringify(qr.body)).toBe(200);
    const low = (await rowsOf(miniId)).filter((n) => n.kind === 'keys_low');
    expect(low).toHaveLength(1);
    expect(low[0]!.params).toEqual({ appType: AppType.DEVICE_POLICY_CONTROLLER, balance: 4 });
    // The retailer (50 keys) is not low, and hears nothing of it.
    expect((await rowsOf(retailerId)).filter((n) => n.kind === 'keys_low')).toEqual([]);

    await notifySimChange(t.app.ctx, {
      device: { ...(await deviceOf(customerId)) },
      before: [{ slot: 1, iccid: '8991000900000000999', operator: 'Jio' }],
      after: [{ slot: 1, iccid: '8991000900000000777', operator: 'Vi' }],
    });
    for (const userId of [miniId, retailerId]) {
      const sim = (await rowsOf(userId)).filter((n) => n.kind === 'sim_changed');
      expect(sim, String(userId)).toHaveLength(1);
      expect(sim[0]!.customerId).toBe(customerId);
    }
  });

  it('payment_received: a recorded payment tells the retailer and the customer user, amount in paise', async () => {
    const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    const priya = await customerIdNamed(t, retailer, 'Priya');
    const emis = (await apiGet(t, retailer, `${paths.emi.details}?customer_id=${priya}`)).body.data;
    const first = emis.instalments[0] as { id: number };
    const paid = await apiPost(t, retailer, paths.emi.pay, {
      customer_id: priya,
      emi_ids: [first.id],
      amountPaise: 10_000,
      mode: 'cash',
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    for (const token of [retailer, customer]) {
      const [item] = (await listOf(token)).items;
      expect(item).toMatchObject({
        kind: 'payment_received',
        customerId: priya,
        params: { customerName: 'Priya Patel', amountPaise: 10_000, receiptNo: paid.body.data.receiptNo },
      });
    }
  });

  it('payment_received is written in the payment’s transaction: a payment rolled back leaves no notification', async () => {
    const priya = await customerIdNamed(t, retailer, 'Priya');
    const emis = (await apiGet(t, retailer, `${paths.emi.details}?customer_id=${priya}`)).body.data;
    const first = emis.instalments[0] as { id: number };
    // The payment's last write (its audit entry) fails, after the notification was inserted.
    await db().execute(sql`
      create function fail_payment_audit() returns trigger language plpgsql as $$
      begin
        if new.action = 'emi.payment' then raise exception 'audit refused'; end if;
        return new;
      end $$`);
    await db().execute(sql`
      create trigger fail_payment_audit before insert on audit_log
      for each row execute function fail_payment_audit()`);
    const paid = await apiPost(t, retailer, paths.emi.pay, {
      customer_id: priya,
      emi_ids: [first.id],
      amountPaise: 10_000,
      mode: 'cash',
    });
    expect(paid.status).toBeGreaterThanOrEqual(500);
    const rows = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from notifications where kind = 'payment_received'`,
    );
    expect(rows[0]!.n).toBe(0);
    const payments = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from payments where customer_id = ${priya} and amount_paise = 10000`,
    );
    expect(payments[0]!.n).toBe(0);
  });

  it('lock_failed: a lock that expires undelivered tells the retailer once', async () => {
    const priya = await customerIdNamed(t, retailer, 'Priya');
    const aarav = await customerIdNamed(t, retailer, 'Aarav');
    const locked = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: aarav,
      reason_category: 'customer_request',
      reason: 'Customer asked us to lock it',
    });
    expect(locked.status, JSON.stringify(locked.body)).toBe(200);
    await db()
      .update(deviceCommands)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(deviceCommands.id, locked.body.data.id));
    expect(await expireOverdueCommands(t.app.ctx)).toBeGreaterThanOrEqual(1);
    await expireOverdueCommands(t.app.ctx);
    const items = (await listOf(retailer)).items.filter((n) => n.kind === 'lock_failed');
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ customerId: aarav, params: { customerName: 'Aarav Sharma' } });
    expect(items.some((n) => n.customerId === priya)).toBe(false);
  });

  it('lock_failed: a lock the phone acknowledges failed tells the retailer, with the phone’s reason', async () => {
    const aarav = await customerIdNamed(t, retailer, 'Aarav');
    const locked = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: aarav,
      reason_category: 'customer_request',
      reason: 'Customer asked us to lock it',
    });
    expect(locked.status, JSON.stringify(locked.body)).toBe(200);
    const commandId = locked.body.data.id as string;
    await db().update(deviceCommands).set({ state: 'sent' }).where(eq(deviceCommands.id, commandId));
    const device = await deviceOf(aarav);
    const failed = JSON.stringify({
      v: PROTOCOL_VERSION,
      type: 'ack',
      commandId,
      status: 'failed',
      error: 'device admin missing',
      state: { isLocked: false },
      at: new Date().toISOString(),
    });
    await t.app.ctx.deviceEvents.handleEvent(evtTopic(device.id), Buffer.from(failed));
    // The same ack again (a redelivery) writes no second notification.
    await t.app.ctx.deviceEvents.handleEvent(evtTopic(device.id), Buffer.from(failed));
    const items = (await listOf(retailer)).items.filter((n) => n.kind === 'lock_failed');
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      customerId: aarav,
      params: { customerName: 'Aarav Sharma', reason: 'device admin missing' },
    });
  });

  it('phone_offline: an enrolled phone unseen for the organisation’s days, once per offline spell', async () => {
    const aarav = await customerIdNamed(t, retailer, 'Aarav');
    const lastSeen = new Date(Date.now() - 4 * 86_400_000);
    await db()
      .update(devices)
      .set({ isOnline: false, lastSeenAt: new Date() })
      .where(eq(devices.orgId, DEMO_ORG_ID));
    await db().update(devices).set({ lastSeenAt: lastSeen }).where(eq(devices.customerId, aarav));
    // The organisation waits 5 days: nothing yet.
    await db()
      .update(organizations)
      .set({ settings: sql`${organizations.settings} || '{"offlineNotifyDays": 5}'::jsonb` })
      .where(eq(organizations.id, DEMO_ORG_ID));
    expect(await notifyLongOfflinePhones(db())).toBe(0);
    // The default 3 days: one notification, and no second one for the same spell.
    await db()
      .update(organizations)
      .set({ settings: sql`${organizations.settings} - 'offlineNotifyDays'` })
      .where(eq(organizations.id, DEMO_ORG_ID));
    expect(await notifyLongOfflinePhones(db())).toBe(1);
    expect(await notifyLongOfflinePhones(db())).toBe(0);
    const items = (await listOf(retailer)).items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      kind: 'phone_offline',
      customerId: aarav,
      params: { customerName: 'Aarav Sharma', days: 3, lastSeenAt: lastSeen.toISOString() },
    });
  });

  it('plan_expiring: a plan ending within 7 days tells the seller and the buyer’s customer user, once', async () => {
    const customer = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
    const plans = (await apiGet(t, retailer, paths.plans.antihacking)).body.data as {
      id: number;
      app_type: number;
      name: string;
    }[];
    const plan = plans.find((p) => p.app_type === AppType.ANTI_HACKING_PRO)!;
    const sold = await apiPost(t, retailer, paths.plans.sell, {
      firstName: 'Priya',
      lastName: 'Patel',
      mobile: DEMO_CUSTOMER_MOBILE.slice(3),
      plan_id: plan.id,
      app_type: plan.app_type,
      plan_name: plan.name,
    });
    expect(sold.status, JSON.stringify(sold.body)).toBe(200);
    const endsOn = addDays(istDate(), 3);
    await db().execute(sql`update plan_activations set ends_on = ${endsOn}::date`);
    expect(await notifyExpiringPlans(db())).toBe(1);
    expect(await notifyExpiringPlans(db())).toBe(0);
    for (const token of [retailer, customer]) {
      const items = (await listOf(token)).items.filter((n) => n.kind === 'plan_expiring');
      expect(items).toHaveLength(1);
      expect(items[0]!.params).toMatchObject({ customerName: 'Priya Patel', planName: plan.name, endsOn });
    }
    // Ending in 10 days is not yet "expiring".
    await db().execute(sql`update plan_activations set ends_on = ${addDays(istDate(), 10)}::date`);
    await db().delete(notifications);
    expect(await notifyExpiringPlans(db())).toBe(0);
  });
});
