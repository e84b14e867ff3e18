import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeviceAgent } from '@kisht/device-agent/agent';
import { SAMPLE_ARGS } from '@kisht/device-agent/conformance/checks';
import { CONTROL_FEATURES, MESSAGE_FEATURES } from '@kisht/domain/common/enums';
import { COMMAND_CATALOGUE, type TCommandSpec } from '@kisht/domain/devices/command-catalogue';
import { COMMAND_RULES } from '@kisht/domain/devices/command-rules';
import { MDM_CARRIED_FEATURES } from '@kisht/domain/devices/control-availability';
import { ZBulkProgress } from '@kisht/domain/devices/devices.schema';
import { deviceControlPath, paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import {
  makeInstalmentOverdue,
  patchOrganizationSettings,
  payInstalments,
  updateCustomer,
  updateDevice,
} from '../../db/seed/factories';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import { type FakeAndroidManagement, startFakeAndroidManagement } from '../../test/fake-android-management';
import { type FakeIphone, type FakeNanoMdm, startFakeNanoMdm } from '../../test/fake-nanomdm';
import {
  apiGet,
  apiPost,
  apiPut,
  customerBody,
  enrolReferenceAgent,
  recordConsent,
  waitUntil,
} from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';
import { runAutoLockLadder } from './auto-lock.service';

/**
 * Issue 25's one command gate, tried the way an attacker would: every command path (single,
 * scheduled, bulk chosen, bulk filters, the auto-lock ladder, offline codes, PIN change, every
 * toggle of the command catalogue including lost modes, the offline limit, and the Apple and
 * Android-Management translations) against a paid-up customer (status 5, a reference agent
 * connected over the embedded broker), a released one (status 3), a removed iPhone (status 4,
 * through a fake NanoMDM) and a managed-Android phone with an overdue EMI (through a fake Android
 * Management API). Every restricting command is refused with a named 409 and nothing is written,
 * queued or published; every freeing one still goes where a phone can take it. The cases are
 * generated from COMMAND_CATALOGUE and COMMAND_RULES, so a command added to the catalogue is
 * tried without editing this file.
 */

const API_KEY = 'nanomdm-matrix-key';
const WEBHOOK_SECRET = 'nanomdm-matrix-webhook-key';
const SERIAL = 'F2LXK9MATRIX';

type TWho = 'paidUp' | 'released' | 'removedApple' | 'managedAndroid';
const WHO: readonly TWho[] = ['paidUp', 'released', 'removedApple', 'managedAndroid'];

let t: TestApp;
let nano: FakeNanoMdm;
let amapi: FakeAndroidManagement;
let retailer: string;
let stateDir: string;
let paidUpAgent: DeviceAgent;
let iphone: FakeIphone;
const agents: DeviceAgent[] = [];
const ids = {} as Record<TWho, number>;

/** What the phone may hear of a command: rows, policy versions, the MDM fakes' traffic. */
const snapshot = async () => {
  const rows = await queryRows<{ customer_id: number; commands: number; policy_version: number }>(
    t.app.ctx.db,
    sql`select d.customer_id, d.policy_version,
          (select count(*)::int from device_commands c where c.device_id = d.id) as commands
        from devices d where d.customer_id = any(${sql.param(Object.values(ids))}::int[])
        order by d.customer_id`,
  );
  return {
    rows,
    nanoQueue: iphone.queue.length,
    nanoRan: iphone.ran.length,
    nanoPushes: nano.pushes.length,
    amapiWrites: amapi.requests.filter((r) => r.method !== 'GET').length,
  };
};

/** The refusal each customer's restriction gets, by the feature's family support. */
const expectedRefusal = (who: TWho, feature: string): string => {
  if (who === 'paidUp') return 'LOAN_COMPLETED';
  if (who === 'released' || who === 'removedApple') return 'DEVICE_RELEASED';
  // Managed Android, something overdue, no reason: a payment restriction, where Google's API
  // carries the feature at all; a feature it cannot carry is not offered.
  return (MDM_CARRIED_FEATURES[1] ?? []).includes(feature as never)
    ? 'PAYMENT_LOCK_NOT_ALLOWED'
    : 'COMMAND_NOT_AVAILABLE';
};

/** Catalogue entries sent to one phone through the lock routes or the generic control route. */
const PER_PHONE_TOGGLES = COMMAND_CATALOGUE.filter(
  (spec): spec is TCommandSpec & { off: string } =>
    spec.kind === 'toggle' && !(MESSAGE_FEATURES as readonly string[]).includes(spec.feature),
);
/** Every toggle whose `on` half restricts the phone (COMMAND_RULES), and their freeing `off` halves. */
const RESTRICTING_TOGGLES = PER_PHONE_TOGGLES.filter((spec) => COMMAND_RULES[spec.on].effect === 'restricts');

const sendToggle = (
  spec: TCommandSpec,
  customerId: number,
  isOn: boolean,
  extra: Record<string, unknown> = {},
) =>
  spec.feature === 'lock'
    ? apiPost(t, retailer, isOn ? paths.devices.lock : paths.devices.unlock, {
        customer_id: customerId,
        ...extra,
      })
    : apiPost(t, retailer, deviceControlPath(spec.feature), {
        customer_id: customerId,
        enable: isOn,
        ...(isOn && SAMPLE_ARGS[spec.feature] ? { args: SAMPLE_ARGS[spec.feature] } : {}),
        ...extra,
      });

beforeAll(async () => {
  nano = await startFakeNanoMdm(API_KEY, WEBHOOK_SECRET);
  amapi = await startFakeAndroidManagement();
  t = await createTestApp({
    NANOMDM_URL: nano.url,
    NANOMDM_API_KEY: API_KEY,
    NANOMDM_WEBHOOK_SECRET: WEBHOOK_SECRET,
    APPLE_MDM_TOPIC: 'com.apple.mgmt.External.matrix',
    APPLE_MDM_SERVER_URL: 'https://mdm.example.in/mdm',
    APPLE_SCEP_URL: 'https://mdm.example.in/scep',
    APPLE_SCEP_CHALLENGE: 'scep-challenge',
    AMAPI_API_URL: amapi.url,
    AMAPI_ENTERPRISE_NAME: amapi.enterpriseName,
    AMAPI_ACCESS_TOKEN: amapi.token,
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  nano.webhookUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${paths.apple.webhook}`;
  retailer = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
  stateDir = mkdtempSync(join(tmpdir(), 'kisht-gate-matrix-'));
  const { db } = t.app.ctx;
  // Every spec §6 control offered where the family carries it: the gate, not the screen, decides.
  await patchOrganizationSettings(db, DEMO_ORG_ID, { allowedControls: [...CONTROL_FEATURES] });
  const productId = (await apiGet(t, retailer, `${paths.catalogue.products}?device_type=0`)).body.data[0]
    .id as number;

  // Paid up: a device-owner phone with the reference agent connected, every EMI paid, status 5.
  const paidUp = await enrolReferenceAgent(t, retailer, join(stateDir, 'paid-up.json'));
  paidUpAgent = paidUp.agent;
  agents.push(paidUpAgent);
  ids.paidUp = paidUp.customerId;
  await payInstalments(db, ids.paidUp);
  await updateCustomer(db, ids.paidUp, { status: 5 });

  // Released: enrolled, then uninstalled (its credentials revoked, status 3).
  const released = await enrolReferenceAgent(t, retailer, join(stateDir, 'released.json'));
  await released.agent.stop();
  ids.released = released.customerId;
  await updateCustomer(db, ids.released, { status: 3 });
  await updateDevice(db, ids.released, { secretHash: null, isOnline: false });
  await makeInstalmentOverdue(db, ids.released);

  // Removed iPhone: enrolled through NanoMDM, then its owner removed the profile (CheckOut → 4).
  const apple = await apiPost(
    t,
    retailer,
    paths.customers.create,
    customerBody((await apiGet(t, retailer, `${paths.catalogue.products}?device_type=3`)).body.data[0].id, {
      deviceType: 3,
      appType: 2,
      serialNumber: SERIAL,
    }),
  );
  ids.removedApple = apple.body.data.id as number;
  await recordConsent(t, retailer, ids.removedApple);
  const qr = await apiGet(t, retailer, `${paths.apple.qr}?customer_id=${ids.removedApple}`);
  const profile = await t.app.inject({ method: 'GET', url: new URL(qr.body.data.payload).pathname });
  iphone = nano.phone(`00008110-${String(ids.removedApple).padStart(16, '0')}`, { serialNumber: SERIAL });
  await iphone.installProfile(profile.body);
  await iphone.removeProfile();
  await makeInstalmentOverdue(db, ids.removedApple);

  // Managed Android with an EMI overdue: Google's rule allows no restriction over it.
  const managedBody = customerBody(productId, { deviceType: 1, appType: 0 });
  const managed = await apiPost(t, retailer, paths.customers.create, managedBody);
  ids.managedAndroid = managed.body.data.id as number;
  await recordConsent(t, retailer, ids.managedAndroid);
  const managedQr = await apiGet(t, retailer, `${paths.customers.qrCode}?customer_id=${ids.managedAndroid}`);
  const bundle = JSON.parse(managedQr.body.data.payload)[
    'android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE'
  ];
  amapi.enrolPhone({
    tokenValue: bundle['com.google.android.apps.work.clouddpc.EXTRA_ENROLLMENT_TOKEN'],
    imei: managedBody.imei1 as string,
  });
  await apiPost(t, retailer, paths.androidManagement.sync, { customer_id: ids.managedAndroid });
  await makeInstalmentOverdue(db, ids.managedAndroid, { daysOverdue: 10 });

  const statuses = await queryRows<{ id: number; status: number; enrolled: boolean }>(
    db,
    sql`select c.id, c.status, d.enrolled_at is not null as enrolled from customers c
        join devices d on d.customer_id = c.id where c.id = any(${sql.param(Object.values(ids))}::int[])
        order by c.id`,
  );
  expect(statuses.map((row) => [row.status, row.enrolled])).toEqual([
    [5, true],
    [3, true],
    [4, true],
    [1, true],
  ]);
}, 60_000);

afterAll(async () => {
  for (const agent of agents) await agent.stop();
  await t?.close();
  await nano?.close();
  await amapi?.close();
  rmSync(stateDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

describe('the command gate refuses every restriction of a phone that must not be restricted', () => {
  it('has restricting commands to try, from the catalogue', () => {
    expect(RESTRICTING_TOGGLES.length).toBeGreaterThan(10);
    expect(RESTRICTING_TOGGLES.map((spec) => spec.feature)).toEqual(
      expect.arrayContaining(['lock', 'lost_mode', 'antitheft_lost_mode', 'camera_lock', 'app_lock']),
    );
  });

  for (const spec of RESTRICTING_TOGGLES) {
    for (const who of WHO) {
      it(`${spec.on} (single and scheduled) → ${who}: 409 ${expectedRefusal(who, spec.feature)}, nothing written or sent`, async () => {
        const before = await snapshot();
        const runAt = new Date(Date.now() + 30 * 60_000).toISOString();
        for (const extra of [{}, { run_at: runAt }, { reason_category: 'overdue_emi' }]) {
          const refused = await sendToggle(spec, ids[who], true, extra);
          expect(refused.status, JSON.stringify(refused.body)).toBe(409);
          expect(refused.body.code).toBe(expectedRefusal(who, spec.feature));
        }
        expect(await snapshot()).toEqual(before);
      });
    }
  }

  for (const who of WHO) {
    it(`a bulk lock, chosen or filtered, skips ${who} and writes nothing for it`, async () => {
      const before = await snapshot();
      const chosen = await apiPost(t, retailer, paths.devices.bulkLockUnlock, {
        action: 'lock',
        customer_ids: [ids[who]],
      });
      expect(chosen.status).toBe(200);
      const progress = ZBulkProgress.parse(chosen.body.data);
      expect(progress.total).toBe(0);
      expect(progress.skipped.map((s) => s.customerId)).toEqual([ids[who]]);
      for (const filter of ['all_enrolled', 'overdue'] as const) {
        const filtered = await apiPost(t, retailer, paths.devices.bulkLockUnlock, { action: 'lock', filter });
        const items = ZBulkProgress.parse(filtered.body.data).items.map((item) => item.customerId);
        expect(items).not.toContain(ids[who]);
      }
      expect((await snapshot()).rows.find((r) => r.customer_id === ids[who])).toEqual(
        before.rows.find((r) => r.customer_id === ids[who]),
      );
    });

    it(`an offline lock code and a PIN change for ${who} are refused with a named 409 before the OTP`, async () => {
      const before = await snapshot();
      const code = await apiPost(t, retailer, paths.auth.offlineLockUnlock, {
        customer_id: ids[who],
        challenge: '123456',
        otp: '123456',
        action: 'lock',
      });
      expect(code.status, JSON.stringify(code.body)).toBe(409);
      expect(code.body.code).toBe(
        who === 'managedAndroid' ? 'PAYMENT_LOCK_NOT_ALLOWED' : expectedRefusal(who, 'lock'),
      );
      const pin = await apiPost(t, retailer, paths.devices.changeDevicePin, {
        customer_id: ids[who],
        pin: '4829',
        otp: '123456',
      });
      expect(pin.status, JSON.stringify(pin.body)).toBe(409);
      expect(pin.body.code).toBe(
        who === 'removedApple'
          ? 'COMMAND_NOT_AVAILABLE' // an iPhone's PIN is never set remotely
          : who === 'managedAndroid'
            ? 'PAYMENT_LOCK_NOT_ALLOWED'
            : expectedRefusal(who, 'lock'),
      );
      expect(await snapshot()).toEqual(before);
    });
  }

  it('the auto-lock ladder locks none of them, even with an EMI overdue for ten days', async () => {
    const before = await snapshot();
    await patchOrganizationSettings(t.app.ctx.db, DEMO_ORG_ID, {
      autoLock: { reminderDaysBefore: null, lockAfterDaysOverdue: 0, autoUnlock: false },
    });
    try {
      await runAutoLockLadder(t.app.ctx);
    } finally {
      await patchOrganizationSettings(t.app.ctx.db, DEMO_ORG_ID, { autoLock: undefined });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a new offline limit reaches none of them: the paid-up phone is told it has none', async () => {
    const before = await snapshot();
    const settings = (await apiGet(t, retailer, paths.orgs.deviceSettings)).body.data;
    const saved = await apiPut(t, retailer, paths.orgs.deviceSettings, {
      ...settings,
      offlineLockAfterHours: 6,
    });
    expect(saved.status).toBe(200);
    const after = await snapshot();
    const limits = await queryRows<{ customer_id: number; desired_offline_lock_after_ms: number | null }>(
      t.app.ctx.db,
      sql`select customer_id, desired_offline_lock_after_ms from devices
          where customer_id = any(${sql.param(Object.values(ids))}::int[])`,
    );
    expect(limits.every((row) => row.desired_offline_lock_after_ms === null)).toBe(true);
    for (const who of ['released', 'removedApple', 'managedAndroid'] as const)
      expect(after.rows.find((r) => r.customer_id === ids[who])).toEqual(
        before.rows.find((r) => r.customer_id === ids[who]),
      );
    await waitUntil(async () => paidUpAgent.offlineLockAfterMs === null);
    await apiPut(t, retailer, paths.orgs.deviceSettings, { ...settings, offlineLockAfterHours: null });
  });

  it('published nothing restricting to the connected paid-up phone (its messages arrive in order)', async () => {
    const heard: string[] = [];
    paidUpAgent.on('command', ({ name }) => heard.push(name));
    // A barrier: a locate goes out after every refused attempt above, on the same connection.
    const locate = await apiPost(t, retailer, deviceControlPath('fetch_location'), {
      customer_id: ids.paidUp,
    });
    expect(locate.status).toBe(200);
    await waitUntil(async () => heard.includes('location'));
    expect(heard).toEqual(['location']);
    expect(paidUpAgent.isLocked).toBe(false);
    expect(Object.values(paidUpAgent.state.controls).some(Boolean)).toBe(false);
  });

  it('sent nothing to the removed iPhone through NanoMDM', () => {
    expect(iphone.queue).toEqual([]);
    expect(iphone.ran).toEqual([]);
  });
});

describe('a freeing command still goes where a phone can take it', () => {
  for (const spec of RESTRICTING_TOGGLES) {
    for (const who of WHO) {
      const isCarried =
        who !== 'managedAndroid' || (MDM_CARRIED_FEATURES[1] ?? []).includes(spec.feature as never);
      const expected =
        who === 'released' || who === 'removedApple'
          ? 'DEVICE_RELEASED'
          : isCarried
            ? 200
            : 'COMMAND_NOT_AVAILABLE';
      it(`${spec.off} → ${who}: ${expected}`, async () => {
        const before = await snapshot();
        const sent = await sendToggle(spec, ids[who], false);
        if (expected === 200) {
          expect(sent.status, JSON.stringify(sent.body)).toBe(200);
          expect(sent.body.data.name).toBe(spec.off);
          return;
        }
        expect(sent.status).toBe(409);
        expect(sent.body.code).toBe(expected);
        // A released phone has nothing to free: its release turned every restriction off.
        expect(await snapshot()).toEqual(before);
      });
    }
  }
});
