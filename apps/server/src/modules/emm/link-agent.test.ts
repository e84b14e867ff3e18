import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeviceAgent, EnrolmentError } from '@kisht/device-agent/agent';
import { paths } from '@kisht/domain/paths';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import {
  apiGet,
  apiPost,
  customerBody,
  recordConsent,
  TEST_LOCK_REASON,
  waitUntil,
} from '../../test/fixtures';
import { bearer, createTestApp, type TestApp } from '../../test/harness';

/**
 * The link-based family end to end (issue 15): the real reference agent in link mode against the
 * real server and its embedded broker, enrolling from the deep link (and from a typed code),
 * obeying lock and unlock over Kisht's MQTT device channel, and reporting the app's removal.
 */
let t: TestApp;
let retailer: string;
let stateDir: string;
let agents: DeviceAgent[];
let baseUrl: string;

beforeEach(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  retailer = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
  stateDir = mkdtempSync(join(tmpdir(), 'kisht-link-agent-'));
  agents = [];
});
afterEach(async () => {
  for (const agent of agents) await agent.stop();
  await t.close();
  rmSync(stateDir, { recursive: true, force: true });
});

const details = async (customerId: number) =>
  (await apiGet(t, retailer, `${paths.customers.details}?customer_id=${customerId}`)).body.data;

/** A link-based customer (device_type 2, app_type 1) with their consent recorded. */
const addLinkCustomer = async () => {
  const productId = (await apiGet(t, retailer, `${paths.catalogue.products}?device_type=0`)).body.data[0]
    .id as number;
  const body = customerBody(productId, { deviceType: 2, appType: 1 });
  const customerId = (await apiPost(t, retailer, paths.customers.create, body)).body.data.id as number;
  expect((await recordConsent(t, retailer, customerId)).status).toBe(200);
  return { customerId, imei1: body.imei1 as string, imei2: body.imei2 as string };
};

/** The customer's deep link over real HTTP, so it names the listening server. */
const deepLinkOf = async (customerId: number) => {
  const response = await fetch(`${baseUrl}${paths.customers.deepLink}?customer_id=${customerId}`, {
    headers: bearer(retailer),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { payload: string; enrolmentCode: string } }).data;
};

describe('link-based customer with the reference agent in link mode', () => {
  it('enrols from the deep link, is locked and unlocks, then reports the app removed with its location', async () => {
    const { customerId, imei1, imei2 } = await addLinkCustomer();
    const { payload } = await deepLinkOf(customerId);
    const agent = await DeviceAgent.enrol({
      link: payload,
      imei1,
      imei2,
      statePath: join(stateDir, 'link.json'),
    });
    agents.push(agent);
    await agent.start();
    expect((await details(customerId)).status).toBe(1);
    await waitUntil(async () => (await details(customerId)).device.isOnline);

    // The weaker control set of spec §6 for link-based phones: lock, tracking, accessibility.
    const lock = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: customerId,
      ...TEST_LOCK_REASON,
    });
    expect(lock.status).toBe(200);
    await agent.waitForLockState(true);
    await waitUntil(async () => (await details(customerId)).lockStatus === 1);
    expect(agent.lockScreen?.lines).toContain('Emergency calls: allowed');

    const unlock = await apiPost(t, retailer, paths.devices.unlock, { customer_id: customerId });
    expect(unlock.status).toBe(200);
    await agent.waitForLockState(false);
    await waitUntil(async () => (await details(customerId)).lockStatus === 0);

    await agent.setPosition({ latitude: 18.5204, longitude: 73.8567 });
    const removed = await agent.reportAppRemoved();
    expect(removed).toMatchObject({ latitude: '18.520400', longitude: '73.856700' });
    expect(agent.isUninstalled).toBe(true);
    await waitUntil(async () => (await details(customerId)).status === 3);
    const after = await details(customerId);
    expect([after.uninstallLatitude, after.uninstallLongitude]).toEqual(['18.520400', '73.856700']);
    // The removed app's credentials no longer work: it cannot come back by itself.
    const again = await DeviceAgent.load({ statePath: join(stateDir, 'link.json') });
    await expect(again.start()).rejects.toThrow(/uninstalled/);
  });

  it('enrols from the enrolment code typed in, and refuses a wrong code', async () => {
    const { customerId, imei1, imei2 } = await addLinkCustomer();
    const { enrolmentCode } = await deepLinkOf(customerId);
    const wrong = enrolmentCode.startsWith('0') ? `1${enrolmentCode.slice(1)}` : `0${enrolmentCode.slice(1)}`;
    const refused = DeviceAgent.enrol({
      code: { serverUrl: baseUrl, orgId: DEMO_ORG_ID, code: wrong },
      imei1,
      imei2,
      statePath: join(stateDir, 'wrong.json'),
    });
    await expect(refused).rejects.toBeInstanceOf(EnrolmentError);
    await expect(refused).rejects.toThrow(/Code not found/);

    const agent = await DeviceAgent.enrol({
      code: { serverUrl: baseUrl, orgId: DEMO_ORG_ID, code: enrolmentCode.toLowerCase() },
      imei1,
      imei2,
      statePath: join(stateDir, 'code.json'),
    });
    agents.push(agent);
    await agent.start();
    expect((await details(customerId)).status).toBe(1);
    const lock = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: customerId,
      ...TEST_LOCK_REASON,
    });
    expect(lock.status).toBe(200);
    await agent.waitForLockState(true);
  });
});
