import { CustomerStatus } from '@kisht/domain/common/enums';
import { type TBulkProgress, ZBulkPreview, ZBulkProgress } from '@kisht/domain/devices/devices.schema';
import { deviceControlPath, paths } from '@kisht/domain/paths';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { deviceCommands, devices, users } from '../../db/schema';
import { DEMO_RETAILER_MOBILE, SECOND_ORG_ID, SECOND_RETAILER_MOBILE } from '../../db/seed/seed';
import { apiGet, apiPost, customerIdNamed, TEST_LOCK_REASON } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';
import { BULK_PROGRESS_OVERLAP_MS } from './bulk.service';

let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

const customerNamed = (firstName: string, token = retailer) => customerIdNamed(t, token, firstName);
const details = async (customerId: number, token = retailer) =>
  (await apiGet(t, token, `${paths.customers.details}?customer_id=${customerId}`)).body.data;
const commandCount = async () =>
  Number((await queryRows(t.app.ctx.db, sql`select count(*)::int as n from device_commands`))[0]!.n);
describe('control commands (spec §6 features at /api/device/{feature})', () => {
  it('turns a toggle on, supersedes it with off, and shows both in the history', async () => {
    const aarav = await customerNamed('Aarav');
    const before = await details(aarav);
    expect(before.device.availability.controls).toContain('camera_lock');
    expect(before.device.availability.controls).not.toContain('lost_mode'); // spec §6: not for DPC

    const on = await apiPost(t, retailer, deviceControlPath('camera_lock'), {
      customer_id: aarav,
      enable: true,
    });
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ name: 'camera_lock' });
    expect((await details(aarav)).device.pendingControls.camera_lock.name).toBe('camera_lock');

    const off = await apiPost(t, retailer, deviceControlPath('camera_lock'), {
      customer_id: aarav,
      enable: false,
    });
    expect(off.body.data.name).toBe('camera_unlock');
    const history = (await apiGet(t, retailer, `${paths.devices.history}?customer_id=${aarav}`)).body.data;
    expect(history.map((c: { name: string; state: string }) => [c.name, c.state])).toEqual([
      ['camera_unlock', expect.stringMatching(/queued|sent/)],
      ['camera_lock', 'cancelled'],
    ]);
    expect(history[0]).toMatchObject({ feature: 'camera_lock', createdByName: 'Ravi Mobiles' });
  });

  it('passes validated arguments, and runs actions without on/off', async () => {
    const aarav = await customerNamed('Aarav');
    const wallpaper = await apiPost(t, retailer, deviceControlPath('wallpaper'), {
      customer_id: aarav,
      enable: true,
      args: { text: 'EMI due on 5th. Pay at Ravi Mobiles.' },
    });
    expect(wallpaper.body.data.name).toBe('set_wallpaper');
    const location = await apiPost(t, retailer, deviceControlPath('fetch_location'), { customer_id: aarav });
    expect(location.body.data.name).toBe('location');
    const sims = await apiPost(t, retailer, deviceControlPath('sim_tracking_offline'), {
      customer_id: aarav,
      enable: true,
    });
    expect(sims.body.data.name).toBe('SIMTRACKINGOFFLINEON');
    const [row] = await queryRows<{ args: Record<string, unknown> }>(
      t.app.ctx.db,
      sql`select args from device_commands where id = ${wallpaper.body.data.id}`,
    );
    expect(row!.args).toEqual({ text: 'EMI due on 5th. Pay at Ravi Mobiles.' });
  });

  it('refuses bad input with 400 naming the field, writing nothing', async () => {
    const aarav = await customerNamed('Aarav');
    const before = await commandCount();
    const noEnable = await apiPost(t, retailer, deviceControlPath('wifi_on_off'), { customer_id: aarav });
    expect(noEnable.status).toBe(400);
    expect(noEnable.body.fields[0].field).toBe('enable');
    const actionEnable = await apiPost(t, retailer, deviceControlPath('reboot'), {
      customer_id: aarav,
      enable: true,
    });
    expect(actionEnable.status).toBe(400);
    expect(actionEnable.body.fields[0].field).toBe('enable');
    const badArgs = await apiPost(t, retailer, deviceControlPath('app_lock'), {
      customer_id: aarav,
      enable: true,
      args: { packages: ['not a package'] },
    });
    expect(badArgs.status).toBe(400);
    expect(badArgs.body.fields[0].field).toBe('args.packages.0');
    const badId = await apiPost(t, retailer, deviceControlPath('reboot'), { customer_id: 'x' });
    expect(badId.status).toBe(400);
    expect(badId.body.fields[0].field).toBe('customer_id');
    expect(await commandCount()).toBe(before);
  });

  it('refuses what spec §6 does not offer: a locked phone keeps only lock, tracking and a few actions', async ({
    make,
  }) => {
    const priya = await customerNamed('Priya'); // locked
    const summary = (await details(priya)).device;
    expect(summary.availability).toEqual({
      controls: ['lock', 'tracking'],
      actions: ['fetch_location', 'reboot', 'sim_info'],
    });
    const before = await commandCount();
    const camera = await apiPost(t, retailer, deviceControlPath('camera_lock'), {
      customer_id: priya,
      enable: true,
    });
    expect(camera.status).toBe(409);
    expect(camera.body).toMatchObject({ code: 'COMMAND_NOT_AVAILABLE', fields: [{ field: 'feature' }] });
    const rahul = await customerNamed('Rahul'); // not enrolled
    const notEnrolled = await apiPost(t, retailer, deviceControlPath('reboot'), { customer_id: rahul });
    expect(notEnrolled.status).toBe(409);
    expect(notEnrolled.body.code).toBe('DEVICE_NOT_ENROLLED');
    expect(await commandCount()).toBe(before);
    // The organisation's allowed list narrows it further.
    await make.orgSettings({ allowedControls: ['lock', 'fetch_location'] });
    expect((await details(priya)).device.availability).toEqual({
      controls: ['lock'],
      actions: ['fetch_location'],
    });
  });

  it('enforces the access flags of spec §6 and reflects them in the availability', async ({ make }) => {
    const aarav = await customerNamed('Aarav');
    await make.staffUser(DEMO_RETAILER_MOBILE, {
      access: { userAccess: { feature_access: '0' }, lockAccess: { lock: '0' } },
    });
    const before = await commandCount();
    const camera = await apiPost(t, retailer, deviceControlPath('camera_lock'), {
      customer_id: aarav,
      enable: true,
    });
    expect(camera.status).toBe(403);
    const lock = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: aarav,
      ...TEST_LOCK_REASON,
    });
    expect(lock.status).toBe(403);
    expect(await commandCount()).toBe(before);
    const availability = (await details(aarav)).device.availability;
    expect(availability.controls).toEqual(['lock']); // unlock is still allowed
    expect(availability.actions).toEqual(['uninstall']);
    const flags = await apiGet(t, retailer, paths.users.userAccess);
    expect(flags.body.data).toEqual({
      feature_access: '0',
      lock_unlock: '1',
      unistall: '1',
      active_deactive: '1',
      bulk_retailer: '0', // the override above replaced the seeded one
    });
    const lockFlags = await apiGet(t, retailer, paths.users.lockAccess);
    expect(lockFlags.body.data).toEqual({ lock: '0', unlock: '1', read: '1', uninstall: '1' });
  });

  it('answers 404 for another organisation’s customer, writing nothing', async ({ otherRetailer }) => {
    const other = otherRetailer;
    const kiran = await customerNamed('Kiran', other);
    const before = await commandCount();
    for (const feature of ['camera_lock', 'fetch_location']) {
      const body = feature === 'camera_lock' ? { customer_id: kiran, enable: true } : { customer_id: kiran };
      expect((await apiPost(t, retailer, deviceControlPath(feature), body)).status).toBe(404);
    }
    expect((await apiGet(t, retailer, `${paths.devices.history}?customer_id=${kiran}`)).status).toBe(404);
    expect(await commandCount()).toBe(before);
  });
});

describe('cancel_command and offline_command_log', () => {
  it('cancels a pending command once, and lists pending commands of offline phones', async () => {
    const aarav = await customerNamed('Aarav');
    const reboot = await apiPost(t, retailer, deviceControlPath('reboot'), { customer_id: aarav });
    const log = (await apiGet(t, retailer, paths.devices.offlineCommandLog)).body.data;
    expect(log.map((c: { id: string }) => c.id)).toContain(reboot.body.data.id);
    expect(log.find((c: { id: string }) => c.id === reboot.body.data.id)).toMatchObject({
      customerId: aarav,
      customerName: 'Aarav Sharma',
    });

    const cancelled = await apiPost(t, retailer, paths.devices.cancel, {
      customer_id: aarav,
      command_id: reboot.body.data.id,
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.state).toBe('cancelled');
    const again = await apiPost(t, retailer, paths.devices.cancel, {
      customer_id: aarav,
      command_id: reboot.body.data.id,
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('COMMAND_NOT_PENDING');
    expect((await apiGet(t, retailer, paths.devices.offlineCommandLog)).body.data).toEqual([]);
  });

  it('refuses a bad id, another customer’s command and another tenant', async ({ otherRetailer }) => {
    const aarav = await customerNamed('Aarav');
    const priya = await customerNamed('Priya');
    const reboot = await apiPost(t, retailer, deviceControlPath('reboot'), { customer_id: aarav });
    const bad = await apiPost(t, retailer, paths.devices.cancel, { customer_id: aarav, command_id: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('command_id');
    const wrongCustomer = await apiPost(t, retailer, paths.devices.cancel, {
      customer_id: priya,
      command_id: reboot.body.data.id,
    });
    expect(wrongCustomer.status).toBe(404);
    expect(wrongCustomer.body.fields[0].field).toBe('command_id');
    const other = otherRetailer;
    const foreign = await apiPost(t, other, paths.devices.cancel, {
      customer_id: aarav,
      command_id: reboot.body.data.id,
    });
    expect(foreign.status).toBe(404);
    expect((await apiGet(t, other, paths.devices.offlineCommandLog)).body.data).toEqual([]);
    const [row] = await queryRows<{ state: string }>(
      t.app.ctx.db,
      sql`select state from device_commands where id = ${reboot.body.data.id}`,
    );
    expect(row!.state).not.toBe('cancelled');
  });
});

describe('multiple_device_lock_unlock', () => {
  it('locks every overdue phone in one batch and reports progress', async () => {
    const queued = await apiPost(t, retailer, paths.devices.bulkLockUnlock, {
      action: 'unlock',
      filter: 'overdue',
    });
    expect(queued.status).toBe(200);
    const progress = queued.body.data;
    expect(progress.total).toBe(1); // Priya is the one overdue, enrolled customer
    expect(progress.items[0]).toMatchObject({ customerName: 'Priya Patel' });
    const polled = await apiGet(t, retailer, `${paths.devices.bulkProgress}?batch_id=${progress.batchId}`);
    expect(polled.body.data).toMatchObject({ batchId: progress.batchId, action: 'unlock', total: 1 });
    expect(Object.values(polled.body.data.counts).reduce((a: number, b) => a + Number(b), 0)).toBe(1);
    expect(polled.body.data).toMatchObject({
      isChangesOnly: false,
      items: [{ customerName: 'Priya Patel' }],
    });

    // A poll with the last cursor gets the counts, and only the items changed since (read again
    // within the overlap): none once the overlap has passed, the one whose state moved after.
    const later = (cursor: string) =>
      apiGet(t, retailer, `${paths.devices.bulkProgress}?batch_id=${progress.batchId}&since=${cursor}`);
    const ahead = new Date(Date.parse(polled.body.data.cursor) + BULK_PROGRESS_OVERLAP_MS + 1000);
    const quiet = await later(ahead.toISOString());
    expect(quiet.body.data).toMatchObject({ isChangesOnly: true, total: 1, items: [] });
    await t.app.ctx.db
      .update(deviceCommands)
      .set({ state: 'done', updatedAt: new Date(ahead.getTime() + 1000) })
      .where(eq(deviceCommands.batchId, progress.batchId));
    const moved = await later(ahead.toISOString());
    expect(moved.body.data).toMatchObject({
      isChangesOnly: true,
      counts: { done: 1, queued: 0 },
      items: [{ customerName: 'Priya Patel', state: 'done' }],
    });
    const badCursor = await later('yesterday');
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.fields[0].field).toBe('since');
  });

  it('skips phones that have not enrolled and says why', async ({ make }) => {
    const ids = [await customerNamed('Aarav'), await customerNamed('Rahul')];
    await make.overdue(ids[0]!);
    const queued = await apiPost(t, retailer, paths.devices.bulkLockUnlock, {
      action: 'lock',
      customer_ids: ids,
    });
    expect(queued.body.data.total).toBe(1);
    expect(queued.body.data.skipped).toEqual([{ customerId: ids[1], reason: 'not enrolled' }]);
    const polled = await apiGet(
      t,
      retailer,
      `${paths.devices.bulkProgress}?batch_id=${queued.body.data.batchId}`,
    );
    expect(polled.body.data.skipped).toEqual([{ customerId: ids[1], reason: 'not enrolled' }]);
  });

  it('leaves customers uninstalled, Apple-removed or with EMIs completed alone, by filter or by hand', async ({
    make,
  }) => {
    const db = t.app.ctx.db;
    // Enrolled phones with an instalment overdue, so only their status keeps the filters off them.
    const finished = [];
    for (const status of [
      CustomerStatus.UNINSTALL,
      CustomerStatus.APPLE_REMOVED,
      CustomerStatus.EMI_COMPLETED,
    ]) {
      finished.push(
        await make.customer({
          firstName: `Finished${status}`,
          mobile: `+91981111120${status}`,
          status,
          isEnrolled: true,
          createdAt: new Date(Date.now() - 50 * 86_400_000),
        }),
      );
    }
    const finishedIds = finished.map(({ customer }) => customer.id);
    const finishedDeviceIds = finished.map(({ device }) => device.id);
    const commandsOfFinished = async () =>
      (await db.select().from(deviceCommands).where(inArray(deviceCommands.deviceId, finishedDeviceIds)))
        .length;
    const itemNames = (progress: TBulkProgress) => progress.items.map((item) => item.customerName).sort();
    const aarav = await customerNamed('Aarav');
    await make.overdue(aarav);

    const allEnrolled = ZBulkProgress.parse(
      (await apiPost(t, retailer, paths.devices.bulkLockUnlock, { action: 'lock', filter: 'all_enrolled' }))
        .body.data,
    );
    // Sneha (seeded, EMIs completed) is left out as well as the three above.
    expect(itemNames(allEnrolled)).toEqual(['Aarav Sharma', 'Priya Patel']);
    expect(allEnrolled.skipped).toEqual([]);
    const overdue = ZBulkProgress.parse(
      (await apiPost(t, retailer, paths.devices.bulkLockUnlock, { action: 'unlock', filter: 'overdue' })).body
        .data,
    );
    expect(itemNames(overdue)).toEqual(['Aarav Sharma', 'Priya Patel']);
    expect(overdue.skipped).toEqual([]);
    expect(await commandsOfFinished()).toBe(0);

    const chosen = await apiPost(t, retailer, paths.devices.bulkLockUnlock, {
      action: 'lock',
      customer_ids: [aarav, ...finishedIds],
    });
    expect(chosen.status).toBe(200);
    const progress = ZBulkProgress.parse(chosen.body.data);
    expect(progress.items.map((item) => item.customerId)).toEqual([aarav]);
    expect(progress.skipped).toEqual([
      { customerId: finishedIds[0], reason: 'uninstalled' },
      { customerId: finishedIds[1], reason: 'Apple profile removed' },
      { customerId: finishedIds[2], reason: 'EMIs completed' },
    ]);
    const polled = await apiGet(t, retailer, `${paths.devices.bulkProgress}?batch_id=${progress.batchId}`);
    expect(polled.body.data.skipped).toEqual(progress.skipped);
    expect(await commandsOfFinished()).toBe(0);
    const [desired] = await db
      .select({ n: count() })
      .from(devices)
      .where(and(inArray(devices.id, finishedDeviceIds), eq(devices.desiredLocked, true)));
    expect(desired!.n).toBe(0);
  });

  it('previews how many phones a filter reaches, the same the request then sends to, writing nothing', async ({
    otherRetailer,
    miniRetailer,
    make,
  }) => {
    await make.overdue(await customerNamed('Aarav'));
    const before = await commandCount();
    const preview = async (query: string, token = retailer) =>
      apiGet(t, token, `${paths.devices.bulkPreview}?${query}`);
    const allEnrolled = await preview('action=lock&filter=all_enrolled');
    expect(allEnrolled.status).toBe(200);
    // Aarav and Priya, both overdue: Sneha's EMIs are completed, Rahul has not enrolled (not found by the filter).
    expect(ZBulkPreview.parse(allEnrolled.body.data)).toEqual({ total: 2, skipped: 0 });
    expect((await preview('action=unlock&filter=overdue')).body.data).toEqual({ total: 2, skipped: 0 });
    expect(await commandCount()).toBe(before);
    const sent = await apiPost(t, retailer, paths.devices.bulkLockUnlock, {
      action: 'lock',
      filter: 'all_enrolled',
    });
    expect(sent.body.data.total).toBe(allEnrolled.body.data.total);

    // Another organisation's retailer (allowed to bulk lock) sees its own phones only.
    await t.app.ctx.db
      .update(users)
      .set({ access: { userAccess: { bulk_retailer: '1' } } })
      .where(and(eq(users.orgId, SECOND_ORG_ID), eq(users.mobile, SECOND_RETAILER_MOBILE)));
    const other = otherRetailer;
    const theirs = await preview('action=lock&filter=all_enrolled', other);
    expect(theirs.status).toBe(200);
    const theirsSent = ZBulkProgress.parse(
      (await apiPost(t, other, paths.devices.bulkLockUnlock, { action: 'lock', filter: 'all_enrolled' })).body
        .data,
    );
    expect(theirsSent.total).toBe(theirs.body.data.total);
    const ours = [await customerNamed('Aarav'), await customerNamed('Priya')];
    expect(theirsSent.items.filter((item) => ours.includes(item.customerId))).toEqual([]);
    // Bad input names the field.
    const bad = await preview('action=lock&filter=everyone');
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('filter');
    const mini = miniRetailer;
    expect((await preview('action=lock&filter=all_enrolled', mini)).status).toBe(403);
  });

  it('refuses bad input, other tenants’ ids and users without bulk access, writing nothing', async ({
    otherRetailer,
    miniRetailer,
  }) => {
    const before = await commandCount();
    const both = await apiPost(t, retailer, paths.devices.bulkLockUnlock, {
      action: 'lock',
      filter: 'overdue',
      customer_ids: [1],
    });
    expect(both.status).toBe(400);
    expect(both.body.fields[0].field).toBe('customer_ids');
    const badAction = await apiPost(t, retailer, paths.devices.bulkLockUnlock, {
      action: 'wipe',
      filter: 'overdue',
    });
    expect(badAction.status).toBe(400);
    expect(badAction.body.fields[0].field).toBe('action');
    const other = otherRetailer;
    const kiran = await customerNamed('Kiran', other);
    const foreign = await apiPost(t, retailer, paths.devices.bulkLockUnlock, {
      action: 'lock',
      customer_ids: [await customerNamed('Aarav'), kiran],
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.fields[0].field).toBe('customer_ids');
    const mini = miniRetailer;
    const denied = await apiPost(t, mini, paths.devices.bulkLockUnlock, {
      action: 'lock',
      filter: 'all_enrolled',
    });
    expect(denied.status).toBe(403); // bulk_retailer defaults to '0'
    expect(await commandCount()).toBe(before);

    const mine = await apiPost(t, retailer, paths.devices.bulkLockUnlock, {
      action: 'lock',
      filter: 'all_enrolled',
    });
    const theirs = await apiGet(t, other, `${paths.devices.bulkProgress}?batch_id=${mine.body.data.batchId}`);
    expect(theirs.status).toBe(404);
    const badBatch = await apiGet(t, retailer, `${paths.devices.bulkProgress}?batch_id=x`);
    expect(badBatch.status).toBe(400);
    expect(badBatch.body.fields[0].field).toBe('batch_id');
  });
});

describe('uninstall, unclaim_customer and SIM changes', () => {
  it('releases a customer whose EMIs are completed, and only them', async ({ otherRetailer }) => {
    const sneha = await customerNamed('Sneha'); // status 5
    const released = await apiPost(t, retailer, paths.devices.unclaim, { customer_id: sneha });
    expect(released.status).toBe(200);
    expect(released.body.data.name).toBe('uninstall');
    const before = await commandCount();
    const aarav = await customerNamed('Aarav');
    const notDone = await apiPost(t, retailer, paths.devices.unclaim, { customer_id: aarav });
    expect(notDone.status).toBe(409);
    expect(notDone.body).toMatchObject({ code: 'LOAN_NOT_COMPLETED', fields: [{ field: 'customer_id' }] });
    const bad = await apiPost(t, retailer, paths.devices.unclaim, { customer_id: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('customer_id');
    const other = otherRetailer;
    expect((await apiPost(t, other, paths.devices.unclaim, { customer_id: sneha })).status).toBe(404);
    expect(await commandCount()).toBe(before);
  });

  it('uninstall needs a well-formed UNINSTALL OTP and the customer in scope', async ({ otherRetailer }) => {
    const aarav = await customerNamed('Aarav');
    const before = await commandCount();
    const bad = await apiPost(t, retailer, paths.devices.uninstall, { customer_id: aarav, otp: '12' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('otp');
    const loginOtp = await apiPost(t, retailer, paths.devices.uninstall, {
      customer_id: aarav,
      otp: '123456',
    });
    expect(loginOtp.status).toBe(400); // no UNINSTALL OTP was requested
    expect(loginOtp.body.fields[0].field).toBe('otp');
    const other = otherRetailer;
    const foreign = await apiPost(t, other, paths.devices.uninstall, { customer_id: aarav, otp: '123456' });
    expect(foreign.status).toBe(404);
    expect(await commandCount()).toBe(before);
  });

  it('lists SIM changes of one’s own customers only', async ({ otherRetailer }) => {
    const aarav = await customerNamed('Aarav');
    await queryRows(
      t.app.ctx.db,
      sql`insert into sim_changes (org_id, device_id, customer_id, before, after, detected_at)
          select org_id, id, customer_id, '[{"slot":1,"iccid":"8991000900000000001","operator":"Jio"}]'::jsonb,
                 '[{"slot":1,"iccid":"8991000900000000002","operator":"Airtel"}]'::jsonb, now()
          from devices where customer_id = ${aarav}`,
    );
    const page = await apiGet(t, retailer, paths.devices.simChanges);
    expect(page.body.data).toMatchObject({
      total: 1,
      items: [{ customerId: aarav, customerName: 'Aarav Sharma' }],
    });
    const one = await apiGet(t, retailer, `${paths.customers.simChangeDetails}?customer_id=${aarav}`);
    expect(one.body.data[0].after[0].operator).toBe('Airtel');
    const badPage = await apiGet(t, retailer, `${paths.devices.simChanges}?page=0`);
    expect(badPage.status).toBe(400);
    expect(badPage.body.fields[0].field).toBe('page');
    const other = otherRetailer;
    expect((await apiGet(t, other, paths.devices.simChanges)).body.data.total).toBe(0);
    expect((await apiGet(t, other, `${paths.customers.simChangeDetails}?customer_id=${aarav}`)).status).toBe(
      404,
    );
  });
});
