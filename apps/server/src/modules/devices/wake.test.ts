import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeviceAgent } from '@kisht/device-agent/agent';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import { apiGet, apiPost, enrolReferenceAgent, TEST_LOCK_REASON, waitUntil } from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';
import { startFakeFcm } from '../push/fake-fcm';

/**
 * Wake-up pushes (device protocol §14): a phone that is offline when something is sent to it gets
 * an FCM data message, so a phone in Doze reconnects and takes it; at most one a minute; a dead
 * token is forgotten. The FCM HTTP v1 API is a local fake that checks the grant and the message.
 */
let fake: Awaited<ReturnType<typeof startFakeFcm>>;
let t: TestApp;
let retailer: string;
let dir: string;
const agents: DeviceAgent[] = [];

beforeEach(async () => {
  fake = await startFakeFcm();
  dir = mkdtempSync(join(tmpdir(), 'kisht-wake-'));
  const keyFile = join(dir, 'service-account.json');
  writeFileSync(keyFile, JSON.stringify(fake.serviceAccount));
  t = await createTestApp({ FCM_SERVICE_ACCOUNT_FILE: keyFile, FCM_API_URL: fake.apiUrl });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  retailer = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
});
afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.stop();
  await t.close();
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

const details = async (customerId: number) =>
  (await apiGet(t, retailer, `${paths.customers.details}?customer_id=${customerId}`)).body.data;

const offlinePhoneWithToken = async (pushToken: string) => {
  const { agent, customerId } = await enrolReferenceAgent(t, retailer, join(dir, `${pushToken}.json`), {
    pushToken,
  });
  agents.push(agent);
  await waitUntil(async () => (await details(customerId)).device.isOnline);
  await agent.stop();
  await waitUntil(async () => !(await details(customerId)).device.isOnline);
  return { agent, customerId };
};

describe('wake-up pushes', () => {
  it('wakes an offline phone once a minute when something is sent to it, never an online one', async () => {
    const { agent, customerId } = await offlinePhoneWithToken('fcm-token-1');
    await apiPost(t, retailer, paths.devices.lock, { customer_id: customerId, ...TEST_LOCK_REASON });
    await waitUntil(async () => fake.messages.length === 1);
    expect(fake.messages[0]).toMatchObject({
      token: 'fcm-token-1',
      data: { kind: 'wake', deviceId: agent.deviceId },
      android: { priority: 'HIGH' },
    });
    // Within the minute: no second push.
    await apiPost(t, retailer, paths.devices.unlock, { customer_id: customerId });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fake.messages).toHaveLength(1);

    // Online: nothing to wake.
    await agent.start();
    await waitUntil(async () => (await details(customerId)).device.isOnline);
    await t.app.ctx.db.execute(sql`update devices set last_woken_at = null`);
    await apiPost(t, retailer, paths.devices.lock, { customer_id: customerId, ...TEST_LOCK_REASON });
    await agent.waitForLockState(true);
    expect(fake.messages).toHaveLength(1);
  });

  it.each([
    ['dead (404)', { status: 404, body: { error: { code: 404, status: 'NOT_FOUND' } } }],
    [
      'another sender’s (403, issue 27)',
      { status: 403, body: { error: { code: 403, status: 'PERMISSION_DENIED' } } },
    ],
  ])('forgets a token the push service calls %s, after one try', async (_kind, answer) => {
    const { customerId } = await offlinePhoneWithToken('fcm-token-dead');
    fake.answer = () => answer;
    await apiPost(t, retailer, paths.devices.lock, { customer_id: customerId, ...TEST_LOCK_REASON });
    await waitUntil(async () => {
      const [row] = await queryRows<{ push_token: string | null }>(
        t.app.ctx.db,
        sql`select push_token from devices where customer_id = ${customerId}`,
      );
      return row?.push_token === null;
    });
    expect(fake.messages).toHaveLength(1);
  });
});
