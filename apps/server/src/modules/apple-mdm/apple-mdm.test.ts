import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { ZAppleDetails } from '@kisht/domain/apple/apple.schema';
import { ZEnrolmentQr } from '@kisht/domain/customers/customers.schema';
import { deviceControlPath, paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { type PlistValue, parse } from 'plist';
import { afterEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE, SECOND_ORG_ID, SECOND_RETAILER_MOBILE } from '../../db/seed/seed';
import { type FakeIphone, type FakeNanoMdm, startFakeNanoMdm } from '../../test/fake-nanomdm';
import { apiGet, apiPost, customerBody, recordConsent, waitUntil } from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';
import { reconcileDeviceServices } from '../devices/command-jobs.service';

const API_KEY = 'nanomdm-test-api-key';
const WEBHOOK_SECRET = 'nanomdm-webhook-hmac-key-for-tests';
const SERIAL = 'F2LXK9ABCD12';
const REASON = 'Customer asked us to test the lock';
const MANIFEST_URL = 'https://apps.example.in/onemode/manifest.plist';

let t: TestApp | undefined;
let fake: FakeNanoMdm | undefined;

afterEach(async () => {
  await t?.close();
  await fake?.close();
  t = undefined;
  fake = undefined;
});

/** A Kisht server pointed at a fake NanoMDM whose webhook comes back to the server over HTTP. */
const start = async () => {
  fake = await startFakeNanoMdm(API_KEY, WEBHOOK_SECRET);
  t = await createTestApp({
    NANOMDM_URL: fake.url,
    NANOMDM_API_KEY: API_KEY,
    NANOMDM_WEBHOOK_SECRET: WEBHOOK_SECRET,
    APPLE_MDM_TOPIC: 'com.apple.mgmt.External.5ad8e2b4-test',
    APPLE_MDM_SERVER_URL: 'https://mdm.example.in/mdm',
    APPLE_SCEP_URL: 'https://mdm.example.in/scep',
    APPLE_SCEP_CHALLENGE: 'scep-challenge',
    APPLE_ONE_MODE_APP_MANIFEST_URL: MANIFEST_URL,
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  fake.webhookUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${paths.apple.webhook}`;
  const retailer = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
  return { t, fake, retailer };
};

/** Adds an Apple customer (device_type 3, app_type 2) with consent; returns its id. */
const addAppleCustomer = async (app: TestApp, token: string, overrides: Record<string, unknown> = {}) => {
  const productId = (await apiGet(app, token, `${paths.catalogue.products}?device_type=3`)).body.data[0].id;
  const created = await apiPost(
    app,
    token,
    paths.customers.create,
    customerBody(productId, { deviceType: 3, appType: 2, serialNumber: SERIAL, ...overrides }),
  );
  expect(created.status).toBe(200);
  const customerId = created.body.data.id as number;
  expect((await recordConsent(app, token, customerId)).status).toBe(200);
  return customerId;
};

/** The customer's enrolment profile, fetched from the URL its QR carries. */
const profileOf = async (app: TestApp, token: string, customerId: number) => {
  const qr = await apiGet(app, token, `${paths.apple.qr}?customer_id=${customerId}`);
  expect(qr.status).toBe(200);
  const data = ZEnrolmentQr.parse(qr.body.data);
  expect(data.kind).toBe('apple_profile');
  expect(data.payload).toMatch(/^https?:\/\/.+\/micromdm\/enrol\/[A-Za-z0-9_-]+\.mobileconfig$/);
  const response = await app.app.inject({ method: 'GET', url: new URL(data.payload).pathname });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/x-apple-aspen-config');
  return { url: data.payload, xml: response.body };
};

/** An iPhone (a new one, or `known` installing a new profile) enrolled from the customer's profile. */
const enrolledPhone = async (
  app: TestApp,
  nano: FakeNanoMdm,
  token: string,
  customerId: number,
  known?: FakeIphone,
) => {
  const { xml } = await profileOf(app, token, customerId);
  const phone =
    known ?? nano.phone(`00008110-${String(customerId).padStart(16, '0')}`, { serialNumber: SERIAL });
  const answers = (await phone.installProfile(xml)) as {
    status: number;
    body: { data: { outcome: string } };
  }[];
  expect(answers.map((a) => [a.status, a.body.data.outcome])).toEqual([
    [200, 'bound'],
    [200, 'enrolled'],
  ]);
  return phone;
};

const history = async (app: TestApp, token: string, customerId: number) =>
  (await apiGet(app, token, `${paths.devices.history}?customer_id=${customerId}`)).body.data as {
    id: string;
    name: string;
    state: string;
    error: string | null;
    result: Record<string, unknown> | null;
  }[];

/** Waits until the newest command named `name` is final; returns it. */
const settled = async (app: TestApp, token: string, customerId: number, name: string) => {
  let found: Awaited<ReturnType<typeof history>>[number] | undefined;
  await waitUntil(async () => {
    found = (await history(app, token, customerId)).find((c) => c.name === name);
    return Boolean(found && ['done', 'failed', 'cancelled', 'expired'].includes(found.state));
  });
  return found!;
};

const details = async (app: TestApp, token: string, customerId: number) =>
  (await apiGet(app, token, `${paths.customers.details}?customer_id=${customerId}`)).body.data;

const lastRan = (phone: FakeIphone) => phone.ran.at(-1)!;

describe('Apple devices through NanoMDM', () => {
  it('enrols an iPhone from its profile, then locks it, lost-modes, locates, syncs, unlocks and sees the profile removed', async () => {
    const { t, fake, retailer } = await start();
    const customerId = await addAppleCustomer(t, retailer);

    // The profile: SCEP identity + MDM payload pointing at NanoMDM with the one-time token.
    const { url, xml } = await profileOf(t, retailer, customerId);
    const profile = parse(xml) as Record<string, PlistValue>;
    const [scep, mdm] = profile.PayloadContent as Record<string, PlistValue>[];
    expect(scep).toMatchObject({
      PayloadType: 'com.apple.security.scep',
      PayloadContent: { URL: 'https://mdm.example.in/scep', Challenge: 'scep-challenge' },
    });
    expect(mdm).toMatchObject({
      PayloadType: 'com.apple.mdm',
      Topic: 'com.apple.mgmt.External.5ad8e2b4-test',
      IdentityCertificateUUID: scep!.PayloadUUID,
      CheckOutWhenRemoved: true,
      AccessRights: 8191,
      // Issue 27: NanoMDM without -cert-header (docs/apple.md) takes the phone's identity only
      // from the Mdm-Signature header, which the phone sends only when SignMessage is true.
      SignMessage: true,
    });
    expect(String(mdm!.ServerURL)).toMatch(/^https:\/\/mdm\.example\.in\/mdm\?kisht_token=[A-Za-z0-9_-]+$/);
    expect(mdm!.CheckInURL).toBe(mdm!.ServerURL);

    const phone = fake.phone('00008110-000A1B2C3D4E5F6A', { serialNumber: SERIAL });
    const answers = (await phone.installProfile(xml)) as {
      status: number;
      body: { data: { outcome: string } };
    }[];
    expect(answers.map((a) => a.body.data.outcome)).toEqual(['bound', 'enrolled']);
    expect((await details(t, retailer, customerId)).status).toBe(1);
    // The profile URL is spent once the phone enrolled.
    expect((await t.app.inject({ method: 'GET', url: new URL(url).pathname })).statusCode).toBe(404);

    // Location before lost mode: the phone refuses (Apple: only in lost mode) and Kisht shows why.
    await apiPost(t, retailer, deviceControlPath('fetch_location'), { customer_id: customerId });
    const refusedFix = await settled(t, retailer, customerId, 'location');
    expect(refusedFix.state).toBe('failed');
    expect(refusedFix.error).toContain('not in lost mode');

    // Lost mode on → EnableLostMode with the message; reported on.
    const lost = await apiPost(t, retailer, deviceControlPath('lost_mode'), {
      customer_id: customerId,
      enable: true,
      args: {},
      reason_category: 'fraud_or_theft',
      reason: REASON,
    });
    expect(lost.status).toBe(200);
    expect((await settled(t, retailer, customerId, 'lost_mode_on')).state).toBe('done');
    expect(lastRan(phone).command).toMatchObject({
      RequestType: 'EnableLostMode',
      // The message is built from the reason category (issue 25), never a person's free text.
      Message:
        'This phone is locked: it was reported stolen or is under a fraud check. Call Ravi Mobiles on +919876543210.',
      PhoneNumber: DEMO_RETAILER_MOBILE,
    });
    expect(phone.isLostMode).toBe(true);
    expect((await details(t, retailer, customerId)).device.controls.lost_mode).toBe(true);

    // Location in lost mode → DeviceLocation → a fix on customer_details.
    await apiPost(t, retailer, deviceControlPath('fetch_location'), { customer_id: customerId });
    await waitUntil(
      async () =>
        (await history(t, retailer, customerId)).filter((c) => c.name === 'location' && c.state === 'done')
          .length === 1,
    );
    // The fix is stored just after the ack's round (device-events finishDone), so it is awaited too.
    await waitUntil(async () => (await details(t, retailer, customerId)).device.lastLocation != null);
    expect((await details(t, retailer, customerId)).device.lastLocation).toMatchObject({
      latitude: '12.9716',
      longitude: '77.5946',
    });

    // apple_request_sync → DeviceInformation → apple_details.
    const sync = await apiPost(t, retailer, paths.apple.requestSync, { customer_id: customerId });
    expect(sync.status).toBe(200);
    expect((await settled(t, retailer, customerId, 'check_status')).state).toBe('done');
    expect(lastRan(phone).command).toMatchObject({ RequestType: 'DeviceInformation' });
    const apple = ZAppleDetails.parse(
      (await apiGet(t, retailer, `${paths.apple.details}?customer_id=${customerId}`)).body.data,
    );
    expect(apple).toMatchObject({
      customerId,
      udid: '00008110-000A1B2C3D4E5F6A',
      serialNumber: SERIAL,
      profileRemovedAt: null,
      reported: {
        deviceName: "Meera's iPhone",
        osVersion: '17.5',
        imeis: ['356938035643809'],
        isSupervised: true,
        isLostModeEnabled: true,
        batteryPercent: 85,
      },
      lastSync: { state: 'done' },
    });

    // Lost mode off → DisableLostMode.
    await apiPost(t, retailer, deviceControlPath('lost_mode'), { customer_id: customerId, enable: false });
    expect((await settled(t, retailer, customerId, 'lost_mode_off')).state).toBe('done');
    expect(lastRan(phone).requestType).toBe('DisableLostMode');
    expect(phone.isLostMode).toBe(false);

    // Lock → DeviceLock with the lock screen (retailer, phone); reported locked.
    const lock = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: customerId,
      reason_category: 'customer_request',
      reason: REASON,
    });
    expect(lock.status).toBe(200);
    expect((await settled(t, retailer, customerId, 'lock')).state).toBe('done');
    expect(lastRan(phone).command).toMatchObject({
      RequestType: 'DeviceLock',
      PhoneNumber: DEMO_RETAILER_MOBILE,
    });
    expect(String(lastRan(phone).command.Message)).toContain('Ravi Mobiles');
    expect(Object.keys(lastRan(phone).command).sort()).toEqual(['Message', 'PhoneNumber', 'RequestType']);
    expect((await details(t, retailer, customerId)).device.lockStatus).toBe(1);

    // Unlock: the owner's passcode opens a DeviceLock, so nothing is sent; reported unlocked.
    const ranBefore = phone.ran.length;
    await apiPost(t, retailer, paths.devices.unlock, { customer_id: customerId });
    expect((await settled(t, retailer, customerId, 'unlock')).state).toBe('done');
    expect(phone.ran.length).toBe(ranBefore);
    expect((await details(t, retailer, customerId)).device.lockStatus).toBe(0);

    // Every command the fake took passed Apple's schema check.
    expect(fake.refused).toEqual([]);

    // The owner removes the profile → CheckOut → status 4 (apple_removed).
    await phone.removeProfile();
    expect((await details(t, retailer, customerId)).status).toBe(4);
    const removed = ZAppleDetails.parse(
      (await apiGet(t, retailer, `${paths.apple.details}?customer_id=${customerId}`)).body.data,
    );
    expect(removed.profileRemovedAt).not.toBeNull();
    const sent = await apiPost(t, retailer, paths.apple.requestSync, { customer_id: customerId });
    expect(sent.status).toBe(409);
  });

  it('follows a lost mode cancelled after it reached NanoMDM with DisableLostMode, so the phone ends unlocked', async () => {
    const { t, fake, retailer } = await start();
    const customerId = await addAppleCustomer(t, retailer);
    const phone = await enrolledPhone(t, fake, retailer, customerId);
    phone.isOnline = false;
    const lost = await apiPost(t, retailer, deviceControlPath('lost_mode'), {
      customer_id: customerId,
      enable: true,
      args: {},
      reason_category: 'fraud_or_theft',
      reason: REASON,
    });
    expect(phone.queue.map((c) => c.requestType)).toEqual(['EnableLostMode']);
    const cancelled = await apiPost(t, retailer, paths.devices.cancel, {
      customer_id: customerId,
      command_id: lost.body.data.id,
    });
    expect(cancelled.status).toBe(200);
    expect(phone.queue.map((c) => c.requestType)).toEqual(['EnableLostMode', 'DisableLostMode']);

    await phone.comeOnline();
    expect(phone.isLostMode).toBe(false);
    await waitUntil(async () => (await details(t, retailer, customerId)).device.controls.lost_mode === false);
    expect(fake.refused).toEqual([]);
  });

  it('keeps a NotNow command pending until the phone runs it, and stores the Activation Lock bypass code unseen', async () => {
    const { t, fake, retailer } = await start();
    const customerId = await addAppleCustomer(t, retailer);
    const phone = await enrolledPhone(t, fake, retailer, customerId);
    phone.notNowOnce = true;
    const sent = await apiPost(t, retailer, paths.apple.disableActivationLock, { customer_id: customerId });
    expect(sent.status).toBe(200);
    await waitUntil(async () => (await history(t, retailer, customerId))[0]?.state === 'received');
    // The re-send job pushes the phone (NanoMDM keeps NotNow commands queued); here a push by hand.
    await phone.fetchCommands();
    const done = await settled(t, retailer, customerId, 'disable_activation_lock');
    expect(done.state).toBe('done');
    expect(JSON.stringify(done)).not.toContain('FAKE-BYPASS-CODE');
    const apple = (await apiGet(t, retailer, `${paths.apple.details}?customer_id=${customerId}`)).body.data;
    expect(apple.activationLockBypassCodeStoredAt).not.toBeNull();
    expect(JSON.stringify(apple)).not.toContain('FAKE-BYPASS-CODE');
    const [stored] = await queryRows<{ result: { ActivationLockBypassCode: string } }>(
      t.app.ctx.db,
      sql`select result from mdm_commands where request_type = 'ActivationLockBypassCode'`,
    );
    expect(stored!.result.ActivationLockBypassCode).toBe('FAKE-BYPASS-CODE-0123');

    // installAppleOneModeApp → InstallApplication with the configured manifest.
    await apiPost(t, retailer, paths.apple.installOneModeApp, { customer_id: customerId });
    expect((await settled(t, retailer, customerId, 'install_apple_onemodapp')).state).toBe('done');
    expect(lastRan(phone).command).toMatchObject({
      RequestType: 'InstallApplication',
      ManifestURL: MANIFEST_URL,
    });
  });

  it('releases an iPhone after the last EMI with RemoveProfile (status 3), and refuses before it', async () => {
    const { t, fake, retailer } = await start();
    const customerId = await addAppleCustomer(t, retailer);
    const phone = await enrolledPhone(t, fake, retailer, customerId);
    const early = await apiPost(t, retailer, paths.apple.unclaim, { customer_id: customerId });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('LOAN_NOT_COMPLETED');
    await t.app.ctx.db.execute(sql`update customers set status = 5 where id = ${customerId}`);
    const release = await apiPost(t, retailer, paths.apple.unclaim, { customer_id: customerId });
    expect(release.status).toBe(200);
    expect((await settled(t, retailer, customerId, 'uninstall')).state).toBe('done');
    expect(lastRan(phone).command).toMatchObject({
      RequestType: 'RemoveProfile',
      Identifier: 'in.kisht.mdm.enrolment',
    });
    // The release follows the done ack (the commandDone hook), just after the command shows done.
    await waitUntil(async () => (await details(t, retailer, customerId)).status === 3);
  });

  it('re-enrols an iPhone: the old one runs RemoveProfile; the same iPhone wiped and enrolled again is not removed', async () => {
    const { t, fake, retailer } = await start();
    const customerId = await addAppleCustomer(t, retailer);
    const phone = await enrolledPhone(t, fake, retailer, customerId);
    const reEnrol = (reason: string) =>
      apiPost(t, retailer, paths.devices.reEnrol, { customer_id: customerId, reason });

    // A phone replaced under warranty, still online: NanoMDM pushes the release to it at once.
    const replaced = await reEnrol('replaced_under_warranty');
    expect(replaced.status).toBe(200);
    expect(replaced.body.data.wasReleaseSent).toBe(true);
    await waitUntil(async () => phone.ran.at(-1)?.command.RequestType === 'RemoveProfile');
    expect(lastRan(phone).command).toMatchObject({ Identifier: 'in.kisht.mdm.enrolment' });
    // Its CheckOut concerns a UDID Kisht no longer knows: the customer stays waiting to enrol.
    await waitUntil(async () => (await details(t, retailer, customerId)).status === 0);

    // The same iPhone enrols again, is wiped while offline and re-enrolled by the shop: the release
    // waits at NanoMDM for the old enrolment, and the new one (Authenticate) empties that queue.
    await enrolledPhone(t, fake, retailer, customerId, phone);
    phone.isOnline = false;
    const wiped = await reEnrol('factory_reset');
    expect(wiped.body.data.wasReleaseSent).toBe(true);
    expect(phone.queue.map((q) => q.requestType)).toEqual(['RemoveProfile']);
    const ranBefore = phone.ran.length;
    await enrolledPhone(t, fake, retailer, customerId, phone);
    expect(phone.queue).toEqual([]);
    await phone.comeOnline();
    expect(phone.ran.slice(ranBefore).map((q) => q.requestType)).not.toContain('RemoveProfile');
    expect((await details(t, retailer, customerId)).status).toBe(1);
  });

  it('refuses a webhook with a bad X-Hmac-Signature (401, nothing written) and names the bad field of a signed one', async () => {
    const { t, retailer } = await start();
    const customerId = await addAppleCustomer(t, retailer);
    const { url } = await profileOf(t, retailer, customerId);
    const token = /enrol\/([^.]+)\.mobileconfig/.exec(url)![1]!;
    const body = JSON.stringify({
      topic: 'mdm.TokenUpdate',
      created_at: new Date().toISOString(),
      checkin_event: { udid: 'FORGED-UDID', raw_payload: '', url_params: { kisht_token: token } },
    });
    const forged = await t.app.inject({
      method: 'POST',
      url: paths.apple.webhook,
      headers: {
        'content-type': 'application/json',
        'x-hmac-signature': createHmac('sha256', 'wrong-key').update(body).digest('base64'),
      },
      payload: body,
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().code).toBe('MDM_WEBHOOK_SIGNATURE_INVALID');
    const unsigned = await t.app.inject({
      method: 'POST',
      url: paths.apple.webhook,
      headers: { 'content-type': 'application/json' },
      payload: body,
    });
    expect(unsigned.statusCode).toBe(401);
    const [device] = await queryRows<{ mdm_id: string | null; enrolled_at: Date | null }>(
      t.app.ctx.db,
      sql`select mdm_id, enrolled_at from devices where customer_id = ${customerId}`,
    );
    expect(device).toEqual({ mdm_id: null, enrolled_at: null });
    expect((await details(t, retailer, customerId)).status).toBe(0);

    const bad = JSON.stringify({ topic: 7, created_at: 'now' });
    const invalid = await t.app.inject({
      method: 'POST',
      url: paths.apple.webhook,
      headers: {
        'content-type': 'application/json',
        'x-hmac-signature': createHmac('sha256', WEBHOOK_SECRET).update(bad).digest('base64'),
      },
      payload: bad,
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().fields.map((f: { field: string }) => f.field)).toContain('topic');
  });

  describe('a webhook NanoMDM posted once and lost (issue 27)', () => {
    /** The reconciliation as the job runs it, `minutes` from now (past NANOMDM_RECONCILE_AFTER_MS). */
    const reconcileLater = (app: TestApp, minutes: number) =>
      reconcileDeviceServices(app.app.ctx, new Date(Date.now() + minutes * 60_000));
    const mdmRows = async (app: TestApp, customerId: number) =>
      queryRows<{ request_type: string; status: string }>(
        app.app.ctx.db,
        sql`select m.request_type, m.status from mdm_commands m join devices d on d.id = m.device_id
            where d.customer_id = ${customerId} order by m.created_at`,
      );

    it('asks the iPhone, then enqueues a lock whose Acknowledged was lost again; the lock ends done', async () => {
      const { t, fake, retailer } = await start();
      const customerId = await addAppleCustomer(t, retailer);
      const phone = await enrolledPhone(t, fake, retailer, customerId);
      fake.loseWebhook = () => true;
      const lock = await apiPost(t, retailer, paths.devices.lock, {
        customer_id: customerId,
        reason_category: 'customer_request',
        reason: REASON,
      });
      expect(lock.status).toBe(200);
      await waitUntil(async () => phone.ran.some((c) => c.requestType === 'DeviceLock'));
      fake.loseWebhook = () => false;
      expect(fake.lostWebhooks).toHaveLength(1);
      expect((await history(t, retailer, customerId)).find((c) => c.name === 'lock')?.state).toBe('sent');

      // Not yet due: nothing happens.
      expect(await reconcileDeviceServices(t.app.ctx)).toBe(0);
      expect(phone.ran.filter((c) => c.requestType === 'DeviceInformation')).toHaveLength(0);

      // Due: the phone is asked for its state; its answer comes after the lock's (in queue order).
      await reconcileLater(t, 11);
      await waitUntil(async () => phone.answers.some((a) => a.requestType === 'DeviceInformation'));
      // Next round: the lock is past and its report lost, so it goes again and ends done.
      expect(await reconcileLater(t, 11)).toBeGreaterThan(0);
      expect((await settled(t, retailer, customerId, 'lock')).state).toBe('done');
      expect(phone.ran.filter((c) => c.requestType === 'DeviceLock')).toHaveLength(2);
      expect((await mdmRows(t, customerId)).filter((r) => r.request_type === 'DeviceLock')).toEqual([
        { request_type: 'DeviceLock', status: 'lost' },
        { request_type: 'DeviceLock', status: 'acknowledged' },
      ]);
      expect((await details(t, retailer, customerId)).device.lockStatus).toBe(1);
    });

    it('never enqueues a command again for an offline iPhone that has not answered, and asks it once (two processes at once)', async () => {
      const { t, fake, retailer } = await start();
      const customerId = await addAppleCustomer(t, retailer);
      const phone = await enrolledPhone(t, fake, retailer, customerId);
      phone.isOnline = false;
      await apiPost(t, retailer, paths.devices.lock, {
        customer_id: customerId,
        reason_category: 'customer_request',
        reason: REASON,
      });
      await waitUntil(async () => phone.queue.length === 1);
      // Two server processes' jobs each round: the iPhone is still asked once.
      for (let round = 0; round < 3; round += 1)
        await Promise.all([reconcileLater(t, 11 + round), reconcileLater(t, 11 + round)]);
      expect(phone.queue.map((c) => c.requestType)).toEqual(['DeviceLock', 'DeviceInformation']);
      await phone.comeOnline();
      expect((await settled(t, retailer, customerId, 'lock')).state).toBe('done');
      expect(phone.ran.filter((c) => c.requestType === 'DeviceLock')).toHaveLength(1);
    });

    it('finishes an enrolment whose TokenUpdate was lost when the iPhone answers the reconciliation', async () => {
      const { t, fake, retailer } = await start();
      const customerId = await addAppleCustomer(t, retailer);
      const { xml } = await profileOf(t, retailer, customerId);
      fake.loseWebhook = (event) => event.topic === 'mdm.TokenUpdate';
      const phone = fake.phone(`00008110-${String(customerId).padStart(16, '0')}`, { serialNumber: SERIAL });
      const answers = (await phone.installProfile(xml)) as {
        status: number;
        body: { data?: { outcome: string } } | null;
      }[];
      expect(answers.map((a) => a.body?.data?.outcome ?? a.status)).toEqual(['bound', 0]);
      fake.loseWebhook = () => false;
      expect((await details(t, retailer, customerId)).status).toBe(0);

      await reconcileLater(t, 11);
      await waitUntil(async () => (await details(t, retailer, customerId)).status === 1);
      expect(phone.ran.map((c) => c.requestType)).toEqual(['DeviceInformation']);
      // Enrolled as by a TokenUpdate: commands reach it.
      await apiPost(t, retailer, paths.devices.lock, {
        customer_id: customerId,
        reason_category: 'customer_request',
        reason: REASON,
      });
      expect((await settled(t, retailer, customerId, 'lock')).state).toBe('done');
    });
  });

  it('ignores an enrolment from an iPhone whose serial number is not the customer’s', async () => {
    const { t, fake, retailer } = await start();
    const customerId = await addAppleCustomer(t, retailer);
    const { xml } = await profileOf(t, retailer, customerId);
    const other = fake.phone('00008110-0000000000000BAD', { serialNumber: 'DNPXX0000000' });
    const answers = (await other.installProfile(xml)) as { body: { data: { outcome: string } } }[];
    expect(answers.map((a) => a.body.data.outcome)).toEqual(['ignored', 'ignored']);
    expect((await details(t, retailer, customerId)).status).toBe(0);
  });

  it('answers 400 naming the field, 409 for another family, 404 for another organisation’s customer on every Apple route', async () => {
    const { t, retailer } = await start();
    const customerId = await addAppleCustomer(t, retailer);
    const productId = (await apiGet(t, retailer, `${paths.catalogue.products}?device_type=0`)).body.data[0]
      .id;
    const android = (await apiPost(t, retailer, paths.customers.create, customerBody(productId))).body.data
      .id;
    const other = await t.tokenFor(SECOND_ORG_ID, SECOND_RETAILER_MOBILE);

    const gets = [paths.apple.qr, paths.apple.details];
    const posts = [
      paths.apple.requestSync,
      paths.apple.disableActivationLock,
      paths.apple.installOneModeApp,
      paths.apple.unclaim,
    ];
    for (const path of gets) {
      expect((await apiGet(t, other, `${path}?customer_id=${customerId}`)).status, path).toBe(404);
      expect((await apiGet(t, retailer, `${path}?customer_id=${android}`)).body.code, path).toBe(
        'NOT_FOR_THIS_DEVICE_FAMILY',
      );
      const bad = await apiGet(t, retailer, `${path}?customer_id=abc`);
      expect(bad.status, path).toBe(400);
      expect(JSON.stringify(bad.body.fields), path).toContain('customer_id');
    }
    for (const path of posts) {
      expect((await apiPost(t, other, path, { customer_id: customerId })).status, path).toBe(404);
      expect((await apiPost(t, retailer, path, { customer_id: android })).body.code, path).toBe(
        'NOT_FOR_THIS_DEVICE_FAMILY',
      );
      const bad = await apiPost(t, retailer, path, { customer_id: 'abc' });
      expect(bad.status, path).toBe(400);
      expect(JSON.stringify(bad.body.fields), path).toContain('customer_id');
    }
    const update = { customer_id: customerId, serial_number: 'C39XK1ZZN72Q' };
    expect((await apiPost(t, other, paths.apple.customerUpdate, update)).status).toBe(404);
    const badSerial = await apiPost(t, retailer, paths.apple.customerUpdate, {
      ...update,
      serial_number: 'no!',
    });
    expect(badSerial.status).toBe(400);
    expect(JSON.stringify(badSerial.body.fields)).toContain('serial_number');
    const updated = await apiPost(t, retailer, paths.apple.customerUpdate, update);
    expect(updated.status).toBe(200);
    const [device] = await queryRows<{ serial_number: string }>(
      t.app.ctx.db,
      sql`select serial_number from devices where customer_id = ${customerId}`,
    );
    expect(device!.serial_number).toBe('C39XK1ZZN72Q');
    // Not enrolled yet: the sync is refused without writing a command.
    expect((await apiPost(t, retailer, paths.apple.requestSync, { customer_id: customerId })).body.code).toBe(
      'DEVICE_NOT_ENROLLED',
    );
    const unknown = await t.app.inject({
      method: 'GET',
      url: `${paths.apple.enrolmentProfilePrefix}AAAAAAAAAAAAAAAAAAAAAAAA.mobileconfig`,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('without NanoMDM configured the Apple QR answers 503 MDM_UNAVAILABLE and spends no key', async () => {
    t = await createTestApp();
    const retailer = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
    const customerId = await addAppleCustomer(t, retailer);
    const qr = await apiGet(t, retailer, `${paths.apple.qr}?customer_id=${customerId}`);
    expect(qr.status).toBe(503);
    expect(qr.body.code).toBe('MDM_UNAVAILABLE');
    expect(qr.body.message).toContain('NanoMDM');
    const [device] = await queryRows<{ enrolment_token_hash: string | null }>(
      t.app.ctx.db,
      sql`select enrolment_token_hash from devices where customer_id = ${customerId}`,
    );
    expect(device!.enrolment_token_hash).toBeNull();
  });
});
