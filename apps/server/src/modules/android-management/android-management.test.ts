import { addDays, istDate } from '@kisht/domain/common/time';
import { ZAmapiSyncResult } from '@kisht/domain/contract/android-management';
import { ZEnrolmentQr } from '@kisht/domain/customers/customers.schema';
import { ZBulkProgress, ZDeviceCommand } from '@kisht/domain/devices/devices.schema';
import { deviceControlPath, paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE, SECOND_ORG_ID, SECOND_RETAILER_MOBILE } from '../../db/seed/seed';
import { type FakeAndroidManagement, startFakeAndroidManagement } from '../../test/fake-android-management';
import {
  apiGet,
  apiPost,
  customerBody,
  customerIdNamed,
  freshImei,
  recordConsent,
} from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';
import { runAutoLockLadder } from '../devices/auto-lock.service';
import type { AndroidManagementBridge } from './android-management.service';

/**
 * Issue 15, managed Android (device_type 1) through Google's Android Management API, over the real
 * app and a local fake of the API: the enrolment QR, enrolment detection, commands and their
 * operations, and Google's permissible-usage rule (no lock for a missed payment).
 */
let t: TestApp;
let fake: FakeAndroidManagement;
let retailer: string;

const WIFI = { PROVISIONING_WIFI_SSID: 'RaviMobiles', PROVISIONING_WIFI_PASSWORD: 'shop-wifi-pass' };

beforeEach(async () => {
  fake = await startFakeAndroidManagement();
  t = await createTestApp({
    AMAPI_API_URL: fake.url,
    AMAPI_ENTERPRISE_NAME: fake.enterpriseName,
    AMAPI_ACCESS_TOKEN: fake.token,
    ...WIFI,
  });
  retailer = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
});
afterEach(async () => {
  await t.close();
  await fake.close();
});

const bridge = () => t.app.ctx.dispatcher.bridges.android_management as AndroidManagementBridge;
const deviceRow = async (customerId: number) =>
  (
    await queryRows<{
      id: string;
      mdm_id: string | null;
      mdm_info: Record<string, unknown> | null;
      enrolled_at: string | null;
      reported_locked: boolean;
      reported_controls: Record<string, boolean>;
    }>(t.app.ctx.db, sql`select * from devices where customer_id = ${customerId}`)
  )[0]!;
const statusOf = async (customerId: number) =>
  (
    await queryRows<{ status: number }>(
      t.app.ctx.db,
      sql`select status from customers where id = ${customerId}`,
    )
  )[0]!.status;
const commandsOf = (customerId: number) =>
  queryRows<{ id: string; name: string; state: string; error: string | null }>(
    t.app.ctx.db,
    sql`select c.id, c.name, c.state, c.error from device_commands c join devices d on d.id = c.device_id
        where d.customer_id = ${customerId} order by c.created_at, c.id`,
  );
const mdmCommandsOf = (customerId: number) =>
  queryRows<{ id: string; request_type: string; status: string; command_id: string | null }>(
    t.app.ctx.db,
    sql`select m.id, m.request_type, m.status, m.command_id from mdm_commands m
        join devices d on d.id = m.device_id where d.customer_id = ${customerId} order by m.created_at`,
  );
const issuedCommands = () =>
  fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith(':issueCommand') && r.status === 200);
/** The first instalment unpaid and due `days` days ago. */
const makeOverdue = (customerId: number, days = 10) =>
  queryRows(
    t.app.ctx.db,
    sql`update emis set due_date = ${addDays(istDate(), -days)}, paid_paise = 0
        where customer_id = ${customerId} and instalment_no = 1`,
  );

/** Adds a managed-Android customer (device_type 1, app_type 0) with consent recorded. */
const addManagedCustomer = async (token = retailer) => {
  const productId = (await apiGet(t, token, `${paths.catalogue.products}?device_type=0`)).body.data[0]
    .id as number;
  const body = customerBody(productId, { deviceType: 1, appType: 0 });
  const created = await apiPost(t, token, paths.customers.create, body);
  expect(created.status).toBe(200);
  const customerId = created.body.data.id as number;
  expect((await recordConsent(t, token, customerId)).status).toBe(200);
  return { customerId, imei1: body.imei1 as string };
};

/** The AMAPI enrolment token value the QR carries (CloudDPC's EXTRA_ENROLLMENT_TOKEN). */
const tokenValueOf = (payload: string) =>
  (JSON.parse(payload)['android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE'] as Record<string, string>)[
    'com.google.android.apps.work.clouddpc.EXTRA_ENROLLMENT_TOKEN'
  ]!;

/** Adds a managed-Android customer, scans its QR on a simulated phone and syncs: an enrolled phone. */
const enrolledManagedCustomer = async () => {
  const { customerId, imei1 } = await addManagedCustomer();
  const qr = await apiGet(t, retailer, `${paths.customers.qrCode}?customer_id=${customerId}`);
  expect(qr.status).toBe(200);
  fake.enrolPhone({ tokenValue: tokenValueOf(qr.body.data.payload), imei: imei1 });
  const synced = await apiPost(t, retailer, paths.androidManagement.sync, { customer_id: customerId });
  expect(synced.status).toBe(200);
  return { customerId, device: await deviceRow(customerId) };
};

describe('managed-Android enrolment', () => {
  it("hands out the Android Management API's QR with the Wi-Fi extras, and the sync marks the phone enrolled (status install)", async () => {
    const { customerId, imei1 } = await addManagedCustomer();
    const qr = await apiGet(t, retailer, `${paths.customers.qrCode}?customer_id=${customerId}`);
    expect(qr.status).toBe(200);
    const data = ZEnrolmentQr.parse(qr.body.data);
    expect(data.kind).toBe('managed_android');
    const payload = JSON.parse(data.payload) as Record<string, unknown>;
    // AMAPI's own QR (Android Device Policy), with the shop's Wi-Fi merged in.
    expect(payload['android.app.extra.PROVISIONING_DEVICE_ADMIN_COMPONENT_NAME']).toBe(
      'com.google.android.apps.work.clouddpc/.receivers.CloudDeviceAdminReceiver',
    );
    expect(payload['android.app.extra.PROVISIONING_WIFI_SSID']).toBe('RaviMobiles');
    expect(payload['android.app.extra.PROVISIONING_WIFI_PASSWORD']).toBe('shop-wifi-pass');
    expect(payload['android.app.extra.PROVISIONING_WIFI_SECURITY_TYPE']).toBe('WPA');
    const device = await deviceRow(customerId);
    const tokenRequest = fake.requests.find((r) => r.path.endsWith('/enrollmentTokens'))!;
    expect(tokenRequest.body).toMatchObject({
      policyName: `${fake.enterpriseName}/policies/kisht-org-${DEMO_ORG_ID}`,
      additionalData: device.id,
      oneTimeOnly: true,
    });
    // The token lasts as long as Kisht's enrolment token (ENROLMENT_TOKEN_TTL_HOURS).
    const seconds = Number.parseInt((tokenRequest.body as { duration: string }).duration, 10);
    expect(Math.abs(seconds - t.app.ctx.config.ENROLMENT_TOKEN_TTL_HOURS * 3600)).toBeLessThan(5);
    expect(fake.policies.has(`${fake.enterpriseName}/policies/kisht-org-${DEMO_ORG_ID}`)).toBe(true);

    // Not scanned yet: the sync finds nothing.
    const before = await apiPost(t, retailer, paths.androidManagement.sync, { customer_id: customerId });
    expect(ZAmapiSyncResult.parse(before.body.data)).toMatchObject({
      isEnrolled: false,
      status: 0,
      mdmId: null,
    });

    const phone = fake.enrolPhone({ tokenValue: tokenValueOf(data.payload), imei: imei1 });
    const after = await apiPost(t, retailer, paths.androidManagement.sync, { customer_id: customerId });
    expect(after.status).toBe(200);
    expect(ZAmapiSyncResult.parse(after.body.data)).toMatchObject({
      customerId,
      isEnrolled: true,
      status: 1,
      mdmId: phone.name,
      state: 'ACTIVE',
    });
    const enrolled = await deviceRow(customerId);
    expect(enrolled.enrolled_at).not.toBeNull();
    expect(enrolled.mdm_id).toBe(phone.name);
    expect(enrolled.mdm_info).toMatchObject({
      hardwareInfo: { model: 'Pixel 8 Pro', manufacturer: 'Google' },
      networkInfo: { imei: imei1 },
    });
    const [audit] = await queryRows<{ details: Record<string, unknown> }>(
      t.app.ctx.db,
      sql`select details from audit_log where action = 'device.enrol' and entity_id = ${String(customerId)}`,
    );
    expect(audit!.details).toMatchObject({ deviceId: enrolled.id, channel: 'android_management' });
  });

  it('the sync job finds enrolled phones, and a phone AMAPI deletes moves its customer to uninstall (3)', async () => {
    const { customerId, imei1 } = await addManagedCustomer();
    const qr = await apiGet(t, retailer, `${paths.customers.qrCode}?customer_id=${customerId}`);
    const phone = fake.enrolPhone({ tokenValue: tokenValueOf(qr.body.data.payload), imei: imei1 });
    expect(await bridge().syncDevices()).toMatchObject({ enrolled: 1 });
    expect(await statusOf(customerId)).toBe(1);
    expect(await bridge().syncDevices()).toMatchObject({ enrolled: 0, updated: 1, removed: 0 });
    fake.deleteDevice(phone.name as string);
    expect(await bridge().syncDevices()).toMatchObject({ removed: 1 });
    expect(await statusOf(customerId)).toBe(3);
    expect(await bridge().syncDevices()).toMatchObject({ removed: 0 });
  });

  it('does not enrol a phone whose reported IMEI is not the customer’s', async () => {
    const { customerId } = await addManagedCustomer();
    const qr = await apiGet(t, retailer, `${paths.customers.qrCode}?customer_id=${customerId}`);
    fake.enrolPhone({ tokenValue: tokenValueOf(qr.body.data.payload), imei: '490154203237518' });
    const synced = await apiPost(t, retailer, paths.androidManagement.sync, { customer_id: customerId });
    expect(synced.body.data).toMatchObject({ isEnrolled: false, status: 0 });
    expect((await deviceRow(customerId)).mdm_info).toMatchObject({ imeiMismatch: true });
  });

  it('amapi_sync: 400 naming customer_id for bad input, 404 for another organisation’s customer, 409 for another family', async () => {
    const bad = await apiPost(t, retailer, paths.androidManagement.sync, { customer_id: 'x' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('customer_id');
    const missing = await apiPost(t, retailer, paths.androidManagement.sync, {});
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('customer_id');

    const { customerId } = await addManagedCustomer();
    const other = await t.tokenFor(SECOND_ORG_ID, SECOND_RETAILER_MOBILE);
    const foreign = await apiPost(t, other, paths.androidManagement.sync, { customer_id: customerId });
    expect(foreign.status).toBe(404);
    expect(fake.requests.filter((r) => r.path.endsWith('/devices'))).toHaveLength(0);

    const aarav = await customerIdNamed(t, retailer, 'Aarav');
    const dpc = await apiPost(t, retailer, paths.androidManagement.sync, { customer_id: aarav });
    expect(dpc.status).toBe(409);
    expect(dpc.body.code).toBe('NOT_FOR_THIS_DEVICE_FAMILY');
  });
});

describe("Google's permissible-usage rule: no lock for a missed payment", () => {
  it('refuses a payment-driven lock with 409 PAYMENT_LOCK_NOT_ALLOWED and the reason, writing nothing', async () => {
    const { customerId } = await enrolledManagedCustomer();
    await makeOverdue(customerId);
    const noReason = await apiPost(t, retailer, paths.devices.lock, { customer_id: customerId });
    expect(noReason.status).toBe(409);
    expect(noReason.body.code).toBe('PAYMENT_LOCK_NOT_ALLOWED');
    expect(noReason.body.message).toMatch(/Google/);
    expect(noReason.body.message).toMatch(/missed/);
    const paymentReason = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: customerId,
      reason_category: 'overdue_emi',
      reason: 'EMI overdue for ten days',
    });
    expect(paymentReason.status).toBe(409);
    expect(paymentReason.body.code).toBe('PAYMENT_LOCK_NOT_ALLOWED');
    await queryRows(
      t.app.ctx.db,
      sql`update organizations set settings = settings ||
            '{"allowedControls":["lock","lost_mode"]}'::jsonb where id = ${DEMO_ORG_ID}`,
    );
    for (const reason_category of [undefined, 'overdue_emi']) {
      const lostMode = await apiPost(t, retailer, deviceControlPath('lost_mode'), {
        customer_id: customerId,
        enable: true,
        args: {},
        ...(reason_category ? { reason_category } : {}),
      });
      expect(lostMode.status).toBe(409);
      expect(lostMode.body.code).toBe('PAYMENT_LOCK_NOT_ALLOWED');
    }
    expect(await commandsOf(customerId)).toEqual([]);
    expect(issuedCommands()).toHaveLength(0);
  });

  it('lets a lock for a customer request go out as LOCK, acknowledged once the operation is done', async () => {
    const { customerId, device } = await enrolledManagedCustomer();
    await makeOverdue(customerId);
    const locked = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: customerId,
      reason_category: 'customer_request',
    });
    expect(locked.status).toBe(200);
    const command = ZDeviceCommand.parse(locked.body.data);
    expect(command.state).toBe('received');
    const [issued] = issuedCommands();
    expect(issued!.path).toBe(`${device.mdm_id}:issueCommand`);
    expect(issued!.body).toMatchObject({ type: 'LOCK' });
    // The phone's own policy went in first, and the phone follows it.
    expect(fake.devices.get(device.mdm_id!)!.policyName).toBe(
      `${fake.enterpriseName}/policies/kisht-device-${device.id}`,
    );
    const [row] = (await mdmCommandsOf(customerId)).filter((m) => m.request_type === 'LOCK');
    expect(row).toMatchObject({ status: 'sent', command_id: command.id });
    expect(row!.id).toMatch(new RegExp(`^${device.mdm_id}/operations/`));

    expect(await bridge().pollOperations()).toBe(1);
    expect((await commandsOf(customerId)).map((c) => [c.name, c.state])).toEqual([['lock', 'done']]);
    expect((await deviceRow(customerId)).reported_locked).toBe(true);
    expect((await mdmCommandsOf(customerId)).find((m) => m.request_type === 'LOCK')!.status).toBe(
      'acknowledged',
    );
    // A re-send of the policy issues nothing twice.
    expect(await bridge().pollOperations()).toBe(0);
    expect(issuedCommands()).toHaveLength(1);

    const unlocked = await apiPost(t, retailer, paths.devices.unlock, { customer_id: customerId });
    expect(unlocked.body.data.state).toBe('done');
    expect((await deviceRow(customerId)).reported_locked).toBe(false);
  });

  it('the auto-lock ladder skips a managed-Android customer and still locks the others', async () => {
    await queryRows(
      t.app.ctx.db,
      sql`update organizations set settings = settings ||
            '{"autoLock":{"reminderDaysBefore":null,"lockAfterDaysOverdue":5,"autoUnlock":true}}'::jsonb
          where id = ${DEMO_ORG_ID}`,
    );
    const { customerId } = await enrolledManagedCustomer();
    await makeOverdue(customerId, 10);
    const aarav = await customerIdNamed(t, retailer, 'Aarav');
    await makeOverdue(aarav, 10);
    const run = await runAutoLockLadder(t.app.ctx, istDate());
    expect(run.locks).toBeGreaterThanOrEqual(1);
    expect(await commandsOf(customerId)).toEqual([]);
    expect((await commandsOf(aarav)).map((c) => c.name)).toContain('lock');
    expect(issuedCommands()).toHaveLength(0);
  });

  it('the ladder sends no EMI reminder wallpaper to a managed-Android phone (no such command)', async () => {
    const { customerId } = await enrolledManagedCustomer();
    const [due] = await queryRows<{ days: number }>(
      t.app.ctx.db,
      sql`select (min(due_date) - ${istDate()}::date)::int as days from emis where customer_id = ${customerId}`,
    );
    await queryRows(
      t.app.ctx.db,
      sql`update organizations set settings = settings ||
            ${JSON.stringify({ autoLock: { reminderDaysBefore: due!.days, lockAfterDaysOverdue: null, autoUnlock: true } })}::jsonb
          where id = ${DEMO_ORG_ID}`,
    );
    await runAutoLockLadder(t.app.ctx, istDate());
    expect(await commandsOf(customerId)).toEqual([]);
    expect(issuedCommands()).toHaveLength(0);
  });

  it('a bulk lock leaves a managed-Android customer out with the reason', async () => {
    const { customerId } = await enrolledManagedCustomer();
    await makeOverdue(customerId);
    const bulk = await apiPost(t, retailer, paths.devices.bulkLockUnlock, {
      action: 'lock',
      customer_ids: [customerId],
    });
    expect(bulk.status).toBe(200);
    const progress = ZBulkProgress.parse(bulk.body.data);
    expect(progress.total).toBe(0);
    expect(progress.skipped).toEqual([{ customerId, reason: expect.stringMatching(/Google/) }]);
    expect(await commandsOf(customerId)).toEqual([]);
  });
});

describe('managed-Android commands', () => {
  it('reboot goes out as REBOOT and is acknowledged', async () => {
    const { customerId } = await enrolledManagedCustomer();
    fake.pollsUntilDone = 2;
    const rebooted = await apiPost(t, retailer, deviceControlPath('reboot'), { customer_id: customerId });
    expect(rebooted.status).toBe(200);
    expect(issuedCommands().map((r) => (r.body as { type: string }).type)).toEqual(['REBOOT']);
    expect(await bridge().pollOperations()).toBe(0); // not done at the first poll
    expect((await commandsOf(customerId))[0]!.state).toBe('received');
    expect(await bridge().pollOperations()).toBe(1);
    expect((await commandsOf(customerId))[0]!.state).toBe('done');
  });

  it('lost mode goes out as START_LOST_MODE with UserFacingMessage params, and STOP_LOST_MODE takes it back', async () => {
    await queryRows(
      t.app.ctx.db,
      sql`update organizations set settings = settings ||
            '{"allowedControls":["lock","lost_mode","camera_lock","reboot"]}'::jsonb where id = ${DEMO_ORG_ID}`,
    );
    const { customerId } = await enrolledManagedCustomer();
    const on = await apiPost(t, retailer, deviceControlPath('lost_mode'), {
      customer_id: customerId,
      enable: true,
      args: { phone: '+919876543210' },
      reason_category: 'fraud_or_theft',
      reason: 'Customer reported the phone lost',
    });
    expect(on.status).toBe(200);
    const [start] = issuedCommands();
    expect(start!.body).toMatchObject({
      type: 'START_LOST_MODE',
      startLostModeParams: {
        // Built from the reason category (issue 25), never a person's free text.
        lostMessage: {
          defaultMessage:
            'This phone is locked: it was reported stolen or is under a fraud check. Call Ravi Mobiles on +919876543210.',
        },
        lostPhoneNumber: { defaultMessage: '+919876543210' },
      },
    });
    await bridge().pollOperations();
    expect((await deviceRow(customerId)).reported_controls.lost_mode).toBe(true);

    const off = await apiPost(t, retailer, deviceControlPath('lost_mode'), {
      customer_id: customerId,
      enable: false,
    });
    expect(off.status).toBe(200);
    expect(issuedCommands()[1]!.body).toEqual({ type: 'STOP_LOST_MODE', stopLostModeParams: {} });
    await bridge().pollOperations();
    expect((await commandsOf(customerId)).map((c) => [c.name, c.state])).toEqual([
      ['lost_mode_on', 'done'],
      ['lost_mode_off', 'done'],
    ]);
    expect((await deviceRow(customerId)).reported_controls.lost_mode).toBe(false);
  });

  it("camera lock goes into the phone's own policy; a control AMAPI cannot carry is not offered (409)", async () => {
    const { customerId, device } = await enrolledManagedCustomer();
    const camera = await apiPost(t, retailer, deviceControlPath('camera_lock'), {
      customer_id: customerId,
      enable: true,
    });
    expect(camera.body.data.state).toBe('done');
    expect(fake.policies.get(`${fake.enterpriseName}/policies/kisht-device-${device.id}`)).toMatchObject({
      cameraAccess: 'CAMERA_ACCESS_DISABLED',
      advancedSecurityOverrides: { developerSettings: 'DEVELOPER_SETTINGS_ALLOWED' },
      statusReportingSettings: { networkInfoEnabled: true },
    });
    // Issue 27: USB debugging is blocked through developerSettings, not the deprecated
    // debuggingFeaturesAllowed (which Kisht no longer sends).
    const usb = await apiPost(t, retailer, deviceControlPath('usb_debugging'), {
      customer_id: customerId,
      enable: true,
    });
    expect(usb.body.data.state).toBe('done');
    const ownPolicy = fake.policies.get(`${fake.enterpriseName}/policies/kisht-device-${device.id}`)!;
    expect(ownPolicy.advancedSecurityOverrides).toEqual({ developerSettings: 'DEVELOPER_SETTINGS_DISABLED' });
    expect(ownPolicy).not.toHaveProperty('debuggingFeaturesAllowed');
    expect((await deviceRow(customerId)).reported_controls.camera_lock).toBe(true);
    const wallpaper = await apiPost(t, retailer, deviceControlPath('wallpaper'), {
      customer_id: customerId,
      enable: true,
      args: { text: 'Hello' },
    });
    expect(wallpaper.status).toBe(409);
    expect(wallpaper.body.code).toBe('COMMAND_NOT_AVAILABLE');
    expect(issuedCommands().filter((r) => JSON.stringify(r.body).includes('allpaper'))).toEqual([]);
  });

  it("SIM info reads the SIMs of the phone's last status report; location is not offered (issue 25)", async () => {
    const { customerId } = await enrolledManagedCustomer();
    const shown = (await apiGet(t, retailer, `${paths.customers.details}?customer_id=${customerId}`)).body
      .data;
    expect(shown.device.availability.actions).toEqual(['reboot', 'sim_info', 'emi_alert', 'uninstall']);
    const sims = await apiPost(t, retailer, deviceControlPath('sim_info'), { customer_id: customerId });
    expect(sims.status).toBe(200);
    expect(sims.body.data.state).toBe('done');
    const history = await apiGet(t, retailer, `${paths.devices.history}?customer_id=${customerId}`);
    expect(history.body.data[0]).toMatchObject({
      name: 'sim_info',
      state: 'done',
      result: { sims: [{ slot: 1, iccid: '8991000900000000017', operator: 'Jio' }] },
    });
    const after = (await apiGet(t, retailer, `${paths.customers.details}?customer_id=${customerId}`)).body
      .data;
    expect(after.device.sims).toEqual([{ slot: 1, iccid: '8991000900000000017', operator: 'Jio' }]);
    const location = await apiPost(t, retailer, deviceControlPath('fetch_location'), {
      customer_id: customerId,
    });
    expect(location.status).toBe(409);
    expect(location.body.code).toBe('COMMAND_NOT_AVAILABLE');
    expect(issuedCommands()).toEqual([]);
  });

  it("an EMI alert goes on the lock screen as the phone's device-owner information, until its next policy", async () => {
    const { customerId, device } = await enrolledManagedCustomer();
    await makeOverdue(customerId);
    const alert = await apiPost(t, retailer, paths.emi.sendAlert, {
      customer_id: customerId,
      message: 'Please pay at the shop',
    });
    expect(alert.status).toBe(200);
    expect(alert.body.data.state).toBe('done');
    const policyName = `${fake.enterpriseName}/policies/kisht-device-${device.id}`;
    const lockScreenInfo = fake.policies.get(policyName)?.deviceOwnerLockScreenInfo as
      | { defaultMessage: string }
      | undefined;
    const text = lockScreenInfo?.defaultMessage;
    expect(text).toMatch(
      /^EMI of ₹[\d,.]+ due on \d{2}-\d{2}-\d{4}\. Overdue: ₹[\d,.]+\. Please pay at the shop$/,
    );
    // The alert changed nothing else the phone holds, and the next policy is rebuilt without it.
    expect(fake.policies.get(policyName)).toMatchObject({ cameraAccess: 'CAMERA_ACCESS_USER_CHOICE' });
    await apiPost(t, retailer, deviceControlPath('camera_lock'), {
      customer_id: customerId,
      enable: true,
      reason_category: 'customer_request',
    });
    expect(fake.policies.get(policyName)?.deviceOwnerLockScreenInfo).toBeUndefined();
  });

  it('an operation that ends in an error fails the command with the error', async () => {
    const { customerId } = await enrolledManagedCustomer();
    fake.failNextCommand = 'Device is offline for too long';
    await apiPost(t, retailer, deviceControlPath('reboot'), { customer_id: customerId });
    await bridge().pollOperations();
    const [command] = await commandsOf(customerId);
    expect(command).toMatchObject({ state: 'failed', error: expect.stringMatching(/offline for too long/) });
  });
});

describe('re-enrolment of a managed-Android phone (issue 27)', () => {
  it('points the old phone at a released policy of its own and stops its lost mode; the new phone gets the device policy', async () => {
    const { customerId, device } = await enrolledManagedCustomer();
    const camera = await apiPost(t, retailer, deviceControlPath('camera_lock'), {
      customer_id: customerId,
      enable: true,
    });
    expect(camera.body.data.state).toBe('done');
    await queryRows(
      t.app.ctx.db,
      sql`update devices set reported_controls = reported_controls || '{"lost_mode":true}'::jsonb where id = ${device.id}`,
    );
    const ownPolicy = `${fake.enterpriseName}/policies/kisht-device-${device.id}`;
    const imei1 = freshImei();
    const answer = await apiPost(t, retailer, paths.devices.reEnrol, {
      customer_id: customerId,
      reason: 'replaced_under_warranty',
      imei1,
      imei2: freshImei(),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.wasReleaseSent).toBe(true);
    const retired = `${fake.enterpriseName}/policies/kisht-retired-${device.id}`;
    expect(fake.devices.get(device.mdm_id!)!.policyName).toBe(retired);
    expect(fake.policies.get(retired)).toMatchObject({
      cameraAccess: 'CAMERA_ACCESS_USER_CHOICE',
      advancedSecurityOverrides: { developerSettings: 'DEVELOPER_SETTINGS_ALLOWED' },
    });
    expect(issuedCommands().map((r) => (r.body as { type?: string }).type)).toEqual(['STOP_LOST_MODE']);
    // Never a delete: it would wipe the phone.
    expect(fake.requests.filter((r) => r.method === 'DELETE')).toEqual([]);

    // The new phone enrols from a new QR and is given the device's own policy; the old one stays released.
    const qr = await apiGet(t, retailer, `${paths.customers.qrCode}?customer_id=${customerId}`);
    expect(qr.status).toBe(200);
    fake.enrolPhone({ tokenValue: tokenValueOf(qr.body.data.payload), imei: imei1 });
    expect(
      (await apiPost(t, retailer, paths.androidManagement.sync, { customer_id: customerId })).status,
    ).toBe(200);
    const now = await deviceRow(customerId);
    expect(now.mdm_id).not.toBe(device.mdm_id);
    expect(await statusOf(customerId)).toBe(1);
    // A restriction of the new phone goes into the device's policy: the old phone stays released.
    const again = await apiPost(t, retailer, deviceControlPath('camera_lock'), {
      customer_id: customerId,
      enable: true,
    });
    expect(again.body.data.state).toBe('done');
    expect(fake.devices.get(now.mdm_id!)!.policyName).toBe(ownPolicy);
    expect(fake.devices.get(device.mdm_id!)!.policyName).toBe(retired);
    expect(fake.policies.get(retired)).toMatchObject({ cameraAccess: 'CAMERA_ACCESS_USER_CHOICE' });
  });
});

describe('release of a managed-Android phone after the last EMI', () => {
  it('unclaim_customer clears every restriction of the phone’s policy (no delete, no wipe): done, status uninstall (3)', async () => {
    const { customerId, device } = await enrolledManagedCustomer();
    const camera = await apiPost(t, retailer, deviceControlPath('camera_lock'), {
      customer_id: customerId,
      enable: true,
    });
    expect(camera.body.data.state).toBe('done');
    const ownPolicy = `${fake.enterpriseName}/policies/kisht-device-${device.id}`;
    expect(fake.policies.get(ownPolicy)).toMatchObject({ cameraAccess: 'CAMERA_ACCESS_DISABLED' });

    const early = await apiPost(t, retailer, paths.devices.unclaim, { customer_id: customerId });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('LOAN_NOT_COMPLETED');
    await queryRows(t.app.ctx.db, sql`update customers set status = 5 where id = ${customerId}`);

    const released = await apiPost(t, retailer, paths.devices.unclaim, { customer_id: customerId });
    expect(released.status).toBe(200);
    const command = ZDeviceCommand.parse(released.body.data);
    expect(command.name).toBe('uninstall');
    expect((await commandsOf(customerId)).find((c) => c.id === command.id)).toMatchObject({
      state: 'done',
      error: null,
    });
    expect(await statusOf(customerId)).toBe(3);
    // The phone's own policy now restricts nothing and asks for no reports; the phone follows it.
    expect(fake.policies.get(ownPolicy)).toMatchObject({
      cameraAccess: 'CAMERA_ACCESS_USER_CHOICE',
      cameraDisabled: false,
      advancedSecurityOverrides: { developerSettings: 'DEVELOPER_SETTINGS_ALLOWED' },
      applications: [],
      statusReportingSettings: { networkInfoEnabled: false, hardwareStatusEnabled: false },
    });
    expect(fake.devices.get(device.mdm_id!)!.policyName).toBe(ownPolicy);
    // Never a delete (it wipes the phone), a WIPE or a RELINQUISH_OWNERSHIP (work profiles only).
    expect(fake.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    expect(issuedCommands().map((r) => (r.body as { type?: string }).type)).toEqual([]);
    expect(fake.devices.has(device.mdm_id!)).toBe(true);
    expect(await mdmCommandsOf(customerId)).toContainEqual(
      expect.objectContaining({ request_type: 'RELEASE', status: 'acknowledged', command_id: command.id }),
    );
    const row = await deviceRow(customerId);
    expect(row.reported_controls.camera_lock).toBe(false);
    // The phone stays listed at Google: the sync neither removes it again nor changes the status.
    expect(await bridge().syncDevices()).toMatchObject({ removed: 0 });
    expect(await statusOf(customerId)).toBe(3);
  });

  it('a release of a phone left in lost mode also stops lost mode', async () => {
    const { customerId, device } = await enrolledManagedCustomer();
    await queryRows(
      t.app.ctx.db,
      sql`update devices set reported_controls = '{"lost_mode":true}'::jsonb where id = ${device.id}`,
    );
    await queryRows(t.app.ctx.db, sql`update customers set status = 5 where id = ${customerId}`);
    const released = await apiPost(t, retailer, paths.devices.unclaim, { customer_id: customerId });
    expect(released.status).toBe(200);
    expect(issuedCommands().map((r) => r.body)).toEqual([{ type: 'STOP_LOST_MODE', stopLostModeParams: {} }]);
    expect(await statusOf(customerId)).toBe(3);
    expect((await deviceRow(customerId)).reported_controls.lost_mode).toBe(false);
    expect(await bridge().pollOperations()).toBe(1);
  });
});

describe('without the Android Management API configured', () => {
  it('the managed-Android QR answers 503 MDM_UNAVAILABLE and writes nothing; amapi_sync too', async () => {
    await t.close();
    t = await createTestApp();
    retailer = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
    const { customerId } = await addManagedCustomer();
    const qr = await apiGet(t, retailer, `${paths.customers.qrCode}?customer_id=${customerId}`);
    expect(qr.status).toBe(503);
    expect(qr.body.code).toBe('MDM_UNAVAILABLE');
    expect(qr.body.message).toMatch(/Android Management API/);
    const [device] = await queryRows<{ enrolment_token_hash: string | null }>(
      t.app.ctx.db,
      sql`select enrolment_token_hash from devices where customer_id = ${customerId}`,
    );
    expect(device!.enrolment_token_hash).toBeNull();
    const sync = await apiPost(t, retailer, paths.androidManagement.sync, { customer_id: customerId });
    expect(sync.status).toBe(503);
  });

  it('a wrong access token answers 503 MDM_UNAVAILABLE naming the API', async () => {
    await t.close();
    t = await createTestApp({
      AMAPI_API_URL: fake.url,
      AMAPI_ENTERPRISE_NAME: fake.enterpriseName,
      AMAPI_ACCESS_TOKEN: 'ya29.wrong',
    });
    retailer = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
    const { customerId } = await addManagedCustomer();
    const qr = await apiGet(t, retailer, `${paths.customers.qrCode}?customer_id=${customerId}`);
    expect(qr.status).toBe(503);
    expect(qr.body.message).toMatch(/Android Management API answered 401/);
  });
});
