import type { AddressInfo } from 'node:net';
import { ZEnrolmentQr } from '@kisht/domain/customers/customers.schema';
import { deviceControlPath, paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { type PlistValue, parse } from 'plist';
import { afterEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import { type FakeIphone, type FakeNanoMdm, startFakeNanoMdm } from '../../test/fake-nanomdm';
import { apiGet, apiPost, customerBody, recordConsent, waitUntil } from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * Issue 15, Apple: camera_lock, usb_debugging and app_lock as one Restrictions profile
 * (com.apple.applicationaccess) installed with InstallProfile and removed with RemoveProfile, over
 * the real server and the fake NanoMDM (which checks the profile inside Payload).
 */
const API_KEY = 'nanomdm-test-api-key';
const WEBHOOK_SECRET = 'nanomdm-webhook-hmac-key-for-tests';
const SERIAL = 'F2LXK9ABCD12';
const PROFILE_ID = 'in.kisht.mdm.enrolment.restrictions';

let t: TestApp | undefined;
let fake: FakeNanoMdm | undefined;

afterEach(async () => {
  await t?.close();
  await fake?.close();
  t = undefined;
  fake = undefined;
});

type TCtx = { t: TestApp; fake: FakeNanoMdm; retailer: string; customerId: number; phone: FakeIphone };

/** A server on a fake NanoMDM with one enrolled Apple customer's iPhone (supervised unless told). */
const start = async (supervised = true): Promise<TCtx> => {
  fake = await startFakeNanoMdm(API_KEY, WEBHOOK_SECRET);
  t = await createTestApp({
    NANOMDM_URL: fake.url,
    NANOMDM_API_KEY: API_KEY,
    NANOMDM_WEBHOOK_SECRET: WEBHOOK_SECRET,
    APPLE_MDM_TOPIC: 'com.apple.mgmt.External.5ad8e2b4-test',
    APPLE_MDM_SERVER_URL: 'https://mdm.example.in/mdm',
    APPLE_SCEP_URL: 'https://mdm.example.in/scep',
    APPLE_SCEP_CHALLENGE: 'scep-challenge',
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  fake.webhookUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${paths.apple.webhook}`;
  const retailer = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
  const productId = (await apiGet(t, retailer, `${paths.catalogue.products}?device_type=3`)).body.data[0].id;
  const created = await apiPost(
    t,
    retailer,
    paths.customers.create,
    customerBody(productId, { deviceType: 3, appType: 2, serialNumber: SERIAL }),
  );
  const customerId = created.body.data.id as number;
  expect((await recordConsent(t, retailer, customerId)).status).toBe(200);
  const qr = ZEnrolmentQr.parse(
    (await apiGet(t, retailer, `${paths.apple.qr}?customer_id=${customerId}`)).body.data,
  );
  const xml = (await t.app.inject({ method: 'GET', url: new URL(qr.payload).pathname })).body;
  const phone = fake.phone('00008110-000A1B2C3D4E5F6A', { serialNumber: SERIAL, supervised });
  await phone.installProfile(xml);
  return { t, fake, retailer, customerId, phone };
};

const history = async (c: TCtx) =>
  (await apiGet(c.t, c.retailer, `${paths.devices.history}?customer_id=${c.customerId}`)).body.data as {
    id: string;
    name: string;
    state: string;
    error: string | null;
  }[];

/** Waits until the command is final; returns it. */
const settled = async (c: TCtx, id: string) => {
  let found: Awaited<ReturnType<typeof history>>[number] | undefined;
  await waitUntil(async () => {
    found = (await history(c)).find((h) => h.id === id);
    return Boolean(found && ['done', 'failed', 'cancelled', 'expired'].includes(found.state));
  });
  return found!;
};

const toggle = async (c: TCtx, feature: string, enable: boolean, args?: Record<string, unknown>) => {
  const sent = await apiPost(c.t, c.retailer, deviceControlPath(feature), {
    customer_id: c.customerId,
    enable,
    ...(args ? { args } : {}),
  });
  expect(sent.status).toBe(200);
  return sent.body.data as { id: string; name: string; state: string };
};

const controls = async (c: TCtx) =>
  (await apiGet(c.t, c.retailer, `${paths.customers.details}?customer_id=${c.customerId}`)).body.data.device
    .controls as Record<string, boolean>;

/** The Restrictions payload of the newest InstallProfile the phone ran. */
const lastRestrictions = (phone: FakeIphone) => {
  const install = phone.ran.filter((r) => r.requestType === 'InstallProfile').at(-1)!;
  const profile = parse(Buffer.from(install.command.Payload as Uint8Array).toString('utf8')) as Record<
    string,
    PlistValue
  >;
  expect(profile.PayloadIdentifier).toBe(PROFILE_ID);
  const [payload] = profile.PayloadContent as Record<string, PlistValue>[];
  expect(payload!.PayloadType).toBe('com.apple.applicationaccess');
  return payload!;
};

describe('Apple restrictions through a configuration profile', () => {
  it('camera lock installs a profile with allowCamera false (done on the ack); camera unlock removes it', async () => {
    const c = await start();
    const on = await toggle(c, 'camera_lock', true);
    expect((await settled(c, on.id)).state).toBe('done');
    expect(c.phone.ran.at(-1)!.requestType).toBe('InstallProfile');
    const payload = lastRestrictions(c.phone);
    expect(payload.allowCamera).toBe(false);
    expect(payload).not.toHaveProperty('allowHostPairing');
    expect(payload).not.toHaveProperty('blockedAppBundleIDs');
    expect(c.phone.restrictions().isCameraAllowed).toBe(false);
    expect((await controls(c)).camera_lock).toBe(true);

    const off = await toggle(c, 'camera_lock', false);
    expect((await settled(c, off.id)).state).toBe('done');
    expect(c.phone.ran.at(-1)!.command).toEqual({ RequestType: 'RemoveProfile', Identifier: PROFILE_ID });
    expect(c.phone.profiles.size).toBe(0);
    expect(c.phone.restrictions().isCameraAllowed).toBe(true);
    expect((await controls(c)).camera_lock).toBe(false);
    expect(c.fake.refused).toEqual([]);
  });

  it('app lock blocks the bundle ids and USB blocks host pairing, in one profile replaced on each change', async () => {
    const c = await start();
    const apps = await toggle(c, 'app_lock', true, {
      packages: ['net.whatsapp.WhatsApp', 'com.google.ios.youtube'],
    });
    expect((await settled(c, apps.id)).state).toBe('done');
    expect(lastRestrictions(c.phone)).toMatchObject({
      blockedAppBundleIDs: ['com.google.ios.youtube', 'net.whatsapp.WhatsApp'],
      blacklistedAppBundleIDs: ['com.google.ios.youtube', 'net.whatsapp.WhatsApp'],
    });
    expect(lastRestrictions(c.phone)).not.toHaveProperty('allowCamera');

    const usb = await toggle(c, 'usb_debugging', true);
    expect((await settled(c, usb.id)).state).toBe('done');
    expect(lastRestrictions(c.phone)).toMatchObject({
      allowHostPairing: false,
      blockedAppBundleIDs: ['com.google.ios.youtube', 'net.whatsapp.WhatsApp'],
    });
    // Same PayloadIdentifier: the phone holds one profile, the newest.
    expect([...c.phone.profiles.keys()]).toEqual([PROFILE_ID]);
    expect(c.phone.restrictions()).toEqual({
      isCameraAllowed: true,
      isHostPairingAllowed: false,
      blockedApps: ['com.google.ios.youtube', 'net.whatsapp.WhatsApp'],
    });
    expect(await controls(c)).toMatchObject({ app_lock: true, usb_debugging: true });

    const appsOff = await toggle(c, 'app_lock', false);
    expect((await settled(c, appsOff.id)).state).toBe('done');
    expect(c.phone.ran.at(-1)!.requestType).toBe('InstallProfile');
    expect(lastRestrictions(c.phone)).not.toHaveProperty('blockedAppBundleIDs');
    expect(c.phone.restrictions()).toMatchObject({ isHostPairingAllowed: false, blockedApps: [] });

    const usbOff = await toggle(c, 'usb_debugging', false);
    expect((await settled(c, usbOff.id)).state).toBe('done');
    expect(c.phone.ran.at(-1)!.requestType).toBe('RemoveProfile');
    expect(c.phone.profiles.size).toBe(0);
    expect(await controls(c)).toMatchObject({ app_lock: false, usb_debugging: false, camera_lock: false });
    // A camera unlock with no profile on the phone sends nothing and is done.
    const ranBefore = c.phone.ran.length;
    const cameraOff = await toggle(c, 'camera_lock', false);
    expect((await settled(c, cameraOff.id)).state).toBe('done');
    expect(c.phone.ran.length).toBe(ranBefore);
    expect(c.fake.refused).toEqual([]);
  });

  it('a camera lock cancelled after its profile reached NanoMDM is followed by RemoveProfile: the camera ends allowed', async () => {
    const c = await start();
    c.phone.isOnline = false;
    const on = await toggle(c, 'camera_lock', true);
    expect(c.phone.queue.map((q) => q.requestType)).toEqual(['InstallProfile']);
    const cancelled = await apiPost(c.t, c.retailer, paths.devices.cancel, {
      customer_id: c.customerId,
      command_id: on.id,
    });
    expect(cancelled.status).toBe(200);
    expect(c.phone.queue.map((q) => q.requestType)).toEqual(['InstallProfile', 'RemoveProfile']);
    await c.phone.comeOnline();
    expect(c.phone.profiles.size).toBe(0);
    expect(c.phone.restrictions().isCameraAllowed).toBe(true);
    await waitUntil(async () => (await controls(c)).camera_lock === false);
    // The phone ran the install before the cancel could reach it: the history says so.
    expect((await history(c)).find((h) => h.id === on.id)).toMatchObject({
      state: 'done',
      error: expect.stringMatching(/before the cancel/),
    });
    const [row] = await queryRows<{ status: string; command_id: string | null }>(
      c.t.app.ctx.db,
      sql`select status, command_id from mdm_commands where request_type = 'RemoveProfile'`,
    );
    expect(row).toEqual({ status: 'acknowledged', command_id: null });
    expect(c.fake.refused).toEqual([]);
  });

  it('on an iPhone that reported it is unsupervised, USB and app lock fail with why; camera lock still works', async () => {
    const c = await start(false);
    const sync = await apiPost(c.t, c.retailer, paths.apple.requestSync, { customer_id: c.customerId });
    expect(sync.status).toBe(200);
    expect((await settled(c, sync.body.data.id)).state).toBe('done');
    const usb = await toggle(c, 'usb_debugging', true);
    expect(await settled(c, usb.id)).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/supervised/),
    });
    const apps = await toggle(c, 'app_lock', true, { packages: ['net.whatsapp.WhatsApp'] });
    expect((await settled(c, apps.id)).state).toBe('failed');
    expect(c.phone.ran.some((r) => r.requestType === 'InstallProfile')).toBe(false);
    const camera = await toggle(c, 'camera_lock', true);
    expect((await settled(c, camera.id)).state).toBe('done');
    expect(lastRestrictions(c.phone)).toEqual(expect.objectContaining({ allowCamera: false }));
    expect(lastRestrictions(c.phone)).not.toHaveProperty('allowHostPairing');
    expect(await controls(c)).toMatchObject({ camera_lock: true, usb_debugging: false, app_lock: false });
  });

  it('a profile the phone refuses fails the toggle with Apple’s error and leaves nothing counted as installed', async () => {
    const c = await start();
    c.phone.failNext = 'The profile could not be installed.';
    const on = await toggle(c, 'camera_lock', true);
    expect(await settled(c, on.id)).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/could not be installed/),
    });
    expect((await controls(c)).camera_lock).not.toBe(true);
    // Nothing installed: an unlock sends no RemoveProfile (which the phone would refuse).
    const ranBefore = c.phone.ran.length;
    const off = await toggle(c, 'camera_lock', false);
    expect((await settled(c, off.id)).state).toBe('done');
    expect(c.phone.ran.length).toBe(ranBefore);
  });
});
